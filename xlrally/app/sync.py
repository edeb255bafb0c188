"""One workbook file in, its standings out: the file path used by the command line.

Each function here translates between a workbook file and the core, and returns or raises
errors in the user's words (``file: Sheet!Cell: problem``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import gc
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

from xlrally.app import isolate
from xlrally.app.isolate import Died
from xlrally.app.stamps import hand_edits, kept_record, marks, marks_keeping
from xlrally.app.stops import leave_stops_to_main_thread
from xlrally.app.unchanged import INPUTS, last_sync, remember_held, stamp
from xlrally.core.errors import FileProblems, XlrallyError
from xlrally.core.names import norm
from xlrally.ooxml.package import WORKSHEET_TYPE, Package, uncompressed_size
from xlrally.ooxml.properties import last_saved as last_saved_in
from xlrally.ooxml.replace import WriteOutcome
from xlrally.ooxml.temporaries import TEMP_SUFFIX, temp_prefix

if TYPE_CHECKING:
    from xlrally.core.standings import Standings
    from xlrally.formats.cells import PrintSetup, SheetRow
    from xlrally.ooxml.reader import FileSheets

# The reading, scoring and writing code is imported by the functions that use it
# (:func:`load`), so that a look at an unchanged file (:func:`synced_before`) loads none of it.


def load() -> None:
    """Import the code a full sync runs (:func:`read_while_loading` does, beside the read of
    the first file that needs it)."""
    import xlrally.core.league
    import xlrally.formats.grid
    import xlrally.formats.workbook
    import xlrally.ooxml.reader
    import xlrally.ooxml.writer  # noqa: F401


def read_standings(
    path: str | Path,
    as_of: dt.date | None = None,
    season: str | None = None,
    check_area: bool = True,
) -> Standings:
    """Read a workbook file and compute its standings (of one season, when its events name
    seasons). Raises FileProblems. ``check_area``: see :class:`~xlrally.ooxml.reader.FileSheets`
    (isolated children only)."""
    from xlrally.core.league import compute_standings
    from xlrally.formats.workbook import read_league
    from xlrally.ooxml.reader import FileSheets

    path = Path(path)
    try:
        with paused_gc(), FileSheets(path, check_area) as source:
            league = read_league(source)
            source.release()
            standings = compute_standings(league, as_of, season)
            edited = hand_edits(source, standings)
    except XlrallyError as error:
        raise FileProblems.of(path, error) from None
    if edited:
        return dataclasses.replace(standings, warnings=(*standings.warnings, edited))
    return standings


@dataclass(frozen=True)
class SyncOutcome:
    """What syncing one file did, for the batch summary."""

    path: Path
    system: str = ""
    players: int = 0
    events: int = 0
    result: str = "failed"
    """written, unchanged or failed; or, after Ctrl-C, interrupted or not started"""
    problems: tuple[str, ...] = ()  # each "file: Sheet!Cell: problem"
    warnings: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.result in {"written", "unchanged"}


@contextmanager
def paused_gc(ending: bool = False) -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a workbook is processed.

    Reading a big league makes millions of small acyclic objects; the collector would scan
    them again and again, which doubles the time of reading and scoring. Reference counting
    still frees everything; the collector runs once at the end, over every object made
    meanwhile (0.2 s at 200,000 results). ``ending``: the process ends right after (a
    worker's last task), so the objects are frozen (:func:`gc.freeze`) instead of scanned.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if ending:
                gc.freeze()
            gc.enable()


SKIP_UNCHANGED = True
"""Whether a file unchanged since xlrally last wrote it is skipped (:func:`synced_before`).
Tests turn it off (``tests/conftest.py``'s ``full_syncs``) so that a second sync runs the
writer's own no-change path (nothing to write: the file is left alone), which the skip would
otherwise hide. Not a user setting."""


def synced_before(path: str | Path) -> SyncOutcome | None:
    """The outcome of a sync of a file unchanged since xlrally last wrote it, without reading
    its sheets (:func:`~xlrally.app.unchanged.last_sync`); None when it must be synced."""
    if not SKIP_UNCHANGED:
        return None
    last = last_sync(path)
    if last is None:
        return None
    return SyncOutcome(
        Path(path), last.system, last.players, last.events, "unchanged", warnings=last.warnings
    )


T = TypeVar("T")


def sync_file(path: str | Path) -> SyncOutcome:
    """Compute a workbook's standings and write its Standings sheet. Never raises for a bad
    file: the problems come back in the outcome, and the file is left untouched. A file
    unchanged since xlrally wrote it is not read again (:func:`synced_before`)."""
    return synced_before(path) or full_sync(Path(path))


def full_sync(path: Path, check_area: bool = True, keep: list[object] | None = None) -> SyncOutcome:
    """:func:`sync_file` without looking for the skip first (the caller has).

    ``check_area`` False: see :class:`~xlrally.ooxml.reader.FileSheets` (isolated children only).
    ``keep``: a list that takes the sync's big objects (the sheets read, the league, the grid)
    for a process that exits right after: freeing millions of objects one by one (~5% of a big
    sync) is wasted work there.
    """
    from xlrally.ooxml.reader import FileSheets

    staged = None
    try:
        with paused_gc(ending=keep is not None), FileSheets(path, check_area) as source:
            read_while_loading(source)
            from xlrally.core.league import compute_standings
            from xlrally.formats.grid import SHEET_NAME, print_setup, standings_sheet
            from xlrally.formats.workbook import read_league
            from xlrally.ooxml.writer import stage_sheet

            league = read_league(source)
            source.release()
            standings = compute_standings(league)
            grid = standings_sheet(standings)
            if keep is not None:
                keep.extend((source, league, standings, grid))
            setup = print_setup(standings, grid)
            held = _held_already(source.package, standings, grid, setup)
            if held is not None:
                staged = None  # other rules wrote it, these write the same: keep it as it is
                remember_held(*held)
            else:
                inputs = (INPUTS, stamp(standings))
                staged = stage_sheet(
                    path,
                    SHEET_NAME,
                    grid,
                    source.package,
                    setup,
                    marks,
                    inputs,
                )
            # Unstaged: the sheet is byte for byte what xlrally would write, so not edited.
            edited = hand_edits(source, standings) if staged is not None else None
        outcome = staged.commit() if staged is not None else WriteOutcome(False)
    except BaseException as error:
        if staged is not None:
            staged.discard()  # e.g. interrupted between staging and committing: no litter
        return _failed(path, error)
    return SyncOutcome(
        path,
        standings.system,
        len(standings.rows),
        len(standings.held),
        "written" if outcome.changed else "unchanged",
        warnings=standings.warnings + ((edited,) if edited else ()),
    )


def read_while_loading(source: FileSheets) -> None:
    """Read the Results sheet while a thread imports the code that uses it (:func:`load`),
    when that is not loaded yet (a worker's first file to sync: see :mod:`xlrally.app.batch`):
    python-calamine, fastexcel and zlib release the GIL, so the imports (about 0.1 s) cost no
    time.

    The read stays in this thread: python-calamine's memory freed by another thread's read
    was not reused here (108 MB more at the peak of a 1,048,575-row sync). A sheet that cannot
    be read is left for the league's reader, which meets its error again in its place."""
    if "xlrally.formats.workbook" in sys.modules:
        return
    loading = threading.Thread(target=_load_beside, name="xlrally load")
    loading.start()
    try:
        # Book.find's rule (the first sheet so named); its module is among those loading
        name = next((n for n in source.sheet_names() if norm(n) == norm("Results")), None)
        if name is not None:
            source.read_ahead(name)
    except XlrallyError:
        pass
    finally:
        loading.join()


def _load_beside() -> None:
    leave_stops_to_main_thread()
    load()


def _held_already(
    package: Package, standings: Standings, grid: Sequence[SheetRow], setup: PrintSetup
) -> tuple[str, str] | None:
    """The package's digest and the record another xlrally's rules left, when the file holds
    what these rules write under that record (:func:`~xlrally.app.stamps.kept_record`):
    planned with it, nothing changes. None otherwise."""
    kept = kept_record(package, standings)
    if kept is None:
        return None
    from xlrally.formats.grid import SHEET_NAME
    from xlrally.ooxml.writer import plan_sheet

    marked = marks_keeping(package, grid)
    edit, _, _ = plan_sheet(package, SHEET_NAME, grid, setup, marked, (INPUTS, kept[1]))
    return None if edit.changed or edit.dropped or edit.packed else kept


def _failed(path: Path, error: BaseException) -> SyncOutcome:
    """The outcome of a file whose sync raised ``error``: a user's problem, a full disk or a
    lack of memory; anything else (an interrupt, a bug) is raised again."""
    if isinstance(error, XlrallyError):
        return SyncOutcome(path, problems=FileProblems.of(path, error).messages)
    if isinstance(error, MemoryError):
        message = "ran out of memory reading the workbook: is a sheet far larger than its data?"
        return SyncOutcome(path, problems=(f"{path}: {message}",))
    if isinstance(error, OSError):  # disk full, folder not writable ...
        reason = error.strerror or str(error)
        return SyncOutcome(path, problems=(f"{path}: cannot write the workbook: {reason}",))
    raise error


def last_saved(path: str | Path) -> dt.datetime:
    """When the workbook was last saved: its own record, else the file's modification time."""
    try:
        with Package(path) as package:
            saved = last_saved_in(package)
    except XlrallyError:
        saved = None
    if saved is not None:
        return saved
    return dt.datetime.fromtimestamp(Path(path).stat().st_mtime).replace(microsecond=0)


def explain_failure(path: Path, died: Died) -> SyncOutcome:
    """The outcome for a file whose isolated sync died, in the user's words: stopped from
    outside (nothing wrong with the file), or crashed on it (name the sheet at fault if the
    package checks find one). The temporary file the sync may have left is removed."""
    real = path.resolve()
    for leftover in real.parent.glob(f"{temp_prefix(real)}*{TEMP_SUFFIX}"):
        leftover.unlink(missing_ok=True)
    if died.signal_name == "SIGINT":
        return SyncOutcome(path, result="interrupted")  # before it was written: unchanged
    return SyncOutcome(path, problems=why_died(path, died, "sync").messages)


def why_died(path: Path, died: Died, command: str) -> FileProblems:
    """Why the isolated child running ``xlrally command`` on the file died: stopped from
    outside, or the sheet at fault if the package checks find one."""
    if died.stopped_from_outside:
        return FileProblems(
            path,
            [
                f"`xlrally {command}` was stopped by {died.signal_name} on this file (from "
                "outside, or the system ran out of memory); nothing was written: run it again"
            ],
        )
    try:
        with Package(path) as package:
            package.check_shared_strings()
            for sheet in package.sheets:
                if sheet.kind == WORKSHEET_TYPE and package.has(sheet.part):
                    package.check_sheet_area(sheet)
    except XlrallyError as error:
        return FileProblems.of(path, error)
    return FileProblems(
        path,
        [
            f"the workbook reader {died.reason} on this file, and no check found why; nothing "
            "was written: open and save the workbook in Excel or LibreOffice, then run "
            f"`xlrally {command}` again"
        ],
    )


def memory_for(path: Path) -> int:
    """The address space an isolated child may use for this workbook: the usual
    :data:`~xlrally.app.isolate.MEMORY_LIMIT` (2 GB), or for a big honest league twice what
    its sync needs, 256 MB + 12 × its parts uncompressed (measured: a sync peaks at about
    40 MB + 5.8 × the uncompressed parts, 285 MB for 200,000 rows). The package's own limit
    on the uncompressed parts (1 GB) bounds this at 12.5 GB.

    >>> memory_for(Path("no such file")) == isolate.MEMORY_LIMIT
    True
    """
    return max(isolate.MEMORY_LIMIT, 256 * 2**20 + 12 * uncompressed_size(path))


def read_isolated(
    path: str | Path,
    show: Callable[[Standings], T],
    command: str,
    as_of: dt.date | None = None,
    season: str | None = None,
) -> T:
    """``show(read_standings(path, as_of, season))`` for the read-only commands, run as a sync
    runs (:mod:`xlrally.app.batch`): where the system can fork, in a memory-limited child that
    skips the sheet-area check, so that `standings`, `check` and `publish` cost no more than
    `sync`; only the shown result comes back. Elsewhere in this process, with the check.
    Raises FileProblems, and KeyboardInterrupt on Ctrl-C."""
    path = Path(path)
    if not isolate.AVAILABLE:
        with paused_gc():
            return show(read_standings(path, as_of, season))

    def shown(task: Path) -> tuple[T | None, tuple[str, ...]]:
        isolate.limit_memory(memory_for(task))
        try:
            with paused_gc(ending=True):
                standings = read_standings(task, as_of, season, check_area=False)
                isolate.KEPT.append(standings)  # dropped with the child, not freed one by one
                return show(standings), ()
        except FileProblems as error:
            return None, error.messages

    try:
        [result] = isolate.run_isolated([path], shown)
    except isolate.Interrupted:
        raise KeyboardInterrupt from None
    if isinstance(result, Died):
        raise why_died(path, result, command)
    value, problems = result
    if problems:
        raise FileProblems(path, [line.removeprefix(f"{path}: ") for line in problems])
    return cast("T", value)  # no problems: shown
