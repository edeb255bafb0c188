"""What the writer needs of the sheet it replaces, read without parsing every cell.

A sync that replaces a Standings sheet keeps its user's settings (``sheetPr``, page setup,
header and footer ...: :data:`~xlrally.ooxml.sheet_xml.KEPT`), its selected tab, the headings
of its hidden columns (row 1), and needs to know whether it held Excel tables or formulas.
All of that is outside the rows (``sheetData``) except row 1 and the formulas. The weekly sync
of a big league replaces a sheet of hundreds of thousands of cells; parsing it into a tree
took a third of that sync's time and doubled its memory (issue 33). So the old sheet is parsed
as its head, its first row and its tail, the rows between them cut out, and the cut rows are
searched for a formula tag. The answers are those of a parse of the whole sheet
(``tests/ooxml/test_old_sheet.py`` compares both on every worksheet of the corpus); when the
rows hold anything a text search could be fooled by (a comment, CDATA, a processing
instruction, a namespace declaration) or row 1 is not first, the whole sheet is parsed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xlrally.core.errors import WorkbookError
from xlrally.ooxml.constants import NS_MAIN
from xlrally.ooxml.in_place import NeedsParse, StreamedSheet
from xlrally.ooxml.xmlpart import XmlPart

CUT_FROM = 256 * 1024
"""A sheet smaller than this (bytes) is parsed whole: there is nothing to gain."""

_R_IS_1 = re.compile(rb"""\sr\s*=\s*(["'])1\1""")


@dataclass(frozen=True)
class OldSheet:
    """The old sheet as far as the writer needs it: ``part`` holds every element but the rows
    after the first (each at its own bytes, so that kept elements are copied as written),
    ``formulas`` whether any cell of the whole sheet holds a formula."""

    part: XmlPart
    formulas: bool


def read_old_sheet(name: str, data: bytes, cut_from: int = CUT_FROM) -> OldSheet:
    """The old sheet ``name`` (its part's bytes): see the module docstring. ``cut_from``: the
    size from which the rows are cut out (tests cut every sheet)."""
    if len(data) >= cut_from:
        cut = _cut(name, data)
        if cut is not None:
            return cut
    part = XmlPart(name, data)
    return OldSheet(part, bool(part.find(NS_MAIN, "f")))


def _cut(name: str, data: bytes) -> OldSheet | None:
    """The sheet parsed without its rows after the first, or None where that is not safe."""
    try:
        sheet = StreamedSheet(name, data)
    except (NeedsParse, WorkbookError):
        return None
    start, end = sheet.body_start, sheet.body_end
    if data.find(b"xmlns", start, end) >= 0:
        return None  # a prefix bound anew among the rows: the search below could miss it
    first = _first_row_end(data, start, end, sheet.row_tag, sheet.row_close)
    if first is None:
        return None
    part = XmlPart(name, data[:first] + data[end:])
    prefixes = sorted(p for p, uri in sheet.element.scope.items() if uri == NS_MAIN)
    if not prefixes:
        return None
    names = b"|".join(re.escape(p.encode() + b":" if p else b"") for p in prefixes)
    formula = re.compile(b"<(?:" + names + rb")f[\s/>]")
    formulas = bool(part.find(NS_MAIN, "f")) or formula.search(data, first, end) is not None
    return OldSheet(part, formulas)


def _first_row_end(data: bytes, start: int, end: int, tag: bytes, close: bytes) -> int | None:
    """Where the rows' first element ends, if it is row 1 (else None: the sheet is parsed
    whole); ``start`` when there are no rows."""
    at = data.find(tag, start, end)
    if at < 0:
        return start if not data[start:end].strip() else None
    if data[start:at].strip() or data[at + len(tag) : at + len(tag) + 1] not in {
        b" ",
        b"\t",
        b"\r",
        b"\n",
    }:
        return None
    tag_end = data.find(b">", at, end)
    if tag_end < 0 or _R_IS_1.search(data, at, tag_end) is None:
        return None
    if data[tag_end - 1 : tag_end] == b"/":
        return tag_end + 1
    closed = data.find(close, tag_end, end)
    return None if closed < 0 else closed + len(close)
