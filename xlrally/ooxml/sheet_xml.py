"""The XML of a written sheet: its cells as inline strings and numbers, with their formats.

The sheet belongs to xlrally and is written whole, but the settings a user gave the old sheet
are carried over (see :data:`KEPT`): tab colour, VBA code name and fit-to-page
(``sheetPr``), protection, print options, margins, page setup, header and footer (with its
picture), page breaks, a chart or comments placed on it, a background picture. Each is taken
from the old sheet by the parser, with the namespace declarations it needs.

Excel's limits are checked here: at most 16,384 columns and 1,048,576 rows, and at most 32,767
characters in a cell.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from xlrally.core.errors import WorkbookError
from xlrally.formats.cells import (
    PAGE_FOOTER,
    PrintSetup,
    SheetRow,
    column_letter,
    column_widths,
    row_cells,
    row_width,
)
from xlrally.ooxml.package import NS_MAIN, NS_REL, column_number
from xlrally.ooxml.sheet_values import SheetDigest
from xlrally.ooxml.styles import Styles
from xlrally.ooxml.written_rows import RowWriter
from xlrally.ooxml.xmlpart import Element, XmlPart

MAX_COLUMNS = 16_384
MAX_ROWS = 1_048_576
"""Excel's limits: columns and rows of a sheet (characters in a cell: MAX_CELL_TEXT)."""

KEPT_BEFORE = ("sheetPr",)
KEPT_AFTER = (
    "sheetProtection",
    "printOptions",
    "pageMargins",
    "pageSetup",
    "headerFooter",
    "rowBreaks",
    "colBreaks",
    "drawing",
    "legacyDrawing",
    "legacyDrawingHF",
    "picture",
)
"""Elements of the old sheet that are kept, in schema order (before and after the cells)."""
KEPT = KEPT_BEFORE + KEPT_AFTER

_SELECTED = ' tabSelected="1"'
_OURS = {"": NS_MAIN, "r": NS_REL, "xml": "http://www.w3.org/XML/1998/namespace"}


def print_defaults(setup: PrintSetup) -> dict[str, str]:
    """The page setup of a Standings sheet whose user has not set their own (each element only
    where the old sheet has none): fit to one page wide, landscape, the title at the top of
    every page and page numbers at the foot (:attr:`~xlrally.formats.cells.PrintSetup.header`:
    an ``&`` doubled, control characters left out, at most 255 characters), escaped for XML:

    >>> "Club &amp;&amp; Co" in print_defaults(PrintSetup("Club & Co", 6))["headerFooter"]
    True
    """
    header = html.escape(setup.header, quote=False)
    footer = html.escape(PAGE_FOOTER, quote=False)
    return {
        "sheetPr": '<sheetPr><pageSetUpPr fitToPage="1"/></sheetPr>',
        "pageMargins": (
            '<pageMargins left="0.5" right="0.5" top="0.75" bottom="0.75" header="0.3" '
            'footer="0.3"/>'
        ),
        "pageSetup": '<pageSetup orientation="landscape" fitToWidth="1" fitToHeight="0"/>',
        "headerFooter": (
            f"<headerFooter><oddHeader>{header}</oddHeader><oddFooter>{footer}</oddFooter>"
            "</headerFooter>"
        ),
    }


_OUR_HEADER = re.compile(r'&C(?:&"[^"]*,Bold")?&14 ?(?:[^&]|&&)*')
"""xlrally's page header (:data:`~xlrally.formats.cells.TITLE_CODES` and a title), as any
program rewrites it: Excel as written, LibreOffice with the font's own name (``&"Calibri,Bold"``),
openpyxl with a space after the size."""
_HEADER_PARTS = {"oddHeader", "oddFooter", "evenHeader", "evenFooter", "firstHeader", "firstFooter"}


def is_print_default(tag: str, markup: str) -> bool:
    """Whether a kept element is the header :func:`print_defaults` wrote for some title (so
    that the league's title replaces it), read for what it says, whichever program saved it
    again: the title alone, centred, bold, 14 point, in the page header; the page numbers in
    the footer; no other header or footer, nothing different on the first or even pages.
    Anything else is the user's and is kept.

    >>> calc = ('<headerFooter differentFirst="false" differentOddEven="false"><oddHeader>'
    ...         '&amp;C&amp;&quot;Calibri,Bold&quot;&amp;14Neau League 2026</oddHeader>'
    ...         '<oddFooter>&amp;CPage &amp;P of &amp;N</oddFooter></headerFooter>')
    >>> is_print_default("headerFooter", calc)
    True
    >>> is_print_default("headerFooter", calc.replace("&amp;14", "&amp;16"))  # the user's size
    False
    """
    if tag != "headerFooter":
        return False
    try:
        wrapped = f'<w xmlns="{NS_MAIN}" xmlns:r="{NS_REL}">{markup}</w>'.encode()
        part = XmlPart(tag, wrapped)
    except WorkbookError:
        return False
    if len(part.root.children) != 1:
        return False
    [element] = part.root.children
    if element.uri != NS_MAIN or element.local != tag:
        return False
    for flag in ("differentFirst", "differentOddEven"):
        if element.get("", flag) not in (None, "0", "false"):
            return False
    texts: dict[str, str] = {}
    for child in element.children:
        if child.uri != NS_MAIN or child.local not in _HEADER_PARTS or child.children:
            return False
        texts[child.local] = html.unescape(part.inner_text(child))
    header, footer = texts.pop("oddHeader", ""), texts.pop("oddFooter", "")
    return (
        footer == PAGE_FOOTER
        and _OUR_HEADER.fullmatch(header) is not None
        and not any(texts.values())
    )


class SheetXml(NamedTuple):
    """A written sheet: its XML, and the digest of the values it holds as any reader of the
    file sees them (:mod:`~xlrally.ooxml.sheet_values`), made from the very texts written."""

    data: bytes
    values: str


def sheet_xml(
    grid: Sequence[SheetRow],
    styles: Styles,
    kept: dict[str, str],
    selected: bool,
    hidden: frozenset[str] = frozenset(),
) -> SheetXml:
    """The worksheet XML for the grid: inline strings (no sharedStrings edit), frozen header;
    the columns headed by a text in ``hidden`` are hidden (as the user hid them before).

    Raises WorkbookError when the grid is beyond Excel's limits (nothing is then written).
    """
    columns = max(map(row_width, grid), default=0) or 1  # blank rows still have column A
    if columns > MAX_COLUMNS:
        raise WorkbookError(
            f"the Standings sheet would need {columns:,} columns; Excel has {MAX_COLUMNS:,} "
            "(one per event): split the league into seasons"
        )
    if len(grid) > MAX_ROWS:
        raise WorkbookError(
            f"the Standings sheet would need {len(grid):,} rows; Excel has {MAX_ROWS:,}"
        )
    out = [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n',
        f'<worksheet xmlns="{NS_MAIN}" xmlns:r="{NS_REL}">',
        *(kept[tag] for tag in KEPT_BEFORE if tag in kept),
        f'<dimension ref="A1:{column_letter(columns - 1)}{max(len(grid), 1)}"/>',
        f'<sheetViews><sheetView{_SELECTED if selected else ""} workbookViewId="0">',
        # The header row and the Rank and Player columns stay in view while scrolling.
        '<pane xSplit="2" ySplit="1" topLeftCell="C2" activePane="bottomRight" state="frozen"/>',
        '<selection pane="topRight" activeCell="C1" sqref="C1"/>',
        '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/>',
        '<selection pane="bottomRight" activeCell="C2" sqref="C2"/></sheetView></sheetViews>',
        '<sheetFormatPr defaultRowHeight="15"/><cols>',
    ]
    head = row_cells(grid[0]) if grid else ()
    for index, width in enumerate(column_widths(grid), start=1):
        heading = head[index - 1].value if index <= len(head) else None
        hide = ' hidden="1"' if isinstance(heading, str) and heading in hidden else ""
        out.append(f'<col min="{index}" max="{index}" width="{width}" customWidth="1"{hide}/>')
    out.append("</cols><sheetData>")
    # Each row is encoded on its own: one text of a million cells, then its bytes, would
    # hold the sheet three times over (150 MB at a million results).
    encoded = ["".join(out).encode("utf-8")]
    digest = SheetDigest()
    cells = RowWriter(styles, [column_letter(i) for i in range(columns)])
    for number, row in enumerate(grid, start=1):
        if row_width(row):  # an empty row is left out
            encoded.append(cells.row(number, row, digest))
    out = ["</sheetData>", *(kept[tag] for tag in KEPT_AFTER if tag in kept), "</worksheet>"]
    encoded.append("".join(out).encode("utf-8"))
    return SheetXml(b"".join(encoded), digest.hexdigest())


def kept_elements(old: XmlPart) -> dict[str, str]:
    """The settings of the old sheet to keep (see :data:`KEPT`), each as markup that stands on
    its own: every prefix it uses is declared on it unless the new sheet binds it the same."""
    kept = {}
    for child in old.root.children:
        if child.uri == NS_MAIN and child.local in KEPT and child.local not in kept:
            kept[child.local] = _standalone(old, child)
    return kept


def _standalone(old: XmlPart, element: Element) -> str:
    used = {e.prefix for e in element.iter()} | {
        name.split(":", 1)[0]
        for e in element.iter()
        for name in e.attrs
        if ":" in name and not name.startswith("xmlns")
    }
    declared = {
        "" if name == "xmlns" else name[6:]
        for name in element.attrs
        if name == "xmlns" or name.startswith("xmlns:")
    }
    declarations = "".join(
        (
            f' xmlns="{html.escape(element.scope[p])}"'
            if not p
            else f' xmlns:{p}="{html.escape(element.scope[p])}"'
        )
        for p in sorted(used - declared)
        if p in element.scope and _OURS.get(p) != element.scope[p]
    )
    markup = old.text(element)
    if not declarations:
        return markup
    tag_end = element.open_end - element.start - (2 if element.self_closing else 1)
    return markup[:tag_end] + declarations + markup[tag_end:]


def hidden_headings(old: XmlPart, shared: Callable[[int], str]) -> frozenset[str]:
    """The headings (row 1) of the old sheet's hidden columns, so that the same columns stay
    hidden however the events have moved them. ``shared`` looks up a shared string (a sheet
    Excel saved holds its texts there)."""
    columns: set[int] = set()
    for col in old.find(NS_MAIN, "col"):
        if col.get("", "hidden") in {"1", "true"}:
            first, last = int(col.get("", "min") or 0), int(col.get("", "max") or 0)
            columns.update(range(first, min(last, MAX_COLUMNS) + 1))
    if not columns:
        return frozenset()
    headings = set()
    row = next((r for r in old.find(NS_MAIN, "row") if r.get("", "r") == "1"), None)
    for cell in [] if row is None else row.named(NS_MAIN, "c"):
        letters = "".join(ch for ch in cell.get("", "r") or "" if ch.isalpha())
        if not letters or column_number(letters) not in columns:
            continue
        if cell.get("", "t") == "s":
            value = next(iter(cell.named(NS_MAIN, "v")), None)
            text = old.inner_text(value) if value is not None else ""
            headings.add(shared(int(text)) if text.strip().isdigit() else "")
        else:
            inline = next(iter(cell.named(NS_MAIN, "is")), None)
            headings.add("" if inline is None else string_item(old, inline))
    return frozenset(headings - {""})


def string_item(part: XmlPart, item: Element) -> str:
    """The text of a string item (``<si>`` or ``<is>``): its ``<t>``, or its runs' ``<t>``;
    phonetic guides (``<rPh>``) are not part of the text."""
    texts = item.named(NS_MAIN, "t")
    texts += [t for run in item.named(NS_MAIN, "r") for t in run.named(NS_MAIN, "t")]
    return html.unescape("".join(part.inner_text(t) for t in texts))


def selected(old: XmlPart) -> bool:
    """True if the old sheet's tab was selected."""
    return any(
        view.get("", "tabSelected") in {"1", "true"} for view in old.find(NS_MAIN, "sheetView")
    )


def has_formulas(old: XmlPart) -> bool:
    return bool(old.find(NS_MAIN, "f"))


def table_parts(old: XmlPart) -> int:
    """How many Excel tables are attached to the old sheet."""
    return sum(len(t.children) for t in old.root.named(NS_MAIN, "tableParts"))
