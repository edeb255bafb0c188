"""Syncing many workbooks at once: both cores, a progress bar, one bad file never stops the rest.

Each file is synced in a worker process (when there is more than one file), so a file that
crashes or exhausts a worker is reported as failed and the others go on.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from pathlib import Path

from xlrally.sync import SyncOutcome, sync_file


def _safe_sync(path: Path) -> SyncOutcome:
    try:
        return sync_file(path)
    except Exception as error:  # a bug must not stop the batch; report it with the file
        return SyncOutcome(path, problems=(f"{path}: internal error: {error!r}",))


def run_batch(
    files: Sequence[Path], jobs: int | None = None, progress: bool = False
) -> list[SyncOutcome]:
    """Sync every file; outcomes in the order given."""
    workers = min(jobs or os.cpu_count() or 1, len(files))
    advance: Callable[[], None] = lambda: None  # noqa: E731
    bar = None
    if progress:
        from rich.progress import Progress

        bar = Progress(transient=True)
        task = bar.add_task("Syncing", total=len(files))
        bar.start()
        advance = lambda: bar.advance(task)  # noqa: E731
    try:
        if workers <= 1:
            outcomes = []
            for path in files:
                outcomes.append(_safe_sync(path))
                advance()
            return outcomes
        results: dict[Path, SyncOutcome] = {}
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures: dict[Future[SyncOutcome], Path] = {
                pool.submit(_safe_sync, path): path for path in files
            }
            for future in as_completed(futures):
                path = futures[future]
                try:
                    results[path] = future.result()
                except Exception as error:  # the worker died (killed, out of memory)
                    results[path] = SyncOutcome(
                        path, problems=(f"{path}: the worker syncing this file died ({error!r})",)
                    )
                advance()
        return [results[path] for path in files]
    finally:
        if bar is not None:
            bar.stop()
