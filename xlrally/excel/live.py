"""The live path inside Excel: one click recomputes the open workbook's Standings (xlwings).

The refresh reads the open workbook through xlwings (each sheet's used range in one call),
runs the same reader, checks and engine as ``xlrally sync``, and writes the same Standings grid
in one block. Problems go to a message box, never a traceback.

Reading and writing go through two small interfaces, so that the same code runs against:

* :class:`XlwingsBook` — an open workbook in Excel (needs Excel; not on Linux);
* :class:`MemoryBook` — plain lists that behave as Excel does when values are assigned
  (text starting with ``=`` becomes a formula unless it starts with an apostrophe). The tests
  use it to run the refresh here, and the file backend (``xlrally sync``) is checked against it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from xlrally.core.errors import LeagueProblems, XlrallyError
from xlrally.core.league import compute_standings
from xlrally.core.model import Standings
from xlrally.core.numbers import plural
from xlrally.formats.cells import (
    DATE_1904,
    EXCEL_EPOCH,
    Look,
    Row,
    Value,
    column_letter,
    norm,
)
from xlrally.formats.grid import SHEET_NAME, standings_grid
from xlrally.formats.layout import MemorySheets, SheetSource, read_league

FORMULA_STARTS = ("=", "+", "-", "@")
"""Excel takes an assigned text starting with one of these as a formula."""
MAX_SHOWN_PROBLEMS = 15


class StandingsTarget(Protocol):
    """Where a Standings grid is written (an open workbook, a file, memory)."""

    def write_standings(self, grid: Sequence[Row]) -> None: ...


class LiveBook(SheetSource, StandingsTarget, Protocol):
    """A workbook that can be read and written in place: what a refresh needs."""


def excel_values(grid: Sequence[Row]) -> list[list[Any]]:
    """The grid as one rectangular block of values to assign to a range.

    Text that Excel would take as a formula gets a leading apostrophe (Excel's mark for
    "this is text"; the apostrophe is not part of the value). Missing cells are None.
    """
    width = max((len(row) for row in grid), default=0)
    block = []
    for row in grid:
        values: list[Any] = []
        for cell in row:
            value = cell.value
            if isinstance(value, str) and value.startswith((*FORMULA_STARTS, "'")):
                value = "'" + value
            values.append(value)
        block.append(values + [None] * (width - len(values)))
    return block


def looks_by_range(grid: Sequence[Row]) -> dict[Look, list[str]]:
    """For each look but the plain one, the A1 addresses it applies to, runs merged per column."""
    addresses: dict[Look, list[str]] = {}
    for col in range(max((len(r) for r in grid), default=0)):
        letter = column_letter(col)
        run_start = run_look = None
        for number in range(1, len(grid) + 2):
            row = grid[number - 1] if number <= len(grid) else ()
            look = row[col].look if col < len(row) and row[col].value is not None else None
            if look != run_look:
                if run_look is not None and run_look != Look() and run_start is not None:
                    end = number - 1
                    cell = f"{letter}{run_start}" + (f":{letter}{end}" if end > run_start else "")
                    addresses.setdefault(run_look, []).append(cell)
                run_start, run_look = number, look
    return addresses


def union_addresses(cells: list[str], limit: int = 250) -> list[str]:
    """Comma-joined address lists no longer than Excel's 255-character range text."""
    chunks: list[str] = []
    for cell in cells:
        if chunks and len(chunks[-1]) + 1 + len(cell) <= limit:
            chunks[-1] += "," + cell
        else:
            chunks.append(cell)
    return chunks


# ---------------------------------------------------------------- the in-memory backend


@dataclass
class MemoryBook(MemorySheets):
    """An in-memory workbook that takes assigned values as Excel does, for tests.

    ``formulas`` records cells Excel would have taken as formulas; ``looks`` the formats set.
    """

    formulas: dict[tuple[str, str], str] = field(default_factory=dict)
    looks: dict[tuple[str, str], Look] = field(default_factory=dict)

    def assign(self, sheet: str, block: list[list[Any]]) -> None:
        """Assign a block of values at A1, as ``range.value = block`` does in Excel."""
        rows: list[list[Value]] = []
        for r, values in enumerate(block, start=1):
            row: list[Value] = []
            for c, assigned in enumerate(values):
                value = assigned
                if isinstance(value, str) and value.startswith("'"):
                    value = value[1:]
                elif isinstance(value, str) and value.startswith(FORMULA_STARTS):
                    self.formulas[(sheet, f"{column_letter(c)}{r}")] = value
                    value = None  # a formula's value is not known here
                row.append(value)
            rows.append(row)
        self.sheets[sheet] = rows

    def write_standings(self, grid: Sequence[Row]) -> None:
        name = next((n for n in self.sheets if norm(n) == norm(SHEET_NAME)), SHEET_NAME)
        self.formulas = {k: v for k, v in self.formulas.items() if k[0] != name}
        self.assign(name, excel_values(grid))
        self.looks = {k: v for k, v in self.looks.items() if k[0] != name}
        for look, cells in looks_by_range(grid).items():
            for cell in cells:
                self.looks[(name, cell)] = look


# ---------------------------------------------------------------- the xlwings backend


def _uses_1904(book: Any) -> bool:
    """Excel's ``Workbook.Date1904`` through COM on Windows; False where it cannot be read
    (other backends; there, dates typed as plain numbers count from 1899-12-30)."""
    try:
        return bool(book.api.Date1904)
    except Exception:  # no api, or a backend without the property
        return False


class XlwingsBook:
    """An open workbook in Excel, through xlwings: whole ranges at once, never cell by cell."""

    def __init__(self, book: Any) -> None:
        self.book = book
        self.epoch = DATE_1904 if _uses_1904(book) else EXCEL_EPOCH

    def sheet_names(self) -> list[str]:
        return [sheet.name for sheet in self.book.sheets]

    def values(self, name: str) -> list[list[Value]]:
        sheet = self.book.sheets[name]
        last = sheet.used_range.last_cell
        block = sheet.range((1, 1), (last.row, last.column))
        values: list[list[Value]] = block.options(ndim=2).value
        return values

    def write_standings(self, grid: Sequence[Row]) -> None:
        names = {norm(s.name): s for s in self.book.sheets}
        sheet = names.get(norm(SHEET_NAME))
        if sheet is None:
            sheet = self.book.sheets.add(SHEET_NAME, after=self.book.sheets[-1])
        sheet.clear()
        block = excel_values(grid)
        if block:
            sheet.range("A1").value = block
        for look, cells in looks_by_range(grid).items():
            for address in union_addresses(cells):
                target = sheet.range(address)
                if look.number_format:
                    target.number_format = look.number_format
                target.font.bold = look.bold
                target.font.italic = look.italic
                if look.colour:
                    target.font.color = tuple(int(look.colour[i : i + 2], 16) for i in (0, 2, 4))
        sheet.autofit("columns")


# ---------------------------------------------------------------- the refresh


@dataclass(frozen=True)
class RefreshOutcome:
    """What a refresh did: the standings written, or the problems found (nothing written)."""

    standings: Standings | None
    problems: tuple[str, ...] = ()

    @property
    def message(self) -> str:
        """The text for the message box."""
        if self.standings is None:
            shown = list(self.problems[:MAX_SHOWN_PROBLEMS])
            more = len(self.problems) - len(shown)
            if more:
                shown.append(f"... and {more} more (run `xlrally check` for all)")
            return "The standings were not updated:\n" + "\n".join(shown)
        table = self.standings
        players, events = plural(len(table.rows), "player"), plural(len(table.held), "event")
        lines = [f"Standings updated: {players}, {events}."]
        lines.extend(f"Warning: {w}" for w in table.warnings)
        return "\n".join(lines)


def refresh(book: LiveBook) -> RefreshOutcome:
    """Recompute the Standings of an open workbook. Never raises for a user's mistake."""
    try:
        standings = compute_standings(read_league(book))
    except LeagueProblems as error:
        return RefreshOutcome(None, tuple(str(p) for p in error.problems))
    except XlrallyError as error:
        return RefreshOutcome(None, (str(error),))
    book.write_standings(standings_grid(standings))
    return RefreshOutcome(standings)


def _alert(book: Any, outcome: RefreshOutcome) -> None:
    title = "xlrally" if outcome.standings is not None else "xlrally: problems"
    mode = "info" if outcome.standings is not None else "critical"
    book.app.alert(outcome.message, title=title, mode=mode)


def refresh_caller() -> None:
    """Run by a button or "Run main": refresh the workbook that called, say what happened.

    When called from an add-in (its own workbook is the caller), the active workbook is used.
    """
    import xlwings as xw

    book = xw.Book.caller()
    if str(book.name).lower().endswith(".xlam"):
        book = xw.books.active
    outcome = refresh(XlwingsBook(book))
    _alert(book, outcome)


def main() -> None:
    """Entry point for xlwings' "Run main" and quickstart macros."""
    refresh_caller()
