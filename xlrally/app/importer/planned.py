"""The import planned, before anything is committed: the file read (:mod:`~.incoming`), its
names met with the league's (:mod:`~.names`), the cells planned (:mod:`~.plan`) and written
into the parts in memory (:mod:`~.edits`), then read back by the reader a sync uses, each cell
checked to read as written (:class:`Plan`, :func:`plan_import`)."""

from __future__ import annotations

import datetime as dt
import operator
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from xlrally.app.importer.edits import DATE_LOOK, WrittenSheet, edit_sheet, new_event_sheet
from xlrally.app.importer.incoming import Incoming, Options, check_event_fields, read_incoming
from xlrally.app.importer.names import known_names, resolve
from xlrally.app.importer.overlay import Overlay
from xlrally.app.importer.plan import (
    SheetWrites,
    event_sheet_cells,
    plan_event,
    plan_results,
    season_of,
)
from xlrally.app.importer.report import existing_problems
from xlrally.core.errors import LeagueProblems, XlrallyError
from xlrally.core.model import League
from xlrally.core.players import key
from xlrally.formats.cells import Value, column_letter, quote_sheet, text_of, to_date
from xlrally.formats.workbook import (
    HEADER_SEARCH_ROWS,
    find_sheet,
    read_import_rules,
    read_league,
)
from xlrally.ooxml.in_place import StreamedEdit, Written
from xlrally.ooxml.package import Package
from xlrally.ooxml.read_back import read_back
from xlrally.ooxml.reader import FileSheets
from xlrally.ooxml.styles import Styles
from xlrally.ooxml.writer import Edit, workbook_styles


@dataclass
class Plan:
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
    written: list[WrittenSheet]
    streams: dict[str, StreamedEdit]
    """Parts edited as a stream, to be packed (compressed)."""
    results_record: WrittenSheet | None


def plan_import(
    sheets: FileSheets, source: str, data: bytes, options: Options, beside: ThreadPoolExecutor
) -> Plan:
    """Read the file, meet its names with the league's, plan the cells and write them into the
    parts in memory (what only this needs, the sheets' tables, is dropped when it returns).
    The Results sheet's XML is decompressed ``beside`` the rest."""
    package = sheets.package
    results_sheet = find_sheet(sheets, "Results")
    ref = package.sheet(results_sheet) if results_sheet is not None else None
    if ref is not None:  # its XML, decompressed for the check of its values, kept for the edit
        package.keep(ref.part)
    light = _light_league(sheets, results_sheet)
    # Its XML as the check of its values kept it; or, where that check stopped early (at a
    # formula), decompressed beside the reading of the file and the planning (not beside the
    # reading of the sheets' values, which keeps both cores busy already).
    read = beside.submit(package.read, ref.part) if ref is not None else None
    rules = read_import_rules(sheets)
    incoming = read_incoming(data, source, light.settings.system, rules, options)
    if not incoming.results:
        raise XlrallyError(f"{source}: no results to import")
    notes = list(incoming.notes)
    check_event_fields(incoming, light, notes)

    target = results_sheet or find_sheet(sheets, incoming.name)
    writes, counts, written_names = _target_rows(sheets, light, target, results_sheet)
    known = known_names(light, written_names)
    results, new_players, warnings = resolve(incoming, known, counts)
    notes += warnings
    season = season_of(incoming, light, options.season)
    events, same, placed, event_row = _plan_cells(
        sheets, writes, incoming, results, season, options, notes
    )
    edit = Edit(package)
    styles_part, styles = workbook_styles(package)
    plan = Plan(
        incoming, results, new_players, notes, season, same, placed, edit, styles, [], {}, None
    )
    used_style = _write_cells(plan, package, writes, events, event_row, results_sheet, read)
    if used_style and styles_part is not None:
        edit.set(styles_part, styles.data)
    _read_back(plan, package, sheets.epoch)
    return plan


def _target_rows(
    sheets: FileSheets, light: League, target: str | None, results_sheet: str | None
) -> tuple[SheetWrites | None, Counter[str], list[str]]:
    """The sheet the results go in (its rows, to plan into), and the names the league knows:
    its players and aliases, and every name its results have, with how often each is used."""
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
    return writes, counts, written_names


def _plan_cells(
    sheets: FileSheets,
    writes: SheetWrites | None,
    incoming: Incoming,
    results: tuple[dict[str, Written], ...],
    season: str | None,
    options: Options,
    notes: list[str],
) -> tuple[SheetWrites, bool, dict[int, int], int]:
    """The cells planned: the results' rows (``writes``), and the event's row in Events;
    whether the results are there already, and the row of each result."""
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
    return events, same, placed, event_row


def _write_cells(
    plan: Plan,
    package: Package,
    writes: SheetWrites | None,
    events: SheetWrites,
    event_row: int,
    results_sheet: str | None,
    read: Future[bytes] | None,
) -> bool:
    """The cells planned written into the parts in memory (a new event sheet when the league
    has no sheet for them); whether a cell took the date style."""
    edit, styles, incoming, results = plan.edit, plan.styles, plan.incoming, plan.results
    used_style = []

    def date_style() -> int:
        used_style.append(True)
        return styles.xf(DATE_LOOK)

    if writes is None:
        cells = event_sheet_cells(incoming.name, results)
        record = new_event_sheet(edit, package, incoming.name, cells, date_style)
        record.lines = {number: incoming.lines[number - 2] for number in cells if number > 1}
        plan.placed = {index: index + 2 for index in range(len(results))}
        plan.written.append(record)
        plan.results_record = record
    elif writes.cells:
        record, stream = edit_sheet(
            edit, package, writes, date_style, read if writes.name == results_sheet else None
        )
        record.lines = dict.fromkeys(writes.cells)
        record.lines.update({row: incoming.lines[i] for i, row in plan.placed.items()})
        plan.written.append(record)
        plan.results_record = record
        if stream is not None:
            plan.streams[record.part] = stream
    if events.cells:
        record, stream = edit_sheet(edit, package, events, date_style)
        record.lines = {event_row: None}
        plan.written.append(record)
        if stream is not None:
            plan.streams[record.part] = stream
    return bool(used_style)


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
        raise existing_problems(problems.problems) from None


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


def _read_back(plan: Plan, package: Package, epoch: dt.date) -> None:
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
