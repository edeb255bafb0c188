"""The rows and cells an in-place write puts into a sheet the user owns: each value's cell
markup (a date as its serial number in the cell's style, text as an inline string), a row
rewritten with its other cells kept byte for byte, a new row among the others with the look of
the row it is like; planned as splices by :class:`Planner`, which the whole-parse and the
streamed editors share so that both write the same bytes (see :mod:`xlrally.ooxml.in_place`)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from xlrally.formats.cells import EXCEL_EPOCH, column_letter
from xlrally.ooxml.escapes import xml_text
from xlrally.ooxml.package import NS_MAIN, column_number
from xlrally.ooxml.xmlpart import Element, Splice

Written = str | int | float | dt.date | None
"""A value to write; None empties the cell (its style stays)."""

Writes = Mapping[int, Mapping[int, Written]]
"""Values to write: row number -> 0-based column -> value."""

_REF = re.compile(r"^\$?([A-Z]{1,3})\$?(\d+)$")
_ROW_STYLE = ("s", "customFormat", "ht", "customHeight")


def number_text(value: float | int) -> str:
    """A number as a value the user's sheet takes (a Results or Events cell): whole numbers
    bare, others to every digit (``repr``), a yes/no as 1 or 0."""
    if type(value) is int:
        return str(value)
    if isinstance(value, bool):
        return "1" if value else "0"
    if float(value).is_integer():
        return str(int(value))
    return repr(float(value))


def _cell_position(element: Element, previous: int) -> int:
    """A cell's 0-based column (a cell without ``r`` follows the one before it)."""
    ref = element.get("", "r")
    if ref:
        match = _REF.match(ref)
        if match:
            return column_number(match.group(1)) - 1
    return previous + 1


def row_number(element: Element, previous: int) -> int:
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
class PlacedRow:
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
class SheetDataAt:
    """Where ``<sheetData>`` is in the part."""

    qname: str
    start: int
    end: int
    close_start: int
    self_closing: bool
    head: str
    """Its start tag without the closing ``>`` or ``/>`` (for a self-closing one)."""


class Planner:
    """The splices that write values into rows, given where the rows are (shared by the whole
    and the streamed editor, so that both write the same bytes)."""

    def __init__(
        self,
        prefix: str,
        rows: Mapping[int, PlacedRow],
        sheet_data: SheetDataAt,
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
        row: PlacedRow,
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


def sheet_data_of(element: Element, data: bytes) -> SheetDataAt:
    """Where a parsed ``<sheetData>`` is (offsets in ``data``, the part's own bytes)."""
    head = data[element.start : element.end - 2].decode("utf-8") if element.self_closing else ""
    return SheetDataAt(
        element.qname, element.start, element.end, element.close_start, element.self_closing, head
    )
