"""Sheets and the tables on them, over any :class:`SheetSource` (a file read by
:mod:`xlrally.ooxml.reader`, the open workbook in Excel through xlwings, or plain lists in
tests), so every backend reads a league the same way: a sheet found by its name, a table's
header row by the columns it names, each row's cells by field, and each problem at its cell.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress
from typing import NamedTuple, Protocol, overload, runtime_checkable

from xlrally.core.errors import Problem, XlrallyError
from xlrally.formats.cells import (
    EXCEL_EPOCH,
    Value,
    blank,
    column_letter,
    norm,
    quote_sheet,
    text_of,
    to_number,
)
from xlrally.formats.workbook.vocabulary import (
    COLUMNS,
    HEADER_SEARCH_ROWS,
    field_named,
    known_headers,
    missing_column,
)


class SheetSource(Protocol):
    """What reading a league needs of a workbook: its sheet names and a sheet's values."""

    epoch: dt.date
    """Day 0 of the workbook's serial dates (EXCEL_EPOCH, or DATE_1904 in a 1904 workbook)."""

    def sheet_names(self) -> list[str]:
        """The workbook's sheet names, in tab order."""
        ...

    def values(self, name: str) -> list[list[Value]]:
        """The sheet's values from A1, one list per row (rows may differ in length)."""
        ...


@runtime_checkable
class ColumnSource(Protocol):
    """A :class:`SheetSource` that can read a big sheet's cells below its header as columns
    (:class:`~xlrally.ooxml.reader.FileSheets`)."""

    def head(self, name: str) -> list[list[Value]] | None:
        """The sheet's first rows from A1 (at least :data:`HEADER_SEARCH_ROWS`), when its
        cells below the header may be read as columns; None to read it as rows."""
        ...

    def columns_below(self, name: str, header: int) -> Columns | None:
        """The cells below the header row (0-based), after :meth:`head`; None to read the
        sheet as rows."""
        ...


class Columns(Protocol):
    """A sheet's cells below its header, the rows without a value left out (as
    :func:`find_table` leaves them out): by 0-based column, an empty cell None."""

    rows: Sequence[int]
    """The 0-based indexes below the header of the rows kept."""
    width: int
    """The columns, from A, up to the last holding a cell."""

    def column(self, at: int) -> list[Value]:
        """The kept rows' cells of the column at that position."""
        ...


@dataclass
class MemorySheets:
    """An in-memory workbook (sheet name -> rows): the test backend."""

    sheets: dict[str, list[list[Value]]] = field(default_factory=dict)
    epoch: dt.date = EXCEL_EPOCH

    def sheet_names(self) -> list[str]:
        return list(self.sheets)

    def values(self, name: str) -> list[list[Value]]:
        return self.sheets[name]


class CellOrigin(NamedTuple):
    """A row of a sheet; ``where("byes")`` names the cell of that field, e.g. ``Results!D7``.

    A named tuple rather than a dataclass: one is made for every result row read.
    """

    sheet: str
    row: int
    columns: Mapping[str, int]

    def where(self, field: str | None = None) -> str:
        column = self.columns.get(field or "", min(self.columns.values(), default=0))
        return f"{quote_sheet(self.sheet)}!{column_letter(column)}{self.row}"


class Problems:
    def __init__(self) -> None:
        self.items: list[Problem] = []
        self.missing_columns: set[str] = set()
        """Fields whose whole column is missing: reported once, at the header."""

    def at(self, origin: CellOrigin, field_name: str | None, message: str) -> None:
        self.items.append(Problem(message, field=field_name, origin=origin))


@dataclass(frozen=True)
class Table:
    """A sheet's rows below its header, with the header's column positions by field."""

    sheet: str
    columns: dict[str, int]
    numbers: Sequence[int]
    """The 1-based row number of each row of ``body``."""
    body: Sequence[list[Value]]
    """The rows with a value (blank rows left out)."""
    header: int = 1
    """The header's row number."""
    headers: tuple[str, ...] = ()
    """The header row's texts, as written."""

    @property
    def rows(self) -> list[tuple[int, list[Value]]]:
        """Each row's number and values."""
        return list(zip(self.numbers, self.body, strict=True))

    def get(self, values: list[Value], field_name: str) -> Value:
        index = self.columns.get(field_name)
        if index is None or index >= len(values):
            return None
        value = values[index]
        return None if blank(value) else value

    def origin(self, row: int) -> CellOrigin:
        """The origin of a row of this table (for error messages)."""
        return CellOrigin(self.sheet, row, self.columns)


def find_table(sheet: str, rows: list[list[Value]], required: Sequence[str]) -> Table:
    """Find the header row (the first of the first 20 rows naming every required column)."""
    for index, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        columns: dict[str, int] = {}
        for col, value in enumerate(row):
            found = field_named(value) if isinstance(value, str) else None
            if found and found not in columns:
                columns[found] = col
        if all(f in columns for f in required):
            below = rows[index + 1 :]
            numbers: Sequence[int] = range(index + 2, index + 2 + len(below))
            if not all(map(any, below)):  # a row without a value to leave out (else C speed)
                # any() is a fast first test; a row of zeros or spaces needs the slow one
                kept = [any(values) or not all(map(blank, values)) for values in below]
                numbers, below = list(compress(numbers, kept)), list(compress(below, kept))
            headers = tuple(text_of(v) for v in row if not blank(v))
            return Table(sheet, columns, numbers, below, index + 1, headers)
    names = ", ".join(COLUMNS[f][0] for f in required)
    best = max(rows[:HEADER_SEARCH_ROWS], key=known_headers, default=[])
    if known_headers(best):
        headers = tuple(text_of(v) for v in best if not blank(v))
        number = rows.index(best) + 1
        lacking = [f for f in required if f not in {field_named(h) for h in headers}]
        hints = "; ".join(missing_column(f, headers) for f in lacking)
        raise XlrallyError(f"{quote_sheet(sheet)}!A{number}: {hints}")
    raise XlrallyError(
        f"{quote_sheet(sheet)}: no header row with the columns {names} in the first "
        f"{HEADER_SEARCH_ROWS} rows"
    )


class ColumnBody(Sequence[list[Value]]):
    """A table's rows held as columns (a big sheet read as columns): a column is made a list,
    and a row made of them, only when asked for (:meth:`column`)."""

    def __init__(self, columns: Columns) -> None:
        self._columns = columns
        self._made: dict[int, list[Value]] = {}

    def __len__(self) -> int:
        return len(self._columns.rows)

    @overload
    def __getitem__(self, index: int) -> list[Value]: ...
    @overload
    def __getitem__(self, index: slice) -> list[list[Value]]: ...
    def __getitem__(self, index: int | slice) -> list[Value] | list[list[Value]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        row = range(len(self))[index]
        return [self.column(at)[row] for at in range(self._columns.width)]

    def column(self, at: int) -> list[Value]:
        """The column at that position (0-based), an empty cell None."""
        if at not in self._made:
            self._made[at] = self._columns.column(at)
        return self._made[at]


def read_table(book: Book, sheet: str, required: Sequence[str]) -> Table:
    """:func:`find_table` on the sheet, its cells below the header read as columns where the
    source can (a big sheet of a workbook file), else as rows: the same table either way."""
    head = book.head(sheet)
    if head is not None:
        table = find_table(sheet, head, required)  # the header is in the first rows
        below = book.columns_below(sheet, table.header - 1)
        if below is not None:
            return _columns_table(table, below)
    return find_table(sheet, book.rows(sheet), required)


def _columns_table(table: Table, below: Columns) -> Table:
    """The table with the cells below its header read as columns."""
    rows = below.rows
    numbers: Sequence[int] = (
        range(table.header + 1 + rows.start, table.header + 1 + rows.stop)
        if isinstance(rows, range)
        else [table.header + 1 + i for i in rows]
    )
    body = ColumnBody(below)
    return Table(table.sheet, table.columns, numbers, body, table.header, table.headers)


class Book:
    """Sheet lookup by normalised name."""

    def __init__(self, source: SheetSource) -> None:
        self.source = source
        self.names = {norm(name): name for name in reversed(source.sheet_names())}
        self._rows: dict[str, list[list[Value]]] = {}

    def find(self, name: str) -> str | None:
        return self.names.get(norm(name))

    def need(self, name: str) -> str:
        found = self.find(name)
        if found is None:
            raise XlrallyError(f"the workbook has no {name!r} sheet")
        return found

    def rows(self, sheet: str) -> list[list[Value]]:
        """The sheet's values, read once (a live workbook's read is a call into Excel)."""
        if sheet not in self._rows:
            self._rows[sheet] = self.source.values(sheet)
        return self._rows[sheet]

    def head(self, sheet: str) -> list[list[Value]] | None:
        """The sheet's first rows, when its source may read the rest as columns
        (:class:`ColumnSource`) and has not read it as rows."""
        if sheet in self._rows or not isinstance(self.source, ColumnSource):
            return None
        return self.source.head(sheet)

    def columns_below(self, sheet: str, header: int) -> Columns | None:
        """The sheet's cells below its header row (0-based), after :meth:`head`."""
        assert isinstance(self.source, ColumnSource)
        return self.source.columns_below(sheet, header)


def find_sheet(source: SheetSource, name: str) -> str | None:
    """The sheet of a source named ``name`` as the reader finds it (case, spaces and
    punctuation ignored)."""
    return Book(source).find(name)


def table_place(value: Value, what: str) -> int:
    """A place in a table (Points, Prizes): a whole number from 1."""
    number = to_number(value, what)
    if not float(number).is_integer() or number < 1:
        raise ValueError(f"{what} must be a whole number from 1, not {number}")
    return int(number)
