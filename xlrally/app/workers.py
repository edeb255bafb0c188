"""The workers: long-lived child processes, each with a memory limit, that run one task after
another (forked by :func:`start`; the parent's side of a worker, :class:`Worker`), and what
their end says (:func:`collect`: the result, or :class:`Died`)."""

from __future__ import annotations

import ctypes  # here, not in each worker: a worker would import it again
import faulthandler
import os
import pickle
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from xlrally.app.stops import stop_on_signals, stopping

T = TypeVar("T")
R = TypeVar("R")

MEMORY_LIMIT = 2 * 2**30
"""Address space of each child: far above a big league (a 200,000-row sync peaks near 285 MB
of address space), far below what a hostile sheet would make a reader ask for. A child may
raise it for a big file (:func:`limit_memory`)."""

INTERRUPTED = 130
"""Exit code of a child stopped by Ctrl-C or SIGTERM (after cleaning up), as shells use."""


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


KEPT: list[object] = []
"""Big objects a task made, left for the worker's exit to drop all at once (freeing millions
of objects one by one is wasted work in a process about to end): for a worker's last task."""

QUEUED = 2
"""Tasks ordered ahead per worker: the one it runs and the next, so that it never waits for
the parent between two tasks."""


@dataclass
class Worker:
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
        orders, self.orders = self.orders, -1
        _close(orders)

    def close_reports(self) -> None:
        """Nothing more is read from it (its end is waited for next)."""
        reports, self.reports = self.reports, -1
        _close(reports)


def _close(pipe: int) -> None:
    """Close a pipe's end that its holder has already marked closed (-1): marked first, so that
    a Ctrl-C landing just after the close does not have the stop's clean-up close it a second
    time (``OSError: Bad file descriptor`` instead of the interrupted summary)."""
    if pipe >= 0:
        os.close(pipe)


_retiring = False


def retire() -> None:
    """Called by a task's work: end this worker once the task is done (e.g. to leave a big
    task's objects to the process's exit instead of freeing them one by one)."""
    global _retiring  # noqa: PLW0603 (a flag of this worker process)
    _retiring = True


def start(
    work: Callable[[T], R],
    tasks: Sequence[T],
    folder: Path,
    mask: Iterable[int],
    others: Iterable[Worker],
) -> Worker:
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
        return Worker(pid, orders_in, reports_out)
    code = 70
    try:
        stop_on_signals()
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
        code = INTERRUPTED if stopping() else 70  # an error on the way out of a stop is the stop
    finally:
        os._exit(code)


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


def collect(status: int, out: Path) -> Any:
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
