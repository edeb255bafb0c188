"""Each task in its own child: a crash or a memory blow-up takes only that task down."""

from __future__ import annotations

import os

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
