"""``xlrally import``: one event's results, from the program that ran it, into the league workbook.

The file is a FIDE TRF (xlrally.formats.trf) or a table as text (xlrally.formats.table_text:
CSV, or a table pasted from a web page or spreadsheet). Its results go where the workbook keeps
results: rows of the ``Results`` sheet (appended, in the columns it has), else the event's own
sheet. The event gets its row in ``Events`` (date, rounds), and then the standings are synced.

Safety, as for a sync: the input sheets are edited in place (xlrally.ooxml.in_place: only the
cells written change; tables, validation and formats are carried over the new rows), the new
package is verified and read back (the event must read as imported) before it replaces the
file, and nothing is written when anything is wrong. An event that already has results is
refused unless ``replace``; importing the same file again changes nothing.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from xlrally.app.sync import SyncOutcome, sync_file
from xlrally.core.errors import LeagueProblems, XlrallyError
from xlrally.core.league import compute_standings
from xlrally.core.model import League, Result
from xlrally.core.names import norm
from xlrally.core.numbers import plural
from xlrally.core.players import key, likely_duplicates, likely_typos, tidy
from xlrally.core.systems import SYSTEMS
from xlrally.formats.cells import Look, Value, blank, to_date, to_number
from xlrally.formats.layout import (
    COLUMNS,
    Table,
    find_sheet,
    find_table,
    read_import_rules,
    read_league,
)
from xlrally.formats.table_text import NotATable, read_table_text
from xlrally.formats.text_file import decode_text, split_lines
from xlrally.formats.trf import (
    TRF_LINES,
    last_first,
    looks_like_trf,
    rally_line,
    read_trf,
)
from xlrally.formats.trf import spellings as trf_spellings
from xlrally.formats.written_dates import AmbiguousDate, read_dates
from xlrally.ooxml.in_place import Rows, SheetCells, Written, extend_sheet, extend_table
from xlrally.ooxml.package import NS_MAIN, Package
from xlrally.ooxml.reader import FileSheets
from xlrally.ooxml.writer import (
    Edit,
    new_sheet,
    refuse_to_replace,
    stage,
    verify,
    workbook_styles,
)
from xlrally.ooxml.xmlpart import XmlPart

NUMBER_FIELDS = ("points", "games", "byes", "rank", "buy-in", "total")
DATE_LOOK = Look(number_format="yyyy-mm-dd")
XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


@dataclass(frozen=True)
class Options:
    """What the command line says beside the file."""

    event: str | None = None
    date: dt.date | None = None
    rounds: int | None = None
    columns: Mapping[str, str] = field(default_factory=dict)
    """A table's other headers: header -> the workbook column it is (``Pos`` -> ``Rank``)."""
    replace: bool = False


@dataclass(frozen=True)
class Incoming:
    """An event as the file gives it, before it meets the workbook."""

    name: str
    date: dt.date | None
    rounds: int | None
    results: tuple[dict[str, Written], ...]
    """Each player's values by field (``player`` first)."""
    spellings: tuple[tuple[str, ...], ...]
    """Each result's name as the league may know it (a TRF name is tried both ways round)."""
    notes: tuple[str, ...] = ()
    date_problem: str = ""
    """Why the file's date was not read (its line), when it gives one."""
    date_ambiguous: bool = False
    """The file's date reads two ways: the import needs ``--date``."""


@dataclass(frozen=True)
class ImportOutcome:
    """What an import did."""

    event: str
    results: int
    changed: bool
    new_players: tuple[str, ...]
    notes: tuple[str, ...]
    sync: SyncOutcome | None


# ---------------------------------------------------------------- the file


def _from_trf(
    text: str, source: str, system: str, rules: tuple[str, str, str], options: Options
) -> Incoming:
    tournament = read_trf(text, source)
    requested, forfeits, lichess = rules
    declared, played = tournament.declared_rounds, tournament.played_rounds
    notes = []
    lichess_h = tournament.program == "Lichess"
    if options.rounds is None and declared and played < declared and lichess_h and tournament.end:
        notes.append(
            f"Lichess ended the tournament after {played} of its {declared} rounds (line 052 "
            f"gives its end): scored over the {played} rounds played"
        )
        declared = played
    rounds = options.rounds or declared or played
    if options.rounds is None and declared and played < declared:
        raise XlrallyError(
            f"{source}: results for {played} of the event's {declared} rounds: import it when "
            f"the event is over, or with --rounds {played} to score the rounds played"
        )
    if played > rounds:
        raise XlrallyError(
            f"{source}: results for {played} rounds, but the event has {rounds}"
            + ("" if options.rounds else " (142 or XXR line)")
        )
    for player in tournament.players:
        for index, entry in enumerate(player.rounds[:rounds]):
            if entry.opponent and not entry.code:
                raise XlrallyError(
                    f"{source} line {player.line}, column {99 + 10 * index}: round {index + 1} "
                    f"is paired but has no result for {player.name}: the event is not over; "
                    f"import it when it is, or with --rounds {index} to score the rounds before"
                )
    late_h = lichess_h and lichess == "late entry"
    if lichess_h and any("H" in p.results[:rounds] for p in tournament.players):
        notes.append(
            "a Lichess file: its H (a round missed by joining late) is read as "
            + (
                "a missed round, in the divisor"
                if late_h
                else "a bye asked for (setting Lichess H: bye)"
            )
        )
    unwritten = sum(p.unwritten_byes for p in tournament.players)
    if unwritten and SYSTEMS[system].from_trf_rounds:
        notes.append(
            f"{plural(unwritten, 'round')} left blank where the file's points column counts a "
            "half point: read as half-point byes"
        )
    results: list[dict[str, Written]] = []
    spellings = []
    for player in tournament.players:
        turned = last_first(player.name)
        if SYSTEMS[system].from_trf_rounds:  # points, games and byes from the rounds
            line = rally_line(player.results[:rounds], requested, forfeits, late_h)
            if line.games == 0:
                notes.append(f"{turned} played no game: not imported")
                continue
            values: dict[str, Written] = {
                "player": turned,
                "points": line.points,
                "games": line.games,
                "byes": line.byes,
            }
        else:
            if player.rank is None:
                raise XlrallyError(
                    f"{source} line {player.line}, column 86: {player.name} has no rank; "
                    "export the file after the final standings"
                )
            values = {"player": turned, "rank": player.rank}
        results.append(values)
        spellings.append(trf_spellings(player.name))
    return Incoming(
        name=options.event or tournament.name or _file_event(source),
        date=options.date or tournament.start or tournament.end,
        rounds=rounds if SYSTEMS[system].rounds != "unused" else None,
        results=tuple(results),
        spellings=tuple(spellings),
        notes=tuple(notes),
        date_problem="" if options.date else tournament.dates,
        date_ambiguous=tournament.ambiguous and not options.date,
    )


def _file_event(source: str) -> str:
    """The event named after its file (without the extension), for a file whose name is text."""
    stem = Path(source).stem
    try:
        stem.encode("utf-8")
    except UnicodeEncodeError:
        raise XlrallyError(
            f"{source!r}: the file's name is not UTF-8 text, so it cannot name the event: give "
            "the event's name with --event NAME"
        ) from None
    return stem


def _one_value(values: list[str], what: str, source: str) -> str | None:
    found = list(dict.fromkeys(v for v in values if v))
    if len(found) > 1:
        raise XlrallyError(
            f"{source}: the {what} column names {len(found)} events ({', '.join(found[:4])}); "
            "import one event at a time"
        )
    return found[0] if found else None


def _from_table(text: str, source: str, system: str, options: Options) -> Incoming:
    table = read_table_text(text, source, options.columns)
    wanted = SYSTEMS[system].result_fields
    notes = [f"column {h!r} is not read" for h in table.ignored]
    notes += [
        f"column {table.columns[f]!r} is not used by the {SYSTEMS[system].name}"
        for f in table.columns
        if f not in wanted and f not in ("player", "event", "date", "rounds")
    ]
    if wanted[1] not in table.columns:
        raise XlrallyError(
            f"{source}: no {COLUMNS[wanted[1]][0]} column (the {SYSTEMS[system].name} needs "
            f"it); name it with --column HEADER={COLUMNS[wanted[1]][0]}"
        )
    problems = []
    results: list[dict[str, Written]] = []
    for line, row in table.rows:
        player = tidy(row.get("player", ""))
        if not player:
            if any(row.get(f) for f in wanted):
                problems.append(f"{source} line {line}: a result without a player")
            continue
        values: dict[str, Written] = {"player": player}
        for name in wanted[1:]:
            if name not in row:
                continue
            if name not in NUMBER_FIELDS:
                values[name] = row[name]
                continue
            try:
                values[name] = to_number(row[name], name)
            except ValueError as error:
                problems.append(f"{source} line {line}, column {table.columns[name]!r}: {error}")
        results.append(values)
    if problems:
        raise XlrallyError("; ".join(problems))
    event = _one_value([r.get("event", "") for _, r in table.rows], "Event", source)
    date_text = _one_value([r.get("date", "") for _, r in table.rows], "Date", source)
    rounds_text = _one_value([r.get("rounds", "") for _, r in table.rows], "Rounds", source)
    try:
        rounds = options.rounds or (int(to_number(rounds_text, "rounds")) if rounds_text else None)
    except ValueError as error:
        raise XlrallyError(f"{source}: {error}") from None
    date, date_problem, ambiguous = options.date, "", False
    if date is None and date_text:
        where = next(n for n, r in table.rows if r.get("date"))
        try:
            date = read_dates([date_text])[0]
        except AmbiguousDate as error:
            date_problem, ambiguous = f"{source} line {where}: the date {error}", True
        if date is None and not date_problem:
            date_problem = (
                f"{source} line {where}, column {table.columns['date']!r}: {date_text!r} is not "
                "a date xlrally reads"
            )
    return Incoming(
        name=options.event or event or _file_event(source),
        date=date,
        rounds=rounds,
        results=tuple(results),
        spellings=tuple((str(r["player"]),) for r in results),
        notes=tuple(notes),
        date_problem=date_problem,
        date_ambiguous=ambiguous,
    )


def read_incoming(
    data: bytes, source: str, system: str, rules: tuple[str, str, str], options: Options
) -> Incoming:
    """The event in a TRF file or a table, for a league of ``system``."""
    if data.startswith(b"PK\x03\x04"):
        raise XlrallyError(
            f"{source}: a zip file (an Excel workbook?), not results as text: save the results "
            "as CSV, or export the tournament's TRF file from the pairing program"
        )
    text = decode_text(data, source)
    if looks_like_trf(text):
        return _from_trf(text, source, system, rules, options)
    tags = [t for t in dict.fromkeys(line[:3] for line in split_lines(text)) if t in TRF_LINES]
    if len(tags) >= 2:
        raise XlrallyError(
            f"{source}: looks like a TRF file (lines {', '.join(tags[:4])}) but has no player "
            "records (lines starting 001): export it again from the pairing program, after "
            "the event"
        )
    try:
        return _from_table(text, source, system, options)
    except NotATable as error:
        raise XlrallyError(
            f"{source}: not a FIDE TRF file (no line starts with 001), and not a results table "
            f"either: {error.detail}"
        ) from None


def _check_event_fields(incoming: Incoming, league: League, notes: list[str]) -> None:
    """What the system needs of the event and neither the file nor Events gives."""
    system = SYSTEMS[league.settings.system]
    known = next((e for e in league.events if norm(e.name) == norm(incoming.name)), None)
    if incoming.date is None and incoming.date_problem and (known is None or known.date is None):
        needs = system.dated or any(e.season for e in league.events)
        if incoming.date_ambiguous or needs:
            why = (
                f"the {system.name} rates events in date order"
                if system.dated
                else "the league's events have seasons, found from their dates"
                if needs
                else "xlrally does not guess which"
            )
            raise XlrallyError(f"{incoming.date_problem} ({why}): import with --date YYYY-MM-DD")
        notes.append(f"{incoming.date_problem}: the event is imported without a date")
    if system.dated and incoming.date is None and (known is None or known.date is None):
        raise XlrallyError(
            f"the {system.name} rates events in date order and the file gives no date for "
            f"{incoming.name!r}: import with --date YYYY-MM-DD"
        )
    if (
        system.rounds == "required"
        and incoming.rounds is None
        and (known is None or not known.rounds)
    ):
        raise XlrallyError(
            f"the {system.name} needs the rounds of {incoming.name!r}: import with --rounds N"
        )
    has_buy_in = all(r.get("buy-in") is not None for r in incoming.results)
    if system.event_buy_in and not has_buy_in and (known is None or known.buy_in is None):
        raise XlrallyError(
            f"{system.name} needs the buy-in of {incoming.name!r}: give it in a Buy-in column "
            "of the file, or add the event to Events with its Buy-in first"
        )


# ---------------------------------------------------------------- names


def _matching(name: str) -> str:
    """The key a name is matched by on import: as the league matches names (case and spaces
    ignored), and a comma with or without spaces around it the same (``Smith,Ann`` is
    ``Smith, Ann``, as pairing programs write the standard's ``Lastname, Firstname``)."""
    return key(_COMMA.sub(", ", name))


_COMMA = re.compile(r"\s*,\s*")


def _known_names(league: League) -> dict[str, str]:
    """Every name the league knows (results, Players, aliases) by key -> the player's name."""
    known = {_matching(p): tidy(p) for p in dict.fromkeys(r.player for r in league.results)}
    known.update({_matching(p): tidy(p) for p in league.players})
    known.update({_matching(alias): tidy(player) for alias, player in league.aliases.items()})
    return known


def _resolve(
    incoming: Incoming, league: League
) -> tuple[tuple[dict[str, Written], ...], tuple[str, ...], tuple[str, ...]]:
    """The results with each name as the league knows it, the new players, and warnings for
    new names that look like known ones (a misspelling caught at the door)."""
    known = _known_names(league)
    resolved = []
    new = []
    seen: dict[str, str] = {}
    for values, spellings in zip(incoming.results, incoming.spellings, strict=True):
        name = next((known[k] for s in spellings if (k := _matching(s)) in known), None)
        if name is None:
            name = str(values["player"])
            new.append(name)
        if key(name) in seen:
            raise XlrallyError(
                f"{name} is in the file twice ({seen[key(name)]!r} and {spellings[0]!r})"
            )
        seen[key(name)] = spellings[0]
        resolved.append({**values, "player": name})
    counts: dict[str, int] = {}
    for result in league.results:
        counts[key(result.player)] = counts.get(key(result.player), 0) + 1
    everyone = list(dict.fromkeys([*known.values(), *new]))
    fresh = {key(n) for n in new}
    warnings = []
    for a, b in likely_duplicates(everyone) + likely_typos(everyone):
        if (key(a) in fresh) == (key(b) in fresh):
            continue
        newcomer, old = (a, b) if key(a) in fresh else (b, a)
        warnings.append(
            f"new player {newcomer!r} looks like {old!r} "
            f"({plural(counts.get(key(old), 0), 'result')}): "
            f"if they are one player, put {newcomer!r} as an Alias of {old!r} in Players"
        )
    return tuple(resolved), tuple(new), tuple(warnings)


# ---------------------------------------------------------------- the workbook


def _same(old: Value, new: Written) -> bool:
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


class _SheetWrites:
    """The cells to write on one sheet, and the rows they extend."""

    def __init__(self, name: str, table: Table, rows: list[list[Value]]) -> None:
        self.name = name
        self.table = table
        self.rows = rows
        self.cells: dict[int, dict[int, Written]] = {}
        last = _last_row(rows)
        self.extent = Rows(table.header, max(last, table.header))
        self.next_row = self.extent.last + 1
        self.like = table.rows[-1][0] if table.rows else None

    def value(self, row: int, column: int) -> Value:
        values = self.rows[row - 1] if row - 1 < len(self.rows) else []
        return values[column] if column < len(values) else None

    def put(self, row: int, column: int, value: Written) -> None:
        if not _same(self.value(row, column), value):
            self.cells.setdefault(row, {})[column] = value

    def append(self) -> int:
        self.next_row += 1
        return self.next_row - 1


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


def _plan_results(
    writes: _SheetWrites,
    event: str,
    results: tuple[dict[str, Written], ...],
    replace: bool,
    rounds: int | None,
) -> bool:
    """Plan the result rows; True when the event already has exactly these results."""
    table = writes.table
    event_column = table.columns.get("event")
    mine = [
        (number, values)
        for number, values in table.rows
        if event_column is None or norm(table.get(values, "event") or "") == norm(event)
    ]
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
                all(_same(table.get(v, f), r.get(f)) for f in fields if f in table.columns)
                for _, v in mine
            )
            for r in results
        ):
            return True
        first, last = mine[0][0], mine[-1][0]
        raise XlrallyError(
            f"{event!r} already has {len(mine)} results ({table.sheet} rows {first}-{last}); "
            "import with --replace to replace them"
        )
    spare = [number for number, _ in mine]
    for values in results:
        row = spare.pop(0) if spare else writes.append()
        if event_column is not None:
            writes.put(row, event_column, event)
        for name, value in values.items():
            if name in table.columns:
                writes.put(row, table.columns[name], value)
    headed = [c for c, h in enumerate(writes.rows[table.header - 1]) if not blank(h)]
    for row in spare:  # an event that had more results than now: its other rows emptied
        for column in headed:
            writes.put(row, column, None)
    return False


def _plan_event(
    writes: _SheetWrites, incoming: Incoming, name: str, replace: bool, notes: list[str]
) -> None:
    table = writes.table
    row = next((n for n, v in table.rows if norm(table.get(v, "event") or "") == norm(name)), None)
    wanted: dict[str, Written] = {}
    if incoming.date is not None:
        wanted["date"] = incoming.date
    if incoming.rounds is not None:
        wanted["rounds"] = incoming.rounds
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
        elif not _same(old, value):
            notes.append(
                f"Events says {field_name} {old!s}, the file {value!s}: kept Events' "
                "(import with --replace to take the file's)"
            )


def _tables_of(package: Package, part: str) -> list[str]:
    return [t for k, t in package.relationships(part).values() if k.endswith("/table")]


def _apply(
    edit: Edit, package: Package, writes: _SheetWrites, date_style: Callable[[], int]
) -> None:
    if not writes.cells:
        return
    ref = package.sheet(writes.name)
    if ref is None:
        raise XlrallyError(f"the workbook has no sheet {writes.name!r}")
    cells = SheetCells(edit.xml(ref.part), package.epoch)
    data = cells.write(writes.cells, writes.like, date_style)
    new_last = max(*writes.cells, writes.extent.last)
    widest = max(c for row in writes.cells.values() for c in row)
    edit.set(ref.part, extend_sheet(data, ref.part, writes.extent, new_last, widest))
    for table in _tables_of(package, ref.part):
        edit.set(table, extend_table(edit.data(table), table, writes.name, writes.extent, new_last))


_NOT_IN_SHEET_NAMES = re.compile(r"[\\/*?:\[\]]")


def _new_event_sheet(
    edit: Edit,
    package: Package,
    name: str,
    results: tuple[dict[str, Written], ...],
    date_style: Callable[[], int],
) -> None:
    """A sheet named after the event, for a workbook that keeps each event's results on a
    sheet of its own: a header row of the columns imported, then the results."""
    if len(name) > 31 or _NOT_IN_SHEET_NAMES.search(name) or name.strip("'") != name:
        raise XlrallyError(
            f"the workbook keeps each event on a sheet named after it, and {name!r} cannot be a "
            "sheet name (at most 31 characters, none of \\ / * ? : [ ]); name the event with "
            "--event"
        )
    fields = list(dict.fromkeys(f for r in results for f in r))
    part = new_sheet(edit, package, name)
    writes: dict[int, dict[int, Written]] = {1: {c: COLUMNS[f][0] for c, f in enumerate(fields)}}
    for number, values in enumerate(results, start=2):
        writes[number] = {c: values[f] for c, f in enumerate(fields) if f in values}
    empty = XmlPart(
        part, f'{XML_HEAD}<worksheet xmlns="{NS_MAIN}"><sheetData/></worksheet>'.encode()
    )
    edit.set(part, SheetCells(empty, package.epoch).write(writes, None, date_style))


def _read_back(path: Path, event: str, expected: tuple[dict[str, Written], ...]) -> None:
    """Read the staged workbook as a sync will and check that the event reads as imported and
    that the league still scores (a CSV's 5 points from 4 games is caught here, not after)."""
    try:
        with FileSheets(path) as sheets:
            league = read_league(sheets)
        compute_standings(league)
    except LeagueProblems as problems:
        raise XlrallyError(
            "with the imported results the league has problems, so nothing was written: "
            + "; ".join(str(p) for p in problems.problems[:5])
        ) from None
    found = {key(r.player): r for r in league.results if norm(r.event) == norm(event)}
    for values in expected:
        result = found.pop(key(str(values["player"])), None)
        if result is None or not all(
            _result_field(result, f) == v
            for f, v in values.items()
            if f not in ("player", "country")
        ):
            raise XlrallyError(
                f"the new workbook does not read back {values['player']!r} in {event!r} as "
                "imported; nothing was written"
            )
    if found:
        raise XlrallyError(f"the new workbook has other results for {event!r}; nothing was written")


def _result_field(result: Result, name: str) -> object:
    value = getattr(result, name.replace("-", "_"))
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


def import_file(
    path: str | Path, source: str | Path, options: Options | None = None, data: bytes | None = None
) -> ImportOutcome:
    """Import the event in ``source`` (``data``: its bytes, when it is not a file) into the
    workbook ``path``, then sync its standings. Raises XlrallyError (nothing written) for a bad
    file, a workbook with problems, or an event that already has other results."""
    options = options or Options()
    path = Path(path)
    source_name = str(source)
    if data is None:
        try:
            data = Path(source).read_bytes()
        except OSError as error:
            raise XlrallyError(f"{source}: cannot read the file ({error.strerror})") from None
    refuse_to_replace(path)
    with FileSheets(path) as sheets:
        try:
            league = read_league(sheets)
            rules = read_import_rules(sheets)
        except LeagueProblems as problems:
            raise XlrallyError(
                "the workbook has problems; fix them (xlrally check) and import again: "
                + "; ".join(p.message for p in problems.problems[:3])
            ) from None
        system = league.settings.system
        incoming = read_incoming(data, source_name, system, rules, options)
        if not incoming.results:
            raise XlrallyError(f"{source}: no results to import")
        notes = list(incoming.notes)
        _check_event_fields(incoming, league, notes)
        results, new_players, warnings = _resolve(incoming, league)
        notes += warnings
        events_sheet = find_sheet(sheets, "Events")
        if events_sheet is None:
            raise XlrallyError("the workbook has no 'Events' sheet")
        events = _SheetWrites(
            events_sheet,
            find_table(events_sheet, sheets.values(events_sheet), ("event",)),
            sheets.values(events_sheet),
        )
        results_sheet = find_sheet(sheets, "Results") or find_sheet(sheets, incoming.name)
        package = sheets.package
        edit = Edit(package)
        styles_part, styles = workbook_styles(package)
        used_style = []

        def date_style() -> int:
            used_style.append(True)
            return styles.xf(DATE_LOOK)

        same = False
        if results_sheet is None:  # results kept one sheet per event: a sheet for this one
            _new_event_sheet(edit, package, incoming.name, results, date_style)
        else:
            required = ("event", "player") if norm(results_sheet) == "results" else ("player",)
            rows = sheets.values(results_sheet)
            writes = _SheetWrites(results_sheet, find_table(results_sheet, rows, required), rows)
            same = _plan_results(writes, incoming.name, results, options.replace, incoming.rounds)
            _apply(edit, package, writes, date_style)
        _plan_event(events, incoming, incoming.name, options.replace, notes)
        _apply(edit, package, events, date_style)
        if used_style and styles_part is not None:
            edit.set(styles_part, styles.data)
        staged = stage(path, edit, lambda: verify(edit, styles, written=""))
    if staged is not None:
        try:
            _read_back(staged.temp, incoming.name, results)
        except BaseException:
            staged.discard()
            raise
        staged.commit()
    notes = (
        notes
        if not same or staged is not None
        else ["these results are already in the workbook: nothing changed", *notes]
    )
    return ImportOutcome(
        event=incoming.name,
        results=len(results),
        changed=staged is not None,
        new_players=new_players,
        notes=tuple(notes),
        sync=sync_file(path),
    )
