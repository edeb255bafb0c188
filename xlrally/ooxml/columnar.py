"""A big sheet read as columns: fastexcel (calamine, as python-calamine, but into Arrow
columns), taken only where it provably reads what python-calamine reads.

Why: python-calamine gives a Python list per row, and a league's reader wants columns; for a
Results sheet of 200,000 rows the rows and their transpose are about 0.5 s of a 2.2 s sync,
where fastexcel's columns and pyarrow's lists of them take 0.25 s (docs/performance.md,
issue 33).

What must hold, else the sheet goes to the rows reader (:class:`~.reader.FileSheets.values`)
and nothing changes:

- the sheet's first rows, read by python-calamine itself from a small package of their XML
  (:func:`read_head`), give the header row and where the sheet's cells start: fastexcel counts
  rows from the first row holding a cell, python-calamine from A1;
- fastexcel reads every cell into a column of one type (``dtype_coercion="strict"``) and
  reports none it could not convert (``to_arrow_with_errors``: without it a text ``N/A`` in
  a column of numbers would be read as an empty cell, a value dropped silently);
- each column holds texts, numbers or TRUE/FALSE (dates and times are python-calamine's
  ``date``/``datetime``/``time``/``timedelta``, not Arrow's: left to the rows reader);
- its rows below the header that the head holds are python-calamine's, cell by cell, value and
  type (an empty cell is None either way).

``tests/ooxml/test_columnar.py`` reads every sheet of the corpus both ways.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from dataclasses import dataclass
from itertools import compress
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import python_calamine

from xlrally.formats.cells import Value
from xlrally.ooxml.package import Package, SheetRef
from xlrally.ooxml.read_back import small_book

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

COLUMNS_FROM = 2**22
"""A sheet's XML this big (about 40,000 cells) is read as columns; a smaller one's rows cost
less than the fast path's start (pyarrow's import alone is about 40 ms)."""

HEAD_ROWS = 40
"""The rows of a sheet's head: the 20 a header row is looked for in
(:data:`~xlrally.formats.workbook.vocabulary.HEADER_SEARCH_ROWS`), and at least 20 below it,
to compare with fastexcel's."""

_HEAD_BYTES = 2**20
"""A head of :data:`HEAD_ROWS` rows longer than this (rows of thousands of cells) is not cut
out: the sheet goes to the rows reader."""

_ROOT = re.compile(rb"<(?:([A-Za-z_][\w.-]*):)?worksheet\b[^>]*>")
_ROW = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?row\b([^>]*)>")
_ROW_NUMBER = re.compile(rb"""\sr\s*=\s*["'](\d+)["']""")
_SHEET_DATA_END = re.compile(rb"</(?:[A-Za-z_][\w.-]*:)?sheetData\s*>")


@dataclass(frozen=True)
class Head:
    """A sheet's first rows as python-calamine reads them from A1, and where its cells start."""

    rows: list[list[Value]]
    top: int
    """The 0-based index of the first row holding a cell (python-calamine's ``start``)."""


class Columns:
    """A sheet's cells below its header row as fastexcel read them: Arrow arrays by 0-based
    column from A (a column missing is empty), made Python lists only when asked for (a
    club's own columns never are). The rows without a value are left out as
    :func:`~xlrally.formats.workbook.tables.find_table` leaves them out of rows (a row is kept
    when a cell holds a number, TRUE/FALSE or a text other than the empty one), found at C
    speed."""

    def __init__(self, arrays: dict[int, Any], start: int = 0) -> None:
        self._arrays = arrays
        self._start = start
        self.height = max((len(a) for a in arrays.values()), default=0) - start
        """The rows below the header, those without a value too."""
        self._kept: list[bool | None] | None = None
        """Whether each row holds a value, when some do not."""
        self.rows: Sequence[int] = []
        """The 0-based indexes below the header of the rows kept."""
        self.width = max(arrays, default=-1) + 1
        self._keep()

    def _keep(self) -> None:
        import pyarrow

        arrays = [a.slice(self._start) for a in self._arrays.values()]
        if any(a.null_count == 0 and pyarrow.types.is_primitive(a.type) for a in arrays):
            self.rows = range(self.height)  # a column of numbers (or TRUE/FALSE) in every row
            return
        import pyarrow.compute as pc  # 10 MB of libraries: only for a sheet with gaps

        # The system's allocator, not pyarrow's default (mimalloc), whose first use reserves
        # 1 GB of address space: half of an isolated worker's limit (xlrally.app.isolate).
        # Each step below was checked to leave the default pool unused (its scalars, its
        # `filter` and `indices_nonzero` do not): a text counts when not empty (its length
        # cast to TRUE/FALSE), any other cell when there; an empty cell is null.
        pool = pyarrow.system_memory_pool()
        masks = [
            pc.cast(pc.utf8_length(a, memory_pool=pool), pyarrow.bool_(), memory_pool=pool)
            if pyarrow.types.is_string(a.type) or pyarrow.types.is_large_string(a.type)
            else pc.is_valid(a, memory_pool=pool)
            for a in arrays
            if not pyarrow.types.is_null(a.type)
        ]
        if not masks:
            return
        kept = functools.reduce(lambda x, y: pc.or_kleene(x, y, memory_pool=pool), masks)
        if kept.true_count == self.height:
            self.rows = range(self.height)
        else:
            self._kept = kept.to_pylist()  # null (nothing in the row) as None: not kept
            self.rows = list(compress(range(self.height), self._kept))

    def column(self, at: int) -> list[Value]:
        """The column at that position, its kept rows (an empty cell None)."""
        array = self._arrays.get(at)
        if array is None:
            return [None] * len(self.rows)
        values = cast(list[Value], array.slice(self._start).to_pylist())
        return values if self._kept is None else list(compress(values, self._kept))

    def every(self, at: int) -> list[Value]:
        """The column at that position, every row (an empty cell ``""``, as python-calamine
        gives it)."""
        array = self._arrays.get(at)
        if array is None:
            return [""] * self.height
        values = array.slice(self._start).to_pylist()
        return list(map(_EMPTY.get, values, values))  # None as "", the rest as they are

    def below(self, rows: int) -> Columns:
        """The cells below the first ``rows`` rows of these."""
        return self if not rows else Columns(self._arrays, self._start + rows)


_EMPTY: dict[Value, Value] = {None: ""}


def rows_of(head: list[list[Value]], header: int, below: Columns) -> list[list[Value]]:
    """The sheet's rows from A1 as python-calamine reads them (an empty cell ``""``, every row
    as wide as the widest): the head's down to the header row, the columns' below it."""
    width = max([below.width, *map(len, head)])
    top = [row + [""] * (width - len(row)) for row in head[: header + 1]]
    columns = [below.every(at) for at in range(width)]
    return top + list(map(list, zip(*columns, strict=True)))


def likely_header(rows: list[list[Value]]) -> int:
    """The first of the rows with two cells or more (0-based): the header row, unless titles
    of two cells stand above it (the league's reader then takes the rows below its header from
    these, :meth:`Columns.below`, or reads the sheet again)."""
    return next((i for i, row in enumerate(rows) if sum(v != "" for v in row) > 1), 0)


def available() -> bool:
    """Whether fastexcel and pyarrow are installed (not in xlwings Lite's Pyodide)."""
    return all(importlib.util.find_spec(name) is not None for name in ("fastexcel", "pyarrow"))


def read_head(package: Package, sheet: SheetRef) -> Head | None:
    """The sheet's first :data:`HEAD_ROWS` rows, read by python-calamine from a package of
    their XML with the workbook's styles, date system and shared strings; None when they
    cannot be cut out (a row without its number, a head past :data:`_HEAD_BYTES`)."""
    xml = _head_xml(package.chunks(sheet.part))
    if xml is None:
        return None
    styles = _related(package, "/styles")
    strings = _related(package, "/sharedStrings")
    book = small_book(styles or b"", [xml], package.date1904, strings)
    try:
        read = python_calamine.CalamineWorkbook.from_filelike(book).get_sheet_by_name("s1")
        rows = cast(list[list[Value]], read.to_python(skip_empty_area=False))
    except python_calamine.CalamineError:
        return None
    if read.start is None:
        return None
    return Head(rows[:HEAD_ROWS], read.start[0])


def _related(package: Package, kind: str) -> bytes | None:
    """The bytes of the workbook's part of that relationship kind (its styles, its shared
    strings), if it has one."""
    part = package.workbook_related(kind)
    return package.read(part) if part is not None and package.has(part) else None


def _head_xml(chunks: Iterable[bytes]) -> bytes | None:
    """The sheet's XML up to its first row past :data:`HEAD_ROWS`, closed: its root element,
    ``sheetData`` and those rows, without the ``dimension`` and the rest a reader might size
    its area by."""
    data = b""
    for chunk in chunks:
        data += chunk
        cut = _head_end(data)
        if cut is not None:
            break
        if len(data) > _HEAD_BYTES:
            return None
    else:
        cut = _head_end(data)
    root = _ROOT.search(data)
    if cut is None or root is None:
        return None
    prefix = (root.group(1) + b":") if root.group(1) else b""
    opened = re.search(rb"<" + re.escape(prefix) + rb"sheetData\s*>", data)
    if opened is None or opened.end() > cut:
        return None
    return (
        b'<?xml version="1.0" encoding="UTF-8"?>'
        + root.group(0)
        + data[opened.start() : cut]
        + b"</"
        + prefix
        + b"sheetData></"
        + prefix
        + b"worksheet>"
    )


def _head_end(data: bytes) -> int | None:
    """Where the head's rows end in ``data``: the start of the first row numbered past
    :data:`HEAD_ROWS`, or the end of ``sheetData``; None when it is not there (yet), or when a
    row has no number."""
    for row in _ROW.finditer(data):
        number = _ROW_NUMBER.search(row.group(1))
        if number is None:
            return None
        if int(number.group(1)) > HEAD_ROWS:
            return row.start()
    end = _SHEET_DATA_END.search(data)
    return end.start() if end is not None else None


_TYPES = frozenset({"string", "large_string", "double", "bool", "null"})
"""The Arrow types a column may have (texts, numbers, TRUE/FALSE, nothing); any other (a date,
a time, a whole number) goes to the rows reader."""


def read_columns(path: Path, name: str, head: Head, header: int) -> Columns | None:
    """The sheet's columns below its header row (0-based, from A1), or None when fastexcel
    cannot show that it reads them as python-calamine does (see the module's docstring)."""
    import logging

    import fastexcel

    # its notes ("could not determine dtype for column 6, falling back to string") are not
    # the user's business: a column of nothing is read as empty either way
    logging.getLogger("fastexcel").setLevel(logging.ERROR)
    if header < head.top:
        return None
    try:
        sheet = fastexcel.read_excel(str(path)).load_sheet_by_name(
            name, header_row=header - head.top, dtype_coercion="strict", schema_sample_rows=None
        )
        table, errors = sheet.to_arrow_with_errors()
    except Exception:  # fastexcel's own refusals: a column of mixed types, no rows ...
        return None
    except BaseException as error:  # a Rust panic is pyo3's PanicException, a BaseException
        if type(error).__name__ == "PanicException":
            return None
        raise
    if errors is not None and errors.errors:
        return None
    arrays = {
        info.absolute_index: table.column(index)
        for index, info in enumerate(sheet.selected_columns)
    }
    if any(str(array.type) not in _TYPES for array in arrays.values()):
        return None
    below = head.rows[header + 1 :]
    first = {at: array.slice(0, len(below)).to_pylist() for at, array in arrays.items()}
    if not _agrees(below, first, table.num_rows):
        return None
    return Columns(arrays)


def _agrees(rows: list[list[Value]], columns: dict[int, list[Value]], height: int) -> bool:
    """Whether the columns' first cells are the head's rows below the header, cell by cell,
    value and type (python-calamine's empty text and fastexcel's None alike empty)."""
    if height < len(rows) and any(any(v != "" for v in row) for row in rows[height:]):
        return False
    for number, row in enumerate(rows[:height]):
        for at, value in enumerate(row):
            mine = None if value == "" else value
            theirs = columns[at][number] if at in columns else None
            theirs = None if theirs == "" else theirs
            if type(mine) is not type(theirs) or mine != theirs:
                return False
        if any(
            at >= len(row) and values[number] not in (None, "") for at, values in columns.items()
        ):
            return False
    return True
