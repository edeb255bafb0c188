"""The Standings sheet as a grid of cells: what to write, with how each cell looks.

Pure: both the file writer (:mod:`xlrally.xlsx_writer`) and the live Excel path write this same
grid, so a synced file and a refreshed open workbook show the same Standings.

Layout: row 1 headers ``Rank, Player, Total (Rating), Events, <one column per event>, Working``;
one row per player; then a blank row and notes (the rule applied, how to read the marks,
warnings). Ranks are numbers; a shared rank shows as ``3=`` through its number format, so
formulas still see 3. Counted scores are bold; dropped ones are grey italic in brackets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from xlrally.league import Standings
from xlrally.numeric import show
from xlrally.standings import TIE_BREAKS, Standing

SHEET_NAME = "Standings"


@dataclass(frozen=True)
class Look:
    """How a cell looks: font and number format (None = General)."""

    bold: bool = False
    italic: bool = False
    grey: bool = False
    number_format: str | None = None


HEADER = Look(bold=True)
RANK = Look(number_format="0")
RANK_TIED = Look(number_format='0"="')
"""A shared rank shows as 3= while the cell holds the number 3."""
NOTE = Look(italic=True)
PLAIN = Look()


class Cell(NamedTuple):
    """One cell: a value (text is always written as text, never as a formula) and its look."""

    value: str | float | int | None
    look: Look = PLAIN


Row = tuple[Cell, ...]


def _formats(decimals: int) -> tuple[str, str]:
    number = "0" if decimals == 0 else "0." + "0" * decimals
    return number, f"({number})"


def decimals(standings: Standings) -> int:
    """0 when every total and score is whole, else 2 (the places shown)."""
    for row in standings.rows:
        if not float(row.total).is_integer():
            return 2
        for score in row.scores:
            value = score.value
            if type(value) is not int and not float(value).is_integer():
                return 2
    return 0


def standings_grid(standings: Standings) -> tuple[Row, ...]:
    """The Standings sheet for these standings (see the module docstring)."""
    number, bracketed = _formats(decimals(standings))
    counted_look = Look(bold=True, number_format=number)
    dropped_look = Look(italic=True, grey=True, number_format=bracketed)
    held = standings.held
    total_name = "Rating" if standings.system == "dippouch" else "Total"
    rows: list[Row] = [
        tuple(Cell(h, HEADER) for h in ("Rank", "Player", total_name, "Events", *held, "Working"))
    ]
    total_look = Look(bold=True, number_format=number)
    for row in standings.rows:
        cells = [
            Cell(row.rank, RANK_TIED if row.tied else RANK),
            Cell(row.player),
            Cell(row.total, total_look),
            Cell(row.events),
        ]
        by_event = {s.event: s for s in row.scores}
        for event in held:
            score = by_event.get(event)
            if score is None:
                cells.append(Cell(None))
            else:
                look = counted_look if event in row.counted else dropped_look
                cells.append(Cell(score.value, look))
        cells.append(Cell(working(row, standings)))
        rows.append(tuple(cells))
    rows.append(())
    for line in notes(standings):
        rows.append((Cell(line, NOTE),))
    return tuple(rows)


def working(row: Standing, standings: Standings) -> str:
    """One cell of working: each counted score's formula, then the dropped scores in short.

    ``Dec 2025: 100 × 3 / 4 + 4 = 79; Feb 2026: 100 × 4 / 6 + 6 = 72. Dropped (best 2
    count): May 2026 (21).`` The full working of every score is in the JSON and on the page.
    """
    counted = [f"{s.event}: {s.explain}" for s in row.scores if s.event in row.counted]
    dropped = [f"{s.event} ({show(s.value)})" for s in row.scores if s.event not in row.counted]
    text = "; ".join(counted)
    if dropped:
        why = (
            "worth 0 before 2001"
            if standings.system == "dippouch"
            else f"best {standings.counted_per_player} count"
        )
        text += f". Dropped ({why}): {', '.join(dropped)}"
    if row.decided_by and row.decided_by != "tied":
        text += f". Tie with the row above broken by {row.decided_by}"
    return text + "." if text else ""


def notes(standings: Standings) -> list[str]:
    """The lines under the table: title, rule, marks, events not scored, warnings."""
    settings = standings.settings
    title = " ".join(part for part in (settings.league, settings.season) if part)
    lines = [f"{title}: {standings.rule}" if title else standings.rule]
    if standings.system == "dippouch":
        lines.append(
            "Event columns show the percentile; bold events moved the rating, "
            "(bracketed) ones are worth 0 (before 2001)."
        )
    else:
        lines.append("Bold scores count towards the total; (bracketed) scores are dropped.")
    if any(r.decided_by not in (None, "tied") for r in standings.rows):
        tie_breaks = ", ".join(TIE_BREAKS[t] for t in settings.tie_breaks)
        lines.append(f"Equal totals are separated by: {tie_breaks}.")
    for event in standings.events:
        if not event.held:
            lines.append(f"Not scored: {event.name} ({event.status}).")
    if standings.as_of is not None:
        lines.append(f"As of {standings.as_of.isoformat()}.")
    lines.extend(f"Warning: {w}" for w in standings.warnings)
    return lines
