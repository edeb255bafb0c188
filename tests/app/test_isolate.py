"""Each task in its own child: a crash or a memory blow-up takes only that task down."""

from __future__ import annotations

import os
import signal

import pytest

from xlrally.app import isolate

pytestmark = pytest.mark.skipif(not isolate.AVAILABLE, reason="needs fork")


def work(n: int) -> int:
    if n == 2:
        os.abort()  # like python-calamine on a hostile sheet
    if n == 3:
        bytearray(3 * 2**30)  # more than the children's memory limit
    if n == 4:
        os._exit(5)
    return n * n


def test_results_in_order_and_deaths_reported() -> None:
    """Good tasks give their results; the others are Died with how they ended."""
    done: list[int] = []
    results = isolate.run_isolated([1, 2, 3, 4, 5], work, jobs=2, done=lambda: done.append(1))
    assert results[0] == 1
    assert results[4] == 25
    assert results[1] == isolate.Died("was stopped by signal SIGABRT", "SIGABRT")
    assert isinstance(results[2], isolate.Died)  # MemoryError in the child: no result
    assert results[3] == isolate.Died("ended with exit code 5")
    assert len(done) == 5


def pid_of_worker(n: int) -> int:
    if n == 5:
        os.kill(os.getpid(), signal.SIGKILL)  # killed from outside in the middle of a task
    if n in {2, 8}:
        isolate.retire()  # e.g. after a big file: this worker ends once the task is reported
    return os.getpid()


def test_workers_are_reused_and_a_killed_one_replaced() -> None:
    """Eleven tasks, two workers at a time: the tasks share a few processes; the task whose
    worker was killed is reported as such, the task queued behind it runs in a new worker, and
    a worker that retires runs nothing more."""
    results = isolate.run_isolated(list(range(11)), pid_of_worker, jobs=2)
    assert results[5] == isolate.Died("was stopped by signal SIGKILL", "SIGKILL")
    pids = [r for r in results if isinstance(r, int)]
    assert len(pids) == 10  # every other task finished, none lost or run twice
    assert len(set(pids)) < len(pids)  # workers took several tasks each
    for retired in (2, 8):
        later = [r for r in results[retired + 1 :] if isinstance(r, int)]
        assert results[retired] not in later
    assert os.getpid() not in pids
