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
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from xlrally.core.errors import WorkbookError
from xlrally.formats.cells import EXCEL_EPOCH, column_letter
from xlrally.ooxml.package import NS_MAIN, column_number
from xlrally.ooxml.sheet_xml import number_text, xml_text
from xlrally.ooxml.xmlpart import Element, Splice, XmlPart, splice_all

Written = str | int | float | dt.date | None
"""A value to write; None empties the cell (its style stays)."""

_REF = re.compile(r"^\$?([A-Z]{1,3})\$?(\d+)$")
_RANGE = re.compile(r"^\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$")
_ROW_STYLE = ("s", "customFormat", "ht", "customHeight")


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


class SheetCells:
    """The cells of one worksheet part, and the edits that write values into it."""

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

    def _tag(self, local: str) -> str:
        return f"{self.prefix}:{local}" if self.prefix else local

    def _cells(self, row: Element) -> dict[int, Element]:
        found: dict[int, Element] = {}
        column = -1
        for cell in row.named(NS_MAIN, "c"):
            column = _cell_position(cell, column)
            found[column] = cell
        return found

    def styles_of(self, number: int) -> dict[int, str]:
        """The style index of each cell of a row."""
        row = self.rows.get(number)
        if row is None:
            return {}
        return {c: s for c, cell in self._cells(row).items() if (s := cell.get("", "s"))}

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

    def write(
        self,
        writes: Mapping[int, Mapping[int, Written]],
        like: int | None,
        date_style: Callable[[], int],
    ) -> bytes:
        """Write values (row number -> column -> value) and return the part's new bytes. Cells
        not there yet take the style of the same column in row ``like``; new rows take its
        height and style."""
        data = self.part.data
        template = self.styles_of(like) if like is not None else {}
        like_row = self.rows.get(like) if like is not None else None
        splices: list[Splice] = []
        pending: dict[int, list[str]] = {}  # new rows, by the offset they go in at
        numbers = sorted(self.rows)
        for number in sorted(writes):
            values = writes[number]
            row = self.rows.get(number)
            if row is not None:
                splices.append(
                    (row.start, row.end, self._rewritten(row, number, values, template, date_style))
                )
                continue
            cells = "".join(
                self._cell(f"{column_letter(c)}{number}", values[c], template.get(c), date_style)
                for c in sorted(values)
                if values[c] is not None or template.get(c) is not None
            )
            attributes = f' r="{number}"'
            if like_row is not None:
                for name in _ROW_STYLE:
                    if (value := like_row.get("", name)) is not None:
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
        for at, rows in pending.items():
            if at == -1:
                tag = self.sheet_data.qname
                head = data[self.sheet_data.start : self.sheet_data.end - 2].decode("utf-8")
                markup = f"{head.rstrip()}>{''.join(rows)}</{tag}>"
                splices.append((self.sheet_data.start, self.sheet_data.end, markup))
            else:
                splices.append((at, at, "".join(rows)))
        return splice_all(data, splices)

    def _rewritten(
        self,
        row: Element,
        number: int,
        values: Mapping[int, Written],
        template: Mapping[int, str],
        date_style: Callable[[], int],
    ) -> str:
        data = self.part.data
        cells = self._cells(row)
        head = data[row.start : row.open_end].decode("utf-8")
        if row.get("", "r") is None:
            head = head.replace(row.qname, f'{row.qname} r="{number}"', 1)
        if row.self_closing:
            head = head[:-2].rstrip() + ">"
        parts: list[tuple[int, str]] = []
        for column, cell in cells.items():
            text = data[cell.start : cell.end].decode("utf-8")
            if column in values:
                style = cell.get("", "s") or template.get(column)
                ref = f"{column_letter(column)}{number}"
                if values[column] is None and style is None:
                    continue
                text = self._cell(ref, values[column], style, date_style)
            elif cell.get("", "r") is None:  # keep its place explicit among new cells
                text = text.replace(
                    cell.qname, f'{cell.qname} r="{column_letter(column)}{number}"', 1
                )
            parts.append((column, text))
        for column, value in values.items():
            if column not in cells and (value is not None or template.get(column) is not None):
                ref = f"{column_letter(column)}{number}"
                parts.append((column, self._cell(ref, value, template.get(column), date_style)))
        others = "".join(
            data[child.start : child.end].decode("utf-8")
            for child in row.children
            if child.local != "c"
        )
        body = "".join(text for _, text in sorted(parts, key=lambda p: p[0]))
        return f"{head}{body}{others}</{row.qname}>"


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


def extend_sheet(data: bytes, name: str, rows: Rows, new_last: int, widest: int) -> bytes:
    """The sheet's own ranges carried over new rows (see the module docstring) and its
    ``<dimension>`` made to cover them (``widest``: the last column written, 0-based)."""
    part = XmlPart(name, data)
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
    return splice_all(part.data, splices)


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
