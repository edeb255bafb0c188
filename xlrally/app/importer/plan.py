"""Which cells the import writes: the event's result rows (appended after the last row, or over
its old rows with ``--replace``) and its row in Events (date, rounds, season). Only values that
differ from what the cells hold are written, so that importing a file again changes nothing."""

from __future__ import annotations

import datetime as dt
import operator
import re

from xlrally.app.importer.incoming import Incoming
from xlrally.core.errors import XlrallyError
from xlrally.core.model import League
from xlrally.core.names import norm
from xlrally.core.players import key
from xlrally.core.seasons import LONGEST_SEASON, seasons
from xlrally.formats.cells import Value, blank, text_of, to_date, to_number
from xlrally.formats.workbook import COLUMNS, HEADER_SEARCH_ROWS, Table, find_table
from xlrally.ooxml.in_place import Rows, Written

NOT_IN_SHEET_NAMES = re.compile(r"[\\/*?:\[\]]")


def same(old: Value, new: Written) -> bool:
    """Whether a cell holding ``old`` already says ``new`` (as the league would read it)."""
    if blank(old) and new is None:
        return True
    if isinstance(new, dt.date):
        try:
            return to_date(old) == new
        except ValueError:
            return False
    if isinstance(new, int | float) and not isinstance(old, str | type(None)):
        try:
            return float(to_number(old, "")) == float(new)
        except ValueError:
            return False
    if isinstance(new, str) and isinstance(old, str):
        return key(old) == key(new)  # a name or event as the league matches it
    return False


def _last_row(rows: list[list[Value]]) -> int:
    """The last row with anything in it (1-based; 0 for an empty sheet)."""
    for index in range(len(rows) - 1, -1, -1):
        if not all(blank(v) for v in rows[index]):
            return index + 1
    return 0


class SheetWrites:
    """The cells to write on one sheet, and the rows they extend. Its header is found as the
    league's reader finds it; the rows below are looked at only where needed (a big league's
    Results sheet has 200,000)."""

    def __init__(self, name: str, rows: list[list[Value]], required: tuple[str, ...]) -> None:
        self.name = name
        self.table = find_table(name, rows[:HEADER_SEARCH_ROWS], required)
        """The header and its columns (its ``rows`` are only those in the first rows)."""
        self.rows = rows
        self.cells: dict[int, dict[int, Written]] = {}
        last = _last_row(rows)
        self.extent = Rows(self.table.header, max(last, self.table.header))
        self.next_row = self.extent.last + 1
        self.like = last if last > self.table.header else None
        """The table's last row, whose look new rows take."""

    def body(self) -> list[tuple[int, list[Value]]]:
        """The rows below the header that have anything in them, with their numbers."""
        header = self.table.header
        return [
            (number, values)
            for number, values in enumerate(self.rows[header:], start=header + 1)
            if not all(blank(v) for v in values)
        ]

    def rows_of(self, event: str) -> list[tuple[int, list[Value]]]:
        """The rows whose Event is ``event`` (as the league matches names), found from the
        distinct names of the column (a big league repeats a hundred)."""
        index = self.table.columns.get("event")
        if index is None:
            return self.body()
        header = self.table.header
        column = _column(self.rows[header:], index)
        wanted = norm(event)
        names = {v for v in set(column) if not blank(v) and norm(text_of(v)) == wanted}
        if not names:
            return []
        return [
            (number, self.rows[number - 1])
            for number, value in enumerate(column, start=header + 1)
            if value in names
        ]

    def value(self, row: int, column: int) -> Value:
        values = self.rows[row - 1] if row - 1 < len(self.rows) else []
        return values[column] if column < len(values) else None

    def put(self, row: int, column: int, value: Written) -> None:
        if not same(self.value(row, column), value):
            self.cells.setdefault(row, {})[column] = value

    def append(self) -> int:
        self.next_row += 1
        return self.next_row - 1

    @property
    def new_last(self) -> int:
        """The last row once written."""
        return max(*self.cells, self.extent.last)

    @property
    def widest(self) -> int:
        """The last column written (0-based)."""
        return max(c for row in self.cells.values() for c in row)


def _column(rows: list[list[Value]], index: int) -> list[Value]:
    """One column's values (None where a row is too short), at C speed when it can be."""
    if rows and min(map(len, rows)) > index:
        return list(map(operator.itemgetter(index), rows))
    return [r[index] if index < len(r) else None for r in rows]


def _columns_for(
    incoming_fields: set[str], table: Table, results: tuple[dict[str, Written], ...]
) -> None:
    """Refuse when a value that matters has no column to go in."""
    for name in incoming_fields - set(table.columns):
        if name == "byes" and all(not r.get("byes") for r in results):
            continue
        if name == "games":
            continue  # checked by the caller against rounds - byes
        raise XlrallyError(
            f"{table.sheet!r} has no {COLUMNS[name][0]} column for the imported "
            f"{COLUMNS[name][0].lower()}; add one (header {COLUMNS[name][0]!r}) and import again"
        )


def plan_results(
    writes: SheetWrites,
    event: str,
    results: tuple[dict[str, Written], ...],
    replace: bool,
    rounds: int | None,
) -> tuple[bool, dict[int, int]]:
    """Plan the result rows: True when the event already has exactly these results, and the
    row each result goes in (by its index in ``results``)."""
    table = writes.table
    event_column = table.columns.get("event")
    mine = writes.rows_of(event)
    fields = {f for r in results for f in r}
    _columns_for(fields, table, results)
    if "games" in fields and "games" not in table.columns:
        for r in results:
            if rounds is None or r.get("games") != rounds - int(
                to_number(r.get("byes") or 0, "byes")
            ):
                raise XlrallyError(
                    f"{table.sheet!r} has no Games column, and {r['player']} played "
                    f"{r.get('games')} of the {rounds} rounds (less the byes); add a Games "
                    "column and import again"
                )
    if mine and not replace:
        if len(mine) == len(results) and all(
            any(
                all(same(table.get(v, f), r.get(f)) for f in fields if f in table.columns)
                for _, v in mine
            )
            for r in results
        ):
            return True, {}
        first, last = mine[0][0], mine[-1][0]
        raise XlrallyError(
            f"{event!r} already has {len(mine)} results ({table.sheet} rows {first}-{last}); "
            "import with --replace to replace them"
        )
    spare = [number for number, _ in mine]
    placed = {}
    for index, values in enumerate(results):
        row = spare.pop(0) if spare else writes.append()
        placed[index] = row
        if event_column is not None:
            writes.put(row, event_column, event)
        for name, value in values.items():
            if name in table.columns:
                writes.put(row, table.columns[name], value)
    headed = [c for c, h in enumerate(writes.rows[table.header - 1]) if not blank(h)]
    for row in spare:  # an event that had more results than now: its other rows emptied
        for column in headed:
            writes.put(row, column, None)
    return False, placed


def season_of(incoming: Incoming, league: League, asked: str | None) -> str | None:
    """The season the event goes in, for a league whose events have seasons (None for one
    whose do not): ``--season``; else the one Events gives it already; else the one whose dated
    events span its date; else the latest season, when the event comes after its last and
    within a year of its first (the season goes on). Anything else is refused, asking for
    ``--season``: a new season is never started by guessing."""
    known = next((e for e in league.events if norm(e.name) == norm(incoming.name)), None)
    if asked:
        return asked
    if known is not None and known.season:
        return known.season
    named = seasons(league.events)
    if not named:
        return None
    date = incoming.date or (known.date if known is not None else None)
    spans: dict[str, tuple[dt.date, dt.date]] = {}
    for e in league.events:
        if e.season and e.date is not None:
            first, last = spans.get(e.season, (e.date, e.date))
            spans[e.season] = (min(first, e.date), max(last, e.date))
    listed = "; ".join(
        f"{s}: {spans[s][0]} to {spans[s][1]}" if s in spans else f"{s}: undated" for s in named
    )
    if date is None:
        raise XlrallyError(
            f"the league's events have seasons ({listed}) and the event {incoming.name!r} has no "
            "date to find its season from: import with --season NAME (or --date YYYY-MM-DD)"
        )
    inside = [s for s, (first, last) in spans.items() if first <= date <= last]
    if len(inside) == 1:
        return inside[0]
    latest = named[-1]
    if not inside and latest in spans:
        first, last = spans[latest]
        if last < date and date - first <= LONGEST_SEASON:
            return latest
    where = "in more than one of them" if inside else "in none of them"
    raise XlrallyError(
        f"the league's events have seasons ({listed}); the event's date {date} is {where}: "
        "import with --season NAME (a new season's name starts it)"
    )


def plan_event(
    writes: SheetWrites,
    incoming: Incoming,
    season: str | None,
    replace: bool,
    notes: list[str],
) -> int:
    """Plan the event's row in Events (added after the last, or its existing row: a blank cell
    filled, a value that differs kept and said, unless ``replace``); its row number."""
    table = writes.table
    name = incoming.name
    row = next((n for n, _ in writes.rows_of(name)), None)
    wanted: dict[str, Written] = {}
    if incoming.date is not None:
        wanted["date"] = incoming.date
    if incoming.rounds is not None:
        wanted["rounds"] = incoming.rounds
    if season is not None:
        wanted["season"] = season
    for field_name in wanted:
        if field_name not in table.columns:
            raise XlrallyError(
                f"{table.sheet!r} has no {COLUMNS[field_name][0]} column; add one and import again"
            )
    if row is None:
        row = writes.append()
        writes.put(row, table.columns["event"], name)
    for field_name, value in wanted.items():
        column = table.columns[field_name]
        old = writes.value(row, column)
        if blank(old) or replace:
            writes.put(row, column, value)
        elif not same(old, value):
            notes.append(
                f"Events says {field_name} {old!s}, the file {value!s}: kept Events' "
                "(import with --replace to take the file's)"
            )
    return row


def event_sheet_cells(
    name: str, results: tuple[dict[str, Written], ...]
) -> dict[int, dict[int, Written]]:
    """The cells of a sheet named after the event, for a workbook that keeps each event's
    results on a sheet of its own: a header row of the columns imported, then the results."""
    if len(name) > 31 or NOT_IN_SHEET_NAMES.search(name) or name.strip("'") != name:
        raise XlrallyError(
            f"the workbook keeps each event on a sheet named after it, and {name!r} cannot be a "
            "sheet name (at most 31 characters, none of \\ / * ? : [ ]); name the event with "
            "--event"
        )
    fields = list(dict.fromkeys(f for r in results for f in r))
    cells: dict[int, dict[int, Written]] = {1: {c: COLUMNS[f][0] for c, f in enumerate(fields)}}
    for number, values in enumerate(results, start=2):
        cells[number] = {c: values[f] for c, f in enumerate(fields) if f in values}
    return cells
