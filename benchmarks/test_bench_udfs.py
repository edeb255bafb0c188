"""Benchmark: each Excel function over a 10,000-row range, as classic xlwings hands it over.

    python -m pytest benchmarks --benchmark-enable

Target (issue 4): at most 50 ms of Python time per call. Runs on demand only (not in CI).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import udfs

ROWS = 10_000
rnd = random.Random(7)


def column(values: list[Any]) -> list[list[Any]]:
    return [[v] for v in values]


POINTS = column([rnd.randint(0, 8) / 2 for _ in range(ROWS)])
RANKS = column([float(rnd.randint(1, 30)) for _ in range(ROWS)])
SCORES = [
    [float(rnd.randint(0, 104)) if rnd.random() > 0.2 else None for _ in range(10)]
    for _ in range(ROWS)
]
TABLE = [[25.0], [20.0], [15.0], [10.0], [5.0]]

CASES: dict[str, Callable[[], Any]] = {
    "RALLY_SCORE": lambda: udfs.RALLY_SCORE(POINTS, 4.0),
    "RALLY_BEST_N": lambda: udfs.RALLY_BEST_N(RANKS),
    "BEST_X_TOTAL": lambda: udfs.BEST_X_TOTAL(SCORES, 5.0),
    "NEAU_POINTS": lambda: udfs.NEAU_POINTS(30.0, 20.0, 40.0, RANKS),
    "ABSOLUTE_POINTS": lambda: udfs.ABSOLUTE_POINTS(
        RANKS, TABLE, 5.0, [[3.0], [2.0], [1.0]], 30.0, 2.0, 3.0
    ),
    "REVERSE_POINTS": lambda: udfs.REVERSE_POINTS(RANKS, 30.0, 1.5, 2.0),
    "DIPPOUCH_PERCENTILE": lambda: udfs.DIPPOUCH_PERCENTILE(RANKS, 30.0),
    "DIPPOUCH_VALUE": lambda: udfs.DIPPOUCH_VALUE(
        column([float(rnd.randint(7, 90)) for _ in range(ROWS)]), 3.0
    ),
    "DIPPOUCH_RATING": lambda: udfs.DIPPOUCH_RATING(RANKS, 30.0, 3.0),
}


@pytest.mark.parametrize("name", list(CASES))
def test_udf_over_10000_rows(benchmark: Any, name: str) -> None:
    """Median time of one call over 10,000 rows must stay under 50 ms."""
    benchmark(CASES[name])
    assert benchmark.stats.stats.median < 0.050
