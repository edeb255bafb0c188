"""Running work in child processes with a memory limit, one child per task (POSIX fork).

A child that crashes (python-calamine aborts the whole process on some hostile sheets), runs
out of memory or is killed takes only its own task with it: the parent gets :class:`Died` for
that task and every other task goes on. Children write their result to a file (no pipe to fill
up), their own stderr goes nowhere (a crashing reader prints a Rust backtrace), and at most
``jobs`` run at once.
"""

from __future__ import annotations

import ctypes  # here, not in each child: a child would import it again for every task
import faulthandler
import os
import pickle
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MEMORY_LIMIT = 2 * 2**30
"""Address space of each child: far above a big league (a 200,000-row sync peaks near 240 MB
of address space), far below what a hostile sheet would make a reader ask for."""

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
    raise KeyboardInterrupt


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


def run_isolated(
    tasks: Sequence[T],
    work: Callable[[T], R],
    jobs: int = 1,
    done: Callable[[], None] = lambda: None,
) -> list[R | Died]:
    """``work(task)`` for each task, each in its own child process; results in task order."""
    results: list[Any] = [None] * len(tasks)
    running: dict[int, tuple[int, Path]] = {}
    upcoming = 0
    with _stops_held():  # no stop between making the folder and the try that removes it
        folder = Path(tempfile.mkdtemp(prefix="xlrally-"))
    try:
        while upcoming < len(tasks) or running:
            while upcoming < len(tasks) and len(running) < max(jobs, 1):
                out = folder / f"{upcoming}.result"
                # No interrupt between the fork and noting the child: it would escape cleanup.
                with _stops_held() as mask:
                    running[_spawn(work, tasks[upcoming], out, mask)] = (upcoming, out)
                upcoming += 1
            pid, status = os.wait()
            if pid not in running:
                continue
            index, out = running.pop(pid)
            results[index] = _collect(status, out)
            done()
    except KeyboardInterrupt:
        for pid, (index, out) in running.items():
            try:
                os.kill(pid, signal.SIGTERM)  # a child cleans up after itself on SIGTERM
                _, status = os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):  # reaped just before the interrupt
                status = 0
            results[index] = _collect(status, out)
        running.clear()
        for index in range(upcoming):  # finished, but the interrupt came before its result
            out = folder / f"{index}.result"
            if results[index] is None and out.exists():
                try:
                    results[index] = _collect(0, out)
                except (EOFError, pickle.UnpicklingError):  # cut off while being written
                    continue
        raise Interrupted(results) from None
    finally:
        with _stops_held():  # a second stop must not cut the cleanup short
            for pid in running:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            shutil.rmtree(folder, ignore_errors=True)
    return results


def _spawn(work: Callable[[T], R], task: T, out: Path, mask: Iterable[int]) -> int:
    """Fork a child for ``task`` (called with SIGINT and SIGTERM blocked; the child restores
    ``mask`` once it can clean up after itself)."""
    sys.stdout.flush()
    sys.stderr.flush()
    parent = os.getpid()
    pid = os.fork()
    if pid:
        return pid
    code = 70
    try:
        signal.signal(signal.SIGTERM, _interrupt)  # clean up when the parent stops this child
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        _die_with(parent)
        _quiet_and_limited()
        result = work(task)
        with out.open("wb") as f:
            pickle.dump(result, f)
        code = 0
    except KeyboardInterrupt:  # Ctrl-C reaches the whole process group; SIGTERM, see above
        code = INTERRUPTED
    finally:
        os._exit(code)


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

    faulthandler.disable()  # it keeps its own copy of stderr (pytest, PYTHONFAULTHANDLER)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = MEMORY_LIMIT if hard == resource.RLIM_INFINITY else min(MEMORY_LIMIT, hard)
    if soft == resource.RLIM_INFINITY or soft > limit:
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
