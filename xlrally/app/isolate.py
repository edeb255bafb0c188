"""Running work in child processes with a memory limit, one child per task (POSIX fork).

A child that crashes (python-calamine aborts the whole process on some hostile sheets), runs
out of memory or is killed takes only its own task with it: the parent gets :class:`Died` for
that task and every other task goes on. Children write their result to a file (no pipe to fill
up), their own stderr goes nowhere (a crashing reader prints a Rust backtrace), and at most
``jobs`` run at once.
"""

from __future__ import annotations

import os
import pickle
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MEMORY_LIMIT = 2 * 2**30
"""Address space of each child: far above a big league (a 200,000-row sync peaks near 240 MB
of address space), far below what a hostile sheet would make a reader ask for."""

AVAILABLE = hasattr(os, "fork")
"""False on Windows, where the callers fall back to checking every sheet before reading it."""


@dataclass(frozen=True)
class Died:
    """A child ended without a result; ``reason`` says how (signal or exit code)."""

    reason: str


def run_isolated(
    tasks: Sequence[T],
    work: Callable[[T], R],
    jobs: int = 1,
    done: Callable[[], None] = lambda: None,
) -> list[R | Died]:
    """``work(task)`` for each task, each in its own child process; results in task order."""
    results: list[Any] = [None] * len(tasks)
    running: dict[int, tuple[int, Path]] = {}
    folder = Path(tempfile.mkdtemp(prefix="xlrally-"))
    upcoming = 0
    try:
        while upcoming < len(tasks) or running:
            while upcoming < len(tasks) and len(running) < max(jobs, 1):
                out = folder / f"{upcoming}.result"
                running[_spawn(work, tasks[upcoming], out)] = (upcoming, out)
                upcoming += 1
            pid, status = os.wait()
            if pid not in running:
                continue
            index, out = running.pop(pid)
            results[index] = _collect(status, out)
            done()
    finally:
        for pid in running:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        shutil.rmtree(folder, ignore_errors=True)
    return results


def _spawn(work: Callable[[T], R], task: T, out: Path) -> int:
    sys.stdout.flush()
    sys.stderr.flush()
    parent = os.getpid()
    pid = os.fork()
    if pid:
        return pid
    code = 70
    try:
        _die_with(parent)
        _quiet_and_limited()
        result = work(task)
        with out.open("wb") as f:
            pickle.dump(result, f)
        code = 0
    finally:
        os._exit(code)


def _die_with(parent: int) -> None:
    """On Linux, end this child when the parent ends (killed or not), as one command should."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            return
    if os.getppid() != parent:  # the parent was already gone
        os._exit(71)


def _quiet_and_limited() -> None:
    import faulthandler
    import resource

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
        return Died(f"was stopped by signal {name}")
    return Died(f"ended with exit code {os.WEXITSTATUS(status)}")
