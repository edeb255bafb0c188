"""Running work in child processes with a memory limit: a few long-lived workers (POSIX fork).

A child that crashes (python-calamine aborts the whole process on some hostile sheets), runs
out of memory or is killed takes only its own task with it: the parent gets :class:`Died` for
that task and every other task goes on. Children write their result to a file (no pipe to fill
up), their own stderr goes nowhere (a crashing reader prints a Rust backtrace), and at most
``jobs`` run at once.

Here, the parent's side: the tasks handed out to the workers and their results taken in, and
everything released after a stop. The stops are :mod:`~xlrally.app.stops`, the workers
:mod:`~xlrally.app.workers`, the results' folders :mod:`~xlrally.app.result_folders`.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import selectors
import signal
import tempfile
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from xlrally.app.result_folders import (
    ABANDONED_AFTER,
    FOLDER_PREFIX,
    LEGACY_AFTER,
    LEGACY_FOLDER,
    Folder,
    remove_abandoned,
)
from xlrally.app.stops import stop_on_sigterm, stopping, stops_held
from xlrally.app.workers import (
    INTERRUPTED,
    KEPT,
    MEMORY_LIMIT,
    QUEUED,
    Died,
    Worker,
    collect,
    limit_memory,
    retire,
    start,
)

__all__ = [
    "ABANDONED_AFTER",
    "AVAILABLE",
    "FOLDER_PREFIX",
    "INTERRUPTED",
    "KEPT",
    "LEGACY_AFTER",
    "LEGACY_FOLDER",
    "MEMORY_LIMIT",
    "QUEUED",
    "Died",
    "Interrupted",
    "Worker",
    "limit_memory",
    "retire",
    "run_isolated",
    "stop_on_sigterm",
    "stopping",
]

T = TypeVar("T")
R = TypeVar("R")

AVAILABLE = hasattr(os, "fork")
"""False on Windows, where the callers fall back to checking every sheet before reading it."""


class Interrupted(Exception):
    """Ctrl-C (or SIGTERM, see :func:`stop_on_sigterm`) during :func:`run_isolated`.

    ``results`` holds, in task order, the results of the tasks that finished, :class:`Died`
    for those stopped midway, and None for those never started.
    """

    def __init__(self, results: list[Any]) -> None:
        super().__init__("interrupted")
        self.results = results


def run_isolated(
    tasks: Sequence[T],
    work: Callable[[T], R],
    jobs: int = 1,
    done: Callable[[], None] = lambda: None,
) -> list[R | Died]:
    """``work(task)`` for each task in at most ``jobs`` worker processes; results in task order.

    Each worker is a child with a memory limit that runs one task after another. A worker that
    dies takes only the task it was running (that task's result is :class:`Died`); a new worker
    takes over the tasks still to do. Ctrl-C (or SIGTERM, see :func:`stop_on_sigterm`) at any
    moment raises :class:`Interrupted`, never a bare KeyboardInterrupt, after the workers are
    stopped and the results' folder is removed.
    """
    results: list[Any] = [None] * len(tasks)
    try:
        _run(tasks, work, max(jobs, 1), done, results)
    except KeyboardInterrupt:  # whenever it came: ``results`` says what was done by then
        raise Interrupted(results) from None
    return results


def _run(
    tasks: Sequence[T],
    work: Callable[[T], R],
    jobs: int,
    done: Callable[[], None],
    results: list[Any],
) -> None:
    """:func:`run_isolated`'s work, filling in ``results``; a stop raises KeyboardInterrupt.

    Every resource is made inside the ``try`` whose ``finally`` releases it: a stop held back
    while one is made (folder, worker) arrives as stops are let through again, which is inside
    that ``try`` (issue 28: it once came just before it, and the folder stayed behind).
    """
    to_do = deque(range(len(tasks)))
    workers: dict[int, Worker] = {}  # by the read end of their reports
    folder: Folder | None = None
    listening = selectors.DefaultSelector()
    try:
        remove_abandoned(Path(tempfile.gettempdir()))
        with stops_held():  # made and noted with no stop in between
            folder = Folder.make()
        while to_do or workers:
            for worker in workers.values():
                while to_do and worker.accepts and worker.give(to_do[0]):
                    to_do.popleft()
            while to_do and len(workers) < jobs:
                # No interrupt between the fork and noting the worker: it would escape cleanup.
                with stops_held() as mask:
                    worker = start(work, tasks, folder.path, mask, workers.values())
                    workers[worker.reports] = worker
                    listening.register(worker.reports, selectors.EVENT_READ)
                while to_do and worker.accepts and worker.give(to_do[0]):
                    to_do.popleft()
            for worker in workers.values():
                if not worker.tasks:
                    worker.close_orders()  # nothing left for it (or it is ending): it ends
            for key, _ in listening.select():
                worker = workers[key.fd]
                data = os.read(worker.reports, 4096)
                for index in worker.finished(data):
                    results[index] = collect(0, folder.path / f"{index}.result")
                    done()
                if not data:  # the worker ended
                    listening.unregister(worker.reports)
                    del workers[worker.reports]
                    status = _end(worker)
                    if worker.tasks and not worker.retiring:  # it died on its first task
                        index = worker.tasks.popleft()
                        results[index] = collect(status, folder.path / f"{index}.result")
                        done()
                    to_do.extendleft(reversed(worker.tasks))  # never started: to another
    except KeyboardInterrupt:
        if folder is not None:
            _account_for(workers, folder.path, results)
        raise
    finally:
        with stops_held():  # a second stop must not cut the cleanup short
            for worker in workers.values():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.pid, signal.SIGKILL)
                _end(worker)
            listening.close()
            if folder is not None:
                folder.remove()


def _account_for(workers: dict[int, Worker], folder: Path, results: list[Any]) -> None:
    """After a stop: stop the workers (each cleans up after itself on SIGTERM) and note in
    ``results`` the tasks that finished and those stopped midway. A second stop meanwhile cuts
    this short (the workers left are then killed)."""
    for worker in workers.values():
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker.pid, signal.SIGTERM)
    running = []
    for reports, worker in list(workers.items()):
        status = _end(worker)
        del workers[reports]
        running.append((worker.tasks, status))
    for index in range(len(results)):  # finished, but the stop came before its report
        out = folder / f"{index}.result"
        if results[index] is None and out.exists():
            try:
                results[index] = collect(0, out)
            except (EOFError, pickle.UnpicklingError):  # cut off while being written
                continue
    for ordered, status in running:  # the first unfinished one was running
        unfinished = [i for i in ordered if results[i] is None]
        if unfinished:
            results[unfinished[0]] = collect(status, folder / f"{unfinished[0]}.result")


def _end(worker: Worker) -> int:
    """Close the worker's pipes and wait for it to end; its wait status. Called again (a stop
    came while it waited), it only waits."""
    worker.close_orders()
    worker.close_reports()
    try:
        return os.waitpid(worker.pid, 0)[1]
    except ChildProcessError:  # reaped already
        return 0
