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

One module per job: the plan (:mod:`~.planned`, with the sheets edited in memory,
:mod:`~.edits`, and read through :mod:`~.overlay`), the report (:mod:`~.report`: the outcome
and the refusals' words) and, here, the commit: the league read with the new rows, checked and
scored, its Standings planned into the same edit, staged and committed.
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from xlrally.app.importer.edits import WrittenSheet
from xlrally.app.importer.incoming import Options
from xlrally.app.importer.overlay import Overlay, laid_over
from xlrally.app.importer.planned import Plan, plan_import
from xlrally.app.importer.report import ImportOutcome, problems_error, season_notes
from xlrally.app.stamps import hand_edits, marks
from xlrally.app.stops import leave_stops_to_main_thread
from xlrally.app.sync import SyncOutcome, paused_gc
from xlrally.app.unchanged import INPUTS, stamp
from xlrally.core.errors import LeagueProblems, XlrallyError
from xlrally.core.league import compute_standings
from xlrally.core.model import League, Result
from xlrally.core.names import norm
from xlrally.core.players import key
from xlrally.core.standings import Standings
from xlrally.formats.cells import PrintSetup, SheetRow
from xlrally.formats.grid import SHEET_NAME, print_setup, standings_sheet
from xlrally.formats.workbook import read_league
from xlrally.ooxml.in_place import Written
from xlrally.ooxml.reader import FileSheets
from xlrally.ooxml.writer import Staged, plan_sheet, stage, verify


def _result_field(result: Result, name: str) -> object:
    value = getattr(result, name.replace("-", "_").replace(" ", "_"))
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


def _check_read_as_imported(
    league: League,
    record: WrittenSheet,
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
    path: Path,
    source: str,
    data: bytes,
    options: Options,
    check_area: bool = True,
    keep: list[object] | None = None,
) -> ImportOutcome:
    """The import itself, in this process (see the module docstring). ``check_area``: see
    :class:`~xlrally.ooxml.reader.FileSheets` (isolated children only). ``keep``: as
    :func:`~xlrally.app.sync.full_sync`'s, for a process that exits right after: the league,
    its standings and the plan are put there instead of freed one by one."""
    staged: Staged | None = None
    try:
        with paused_gc(ending=keep is not None), FileSheets(path, check_area) as sheets:
            staged, outcome = _import(path, sheets, source, data, options, keep)
        if staged is not None:
            staged.commit()
    except BaseException:
        if staged is not None:
            staged.discard()  # e.g. interrupted between staging and committing: no litter
        raise
    return outcome


def _import(
    path: Path,
    sheets: FileSheets,
    source: str,
    data: bytes,
    options: Options,
    keep: list[object] | None,
) -> tuple[Staged | None, ImportOutcome]:
    package = sheets.package
    with ThreadPoolExecutor(1, initializer=leave_stops_to_main_thread) as beside:
        plan = plan_import(sheets, source, data, options, beside)
        changed_inputs = bool(plan.edit.changed) or bool(plan.streams)
        standings, grid, setup = _scored(sheets, plan, source, beside, keep)
    if keep is not None:
        keep.extend((plan, standings, grid))
    incoming, edit = plan.incoming, plan.edit
    notes = plan.notes
    if plan.same and not changed_inputs:
        notes.insert(0, "these results are already in the workbook: nothing changed")
    notes += season_notes(plan.season, standings, incoming.name)

    # the Standings, planned into the same edit; one commit
    edit, styles, sheet_part = plan_sheet(
        package,
        SHEET_NAME,
        grid,
        setup,
        marks,
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


def _scored(
    sheets: FileSheets,
    plan: Plan,
    source: str,
    beside: ThreadPoolExecutor,
    keep: list[object] | None,
) -> tuple[Standings, tuple[SheetRow, ...], PrintSetup]:
    """The league as the next sync will read it (the rows read at first, the cells read back
    laid over them), checked and scored once, and its Standings sheet's grid; the big sheet's
    new part packed ``beside`` meanwhile, into the edit. The league is let go once scored
    (put in ``keep`` when there is one)."""
    incoming, written, edit = plan.incoming, plan.written, plan.edit
    # The big sheet's new part is compressed beside the reading and scoring (zlib lets
    # go of the interpreter): most of it costs no time, and its old bytes are let go early.
    packing = {part: beside.submit(stream.pack) for part, stream in plan.streams.items()}
    plan.streams.clear()
    overlays = {w.name: laid_over([] if w.new else sheets.values(w.name), w.read) for w in written}
    # the league as the next sync will read it, checked and scored once
    try:
        league = read_league(Overlay(sheets, overlays, [w.name for w in written if w.new]))
    except LeagueProblems as problems:
        raise problems_error(problems.problems, written, incoming, source) from None
    sheets.release()
    overlays.clear()
    try:
        standings = compute_standings(league)
    except LeagueProblems as problems:
        raise problems_error(problems.problems, written, incoming, source) from None
    if plan.results_record is not None:
        _check_read_as_imported(
            league, plan.results_record, plan.placed, plan.results, incoming.name
        )
    if keep is not None:
        keep.append(league)
    del league
    grid = standings_sheet(standings)
    setup = print_setup(standings, grid)
    for part, packed in packing.items():
        edit.packed[part] = packed.result()
    return standings, grid, setup
