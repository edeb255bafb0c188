"""Reading a workbook file's values fast and safely: python-calamine after the package checks.

python-calamine reads values (not formulas; a formula's cached value) about ten times faster
than openpyxl's read-only mode. It aborts the whole process on a hostile sheet, so each sheet's
area is checked first (:meth:`Package.check_sheet_area`).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar, cast

import python_calamine

from xlrally.core.errors import WorkbookError
from xlrally.formats.cells import Value
from xlrally.ooxml import columnar
from xlrally.ooxml.package import WORKSHEET_TYPE, Package, SheetRef, refuse_area

_Read = TypeVar("_Read")

_OPEN_XML_SUFFIXES = (".xlsx", ".xlsm", ".xltx", ".xltm")

BESIDE_FROM = 2**20
"""A sheet's XML this big (about 20,000 cells) has its formulas checked in a thread beside
its read; a smaller one's first (issue 33: a thread per small sheet was ~6% of a batch's
time, and a batch's workers have no idle core to give it)."""


def _open_values(path: Path) -> python_calamine.CalamineWorkbook:
    """python-calamine picks its reader by the file's suffix; a package already known to be an
    Open XML workbook under another name (``league.xlsb``, ``results``) is opened by content."""
    if path.suffix.lower() in _OPEN_XML_SUFFIXES:
        return python_calamine.CalamineWorkbook.from_path(str(path))
    with path.open("rb") as f:
        return python_calamine.CalamineWorkbook.from_filelike(f)


class FileSheets:
    """A :class:`~xlrally.formats.workbook.tables.SheetSource` over a workbook file (a context
    manager)."""

    def __init__(self, path: str | Path, check_area: bool = True) -> None:
        """``check_area`` False skips the sheet-area check before the read: only for a reader
        running in an isolated child process (xlrally.app.isolate), where a crash cannot take
        anything else down; the sheet's area is then checked on the cells read, so that both
        refuse the same sheets."""
        self.check_area = check_area
        self.package = Package(path)
        try:
            self.package.check_shared_strings()
            self.book = _open_values(Path(path))
        except python_calamine.CalamineError as error:
            self.package.close()
            raise self.package.unreadable(f"cannot read the workbook: {error}") from None
        except BaseException:
            self.package.close()
            raise
        self._cache: dict[str, list[list[Value]]] = {}
        self._heads: dict[str, columnar.Head] = {}
        self._checked: set[str] = set()
        self._as_rows: set[str] = set()
        """Sheets whose head could not be cut out, or that fastexcel could not show it reads
        as python-calamine does."""
        self._columns: dict[str, tuple[int, columnar.Columns]] = {}
        """A sheet's cells read ahead as columns, below the row taken as its header."""
        self.path = Path(path)
        self.epoch = self.package.epoch
        """Day 0 of the workbook's serial dates, for dates typed as plain numbers."""

    def __enter__(self) -> FileSheets:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self.book.close()
        self.package.close()

    def sheet_names(self) -> list[str]:
        return [s.name for s in self.package.sheets if s.kind == WORKSHEET_TYPE]

    def release(self) -> None:
        """Forget the sheets read so far: a big league's rows, once read into a league (whose
        values live on), are most of the memory a sync holds while it writes."""
        self._cache.clear()
        self._heads.clear()
        self._columns.clear()

    def head(self, name: str) -> list[list[Value]] | None:
        """A big sheet's first rows (:data:`~.columnar.HEAD_ROWS`), for its header, when it
        may be read as columns (:meth:`columns_below`); None for a sheet read as rows."""
        ref = self.package.sheet(name)
        if (
            ref is None
            or name in self._cache
            or name in self._as_rows
            or self.path.suffix.lower() not in _OPEN_XML_SUFFIXES
            or self.package.listed(ref.part)[1] < columnar.COLUMNS_FROM
            or not columnar.available()
        ):
            return None
        if name in self._heads:
            return self._heads[name].rows
        self._check(ref)
        head = columnar.read_head(self.package, ref)
        if head is None:
            self._as_rows.add(name)  # not cut out again (by :meth:`values`)
            return None
        self._heads[name] = head
        return head.rows

    def read_ahead(self, name: str) -> None:
        """Read the sheet before the league's reader asks for it (:func:`~xlrally.app.sync.
        read_while_loading`): a big sheet's cells below the row that looks like its header
        as columns, where they can be, else its rows."""
        found = self._below_likely_header(name)
        if found is not None:
            _, header, below = found
            self._columns[name] = (header, below)
        else:
            self.values(name)

    def columns_below(self, name: str, header: int) -> columnar.Columns | None:
        """The sheet's cells below its header row (0-based) as columns, after :meth:`head`;
        None when they must be read as rows (:mod:`~.columnar`)."""
        ahead = self._columns.pop(name, None)
        if ahead is not None and ahead[0] <= header:
            return ahead[1].below(header - ahead[0])
        head, ref = self._heads.get(name), self.package.sheet(name)
        if head is None or ref is None:
            return None
        found = self._beside_formula_check(
            ref, lambda: columnar.read_columns(self.path, name, head, header)
        )
        if found is None:
            self._as_rows.add(name)  # not tried again (by :meth:`values`)
        if found is not None and not self.check_area:
            width = max([found.width, *map(len, head.rows)])
            refuse_area(name, header + 1 + found.height, width)
        return found

    def _rows_by_columns(self, name: str) -> list[list[Value]] | None:
        """A big sheet's rows made of fastexcel's columns below the row that looks like its
        header and python-calamine's head above it, where they read the same (an import's
        reader wants rows: made so, 200,000 rows take 0.75-0.86× the time of python-calamine's
        in a fresh process, pyarrow's import included)."""
        found = self._below_likely_header(name)
        return None if found is None else columnar.rows_of(*found)

    def _below_likely_header(
        self, name: str
    ) -> tuple[list[list[Value]], int, columnar.Columns] | None:
        """A big sheet's head, the row that looks like its header, and its cells below that
        row as columns; None when it must be read as rows."""
        head = self.head(name)
        if head is None:
            return None
        header = columnar.likely_header(head)
        below = self.columns_below(name, header)
        return None if below is None else (head, header, below)

    def _read(self, name: str) -> list[list[Value]]:
        """The sheet's values as python-calamine reads them."""
        try:
            sheet = self.book.get_sheet_by_name(name)
            return cast(list[list[Value]], sheet.to_python(skip_empty_area=False))
        except python_calamine.CalamineError as error:
            raise self.package.unreadable(f"{name}: cannot read the sheet: {error}") from None

    def _check(self, ref: SheetRef) -> None:
        """The checks before a sheet is read, once (a sheet :meth:`head` looked at may yet be
        read as rows): its area (or, in an isolated child, its XML's head)."""
        if ref.part in self._checked:
            return
        if self.check_area:
            self.package.check_sheet_area(ref)
        else:
            self.package.check_head(ref)
        self._checked.add(ref.part)

    def _beside_formula_check(self, ref: SheetRef, read: Callable[[], _Read]) -> _Read:
        """``read()``, after or beside the sheet's formula check: the check decompresses the
        sheet's XML a second time; zlib, python-calamine and fastexcel all release the GIL, so
        for a big sheet it runs beside the read. A small sheet's is done first: a thread would
        cost more than it saves."""
        if self.package.listed(ref.part)[1] < BESIDE_FROM:
            self.package.check_formulas(ref)
            return read()
        with ThreadPoolExecutor(1) as beside:
            formulas = beside.submit(self.package.check_formulas, ref)
            try:
                found = read()
            except WorkbookError:
                formulas.result()  # a formula problem is the clearer message
                raise
            formulas.result()
        return found

    def values(self, name: str) -> list[list[Value]]:
        if name not in self._cache:
            ref = self.package.sheet(name)
            if ref is None:
                raise WorkbookError(f"the workbook has no sheet {name!r}")
            self._check(ref)
            rows = self._rows_by_columns(name)
            if rows is None:
                rows = self._beside_formula_check(ref, lambda: self._read(name))
            if not self.check_area:  # the same limit, on the cells read (a hostile sheet
                # that python-calamine cannot even hold ends the child by its memory limit)
                refuse_area(name, len(rows), max(map(len, rows), default=0))
            self._cache[name] = rows
        return self._cache[name]
