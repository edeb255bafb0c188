"""Syncing many workbooks at once: both cores, a progress bar, one bad file never stops the rest.

Where the system can fork (Linux, macOS), the files are synced by long-lived worker processes
with a memory limit (:mod:`xlrally.app.isolate`): the sheets are read without the sheet-area
pre-check (about 0.4 s saved on a 200,000-row league), because a reader that crashes on a
hostile sheet takes only its worker down; the parent then names the sheet at fault, and a new
worker takes the files still to do. Elsewhere the files go to a process pool and every sheet is
checked before it is read.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from xlrally.app import isolate
from xlrally.app.sync import (
    SyncOutcome,
    explain_failure,
    full_sync,
    memory_for,
    synced_before,
)
from xlrally.ooxml.package import file_identity
from xlrally.ooxml.temporaries import clean_stale_temporaries


def _safe_sync(
    path: Path, check_area: bool = True, keep: list[object] | None = None
) -> SyncOutcome:
    try:
        return full_sync(path, check_area, keep)
    except Exception as error:  # a bug must not stop the batch; report it with the file
        return SyncOutcome(path, problems=(f"{path}: internal error: {error!r}",))


BIG_FILE = 2 * 2**20
"""A workbook file this big (about 50,000 result rows) is the last of its worker: the objects
of its sync are dropped with the process instead of freed one by one (~5% of its time)."""


def _isolated_sync(path: Path) -> SyncOutcome:
    """A worker's sync of one file (none if it is unchanged since xlrally wrote it); a
    failure that came with a stop is the stop (:func:`~xlrally.app.isolate.stopping`): the
    file was left as it was, and is reported as interrupted, not failed."""
    outcome = synced_before(path) or _sync_in_worker(path)
    if not outcome.ok and isolate.stopping():
        raise KeyboardInterrupt
    return outcome


def _sync_in_worker(path: Path) -> SyncOutcome:
    """A big file (2 MB, or parts needing more memory than the usual limit:
    :func:`~xlrally.app.sync.memory_for`) gets the memory it needs and is the worker's last."""
    try:
        big = path.stat().st_size >= BIG_FILE
    except OSError:
        big = False  # the sync says what is wrong with it
    limit = memory_for(path)
    if not big and limit <= isolate.MEMORY_LIMIT:
        return _safe_sync(path, check_area=False)
    isolate.retire()
    isolate.limit_memory(limit)
    return _safe_sync(path, check_area=False, keep=isolate.KEPT)


class BatchInterrupted(Exception):
    """Ctrl-C or SIGTERM during a batch; ``outcomes`` says what happened to every file."""

    def __init__(self, outcomes: list[SyncOutcome]) -> None:
        super().__init__("interrupted")
        self.outcomes = outcomes


def _outcomes(
    files: Sequence[Path], results: Sequence[object], before: Sequence[object]
) -> list[SyncOutcome]:
    """Each file's outcome: its sync's, or why it has none (died, or never started). A file
    whose sync was stopped between replacing it and reporting is known by the file it replaced."""
    outcomes = []
    for path, result, identity in zip(files, results, before, strict=True):
        if isinstance(result, SyncOutcome):
            outcomes.append(result)
        elif file_identity(path) != identity:  # replaced, though its sync could not say so
            outcomes.append(SyncOutcome(path, result="written"))
        elif isinstance(result, isolate.Died):
            outcomes.append(explain_failure(path, result))
        else:
            outcomes.append(SyncOutcome(path, result="not started"))
    return outcomes


def run_batch(
    files: Sequence[Path], jobs: int | None = None, progress: bool = False
) -> list[SyncOutcome]:
    """Sync every file; outcomes in the order given. Raises :class:`BatchInterrupted` on
    Ctrl-C (and on SIGTERM after :func:`~xlrally.app.isolate.stop_on_sigterm`), whenever it
    comes: each file's outcome then says whether it was written."""
    results: list[object] = [None] * len(files)
    before: list[object] = []
    bar = None
    try:
        before.extend(file_identity(path) for path in files)
        for folder in {path.resolve().parent for path in files}:
            clean_stale_temporaries(folder)
        advance: Callable[[], None] = lambda: None  # noqa: E731
        if progress:
            from rich.progress import Progress

            bar = Progress(transient=True)
            task = bar.add_task("Syncing", total=len(files))
            bar.start()
            advance = lambda: bar.advance(task)  # noqa: E731
        _sync_all(files, min(jobs or os.cpu_count() or 1, len(files)), advance, results)
        return _outcomes(files, results, before)
    except (KeyboardInterrupt, isolate.Interrupted):
        if len(before) < len(files):  # stopped before any file was looked at
            before = [file_identity(path) for path in files]
        raise BatchInterrupted(_outcomes(files, results, before)) from None
    finally:
        if bar is not None:
            bar.stop()


def _sync_all(
    files: Sequence[Path], workers: int, advance: Callable[[], None], results: list[object]
) -> None:
    """Each file's outcome (or how its child died) into ``results``, as they come.

    Forked workers start at once and each looks first whether its file is unchanged since
    xlrally wrote it (:func:`_isolated_sync`): the looks run on every core, not one after
    another here before the first sync starts (200 small files: 65 ms), and a worker imports
    the sync's code only when a file needs it, while it reads that file
    (:func:`~xlrally.app.sync.read_while_loading`), so that a folder of unchanged files loads
    none of it. Without fork, the looks are made here, and a pool starts only for the rest."""
    if isolate.AVAILABLE:
        try:
            done = isolate.run_isolated(list(files), _isolated_sync, workers, advance)
        except isolate.Interrupted as stop:  # what finished by then, and what died how
            results[:] = stop.results
            raise
        results[:] = done
        return
    todo = []
    for index, path in enumerate(files):
        # A file unchanged since its last sync costs a look at the zip's directory, here.
        outcome = synced_before(path)
        if outcome is None:
            todo.append(index)
        else:
            results[index] = outcome
            advance()
    _pooled(files, todo, workers, advance, results)


def _pooled(
    files: Sequence[Path],
    todo: Sequence[int],
    workers: int,
    advance: Callable[[], None],
    results: list[object],
) -> None:
    """Without fork: in this process for one worker, else a process pool; areas checked.
    Each outcome goes into ``results`` as it comes."""
    if workers <= 1:
        for index in todo:
            results[index] = _safe_sync(files[index])
            advance()
        return
    # Imported here: a pool is only for systems without fork, and its import costs every sync
    from concurrent.futures import Future, ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures: dict[Future[SyncOutcome], int] = {
            pool.submit(_safe_sync, files[index]): index for index in todo
        }
        for future in as_completed(futures):
            index = futures[future]
            try:
                results[index] = future.result()
            except Exception as error:  # the worker died (killed, out of memory)
                message = f"{files[index]}: the worker syncing this file died ({error!r})"
                results[index] = SyncOutcome(files[index], problems=(message,))
            advance()
