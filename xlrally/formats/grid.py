"""The Standings sheet as a grid of cells: what to write, with how each cell looks.

Pure: both the file writer (:mod:`xlrally.ooxml.writer`) and the live Excel path write this same
grid, so a synced file and a refreshed open workbook show the same Standings.

Layout: row 1 headers ``Rank, Player, Total (Rating), Events, <one column per event>, Working``;
one row per player; then a blank row and notes (the rule applied, how to read the marks,
warnings). Ranks are numbers; a shared rank shows as ``3=`` through its number format, so
formulas still see 3. Counted scores are bold; dropped ones are grey italic in brackets.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import compress
from operator import itemgetter

from xlrally.core.numbers import show
from xlrally.core.ranking import TIE_BREAKS, Standing
from xlrally.core.sections import of_section, section_names
from xlrally.core.standings import Standings
from xlrally.core.teams import team_rule
from xlrally.core.words import plural
from xlrally.formats.cells import (
    MAX_CELL_TEXT,
    PLAIN,
    Cell,
    Look,
    PrintSetup,
    Row,
    SheetRow,
    SparseRow,
    row_cells,
    row_width,
)
from xlrally.formats.shown import shown_warnings
from xlrally.formats.treasury import (
    EVENT_HEADINGS,
    MONEY_HEADINGS,
    account_rows,
    event_rows,
    money_lines,
    outlook_headings,
    outlook_lines,
    outlook_rows,
)
from xlrally.formats.view import (
    RowView,
    StandingsView,
    event_notes,
    league_title,
    pot_summary,
    prize_rows,
    standings_view,
)

SHEET_NAME = "Standings"

SHORTENED = " … (shortened to fit a cell; the full working is in `xlrally standings -f json`)"

HEADER = Look(bold=True)
"""A heading over text (Player, Country, Working): left, as the text below it."""
HEADER_NUMBER = Look(bold=True, align="right")
"""A heading over numbers: right, as the numbers below it."""
HEADER_RANK = Look(bold=True, align="center")
RANK = Look(number_format="0", align="center")
RANK_TIED = Look(number_format='0"="', align="center")
"""Ranks are centred, clear of the names beside them."""
"""A shared rank shows as 3= while the cell holds the number 3."""
NOTE = Look(italic=True)
SECTION = Look(bold=True)
"""The title row over a section's table."""


@functools.cache
def needs_look(needs: int) -> Look:
    """A player's Events cell: with ``needs`` events still to play to qualify, the number
    format shows them, ``2 (needs 1 more)``, inside the printed area (the Working column,
    which says it too, is not printed); the cell still holds 2, for formulas."""
    return Look(number_format=f'0" (needs {needs} more)"') if needs else PLAIN


def _formats(decimals: int) -> tuple[str, str]:
    number = "0" if decimals == 0 else "0." + "0" * decimals
    return number, f"({number})"


def standings_grid(standings: Standings) -> tuple[Row, ...]:
    """:func:`standings_sheet` cell by cell: what every writer but the file's writes (Excel,
    LibreOffice, a new workbook), and what a sheet read back is compared with."""
    return tuple(map(row_cells, standings_sheet(standings)))


def standings_sheet(standings: Standings) -> tuple[SheetRow, ...]:
    """The Standings sheet for these standings (see the module docstring): the table, the
    notes under it, then a table per section (a title row, then the section's players ranked
    among themselves: rank, player, total, events), the team table, then the prizes. The
    table's rows are sparse (:class:`~xlrally.formats.cells.SparseRow`: no cell object per
    score), as the file's writer takes them."""
    table = standings_view(standings)
    rows: list[SheetRow] = _table(table)
    rows.append(())
    for line in notes(table):
        rows.append((Cell(fit(line), NOTE),))
    for name in section_names(standings):
        rows.append(())
        rows.append((Cell(f"Section: {name}", SECTION),))
        rows.extend(_short_table(table, of_section(standings, name).rows))
    if standings.teams:
        rows += [(), *_teams(table)]
    if standings.payouts:
        money = Look(number_format="0.00")
        rows += [(), (Cell("Prizes", SECTION),)]
        rows.append(tuple(Cell(h, HEADER) for h in ("Section", "Player", "Prize", "Working")))
        for section, player, amount, explain in prize_rows(standings):
            rows.append(
                (Cell(section or None), Cell(player), Cell(amount, money), Cell(fit(explain)))
            )
        rows.append((Cell(pot_summary(standings), NOTE),))
    rows.extend(_money(standings))
    rows.extend(_outlook(standings))
    return tuple(rows)


def _money(standings: Standings) -> list[Row]:
    """The money section: each player's paid, due and balance, each event's takings and what
    it withheld, then the money in words (nothing for a league that keeps no money)."""
    money = standings.money
    if money is None:
        return []
    amount = Look(number_format="0.00")
    rows: list[Row] = [(), (Cell("Money", SECTION),)]
    rows.append(
        tuple(Cell(h, HEADER if i == 0 else HEADER_NUMBER) for i, h in enumerate(MONEY_HEADINGS))
    )
    for player, paid, due, balance in account_rows(money):
        rows.append((Cell(player), Cell(paid, amount), Cell(due, amount), Cell(balance, amount)))
    if money.events:
        rows.append(())
        rows.append(
            tuple(
                Cell(h, HEADER if h in ("Event", "Working") else HEADER_NUMBER)
                for h in EVENT_HEADINGS
            )
        )
        for event, took, withheld, explain, pool, paid_out in event_rows(money):
            rows.append(
                (
                    Cell(event),
                    Cell(took, amount),
                    Cell(withheld, amount),
                    Cell(fit(explain) or None),
                    Cell(pool, amount),
                    Cell(paid_out, amount),
                )
            )
    rows.extend((Cell(fit(line), NOTE),) for line in money_lines(standings))
    return rows


def _outlook(standings: Standings) -> list[Row]:
    """What it takes: a row per player with a goal left, a column per goal, and the note."""
    outlook = standings.outlook
    if outlook is None:
        return []
    rows: list[Row] = [(), (Cell("What it takes", SECTION),)]
    if outlook.prospects:
        rows.append(tuple(Cell(h, HEADER) for h in outlook_headings(outlook)))
        rows.extend(tuple(Cell(text) for text in row) for row in outlook_rows(standings))
    rows.extend((Cell(fit(line), NOTE),) for line in outlook_lines(standings))
    return rows


def _short_table(table: StandingsView, standings: Sequence[Standing]) -> list[Row]:
    """A section's table: rank, player, (country,) total and events of ``standings`` (the
    scores and the working are in the league's ``table`` above)."""
    number, _ = _formats(table.places)
    total_look = Look(bold=True, number_format=number)
    headings = table.headings[: len(table.leading) + 2]
    rows: list[Row] = [
        tuple(
            Cell(h, HEADER_RANK if i == 0 else HEADER if i < len(table.leading) else HEADER_NUMBER)
            for i, h in enumerate(headings)
        )
    ]
    for row in standings:
        cells = [Cell(row.shown_rank, RANK_TIED if row.tied else RANK), Cell(row.player)]
        if table.countries:
            cells.append(Cell(table.country(row.player) or None))
        rows.append((*cells, Cell(row.total, total_look), Cell(row.events, needs_look(row.needs))))
    return rows


def _teams(table: StandingsView) -> list[Row]:
    """The team table: a title row with its rule, then rank, team, total and the working
    (the scores counted)."""
    standings = table.standings
    rule = standings.settings.teams
    number, _ = _formats(table.places)
    total_look = Look(bold=True, number_format=number)
    title = team_rule(rule.best_n or 0, rule.scores)
    rows: list[Row] = [
        (Cell(title, SECTION),),
        (
            Cell("Rank", HEADER_RANK),
            Cell("Team", HEADER),
            Cell("Total", HEADER_NUMBER),
            Cell("Working", HEADER),
        ),
    ]
    for team in standings.teams:
        rank = Cell(team.rank, RANK_TIED if team.tied else RANK)
        rows.append((rank, Cell(team.team), Cell(team.total, total_look), Cell(fit(team.explain))))
    return rows


def _table(table: StandingsView) -> list[SheetRow]:
    """The heading row and one row per player (sparse: a score cell per event played)."""
    number, bracketed = _formats(table.places)
    counted_look = Look(bold=True, number_format=number)
    dropped_look = Look(italic=True, grey=True, number_format=bracketed)
    looks = (dropped_look, counted_look)  # by whether a score counted
    texts = len(table.leading)  # Player (and Country) after Rank hold text
    rows: list[SheetRow] = [
        (
            Cell("Rank", HEADER_RANK),
            *(
                Cell(h, HEADER if i < texts else HEADER_NUMBER)
                for i, h in enumerate(table.headings)
                if i
            ),
            Cell("Working", HEADER),
        )
    ]
    total_look = Look(bold=True, number_format=number)
    first = len(table.leading) + 2  # the first event's column, after Total and Events
    columns = range(first, first + len(table.held))
    for view in table.rows:
        row = view.standing
        head = [Cell(row.shown_rank, RANK_TIED if row.tied else RANK), Cell(row.player)]
        if table.countries:
            head.append(Cell(table.country(row.player) or None))
        head += [Cell(row.total, total_look), Cell(row.events, needs_look(row.needs))]
        shown = list(filter(None, view.scores))  # at C speed: a score per event played
        rows.append(
            SparseRow(
                tuple(head),
                list(compress(columns, view.scores)),
                list(map(itemgetter(1), shown)),  # each ScoreView's value
                list(map(looks.__getitem__, map(itemgetter(2), shown))),  # and its look
                columns.stop,
                (Cell(working(view, table)),),
            )
        )
    return rows


def working(row: RowView, table: StandingsView) -> str:
    """One cell of working: each counted score's formula, then the dropped scores in short.

    ``Dec 2025: 100 × 3 / 4 + 4 = 79; Feb 2026: 100 × 4 / 6 + 6 = 72. Dropped (best 2
    count): May 2026 (21).`` The full working of every score is in the JSON and on the page.
    """
    scores = [s for s in row.scores if s is not None]
    counted = [f"{s.event}: {s.explain}" for s in scores if s.counted]
    dropped = [f"{s.event} ({show(s.value)})" for s in scores if not s.counted]
    text = "; ".join(counted)
    short = row.standing.needs
    if short:
        minimum = table.standings.settings.min_events
        text = f"Needs {plural(short, 'more event')} to qualify (minimum {minimum}). {text}"
    if dropped:
        text += f". Dropped ({table.dropped_reason}): {', '.join(dropped)}"
    if row.broken_tie:
        text += f". Tie with the row above broken by {row.broken_tie}"
    return fit(text + "." if text else "")


def fit(text: str) -> str:
    """A text cut to what an Excel cell holds (32,767 characters), saying so at its end: a
    league of thousands of players can make a working or a note longer than that."""
    if len(text) > MAX_CELL_TEXT:
        return text[: MAX_CELL_TEXT - len(SHORTENED)] + SHORTENED
    return text


def notes(table: StandingsView) -> list[str]:
    """The lines under the table: title, rule, marks, events not scored, warnings."""
    standings = table.standings
    lines = [f"{table.title}: {standings.rule}" if table.title else standings.rule]
    lines.append(table.marks)
    if any(r.broken_tie for r in table.rows):
        tie_breaks = ", ".join(TIE_BREAKS[t] for t in standings.settings.tie_breaks)
        lines.append(f"Equal totals are separated by: {tie_breaks}.")
    lines.extend(event_notes(standings))
    lines.extend(f"Warning: {w}" for w in shown_warnings(standings.warnings))
    return lines


def print_setup(standings: Standings, grid: Sequence[SheetRow]) -> PrintSetup:
    """How the Standings sheet of this grid prints: titled, the table without its last column
    (Working)."""
    return PrintSetup(league_title(standings.settings) or SHEET_NAME, row_width(grid[0]) - 1)
