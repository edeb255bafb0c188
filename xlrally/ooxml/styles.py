"""The cell formats a written sheet needs, found in or appended to ``xl/styles.xml``.

A cell's style is an index into ``<cellXfs>``; a format points at a font (``<fonts>``) and a
number format (``<numFmts>``, or a built-in id). Existing entries are counted by the parser
(:mod:`xlrally.ooxml.xmlpart`), never by a pattern, and each index handed out is checked
before the file is committed (:meth:`Styles.verify`): it must lead to the bold, italic, colour
and number format that was asked for.

New entries are kept aside and written into the part once, when its bytes are asked for
(:attr:`Styles.data`): each edit of the part parses it again, and a small league's sync asked
for a dozen new formats one by one, a quarter of its time (issue 33). The bytes are the same
as appending each entry in turn.
"""

from __future__ import annotations

import re
from html import escape

from xlrally.core.errors import WorkbookError
from xlrally.formats.looks import Look, ooxml_style
from xlrally.ooxml.package import NS_MAIN
from xlrally.ooxml.xmlpart import Element, XmlPart

BUILTIN_FORMATS = {None: 0, "0": 1, "0.00": 2}
"""Number formats every spreadsheet program knows by id."""
FIRST_CUSTOM_FORMAT = 164
"""Ids below are reserved for built-in number formats."""

ORDER = (
    "numFmts",
    "fonts",
    "fills",
    "borders",
    "cellStyleXfs",
    "cellXfs",
    "cellStyles",
    "dxfs",
    "tableStyles",
    "colors",
    "extLst",
)
"""The children of ``<styleSheet>`` in schema order."""

DEFAULTS = {
    "fonts": '<font><sz val="11"/><name val="Calibri"/></font>',
    "fills": '<fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill>',
    "borders": "<border><left/><right/><top/><bottom/><diagonal/></border>",
    "cellXfs": '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>',
}
"""What a collection that styles.xml lacks is created with (index 0 is every cell's default)."""

MINIMAL_STYLES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    f'<styleSheet xmlns="{NS_MAIN}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/>'
    '</font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill>'
    '<patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/>'
    '<right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1">'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="1">'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs><cellStyles '
    'count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'
).encode()


class Styles:
    """Finds or appends the cell formats for a set of looks in a styles.xml."""

    def __init__(self, data: bytes | None, part: str = "xl/styles.xml") -> None:
        self.part = XmlPart(part, data if data is not None else MINIMAL_STYLES)
        if self.part.root.local != "styleSheet" or self.part.root.uri != NS_MAIN:
            raise WorkbookError(f"{part}: not a SpreadsheetML style sheet")
        self._xf: dict[Look, int] = {}
        self._pending: dict[str, list[str]] = {}
        """Collection -> the markup of the entries appended to it, not yet in the part."""
        self._pending_formats: list[tuple[int, str]] = []
        """The number formats appended (id, code), not yet in the part."""

    @property
    def data(self) -> bytes:
        """The part's bytes, with every entry appended so far."""
        for local, entries in self._pending.items():
            collection = self.part.root.named(NS_MAIN, local)[0]
            self.part.append_child(collection, "".join(entries))
            collection = self.part.root.named(NS_MAIN, local)[0]
            self.part.set_attribute(collection, "count", str(len(collection.children)))
        self._pending.clear()
        self._pending_formats.clear()
        return self.part.data

    def _entries(self, local: str) -> list[str]:
        """The markup of every entry of a collection: in the part, then appended."""
        existing = [self.part.text(c) for c in self._collection(local).children]
        return existing + self._pending.get(local, [])

    def _tag(self, local: str) -> str:
        return self.part.tag(self.part.root, local)

    def _collection(self, local: str) -> Element:
        """The collection element, created (with its defaults) where styles.xml lacks it."""
        root = self.part.root
        found = root.named(NS_MAIN, local)
        if found:
            return found[0]
        defaults = DEFAULTS.get(local, "")
        if root.prefix:  # our own constant markup, so a pattern is safe here
            defaults = re.sub(r"<(/?)(\w)", rf"<\1{root.prefix}:\2", defaults)
        markup = f'<{self._tag(local)} count="0">{defaults}</{self._tag(local)}>'
        later = ORDER[ORDER.index(local) + 1 :]
        follower = next((c for c in root.children if c.uri == NS_MAIN and c.local in later), None)
        if follower is not None:
            self.part.insert_before(follower, markup)
        else:
            self.part.append_child(root, markup)
        collection = self.part.root.named(NS_MAIN, local)[0]
        self.part.set_attribute(collection, "count", str(len(collection.children)))
        return self.part.root.named(NS_MAIN, local)[0]

    def _append(self, local: str, markup: str) -> int:
        """Append ``markup`` to the collection (when the part's bytes are next asked for);
        return its index there."""
        index = len(self._entries(local))
        self._pending.setdefault(local, []).append(markup)
        return index

    def _font(self, look: Look) -> int:
        fonts = self._collection("fonts")
        style = ooxml_style(look)
        if not (style.marks or style.rgb) and _plain_font(fonts.children[:1]):
            return 0
        base = fonts.children[0].children if fonts.children else []
        body = (
            "".join(
                self.part.text(c) for c in base if c.local not in {"b", "i", "u", "strike", "color"}
            )
            or f'<{self._tag("sz")} val="11"/>'
        )
        marks = "".join(f"<{self._tag(mark)}/>" for mark in style.marks)
        colour = f'<{self._tag("color")} rgb="{style.rgb}"/>' if style.rgb else ""
        font = f"<{self._tag('font')}>{marks}{body}{colour}</{self._tag('font')}>"
        existing = self._entries("fonts")
        if font in existing:
            return existing.index(font)
        return self._append("fonts", font)

    def _number_format(self, code: str | None) -> int:
        if code in BUILTIN_FORMATS:
            return BUILTIN_FORMATS[code]
        assert code is not None
        formats = self.part.root.named(NS_MAIN, "numFmts")
        ids = [FIRST_CUSTOM_FORMAT - 1]
        for item in formats[0].children if formats else []:
            number = item.get("", "numFmtId")
            if number is not None and number.isdigit():
                ids.append(int(number))
                if item.get("", "formatCode") == code:
                    return int(number)
        for number_id, appended in self._pending_formats:
            if appended == code:
                return number_id
            ids.append(number_id)
        new_id = max(ids) + 1
        quoted = escape(code, quote=True)  # as XmlPart.set_attribute writes an attribute
        self._append(
            "numFmts", f'<{self._tag("numFmt")} numFmtId="{new_id}" formatCode="{quoted}"/>'
        )
        self._pending_formats.append((new_id, code))
        return new_id

    def _plain_default(self) -> bool:
        """True if cellXfs entry 0 (every unstyled cell's format) is plain: General, no fill,
        border or alignment, and a font that is not bold, italic, underlined or struck out.
        Some programs make it bold or shaded; then plain cells get a format of their own."""
        cell_xfs = self._collection("cellXfs").children
        fonts = self._collection("fonts").children
        if not cell_xfs or cell_xfs[0].children:
            return False
        xf = cell_xfs[0]
        if any((xf.get("", key) or "0") != "0" for key in ("numFmtId", "fillId", "borderId")):
            return False
        font_id = int(xf.get("", "fontId") or 0)
        if font_id >= len(fonts):
            return False
        marks = {c.local for c in fonts[font_id].children if c.get("", "val") not in {"0", "false"}}
        return not marks & {"b", "i", "u", "strike"}

    def xf(self, look: Look) -> int:
        """The cellXfs index for this look, appended to styles.xml if not there yet."""
        if look == Look() and look not in self._xf and self._plain_default():
            self._xf[look] = 0
        if look not in self._xf:
            style = ooxml_style(look)
            font = self._font(look)
            number = self._number_format(style.number_format)
            applied = (' applyNumberFormat="1"' if number else "") + (
                ' applyFont="1"' if font else ""
            )
            head = (
                f'<{self._tag("xf")} numFmtId="{number}" fontId="{font}" fillId="0" '
                f'borderId="0" xfId="0"{applied}'
            )
            element = (
                f'{head} applyAlignment="1"><{self._tag("alignment")} '
                f'horizontal="{style.horizontal}"/></{self._tag("xf")}>'
                if style.horizontal
                else f"{head}/>"
            )
            existing = self._entries("cellXfs")
            if element in existing:
                self._xf[look] = existing.index(element)
            else:
                self._xf[look] = self._append("cellXfs", element)
        return self._xf[look]

    def verify(self) -> None:
        """Check, on a fresh parse of the final bytes, that every index handed out leads to
        the look it was handed out for. Raises WorkbookError (nothing is then committed)."""
        part = XmlPart(self.part.name, self.data)
        root = part.root

        def children(local: str) -> list[Element]:
            found = root.named(NS_MAIN, local)
            return found[0].children if found else []

        cell_xfs, fonts = children("cellXfs"), children("fonts")
        codes = {
            int(n): c.get("", "formatCode")
            for c in children("numFmts")
            if (n := c.get("", "numFmtId")) is not None and n.isdigit()
        }
        for look, index in self._xf.items():
            problem = _mismatch(look, index, cell_xfs, fonts, codes)
            if problem:
                raise WorkbookError(
                    f"{self.part.name}: the cell format xlrally added would not look as meant "
                    f"({problem}); nothing was written. Please report this file."
                )


def _plain_font(fonts: list[Element]) -> bool:
    """True if the (one) font given is neither bold, italic, underlined nor struck out."""
    if not fonts:
        return False
    marks = {c.local for c in fonts[0].children if c.get("", "val") not in {"0", "false"}}
    return not marks & {"b", "i", "u", "strike"}


def _mismatch(
    look: Look,
    index: int,
    cell_xfs: list[Element],
    fonts: list[Element],
    codes: dict[int, str | None],
) -> str:
    """What is wrong with cellXfs entry ``index`` for ``look`` ('' if nothing)."""
    style = ooxml_style(look)
    if index >= len(cell_xfs):
        return f"format {index} does not exist"
    xf = cell_xfs[index]
    number = int(xf.get("", "numFmtId") or 0)
    code = BUILTIN_FORMATS.get(style.number_format)
    if code is None and codes.get(number) != style.number_format:
        return f"format {index} has number format {number}, not {style.number_format!r}"
    if code is not None and number != code:
        return f"format {index} has number format {number}, not {code}"
    font_id = int(xf.get("", "fontId") or 0)
    if font_id >= len(fonts):
        return f"font {font_id} does not exist"
    font = fonts[font_id]
    names = {c.local for c in font.children if c.get("", "val") not in {"0", "false"}}
    colours = {c.get("", "rgb") for c in font.children if c.local == "color"}
    if {"b", "i"} & names != set(style.marks):
        return f"font {font_id} is not bold={look.bold}, italic={look.italic}"
    if style.rgb and style.rgb not in colours:
        return f"font {font_id} is not coloured {look.colour}"
    aligned = [c.get("", "horizontal") for c in xf.children if c.local == "alignment"]
    if (aligned[0] if aligned else None) != style.horizontal:
        return f"format {index} is not aligned {look.align or 'by default'}"
    return ""
