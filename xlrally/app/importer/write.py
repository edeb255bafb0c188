"""One read, one plan, one commit: the import applied to the workbook.

The workbook is read once. The league without the new results gives the names, events and
settings the file meets; the cells to write are planned; they are written into the parts in
memory (the Results sheet edited as a stream, :class:`~xlrally.ooxml.in_place.StreamedSheet`)
and read back by the real reader (:func:`~xlrally.ooxml.read_back.read_back`); the league is
then read again from the rows read at first with the new rows laid over them (what the next
sync will read from the file), checked whole and scored, and its Standings sheet planned
into the same edit. Results, Events and Standings are written in one atomic replace, verified
once. A problem is named where it is: a cell the workbook had already (``Results!D3``), or
the line of the file that brought it and the cell it would have gone in.
"""

from __future__ import annotations

import datetime as dt
import operator
import signal
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from xlrally.app.importer.incoming import (
    Incoming,
    Options,
    check_event_fields,
    read_incoming,
)
from xlrally.app.importer.names import known_names, resolve
from xlrally.app.importer.plan import (
    SheetWrites,
    event_sheet_cells,
    plan_event,
    plan_results,
    season_of,
)
from xlrally.app.stamps import INPUTS, hand_edits, marks, stamp
from xlrally.app.sync import SyncOutcome, paused_gc
from xlrally.core.errors import LeagueProblems, Problem, XlrallyError
from xlrally.core.league import compute_standings
from xlrally.core.model import League, Result
from xlrally.core.names import norm
from xlrally.core.players import key
from xlrally.core.standings import Standings
from xlrally.formats.cells import Look, Value, column_letter, quote_sheet, text_of, to_date
from xlrally.formats.grid import SHEET_NAME, print_setup, standings_grid
from xlrally.formats.workbook import (
    HEADER_SEARCH_ROWS,
    find_sheet,
    read_import_rules,
    read_league,
)
from xlrally.ooxml.in_place import (
    STREAMED_FROM,
    NeedsParse,
    SheetCells,
    StreamedEdit,
    StreamedSheet,
    Writes,
    Written,
    extend_sheet,
    extend_table,
)
from xlrally.ooxml.package import NS_MAIN, Package
from xlrally.ooxml.read_back import read_back
from xlrally.ooxml.reader import FileSheets
from xlrally.ooxml.styles import Styles
from xlrally.ooxml.writer import (
    Edit,
    Staged,
    new_sheet,
    plan_sheet,
    stage,
    verify,
    workbook_styles,
)
from xlrally.ooxml.xmlpart import XmlPart

DATE_LOOK = Look(number_format="yyyy-mm-dd")
XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


@dataclass(frozen=True)
class ImportOutcome:
    """What an import did."""

    event: str
    results: int
    changed: bool
    new_players: tuple[str, ...]
    notes: tuple[str, ...]
    sync: SyncOutcome | None


class Overlay:
    """A :class:`~xlrally.formats.workbook.tables.SheetSource` over the workbook read, with
    some sheets' rows laid over (the rows as the import writes them) and sheets added."""

    def __init__(
        self,
        base: FileSheets,
        rows: Mapping[str, list[list[Value]]],
        added: Iterable[str] = (),
    ) -> None:
        self.base = base
        self.rows = rows
        self.added = list(added)
        self.epoch = base.epoch

    def sheet_names(self) -> list[str]:
        return self.base.sheet_names() + self.added

    def values(self, name: str) -> list[list[Value]]:
        if name in self.rows:
            return self.rows[name]
        return self.base.values(name)


@dataclass
class _Written:
    """One sheet the import writes cells into."""

    name: str
    part: str
    cells: Writes
    """What it writes (row -> column -> value)."""
    lines: dict[int, int | None] = field(default_factory=dict)
    """The file's line behind each row written (None for a row emptied, or Events')."""
    markup: dict[int, dict[int, str]] = field(default_factory=dict)
    declared: str = ""
    new: bool = False
    read: dict[int, dict[int, Value]] = field(default_factory=dict)
    """What the reader reads in each cell written."""


def _light_league(sheets: FileSheets, results_sheet: str | None) -> League:
    """The league without most of its Results rows (the first ones, where the header is): its
    settings, events, players, aliases and the sheets per event, which are all the import
    needs before it plans. Problems found there are the workbook's own."""
    rows = {}
    if results_sheet is not None:
        rows[results_sheet] = sheets.values(results_sheet)[:HEADER_SEARCH_ROWS]
    try:
        return read_league(Overlay(sheets, rows))
    except LeagueProblems as problems:
        raise _existing(problems.problems) from None


def _existing(problems: Iterable[Problem]) -> XlrallyError:
    listed = [str(p) for p in problems]
    more = f" and {len(listed) - 5} more" if len(listed) > 5 else ""
    return XlrallyError(
        "the workbook has problems already, so nothing was imported; fix them (xlrally check) "
        f"and import again: {'; '.join(listed[:5])}{more}"
    )


def _column_values(rows: list[list[Value]], column: int, start: int) -> list[Value]:
    body = rows[start:]
    if body and min(map(len, body)) > column:
        return list(map(operator.itemgetter(column), body))
    return [r[column] if column < len(r) else None for r in body]


def _scorable(value: Written, read: Value, epoch: dt.date) -> bool:
    """Whether a cell written ``value`` reads back (``read``) as that value for the league."""
    if value is None or value == "":
        return read is None or read == ""
    if isinstance(value, dt.date):
        try:
            return to_date(read, "", epoch) == value
        except ValueError:
            return False
    if isinstance(value, str):
        return read == value
    return isinstance(read, int | float) and not isinstance(read, bool) and read == value


def _edit_sheet(
    edit: Edit,
    package: Package,
    writes: SheetWrites,
    date_style: Callable[[], int],
    read: Future[bytes] | None = None,
) -> tuple[_Written, StreamedEdit | None]:
    """Write a sheet's cells into the edit (as a stream, packed later, unless the stream cannot
    read it); its record. ``read``: its part's bytes, read beside the rest meanwhile."""
    ref = package.sheet(writes.name)
    if ref is None:
        raise XlrallyError(f"the workbook has no sheet {writes.name!r}")
    data = read.result() if read is not None else package.read(ref.part)
    record = _Written(writes.name, ref.part, writes.cells)
    new_last, widest = writes.new_last, writes.widest
    streamed = None
    if len(data) > STREAMED_FROM:
        try:
            sheet = StreamedSheet(ref.part, data, package.epoch)
            streamed = sheet.write(
                writes.cells, writes.like, date_style, writes.extent, new_last, widest
            )
            record.markup, record.declared = streamed.cells, sheet.wrap_head[3:-1].decode()
        except NeedsParse:
            streamed = None
    if streamed is None:
        cells = SheetCells(XmlPart(ref.part, data), package.epoch)
        written = cells.write(writes.cells, writes.like, date_style)
        edit.set(ref.part, extend_sheet(written, ref.part, writes.extent, new_last, widest))
        record.markup = cells.planner.cells
        record.declared = _declarations(cells.sheet_data.scope)
    for kind, table in package.relationships(ref.part).values():
        if kind.endswith("/table"):
            extended = extend_table(edit.data(table), table, writes.name, writes.extent, new_last)
            edit.set(table, extended)
    return record, streamed


def _declarations(scope: Mapping[str, str]) -> str:
    return " ".join(
        f'xmlns="{uri}"' if p == "" else f'xmlns:{p}="{uri}"'
        for p, uri in scope.items()
        if p != "xml"
    )


def _new_event_sheet(
    edit: Edit, package: Package, name: str, cells: Writes, date_style: Callable[[], int]
) -> _Written:
    part = new_sheet(edit, package, name)
    empty = XmlPart(
        part, f'{XML_HEAD}<worksheet xmlns="{NS_MAIN}"><sheetData/></worksheet>'.encode()
    )
    sheet = SheetCells(empty, package.epoch)
    edit.set(part, sheet.write(cells, None, date_style))
    return _Written(
        name, part, cells, markup=sheet.planner.cells, declared=f'xmlns="{NS_MAIN}"', new=True
    )


def _laid_over(
    base: list[list[Value]], cells: Mapping[int, Mapping[int, Value]]
) -> list[list[Value]]:
    """The sheet's rows with the cells read back laid over them (a shallow copy: only the rows
    written are new lists)."""
    rows = list(base)
    width = len(rows[0]) if rows else 0
    for number, values in cells.items():
        while len(rows) < number:
            rows.append([""] * width)
        row = list(rows[number - 1])
        widest = max(values) + 1
        if len(row) < widest:
            row.extend([""] * (widest - len(row)))
        for column, value in values.items():
            row[column] = "" if value is None else value
        rows[number - 1] = row
    return rows


def _problems_error(
    problems: Iterable[Problem], written: list[_Written], incoming: Incoming, source: str
) -> XlrallyError:
    """The league's problems, each named where it is: in a cell the import writes (with the
    file's line that brought it) or in one the workbook had already."""
    rows = {(w.name, number): line for w in written for number, line in w.lines.items()}
    mine, theirs = [], []
    for problem in problems:
        origin = problem.origin
        place = (getattr(origin, "sheet", None), getattr(origin, "row", None))
        if place in rows:
            line = rows[place]
            where = f"{source} line {line} ({problem.cell})" if line else f"{problem.cell}"
            mine.append(f"{where}: {problem.message}")
        elif origin is None and problem.event and norm(problem.event) == norm(incoming.name):
            mine.append(str(problem))
        else:
            theirs.append(problem)
    if theirs:
        return _existing(theirs)
    return XlrallyError(
        "with the imported results the league has problems, so nothing was written: "
        + "; ".join(mine[:5])
        + (f" and {len(mine) - 5} more" if len(mine) > 5 else "")
    )


def _result_field(result: Result, name: str) -> object:
    value = getattr(result, name.replace("-", "_").replace(" ", "_"))
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


def _check_read_as_imported(
    league: League,
    record: _Written,
    placed: Mapping[int, int],
    results: tuple[dict[str, Written], ...],
    event: str,
) -> None:
    """The league read with the new rows holds the event's results as imported (looked for
    from the end, where new rows are, then everywhere)."""
    found: dict[int, Result] = {}
    wanted = set(placed.values())
    low = min(wanted, default=0)
    for result in reversed(league.results):  # a sheet's results are read in its rows' order
        origin = result.origin
        if getattr(origin, "sheet", None) != record.name:
            continue
        row: int = origin.row  # type: ignore[union-attr]
        if row in wanted:
            found[row] = result
            if len(found) == len(wanted):
                break
        elif row < low:
            break
    for index, values in enumerate(results):
        read = found.get(placed[index])
        if (
            read is None
            or norm(read.event) != norm(event)
            or key(read.player) != key(str(values["player"]))
            or not all(
                _result_field(read, f) == v
                for f, v in values.items()
                if f not in ("player", "country")
            )
        ):
            raise XlrallyError(
                f"the new workbook does not read back {values['player']!r} in {event!r} as "
                "imported; nothing was written"
            )


def import_into(
    path: Path, source: str, data: bytes, options: Options, check_area: bool = True
) -> ImportOutcome:
    """The import itself, in this process (see the module docstring). ``check_area``: see
    :class:`~xlrally.ooxml.reader.FileSheets` (isolated children only)."""
    staged: Staged | None = None
    try:
        with paused_gc(), FileSheets(path, check_area) as sheets:
            staged, outcome = _import(path, sheets, source, data, options)
        if staged is not None:
            staged.commit()
    except BaseException:
        if staged is not None:
            staged.discard()  # e.g. interrupted between staging and committing: no litter
        raise
    return outcome


def _no_stops_here() -> None:
    """A thread beside the import leaves Ctrl-C and SIGTERM to the main thread (a signal the
    kernel gave this thread would not wake the main thread where it waits)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})


@dataclass
class _Plan:
    """What the import writes, planned and written into the parts in memory."""

    incoming: Incoming
    results: tuple[dict[str, Written], ...]
    new_players: tuple[str, ...]
    notes: list[str]
    season: str | None
    same: bool
    placed: dict[int, int]
    """The row of each result (by its index)."""
    edit: Edit
    styles: Styles
    written: list[_Written]
    streams: dict[str, StreamedEdit]
    """Parts edited as a stream, to be packed (compressed)."""
    results_record: _Written | None


def _plan(
    sheets: FileSheets, source: str, data: bytes, options: Options, beside: ThreadPoolExecutor
) -> _Plan:
    """Read the file, meet its names with the league's, plan the cells and write them into the
    parts in memory (what only this needs, the sheets' tables, is dropped when it returns).
    The Results sheet's XML is decompressed ``beside`` the rest."""
    package = sheets.package
    results_sheet = find_sheet(sheets, "Results")
    ref = package.sheet(results_sheet) if results_sheet is not None else None
    light = _light_league(sheets, results_sheet)
    # Its XML decompressed beside the reading of the file and the planning (not beside the
    # reading of the sheets' values, which keeps both cores busy already).
    read = beside.submit(package.read, ref.part) if ref is not None else None
    rules = read_import_rules(sheets)
    incoming = read_incoming(data, source, light.settings.system, rules, options)
    if not incoming.results:
        raise XlrallyError(f"{source}: no results to import")
    notes = list(incoming.notes)
    check_event_fields(incoming, light, notes)

    # the names the league knows: its players and aliases, and every name its results have
    target = results_sheet or find_sheet(sheets, incoming.name)
    counts: Counter[str] = Counter(key(r.player) for r in light.results)
    written_names: list[str] = [r.player for r in light.results]
    writes: SheetWrites | None = None
    if target is not None:
        rows = sheets.values(target)
        required = ("event", "player") if target == results_sheet else ("player",)
        writes = SheetWrites(target, rows, required)
        if target == results_sheet:
            players = _column_values(rows, writes.table.columns["player"], writes.table.header)
            distinct = Counter(players)
            counts = Counter()
            for value, times in distinct.items():
                counts[key(text_of(value))] += times
            written_names = [text_of(v) for v in distinct]
    known = known_names(light, written_names)
    results, new_players, warnings = resolve(incoming, known, counts)
    notes += warnings
    season = season_of(incoming, light, options.season)

    events_sheet = find_sheet(sheets, "Events")
    if events_sheet is None:
        raise XlrallyError("the workbook has no 'Events' sheet")
    event_rows = sheets.values(events_sheet)
    events = SheetWrites(events_sheet, event_rows, ("event",))
    same, placed = False, dict[int, int]()
    if writes is not None:
        same, placed = plan_results(
            writes, incoming.name, results, options.replace, incoming.rounds
        )
    event_row = plan_event(events, incoming, season, options.replace, notes)

    # the edits, in memory
    edit = Edit(package)
    styles_part, styles = workbook_styles(package)
    used_style = []

    def date_style() -> int:
        used_style.append(True)
        return styles.xf(DATE_LOOK)

    written: list[_Written] = []
    streams: dict[str, StreamedEdit] = {}
    results_record: _Written | None = None
    if writes is None:
        cells = event_sheet_cells(incoming.name, results)
        record = _new_event_sheet(edit, package, incoming.name, cells, date_style)
        record.lines = {number: incoming.lines[number - 2] for number in cells if number > 1}
        placed = {index: index + 2 for index in range(len(results))}
        written.append(record)
        results_record = record
    elif writes.cells:
        record, stream = _edit_sheet(
            edit, package, writes, date_style, read if writes.name == results_sheet else None
        )
        record.lines = dict.fromkeys(writes.cells)
        record.lines.update({row: incoming.lines[i] for i, row in placed.items()})
        written.append(record)
        results_record = record
        if stream is not None:
            streams[record.part] = stream
    if events.cells:
        record, stream = _edit_sheet(edit, package, events, date_style)
        record.lines = {event_row: None}
        written.append(record)
        if stream is not None:
            streams[record.part] = stream
    if used_style and styles_part is not None:
        edit.set(styles_part, styles.data)
    plan = _Plan(
        incoming,
        results,
        new_players,
        notes,
        season,
        same,
        placed,
        edit,
        styles,
        written,
        streams,
        results_record,
    )
    _read_back(plan, package, sheets.epoch)
    return plan


def _read_back(plan: _Plan, package: Package, epoch: dt.date) -> None:
    """The cells written, read back by the reader a sync uses: each must read as written (a
    format copied from the row above could make a number a date); the values read are kept,
    for the league the import scores."""
    back = read_back(
        plan.styles.data,
        {w.name: (w.declared, w.markup) for w in plan.written if w.markup},
        package.date1904,
    )
    for w in plan.written:
        w.read = back.get(w.name, {})
        for number, values in w.cells.items():
            for column, value in values.items():
                read = w.read.get(number, {}).get(column)
                if column in w.markup.get(number, {}) and not _scorable(value, read, epoch):
                    cell = f"{quote_sheet(w.name)}!{column_letter(column)}{number}"
                    raise XlrallyError(
                        f"{cell}: the value written, {value!r}, would read back as {read!r} "
                        "(the cell's format, taken from the row above, changes it); give that "
                        "column's cells a General or number format and import again"
                    )


def _import(
    path: Path, sheets: FileSheets, source: str, data: bytes, options: Options
) -> tuple[Staged | None, ImportOutcome]:
    package = sheets.package
    with ThreadPoolExecutor(1, initializer=_no_stops_here) as beside:
        plan = _plan(sheets, source, data, options, beside)
        incoming, written, edit = plan.incoming, plan.written, plan.edit
        changed_inputs = bool(edit.changed) or bool(plan.streams)
        # The big sheet's new part is compressed beside the reading and scoring (zlib lets
        # go of the interpreter): most of it costs no time, and its old bytes are let go early.
        packing = {part: beside.submit(stream.pack) for part, stream in plan.streams.items()}
        plan.streams.clear()
        overlays = {
            w.name: _laid_over([] if w.new else sheets.values(w.name), w.read) for w in written
        }
        # the league as the next sync will read it, checked and scored once
        try:
            league = read_league(Overlay(sheets, overlays, [w.name for w in written if w.new]))
        except LeagueProblems as problems:
            raise _problems_error(problems.problems, written, incoming, source) from None
        sheets.release()
        overlays.clear()
        try:
            standings = compute_standings(league)
        except LeagueProblems as problems:
            raise _problems_error(problems.problems, written, incoming, source) from None
        if plan.results_record is not None:
            _check_read_as_imported(
                league, plan.results_record, plan.placed, plan.results, incoming.name
            )
        del league
        grid = standings_grid(standings)
        setup = print_setup(standings, grid)
        for part, packed in packing.items():
            edit.packed[part] = packed.result()
    notes = plan.notes
    if plan.same and not changed_inputs:
        notes.insert(0, "these results are already in the workbook: nothing changed")
    notes += _season_notes(plan.season, standings, incoming.name)

    # the Standings, planned into the same edit; one commit
    edit, styles, sheet_part = plan_sheet(
        package,
        SHEET_NAME,
        grid,
        setup,
        lambda: marks(grid),
        (INPUTS, stamp(standings)),
        joined=(edit, plan.styles),
    )
    staged = stage(path, edit, lambda: verify(edit, styles, written=sheet_part))
    edited = hand_edits(sheets, standings) if staged is not None else None
    outcome = ImportOutcome(
        event=incoming.name,
        results=len(plan.results),
        changed=changed_inputs and staged is not None,
        new_players=plan.new_players,
        notes=tuple(notes),
        sync=SyncOutcome(
            path,
            standings.system,
            len(standings.rows),
            len(standings.held),
            "written" if staged is not None else "unchanged",
            warnings=standings.warnings + ((edited,) if edited else ()),
        ),
    )
    return staged, outcome


def _season_notes(season: str | None, standings: Standings, event: str) -> list[str]:
    shown = standings.settings.season
    if season and shown and norm(season) != norm(shown):
        return [
            f"{event!r} is in season {season}; the Standings show season {shown} (the Settings' "
            "Season, or the latest)"
        ]
    return []
