"""The event in the file to import, before it meets the workbook: a FIDE TRF file
(:mod:`xlrally.formats.trf`) or a table as text (:mod:`xlrally.formats.table_text`: CSV, or a
table pasted from a web page or spreadsheet), read into each player's values by field."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from xlrally.core.errors import XlrallyError
from xlrally.core.model import RESULT_NUMBERS, League
from xlrally.core.names import norm
from xlrally.core.players import tidy
from xlrally.core.systems import SYSTEMS
from xlrally.core.words import plural
from xlrally.formats.cells import to_number
from xlrally.formats.table_text import NotATable, TextTable, read_table_text
from xlrally.formats.text_file import decode_text, split_lines
from xlrally.formats.trf import (
    TRF_LINES,
    Tournament,
    last_first,
    looks_like_trf,
    rally_line,
    read_trf,
)
from xlrally.formats.trf import spellings as trf_spellings
from xlrally.formats.workbook.vocabulary import COLUMNS
from xlrally.formats.written_dates import AmbiguousDate, read_dates
from xlrally.ooxml.in_place import Written


@dataclass(frozen=True)
class Options:
    """What the command line says beside the file."""

    event: str | None = None
    date: dt.date | None = None
    rounds: int | None = None
    columns: Mapping[str, str] = field(default_factory=dict)
    """A table's other headers: header -> the workbook column it is (``Pos`` -> ``Rank``)."""
    replace: bool = False
    season: str | None = None
    """The event's season, for a league whose events have seasons (default: from its date)."""


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
    lines: tuple[int, ...] = ()
    """The line of the file each result comes from."""


# ---------------------------------------------------------------- the file


def _from_trf(
    text: str, source: str, system: str, rules: tuple[str, str, str], options: Options
) -> Incoming:
    tournament = read_trf(text, source)
    requested, forfeits, lichess = rules
    notes: list[str] = []
    lichess_h = tournament.program == "Lichess"
    rounds = _trf_rounds(tournament, source, options, lichess_h, notes)
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
    results, spellings, lines = _trf_results(
        tournament, source, system, rounds, (requested, forfeits), late_h, notes
    )
    return Incoming(
        name=options.event or tournament.name or _file_event(source),
        date=options.date or tournament.start or tournament.end,
        rounds=rounds if SYSTEMS[system].rounds != "unused" else None,
        results=tuple(results),
        spellings=tuple(spellings),
        notes=tuple(notes),
        date_problem="" if options.date else tournament.dates,
        date_ambiguous=tournament.ambiguous and not options.date,
        lines=tuple(lines),
    )


def _trf_rounds(
    tournament: Tournament, source: str, options: Options, lichess_h: bool, notes: list[str]
) -> int:
    """The rounds the event is scored over: ``--rounds``, else the file's (a Lichess
    tournament ended early: the rounds played), else the rounds played; an event not over
    is refused (a round declared but not played, or paired without a result)."""
    declared, played = tournament.declared_rounds, tournament.played_rounds
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
    return rounds


def _trf_results(
    tournament: Tournament,
    source: str,
    system: str,
    rounds: int,
    rules: tuple[str, str],
    late_h: bool,
    notes: list[str],
) -> tuple[list[dict[str, Written]], list[tuple[str, ...]], list[int]]:
    """Each player's values (their rally line from the rounds, or their final rank), the ways
    a league may spell them, and their records' lines; a rally player with no game is left
    out, with a note."""
    requested, forfeits = rules
    results: list[dict[str, Written]] = []
    spellings = []
    lines = []
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
        lines.append(player.line)
    return results, spellings, lines


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
    results, lines = _table_results(table, source, wanted)
    event = _one_value([r.get("event", "") for _, r in table.rows], "Event", source)
    date_text = _one_value([r.get("date", "") for _, r in table.rows], "Date", source)
    rounds_text = _one_value([r.get("rounds", "") for _, r in table.rows], "Rounds", source)
    try:
        rounds = options.rounds or (int(to_number(rounds_text, "rounds")) if rounds_text else None)
    except ValueError as error:
        raise XlrallyError(f"{source}: {error}") from None
    date, date_problem, ambiguous = _table_date(table, date_text, options, source)
    return Incoming(
        name=options.event or event or _file_event(source),
        date=date,
        rounds=rounds,
        results=tuple(results),
        spellings=tuple((str(r["player"]),) for r in results),
        notes=tuple(notes),
        date_problem=date_problem,
        date_ambiguous=ambiguous,
        lines=tuple(lines),
    )


def _table_results(
    table: TextTable, source: str, wanted: tuple[str, ...]
) -> tuple[list[dict[str, Written]], list[int]]:
    """Each row's values by field (numbers read as numbers) and its line; every problem of
    every row refused together."""
    problems = []
    results: list[dict[str, Written]] = []
    lines = []
    # What every result must give: the rank, or the points and games (a blank Byes is none).
    needed = [f for f in wanted[1:] if f in ("rank", "points", "games") and f in table.columns]
    for line, row in table.rows:
        player = tidy(row.get("player", ""))
        if not player:
            if any(row.get(f) for f in wanted):
                problems.append(f"{source} line {line}: a result without a player")
            continue
        missing = [table.columns[f] for f in needed if f not in row]
        if missing:
            problems.append(
                f"{source} line {line}: {player} has no {' or '.join(map(repr, missing))} value"
            )
        values: dict[str, Written] = {"player": player}
        for name in wanted[1:]:
            if name not in row:
                continue
            if name not in RESULT_NUMBERS:
                values[name] = row[name]
                continue
            try:
                values[name] = to_number(row[name], name)
            except ValueError as error:
                problems.append(f"{source} line {line}, column {table.columns[name]!r}: {error}")
        results.append(values)
        lines.append(line)
    if problems:
        raise XlrallyError("; ".join(problems))
    return results, lines


def _table_date(
    table: TextTable, date_text: str | None, options: Options, source: str
) -> tuple[dt.date | None, str, bool]:
    """The event's date (``--date``, else the Date column's), why a date written was not read
    (its line and column), and whether it reads two ways."""
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
    return date, date_problem, ambiguous


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
    tags = [
        t
        for t in dict.fromkeys(line[:3] for line in split_lines(text) if line[3:4] in (" ", ""))
        if t in TRF_LINES
    ]
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


def check_event_fields(incoming: Incoming, league: League, notes: list[str]) -> None:
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
