"""Writing cells into a sheet the user owns (Events, Results) without disturbing anything else.

Unlike the Standings sheet, which xlrally writes whole, an input sheet is edited in place: each
row that gets a value is rewritten (its other cells kept byte for byte), a new row is put in
its place among the others, and every other byte of the part is kept. New cells take the style
of the cell above them in the same column (the table's last row before the import), so dates
stay dates and formats carry on; a new row takes that row's height and style.

Text is written as an inline string (``t="inlineStr"``): it is never read as a formula, number
or date, whatever it looks like (``=Bob``, ``007``, ``Dec 2025``), and ``sharedStrings.xml``
is left alone. Excel and LibreOffice move inline strings into the shared table when they save.

What covers the table's last row is extended over the new rows, so that the table keeps
working as before: an Excel table's range and its filter (:func:`extend_table`; a table with a
totals row is refused, since the new rows would write over it), data validation and
conditional formatting ranges (also those Excel keeps in ``x14`` extensions), the sheet's
filter and its ``<dimension>``. A range that ends elsewhere is left as it is.

Two ways to the same bytes. A small sheet is parsed whole (:class:`SheetCells`). A big one
(a Results sheet of 200,000 rows is 50 MB of XML) is edited as a stream (:class:`StreamedSheet`):
only the rows written, the row whose look new rows take, and what surrounds ``<sheetData>``
are parsed; the rows are found by their ``r`` numbers, from the end for new rows; the new part
is compressed piece by piece from the old bytes and the new text, never parsed or held whole
again. Each row found is parsed on its own to check that it is exactly one row; a sheet the
stream cannot read so (rows without ``r``, a comment among the rows) is parsed whole instead.
Both write byte for byte the same part (tests/ooxml/test_in_place.py checks it on real sheets).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from xlrally.core.errors import WorkbookError
from xlrally.formats.cells import EXCEL_EPOCH, column_letter
from xlrally.ooxml.package import NS_MAIN, column_number
from xlrally.ooxml.rawzip import Packed, pack
from xlrally.ooxml.sheet_xml import number_text, xml_text
from xlrally.ooxml.xmlpart import Element, Splice, XmlPart, check_namespaces, splice_all

Written = str | int | float | dt.date | None
"""A value to write; None empties the cell (its style stays)."""

Writes = Mapping[int, Mapping[int, Written]]
"""Values to write: row number -> 0-based column -> value."""

_REF = re.compile(r"^\$?([A-Z]{1,3})\$?(\d+)$")
_RANGE = re.compile(r"^\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$")
_ROW_STYLE = ("s", "customFormat", "ht", "customHeight")
STREAMED_FROM = 0
"""Parts larger than this are edited as a stream (every part: the whole parse is what a part the
stream cannot read falls back to)."""


@dataclass(frozen=True)
class Rows:
    """Where a table's rows are: its header row, and the last row with anything in it before
    the import (ranges that end there are extended)."""

    header: int
    last: int


def _cell_position(element: Element, previous: int) -> int:
    """A cell's 0-based column (a cell without ``r`` follows the one before it)."""
    ref = element.get("", "r")
    if ref:
        match = _REF.match(ref)
        if match:
            return column_number(match.group(1)) - 1
    return previous + 1


def _row_number(element: Element, previous: int) -> int:
    ref = element.get("", "r")
    return int(ref) if ref and ref.isdigit() else previous + 1


def serial(day: dt.date, epoch: dt.date = EXCEL_EPOCH) -> int:
    """The Excel serial number of a date (1900 date system: 45292 is 2024-01-01).

    >>> serial(dt.date(2024, 1, 1))
    45292
    """
    return (day - epoch).days


def _cells(row: Element) -> dict[int, Element]:
    found: dict[int, Element] = {}
    column = -1
    for cell in row.named(NS_MAIN, "c"):
        column = _cell_position(cell, column)
        found[column] = cell
    return found


@dataclass(frozen=True)
class _Row:
    """A row element, the bytes its offsets refer to, and where those bytes start in the part
    (0 when they are the part's own)."""

    element: Element
    data: bytes
    shift: int

    @property
    def start(self) -> int:
        return self.element.start + self.shift

    @property
    def end(self) -> int:
        return self.element.end + self.shift


@dataclass(frozen=True)
class _SheetData:
    """Where ``<sheetData>`` is in the part."""

    qname: str
    start: int
    end: int
    close_start: int
    self_closing: bool
    head: str
    """Its start tag without the closing ``>`` or ``/>`` (for a self-closing one)."""


class _Planner:
    """The splices that write values into rows, given where the rows are (shared by the whole
    and the streamed editor, so that both write the same bytes)."""

    def __init__(
        self,
        prefix: str,
        rows: Mapping[int, _Row],
        sheet_data: _SheetData,
        epoch: dt.date,
    ) -> None:
        self.prefix = prefix
        self.rows = rows
        self.sheet_data = sheet_data
        self.epoch = epoch
        self.cells: dict[int, dict[int, str]] = {}
        """The markup of each cell written, by row and column (for reading back)."""

    def _tag(self, local: str) -> str:
        return f"{self.prefix}:{local}" if self.prefix else local

    def styles_of(self, number: int) -> dict[int, str]:
        """The style index of each cell of a row."""
        row = self.rows.get(number)
        if row is None:
            return {}
        return {c: s for c, cell in _cells(row.element).items() if (s := cell.get("", "s"))}

    def _cell(
        self, ref: str, value: Written, style: str | None, date_style: Callable[[], int]
    ) -> str:
        c, v = self._tag("c"), self._tag("v")
        if isinstance(value, dt.date):
            shown = style if style is not None else str(date_style())
            return f'<{c} r="{ref}" s="{shown}"><{v}>{serial(value, self.epoch)}</{v}></{c}>'
        attributes = f' r="{ref}"' + (f' s="{style}"' if style is not None else "")
        if value is None:
            return f"<{c}{attributes}/>"
        if isinstance(value, str):
            is_, t = self._tag("is"), self._tag("t")
            text = xml_text(value)
            return (
                f'<{c}{attributes} t="inlineStr"><{is_}><{t} xml:space="preserve">{text}'
                f"</{t}></{is_}></{c}>"
            )
        return f"<{c}{attributes}><{v}>{number_text(value)}</{v}></{c}>"

    def _new_cell(
        self, number: int, column: int, value: Written, style: str | None, dates: Callable[[], int]
    ) -> str:
        markup = self._cell(f"{column_letter(column)}{number}", value, style, dates)
        self.cells.setdefault(number, {})[column] = markup
        return markup

    def splices(
        self, writes: Writes, like: int | None, date_style: Callable[[], int]
    ) -> list[Splice]:
        """The splices that write ``writes``. Cells not there yet take the style of the same
        column in row ``like``; new rows take its height and style."""
        template = self.styles_of(like) if like is not None else {}
        like_row = self.rows.get(like) if like is not None else None
        splices: list[Splice] = []
        pending: dict[int, list[str]] = {}  # new rows, by the offset they go in at
        numbers = sorted(self.rows)
        for number in sorted(writes):
            values = writes[number]
            row = self.rows.get(number)
            if row is not None:
                text = self._rewritten(row, number, values, template, date_style)
                splices.append((row.start, row.end, text))
                continue
            cells = "".join(
                self._new_cell(number, c, values[c], template.get(c), date_style)
                for c in sorted(values)
                if values[c] is not None or template.get(c) is not None
            )
            attributes = f' r="{number}"'
            if like_row is not None:
                for name in _ROW_STYLE:
                    if (value := like_row.element.get("", name)) is not None:
                        attributes += f' {name}="{value}"'
            markup = f"<{self._tag('row')}{attributes}>{cells}</{self._tag('row')}>"
            after = next((n for n in numbers if n > number), None)
            if after is not None:
                at = self.rows[after].start
            elif self.sheet_data.self_closing:
                at = -1
            else:
                at = self.sheet_data.close_start
            pending.setdefault(at, []).append(markup)
        for at, new_rows in pending.items():
            if at == -1:
                tag = self.sheet_data.qname
                markup = f"{self.sheet_data.head.rstrip()}>{''.join(new_rows)}</{tag}>"
                splices.append((self.sheet_data.start, self.sheet_data.end, markup))
            else:
                splices.append((at, at, "".join(new_rows)))
        return splices

    def _rewritten(
        self,
        row: _Row,
        number: int,
        values: Mapping[int, Written],
        template: Mapping[int, str],
        date_style: Callable[[], int],
    ) -> str:
        data, element = row.data, row.element
        cells = _cells(element)
        head = data[element.start : element.open_end].decode("utf-8")
        if element.get("", "r") is None:
            head = head.replace(element.qname, f'{element.qname} r="{number}"', 1)
        if element.self_closing:
            head = head[:-2].rstrip() + ">"
        parts: list[tuple[int, str]] = []
        for column, cell in cells.items():
            text = data[cell.start : cell.end].decode("utf-8")
            if column in values:
                style = cell.get("", "s") or template.get(column)
                if values[column] is None and style is None:
                    continue
                text = self._new_cell(number, column, values[column], style, date_style)
            elif cell.get("", "r") is None:  # keep its place explicit among new cells
                text = text.replace(
                    cell.qname, f'{cell.qname} r="{column_letter(column)}{number}"', 1
                )
            parts.append((column, text))
        for column, value in values.items():
            if column not in cells and (value is not None or template.get(column) is not None):
                style = template.get(column)
                parts.append((column, self._new_cell(number, column, value, style, date_style)))
        others = "".join(
            data[child.start : child.end].decode("utf-8")
            for child in element.children
            if child.local != "c"
        )
        body = "".join(text for _, text in sorted(parts, key=lambda p: p[0]))
        return f"{head}{body}{others}</{element.qname}>"


def _sheet_data_of(element: Element, data: bytes) -> _SheetData:
    """Where a parsed ``<sheetData>`` is (offsets in ``data``, the part's own bytes)."""
    head = data[element.start : element.end - 2].decode("utf-8") if element.self_closing else ""
    return _SheetData(
        element.qname, element.start, element.end, element.close_start, element.self_closing, head
    )


class SheetCells:
    """The cells of one worksheet part, parsed whole, and the edits that write values into it."""

    def __init__(self, part: XmlPart, epoch: dt.date = EXCEL_EPOCH) -> None:
        self.part = part
        self.epoch = epoch
        data = part.first(NS_MAIN, "sheetData")
        if data is None:
            raise WorkbookError(f"{part.name}: the sheet has no cell data element")
        self.sheet_data = data
        self.prefix = data.prefix
        self.rows: dict[int, Element] = {}
        number = 0
        for row in data.named(NS_MAIN, "row"):
            number = _row_number(row, number)
            self.rows[number] = row
        self.planner = _Planner(
            self.prefix,
            {n: _Row(r, part.data, 0) for n, r in self.rows.items()},
            _sheet_data_of(data, part.data),
            epoch,
        )

    def styles_of(self, number: int) -> dict[int, str]:
        """The style index of each cell of a row."""
        return self.planner.styles_of(number)

    def write(self, writes: Writes, like: int | None, date_style: Callable[[], int]) -> bytes:
        """Write values (row number -> column -> value) and return the part's new bytes. Cells
        not there yet take the style of the same column in row ``like``; new rows take its
        height and style."""
        return splice_all(self.part.data, self.planner.splices(writes, like, date_style))


class NeedsParse(Exception):
    """The sheet cannot be edited as a stream (no ``r`` on a row, a comment among the rows, an
    unusual layout): parse it whole instead."""


_SHEET_DATA = re.compile(rb"<((?:[A-Za-z_][\w.\-]*:)?)sheetData(?=[\s/>])")
_R = re.compile(rb"""\sr\s*=\s*(["'])(\d+)\1""")
_TAG_END = frozenset(b" \t\r\n>/")


def _unusual(data: bytes, start: int, end: int) -> bool:
    """Whether a comment, a CDATA section or a processing instruction is among the rows (no
    spreadsheet program writes them there; a row could hide in one from the search). Found by
    their rare second character, not by the ``<`` that starts every tag."""
    for mark in (b"!", b"?"):
        at = data.find(mark, start, end)
        while at >= 0:
            if data[at - 1 : at] == b"<":
                return True
            at = data.find(mark, at + 1, end)
    return False


class StreamedSheet:
    """A worksheet part edited as a stream (see the module docstring): built from the part's
    bytes, it locates the rows a write needs without parsing the others."""

    def __init__(self, name: str, data: bytes, epoch: dt.date = EXCEL_EPOCH) -> None:
        self.name = name
        self.data = data
        self.epoch = epoch
        found = _SHEET_DATA.search(data)
        if found is None:
            raise NeedsParse(name)
        prefix = found.group(1)
        open_end = data.find(b">", found.end())
        if open_end < 0 or data[open_end - 1 : open_end] == b"/":
            raise NeedsParse(name)  # <sheetData/>: an empty sheet, small
        self.body_start = open_end + 1
        close = b"</" + prefix + b"sheetData>"
        self.body_end = data.rfind(close)
        if self.body_end < self.body_start:
            raise NeedsParse(name)
        if _unusual(data, self.body_start, self.body_end):
            raise NeedsParse(name)
        self.skeleton = XmlPart(name, data[: self.body_start] + data[self.body_end :])
        element = self.skeleton.first(NS_MAIN, "sheetData")
        if (
            element is None
            or element.start != found.start()
            or element.self_closing
            or element.close_start != self.body_start
        ):
            raise NeedsParse(name)
        self.element = element
        self.prefix = element.prefix
        self.row_tag = b"<" + prefix + b"row"
        self.row_close = b"</" + prefix + b"row>"
        declared = " ".join(
            f'xmlns="{uri}"' if p == "" else f'xmlns:{p}="{uri}"'
            for p, uri in element.scope.items()
            if p != "xml"
        )
        self.wrap_head = f"<w {declared}>".encode()
        self.rows: dict[int, _Row] = {}

    def _row_at(self, start: int) -> tuple[int, _Row]:
        """The row element starting at ``start``: its number and itself, parsed on its own."""
        data = self.data
        tag_end = data.find(b">", start)
        if tag_end < 0:
            raise NeedsParse(self.name)
        tag = data[start : tag_end + 1]
        number = _R.search(tag)
        if number is None:
            raise NeedsParse(self.name)  # rows numbered by position: count them all
        if tag.endswith(b"/>"):
            end = tag_end + 1
        else:
            close = data.find(self.row_close, tag_end, self.body_end)
            if close < 0:
                raise NeedsParse(self.name)
            end = close + len(self.row_close)
        wrapped = self.wrap_head + data[start:end] + b"</w>"
        try:
            part = XmlPart(self.name, wrapped)
        except WorkbookError:
            raise NeedsParse(self.name) from None
        children = part.root.children
        if (
            len(children) != 1
            or children[0].local != "row"
            or children[0].uri != NS_MAIN
            or children[0].end != len(wrapped) - 4
        ):
            raise NeedsParse(self.name)
        return int(number.group(2)), _Row(children[0], wrapped, start - len(self.wrap_head))

    def locate(self, wanted: set[int], last: int) -> None:
        """Find every row after row ``last`` (from the end, where new rows go among them) and
        the rows ``wanted`` at or before it (each by its number, searching forward)."""
        data = self.data
        position = self.body_end
        while True:
            start = data.rfind(self.row_tag, self.body_start, position)
            if start < 0:
                break
            if data[start + len(self.row_tag)] not in _TAG_END:
                position = start
                continue
            number, row = self._row_at(start)
            self.rows[number] = row
            if number <= last:
                break
            position = start
        position = self.body_start
        for number in sorted(n for n in wanted if n <= last and n not in self.rows):
            pattern = re.compile(
                re.escape(self.row_tag)
                + rb"""(?=[\s/>])[^>]*?\sr\s*=\s*(["'])"""
                + str(number).encode()
                + rb"\1"
            )
            found = pattern.search(data, position, self.body_end)
            if found is None:
                raise NeedsParse(self.name)
            found_number, row = self._row_at(found.start())
            if found_number != number:
                raise NeedsParse(self.name)
            self.rows[number] = row
            position = row.end

    def write(
        self,
        writes: Writes,
        like: int | None,
        date_style: Callable[[], int],
        extent: Rows,
        new_last: int,
        widest: int,
    ) -> StreamedEdit:
        """Plan the write of ``writes`` and the ranges carried over the new rows (as
        :meth:`SheetCells.write` then :func:`extend_sheet`), checked: the sheet around the rows
        and every row written must be namespace-well-formed XML."""
        wanted = set(writes) | ({like} if like is not None else set())
        self.locate(wanted, extent.last)
        sheet_data = _SheetData(self.element.qname, -1, -1, self.body_end, False, "")
        planner = _Planner(self.prefix, self.rows, sheet_data, self.epoch)
        splices = planner.splices(writes, like, date_style)
        for _, _, text in splices:
            check_namespaces(self.name, self.wrap_head + text.encode() + b"</w>")
        removed = self.body_end - self.body_start
        around = extension_splices(self.skeleton, extent, new_last, widest)
        check_namespaces(self.name, splice_all(self.skeleton.data, around))
        for start, end, text in around:
            moved = removed if start >= self.body_start else 0
            splices.append((start + moved, end + moved, text))
        return StreamedEdit(self.data, sorted(splices), planner.cells)


@dataclass(frozen=True)
class StreamedEdit:
    """A streamed sheet's new contents as the old bytes and the splices into them."""

    data: bytes
    splices: list[Splice]
    cells: dict[int, dict[int, str]]
    """The markup of each cell written, by row and column."""

    @property
    def size(self) -> int:
        return len(self.data) + sum(len(t.encode()) - (e - s) for s, e, t in self.splices)

    def pieces(self) -> Iterator[bytes | memoryview]:
        view = memoryview(self.data)
        done = 0
        for start, end, text in self.splices:
            yield view[done:start]
            yield text.encode()
            done = end
        yield view[done:]

    def pack(self) -> Packed:
        """The new part compressed as the zip writer compresses a part (the same bytes)."""
        return pack(self.pieces(), self.size)

    def joined(self) -> bytes:
        """The new part whole (for tests)."""
        return b"".join(self.pieces())


def extend_ranges(text: str, rows: Rows, new_last: int) -> str:
    """A space-separated list of ranges (``sqref``) with each range that covers the table's
    last row carried down to ``new_last``; the others unchanged.

    >>> extend_ranges("B2:B20 D2:D9 F1 G2:G99", Rows(header=1, last=20), 23)
    'B2:B23 D2:D9 F1 G2:G99'
    """
    if new_last <= rows.last or rows.last <= rows.header:
        return text
    out = []
    for token in text.split():
        match = _RANGE.match(token)
        if (
            match
            and match.group(3)
            and int(match.group(2)) <= rows.last <= int(match.group(4)) < new_last
        ):
            out.append(_ending(token, new_last))
        else:
            out.append(token)
    return " ".join(out)


def extension_splices(part: XmlPart, rows: Rows, new_last: int, widest: int) -> list[Splice]:
    """The splices that carry the sheet's own ranges over new rows (see the module docstring)
    and make its ``<dimension>`` cover them (``widest``: the last column written, 0-based)."""
    splices: list[Splice] = []
    for element in part.root.iter():
        if element.uri == NS_MAIN and element.local in ("dataValidation", "conditionalFormatting"):
            attribute = "sqref"
        elif element.uri == NS_MAIN and element.local == "autoFilter":
            attribute = "ref"
        elif element.local == "sqref" and not element.self_closing:  # x14 extensions: xm:sqref
            inner = part.inner_text(element)
            extended = extend_ranges(inner, rows, new_last)
            if extended != inner:
                splices.append((element.open_end, element.close_start, extended))
            continue
        elif element.uri == NS_MAIN and element.local == "dimension":
            ref = element.get("", "ref") or "A1"
            splices.append(part.attribute_splice(element, "ref", _cover(ref, new_last, widest)))
            continue
        else:
            continue
        value = element.get("", attribute)
        if value and (extended := extend_ranges(value, rows, new_last)) != value:
            splices.append(part.attribute_splice(element, attribute, extended))
    return splices


def extend_sheet(data: bytes, name: str, rows: Rows, new_last: int, widest: int) -> bytes:
    """The sheet's own ranges carried over new rows (see the module docstring) and its
    ``<dimension>`` made to cover them (``widest``: the last column written, 0-based)."""
    part = XmlPart(name, data)
    return splice_all(part.data, extension_splices(part, rows, new_last, widest))


def _cover(ref: str, last: int, widest: int) -> str:
    """A ``dimension`` reference grown to include row ``last`` and column ``widest``."""
    match = _RANGE.match(ref)
    if not match:
        return ref
    first_col, first_row = match.group(1), match.group(2)
    end_col = match.group(3) or first_col
    end_row = int(match.group(4) or first_row)
    end_number = max(column_number(end_col), widest + 1)
    return f"{first_col}{first_row}:{column_letter(end_number - 1)}{max(end_row, last)}"


def extend_table(data: bytes, name: str, sheet: str, rows: Rows, new_last: int) -> bytes:
    """An Excel table (``xl/tables/tableN.xml``) over the table's rows grown over the new
    rows; a table with a totals row, which the new rows would write over, is refused."""
    part = XmlPart(name, data)
    table = part.root
    ref = table.get("", "ref") or ""
    match = _RANGE.match(ref)
    if not match or not match.group(3) or new_last <= rows.last:
        return data
    first_row, end_row = int(match.group(2)), int(match.group(4))
    if not first_row <= rows.last <= end_row:
        return data  # a table elsewhere on the sheet
    shown = table.get("", "displayName") or table.get("", "name") or name
    if (table.get("", "totalsRowCount") or "0") != "0":
        raise WorkbookError(
            f"the Excel table {shown!r} on {sheet!r} has a totals row, which the new rows would "
            "write over: turn the totals row off (Table Design > Total Row), import, then turn "
            "it on again"
        )
    splices = []
    if end_row < new_last:
        splices.append(part.attribute_splice(table, "ref", _ending(ref, new_last)))
        for child in table.children:
            if child.local == "autoFilter" and (value := child.get("", "ref")):
                splices.append(part.attribute_splice(child, "ref", _ending(value, new_last)))
    return splice_all(data, splices)


def _ending(ref: str, last: int) -> str:
    """A range reference ending on row ``last`` (``A1:F9`` -> ``A1:F12``)."""
    first, second = ref.split(":")
    return f"{first}:{second.rstrip('0123456789')}{last}"
