"""The live path inside Excel: one click recomputes the open workbook's Standings (xlwings).

The refresh reads the open workbook through xlwings (each sheet's used range in one call),
runs the same reader, checks and engine as ``xlrally sync``, and writes the same Standings grid
in one block. Problems go to a message box, never a traceback.

Reading and writing go through two small interfaces, so that the same code runs against:

* :class:`~xlrally.excel.xlwings_book.XlwingsBook` — an open workbook in Excel, through any of
  xlwings' engines (:mod:`xlrally.excel.xlwings_book`);
* :class:`~xlrally.excel.memory.MemoryBook` — plain lists that behave as Excel does when values
  are assigned (text starting with ``=`` becomes a formula unless it starts with an
  apostrophe; :mod:`xlrally.excel.memory`). The tests use it to run the refresh here, and the
  file backend (``xlrally sync``) is checked against it.

Both write the grid as :mod:`xlrally.excel.blocks` makes it: one block of values, each look
on its ranges.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from xlrally.core.errors import LeagueProblems, XlrallyError
from xlrally.core.league import compute_standings
from xlrally.core.standings import Standings
from xlrally.core.words import plural
from xlrally.excel.blocks import FORMULA_STARTS, excel_values, looks_by_range
from xlrally.excel.memory import MemoryBook, as_typed
from xlrally.excel.xlwings_book import XlwingsBook, engine_of, excel_refused, points
from xlrally.formats.cells import Row
from xlrally.formats.grid import standings_grid
from xlrally.formats.shown import shown_warnings
from xlrally.formats.workbook import SheetSource, read_league

__all__ = [  # and, for the callers of the one module this was, its backends
    "FORMULA_STARTS",
    "LiveBook",
    "MemoryBook",
    "RefreshOutcome",
    "StandingsTarget",
    "XlwingsBook",
    "alert",
    "as_typed",
    "engine_of",
    "excel_refused",
    "excel_values",
    "looks_by_range",
    "main",
    "points",
    "refresh",
    "refresh_caller",
]

MAX_SHOWN_PROBLEMS = 15


class StandingsTarget(Protocol):
    """Where a Standings grid is written (an open workbook, a file, memory)."""

    def write_standings(self, grid: Sequence[Row]) -> None: ...


class LiveBook(SheetSource, StandingsTarget, Protocol):
    """A workbook that can be read and written in place: what a refresh needs."""


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
        lines.extend(f"Warning: {w}" for w in shown_warnings(table.warnings, 5))
        return "\n".join(lines)


def refresh(book: LiveBook) -> RefreshOutcome:
    """Recompute the Standings of an open workbook. Never raises for a user's mistake."""
    try:
        standings = compute_standings(read_league(book))
        book.write_standings(standings_grid(standings))
    except LeagueProblems as error:
        return RefreshOutcome(None, tuple(str(p) for p in error.problems))
    except XlrallyError as error:
        return RefreshOutcome(None, (str(error),))
    return RefreshOutcome(standings)


def alert(book: Any, outcome: RefreshOutcome) -> None:
    """Show the outcome in a message box: information, or the problems as a critical one."""
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
    alert(book, outcome)


def main() -> None:
    """Entry point for xlwings' "Run main" and quickstart macros."""
    refresh_caller()
