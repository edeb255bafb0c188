"""Running work in child processes with a memory limit: a few long-lived workers (POSIX fork).

A child that crashes (python-calamine aborts the whole process on some hostile sheets), runs
out of memory or is killed takes only its own task with it: the parent gets :class:`Died` for
that task and every other task goes on. Children write their result to a file (no pipe to fill
up), their own stderr goes nowhere (a crashing reader prints a Rust backtrace), and at most
``jobs`` run at once.
"""

from __future__ import annotations

import contextlib
import ctypes  # here, not in each worker: a worker would import it again
import faulthandler
import os
import pickle
import re
import selectors
import shutil
import signal
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MEMORY_LIMIT = 2 * 2**30
"""Address space of each child: far above a big league (a 200,000-row sync peaks near 285 MB
of address space), far below what a hostile sheet would make a reader ask for. A child may
raise it for a big file (:func:`limit_memory`)."""

INTERRUPTED = 130
"""Exit code of a child stopped by Ctrl-C or SIGTERM (after cleaning up), as shells use."""

AVAILABLE = hasattr(os, "fork")
"""False on Windows, where the callers fall back to checking every sheet before reading it."""


@dataclass(frozen=True)
class Died:
    """A child ended without a result; ``reason`` says how (signal or exit code)."""

    reason: str
    signal_name: str = ""
    """The signal's name (``SIGKILL``) when a signal ended it."""

    @property
    def stopped_from_outside(self) -> bool:
        """Killed or asked to stop (by a person, a service manager or the kernel's
        out-of-memory killer) rather than crashed on its own."""
        return self.signal_name in {"SIGKILL", "SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"}


class Interrupted(Exception):
    """Ctrl-C (or SIGTERM, see :func:`stop_on_sigterm`) during :func:`run_isolated`.

    ``results`` holds, in task order, the results of the tasks that finished, :class:`Died`
    for those stopped midway, and None for those never started.
    """

    def __init__(self, results: list[Any]) -> None:
        super().__init__("interrupted")
        self.results = results


_STOPS = {signal.SIGINT, signal.SIGTERM}


def _interrupt(_signal: int, _frame: object) -> None:
    global _stopping  # noqa: PLW0603 (a fact of this process)
    _stopping = True
    raise KeyboardInterrupt


_stopping = False


def stopping() -> bool:
    """True once this worker was told to stop (Ctrl-C, or its parent's SIGTERM). A task's work
    that fails after that failed because of the stop: the interrupt can reach a library in the
    middle of its bookkeeping and come out as another error (``RuntimeError('release unlocked
    lock')`` was seen), which must not be reported as the task's own failure."""
    return _stopping


@contextmanager
def _stops_held() -> Iterator[set[int]]:
    """Hold SIGINT and SIGTERM back within the block (they arrive at its end); yields the mask
    to restore."""
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield mask
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


@contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """Within the block, SIGTERM (``kill``, a service manager stopping a job) interrupts like
    Ctrl-C, so that cleanup runs and no temporary file or folder is left behind. Children
    forked meanwhile inherit it."""
    before = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


KEPT: list[object] = []
"""Big objects a task made, left for the worker's exit to drop all at once (freeing millions
of objects one by one is wasted work in a process about to end): for a worker's last task."""

QUEUED = 2
"""Tasks ordered ahead per worker: the one it runs and the next, so that it never waits for
the parent between two tasks."""


@dataclass
class _Worker:
    """A long-lived child process and the two pipes the parent talks to it through."""

    pid: int
    orders: int
    """Write end: task numbers, one per line; closed when the worker has nothing more to do."""
    reports: int
    """Read end: the number of each task done (its result is in the folder), one per line."""
    tasks: deque[int] = field(default_factory=deque)
    """The tasks ordered and not yet reported, in order: the first is the one it runs."""
    retiring: bool = False
    """It said it ends after the task it reported last (see :func:`retire`)."""
    gone: bool = False
    """It could no longer be given orders (its end is still to be heard)."""
    heard: bytes = b""

    @property
    def accepts(self) -> bool:
        return len(self.tasks) < QUEUED and not self.retiring and not self.gone

    def give(self, task: int) -> bool:
        """Order the task; False if the worker is gone meanwhile."""
        try:
            os.write(self.orders, f"{task}\n".encode())
        except BrokenPipeError:
            self.gone = True
            return False
        self.tasks.append(task)
        return True

    def finished(self, data: bytes) -> list[int]:
        """The tasks reported done in ``data`` (what was read from ``reports``)."""
        *lines, self.heard = (self.heard + data).split(b"\n")
        self.retiring = self.retiring or any(line.endswith(b" last") for line in lines)
        done = [int(line.split()[0]) for line in lines]
        for _ in done:
            self.tasks.popleft()
        return done

    def close_orders(self) -> None:
        """No more orders: the worker ends after its tasks. It takes none after this, even when
        another worker's death puts tasks back to do (that once wrote to the closed pipe)."""
        self.gone = True
        if self.orders >= 0:
            os.close(self.orders)
            self.orders = -1


_retiring = False


def retire() -> None:
    """Called by a task's work: end this worker once the task is done (e.g. to leave a big
    task's objects to the process's exit instead of freeing them one by one)."""
    global _retiring  # noqa: PLW0603 (a flag of this worker process)
    _retiring = True


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
    workers: dict[int, _Worker] = {}  # by the read end of their reports
    folder: _Folder | None = None
    listening = selectors.DefaultSelector()
    try:
        _remove_abandoned(Path(tempfile.gettempdir()))
        with _stops_held():  # made and noted with no stop in between
            folder = _Folder.make()
        while to_do or workers:
            for worker in workers.values():
                while to_do and worker.accepts and worker.give(to_do[0]):
                    to_do.popleft()
            while to_do and len(workers) < jobs:
                # No interrupt between the fork and noting the worker: it would escape cleanup.
                with _stops_held() as mask:
                    worker = _start(work, tasks, folder.path, mask, workers.values())
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
                    results[index] = _collect(0, folder.path / f"{index}.result")
                    done()
                if not data:  # the worker ended
                    listening.unregister(worker.reports)
                    del workers[worker.reports]
                    status = _end(worker)
                    if worker.tasks and not worker.retiring:  # it died on its first task
                        index = worker.tasks.popleft()
                        results[index] = _collect(status, folder.path / f"{index}.result")
                        done()
                    to_do.extendleft(reversed(worker.tasks))  # never started: to another
    except KeyboardInterrupt:
        if folder is not None:
            _account_for(workers, folder.path, results)
        raise
    finally:
        with _stops_held():  # a second stop must not cut the cleanup short
            for worker in workers.values():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(worker.pid, signal.SIGKILL)
                _end(worker)
            listening.close()
            if folder is not None:
                folder.remove()


def _account_for(workers: dict[int, _Worker], folder: Path, results: list[Any]) -> None:
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
                results[index] = _collect(0, out)
            except (EOFError, pickle.UnpicklingError):  # cut off while being written
                continue
    for ordered, status in running:  # the first unfinished one was running
        unfinished = [i for i in ordered if results[i] is None]
        if unfinished:
            results[unfinished[0]] = _collect(status, folder / f"{unfinished[0]}.result")


FOLDER_PREFIX = "xlrally-work-"
"""The children's results go to a folder ``xlrally-work-<random>`` in the system's temporary
folder, locked (``flock``) by the run that made it for as long as it and its workers live."""


@dataclass
class _Folder:
    """The folder of one run's results, and the lock that tells other runs it is in use."""

    path: Path
    lock: int

    @classmethod
    def make(cls) -> _Folder:
        """A new locked folder in the system's temporary folder. It is made under another name
        and renamed once locked, so that no run ever sees it unlocked (:func:`_remove_abandoned`
        would take it for one whose run is gone)."""
        import fcntl  # POSIX only, like fork

        temp = Path(tempfile.gettempdir())
        making = Path(tempfile.mkdtemp(prefix="." + FOLDER_PREFIX, dir=temp))
        lock = os.open(making, os.O_RDONLY)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            path = temp / making.name[1:]
            making.rename(path)
        except BaseException:
            os.close(lock)
            shutil.rmtree(making, ignore_errors=True)
            raise
        return cls(path, lock)

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        os.close(self.lock)


ABANDONED_AFTER = 60
"""Seconds after which a folder still being made (``.xlrally-work-*``, renamed within
microseconds of being made) is taken as left by a run killed in between."""


LEGACY_FOLDER = re.compile(r"xlrally-[a-z0-9_]{8}")
"""The result folders xlrally made before it locked them (``tempfile.mkdtemp``'s names)."""
LEGACY_AFTER = 86400
"""Seconds after which such a folder holding only results is taken as left by a killed run."""
_RESULT = re.compile(r"\d+\.result")


def _remove_abandoned(temp: Path) -> None:
    """Remove the result folders in ``temp`` that no live run holds locked: those of runs
    killed outright (SIGKILL, the out-of-memory killer, a power cut), which could not remove
    their own. Called by each run before it makes its own folder. An older xlrally's folders,
    which have no lock, go once they are a day old and hold nothing but results."""
    import fcntl

    try:  # names only: a shared temporary folder may hold thousands of others' xlrally-*
        found = [(e.name, e.path) for e in os.scandir(temp) if e.name.startswith(_PREFIXES)]
    except OSError:
        return
    for name, path in found:
        folder = Path(path)
        try:
            if LEGACY_FOLDER.fullmatch(name):
                _remove_legacy(folder)
                continue
            if name.startswith("."):
                if time.time() - folder.stat().st_mtime > ABANDONED_AFTER:
                    shutil.rmtree(folder, ignore_errors=True)
                continue
            if not name.startswith(FOLDER_PREFIX):
                continue
            lock = os.open(folder, os.O_RDONLY)
        except OSError:  # gone meanwhile, or another user's
            continue
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held: its run is alive
            continue
        else:
            shutil.rmtree(folder, ignore_errors=True)
        finally:
            os.close(lock)


_PREFIXES = ("xlrally-", "." + FOLDER_PREFIX)


def _remove_legacy(folder: Path) -> None:
    if not folder.is_dir() or time.time() - folder.stat().st_mtime <= LEGACY_AFTER:
        return
    if all(_RESULT.fullmatch(name) for name in os.listdir(folder)):
        shutil.rmtree(folder, ignore_errors=True)


def _end(worker: _Worker) -> int:
    """Close the worker's pipes and wait for it to end; its wait status. Called again (a stop
    came while it waited), it only waits."""
    worker.close_orders()
    if worker.reports >= 0:
        os.close(worker.reports)
        worker.reports = -1
    try:
        return os.waitpid(worker.pid, 0)[1]
    except ChildProcessError:  # reaped already
        return 0


def _start(
    work: Callable[[T], R],
    tasks: Sequence[T],
    folder: Path,
    mask: Iterable[int],
    others: Iterable[_Worker],
) -> _Worker:
    """Fork a worker (called with SIGINT and SIGTERM blocked; the worker restores ``mask``
    once it can clean up after itself)."""
    orders_out, orders_in = os.pipe()
    reports_out, reports_in = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    parent = os.getpid()
    pid = os.fork()
    if pid:
        os.close(orders_out)
        os.close(reports_in)
        return _Worker(pid, orders_in, reports_out)
    code = 70
    try:
        _stop_on_signals()
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        os.close(orders_in)
        os.close(reports_out)
        for other in others:  # or that worker would never see the end of its orders
            os.close(other.reports)
            if other.orders >= 0:
                os.close(other.orders)
        _die_with(parent)
        _quiet_and_limited()
        _serve(work, tasks, folder, orders_out, reports_in)
        code = 0
    except KeyboardInterrupt:  # Ctrl-C reaches the whole process group; SIGTERM, see above
        code = INTERRUPTED
    except BaseException:
        code = INTERRUPTED if _stopping else 70  # an error on the way out of a stop is the stop
    finally:
        os._exit(code)


def _stop_on_signals() -> None:
    """In a new worker: SIGTERM (its parent stopping it) and SIGINT (Ctrl-C reaches the whole
    process group) interrupt it, so that it cleans up, and are noted (:func:`stopping`)."""
    global _stopping  # noqa: PLW0603 (a fact of this worker process)
    _stopping = False
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)


def _serve(
    work: Callable[[T], R], tasks: Sequence[T], folder: Path, orders: int, reports: int
) -> None:
    """A worker's life: each task number ordered, its result written to the folder and its
    number reported; until the orders end (or the work asks to :func:`retire`)."""
    heard = b""
    while True:
        while b"\n" not in heard:
            data = os.read(orders, 64)
            if not data:
                return
            heard += data
        line, heard = heard.split(b"\n", 1)
        index = int(line)
        result = work(tasks[index])
        with (folder / f"{index}.result").open("wb") as f:
            pickle.dump(result, f)
        os.write(reports, f"{index} last\n".encode() if _retiring else f"{index}\n".encode())
        if _retiring:
            return


def _die_with(parent: int) -> None:
    """On Linux, end this child when the parent ends (killed or not), as one command should."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            return
    if os.getppid() != parent:  # the parent was already gone
        os._exit(71)


def _quiet_and_limited() -> None:
    import resource  # POSIX only (a built-in module: nothing to gain by importing it earlier)

    global _inherited  # noqa: PLW0603 (a fact of this worker process)
    faulthandler.disable()  # it keeps its own copy of stderr (pytest, PYTHONFAULTHANDLER)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    _inherited = resource.getrlimit(resource.RLIMIT_AS)
    limit_memory(MEMORY_LIMIT)


_inherited: tuple[int, int] | None = None
"""The address-space limits (soft, hard) the worker was started with."""


def limit_memory(limit: int) -> None:
    """Limit this worker's address space to ``limit`` bytes from now on (a task about to read
    a big file may raise it above :data:`MEMORY_LIMIT`); never above the limit the worker was
    started with (a tighter one set from outside stays). Only in a worker."""
    import resource

    if _inherited is None:
        raise RuntimeError("limit_memory is for isolated workers")
    soft, hard = _inherited
    for ceiling in (soft, hard):
        if ceiling != resource.RLIM_INFINITY:
            limit = min(limit, ceiling)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _collect(status: int, out: Path) -> Any:
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 and out.exists():
        with out.open("rb") as f:
            return pickle.load(f)  # written by our own child just now
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = str(number)
        return Died(f"was stopped by signal {name}", name)
    if os.WEXITSTATUS(status) == INTERRUPTED:
        return Died("was interrupted", "SIGINT")
    return Died(f"ended with exit code {os.WEXITSTATUS(status)}")
