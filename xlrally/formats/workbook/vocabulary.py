"""The workbook's words: the columns (and their other spellings) each field is read from,
the sheets with a job of their own, and how a header that names no field is explained.

Column and sheet names match case-insensitively, ignoring spaces and punctuation
(:func:`~xlrally.core.names.norm`). The settings' names are in
:mod:`~xlrally.formats.workbook.settings`. See docs/workbook-format.md.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from xlrally.formats.cells import Value, norm

HEADER_SEARCH_ROWS = 20
"""The header row of a sheet is looked for in its first 20 rows."""

# Column names per field; the first spelling is the one documented and written by templates.
COLUMNS: dict[str, tuple[str, ...]] = {
    "event": ("Event", "Event name", "Tournament"),
    "date": ("Date",),
    "rounds": ("Rounds", "Number of rounds"),
    "buy-in": ("Buy-in", "Buyin", "Buy in"),
    "world championship": ("World Championship", "WC"),
    "players": ("Players", "Field size", "Number of players"),
    "weight": ("Weight", "Multiplier", "Points multiplier"),
    "section": ("Section", "Sections", "Division"),
    "amount": ("Amount", "Prize"),
    "item": ("Item", "What", "Description"),
    "share": ("Share", "Percent", "% of pot"),
    "value": ("Value", "Tournament value"),
    "status": ("Status",),
    "season": ("Season",),
    "player": ("Player", "Name", "Player name"),
    "points": ("Points", "Score"),
    "games": ("Games", "Games played"),
    "byes": ("Byes",),
    "rank": ("Rank", "Place", "Placement", "Position", "Finish"),
    "total": ("Total", "Total expense"),
    "country": ("Country",),
    "alias": ("Alias", "Also known as"),
    "bonus": ("Bonus", "Bonus points"),
    "knockouts": ("Knockouts", "KOs", "Knock-outs", "Eliminations"),
    "re-buys": ("Re-buys", "Rebuys", "Re-buy", "Rebuy"),
    "knocked out by": ("Knocked out by", "Eliminated by", "Busted by", "Hitman"),
    "team": ("Team", "Club"),
}

RESERVED_SHEETS = frozenset(
    {"settings", "events", "points", "players", "results", "standings", "xlwingsconf", "ledger"}
)
"""Sheets with a job of their own: never taken as an event's results sheet."""

_SPELLINGS = {norm(s): f for f, spellings in COLUMNS.items() for s in spellings}


def field_named(header: str) -> str | None:
    """The field a column header names (``Place`` -> ``rank``), as every sheet is read."""
    return _SPELLINGS.get(norm(header))


def known_headers(row: list[Value]) -> int:
    return sum(isinstance(v, str) and norm(v) in _SPELLINGS for v in row)


def missing_column(field_name: str, headers: Sequence[str]) -> str:
    """Why a column was not found: the headers there are, and the closest unknown one
    (``if 'No. of rounds' is it, rename it 'Rounds'``)."""
    wanted = COLUMNS[field_name][0]
    listed = ", ".join(repr(h) for h in headers) or "none"
    message = f"no {wanted} column (the headers are {listed})"

    def likeness(header: str) -> float:
        return max(
            difflib.SequenceMatcher(None, norm(header), norm(spelling)).ratio()
            for spelling in COLUMNS[field_name]
        )

    unknown = [h for h in headers if norm(h) not in _SPELLINGS]
    closest = max(unknown, key=likeness, default=None)
    if closest is not None and likeness(closest) >= 0.5:
        message += f"; if {closest!r} is it, rename it {wanted!r}"
    return message


def has_columns(rows: list[list[Value]], fields: Sequence[str]) -> bool:
    return any(
        set(fields) <= {_SPELLINGS.get(norm(v)) for v in row if isinstance(v, str)}
        for row in rows[:HEADER_SEARCH_ROWS]
    )
