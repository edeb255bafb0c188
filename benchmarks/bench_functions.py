"""Benchmark: each Excel function over 10,000 varied rows, beside a plain list comprehension.

    python benchmarks/bench_functions.py [--rows 10000] [--rounds 15]

Issue 15's targets: every function at most 50 ms per 10,000 rows, and within 8× a plain list
comprehension of its formula over the same cells (no checks, no blanks, no errors: the least
Python can do). Every repetition gets a fresh data set, made the way a league's sheet looks
(rounds 4-7 with a few byes and withdrawals; a season of 30 events, each player at 30-90% of
them, for BEST_X_TOTAL; poker fields of 6-60 with varied buy-ins and re-buys; Diplomacy boards
of 7-90 players; places 1-10 of a prize table, a fifth of them shared by 2 or 3), and the
core's caches are cleared first, so that nothing is served from an earlier repetition. The
data sets are made before the timing starts. The function and its comprehension run side by
side on the same data, in alternating order.
Times are CPU times of this process (``time.process_time``): on a loaded machine the wall
time of a 10 ms call mostly measures the other processes. The load average is printed.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import udfs
from xlrally.core.systems import rally

Column = list[list[Any]]
Case = tuple[Callable[[], Any], Callable[[], Any]]


def col(values: list[Any]) -> Column:
    """A one-column range as classic xlwings hands it over."""
    return [[v] for v in values]


def rally_rows(rnd: random.Random, n: int) -> tuple[Column, Column, Column, Column]:
    points, rounds, byes, games = [], [], [], []
    for _ in range(n):
        r = rnd.choice((4, 5, 6, 7))
        b = rnd.choices((0, 1, 2), (85, 12, 3))[0]
        g = r - b if rnd.random() < 0.9 else rnd.randint(1, r - b)  # some withdraw
        points.append(rnd.randint(0, 2 * g) / 2)
        rounds.append(float(r))
        byes.append(float(b) if b else None)
        games.append(float(g))
    return col(points), col(rounds), col(byes), col(games)


def fields(rnd: random.Random, n: int) -> tuple[list[float], list[float]]:
    """Field sizes of 6-60 (a league's events) and each row's finishing place in its field."""
    sizes = [float(rnd.randint(6, 60)) for _ in range(n)]
    return sizes, [float(rnd.randint(1, int(s))) for s in sizes]


def cases(rnd: random.Random, n: int) -> dict[str, Case]:
    """For each function: (the function over fresh data, the plain comprehension of its formula)."""
    p, r, b, g = rally_rows(rnd, n)
    held = col([float(rnd.randint(1, 12)) for _ in range(n)])
    scores = []  # a season of 30 events: each player turns up to 30-90% of them
    for _ in range(n):
        attends = rnd.uniform(0.3, 0.9)
        scores.append(
            [float(rnd.randint(0, 104)) if rnd.random() < attends else None for _ in range(30)]
        )
    prizes = col([500.0, 300.0, 200.0, 120.0, 80.0, 50.0, 50.0, 40.0, 30.0, 30.0])
    places = [float(rnd.randint(1, 10)) for _ in range(n)]
    sharing = [float(rnd.choices((1, 2, 3), (80, 15, 5))[0]) for _ in range(n)]
    sizes, ranks = fields(rnd, n)
    buy_in = [float(rnd.choice((10, 20, 25, 50, 100))) for _ in range(n)]
    total = [bi * (1 + rnd.choices((0, 1, 2, 3), (60, 25, 10, 5))[0]) for bi in buy_in]
    table, bonus = [25.0, 20.0, 15.0, 10.0, 5.0], [3.0, 2.0, 1.0]
    boards = [float(rnd.randint(7, 90)) for _ in range(n)]
    board_rounds = [float(rnd.choice((1, 2, 3, 4, 5, 7))) for _ in range(n)]
    field_col, rank_col, board_col, buy_in_col, total_col = (
        col(sizes),
        col(ranks),
        col(boards),
        col(buy_in),
        col(total),
    )

    def best(row: list[Any]) -> float:
        return sum(sorted((v for v in row if v is not None), reverse=True)[:5])

    def dip_rating() -> float:
        rating = 40.0
        for place, size in zip(ranks, sizes, strict=True):
            value = min(size / 3.5 + 2, 15.0)
            rating += value / 100 * ((size + 0.5 - place) / size * 100 - rating)
        return rating

    return {
        "RALLY_SCORE": (
            lambda: udfs.RALLY_SCORE(p, r, b, g),
            lambda: [
                [100 * pp[0] // (rr[0] - (bb[0] or 0)) + gg[0]]
                for pp, rr, bb, gg in zip(p, r, b, g, strict=True)
            ],
        ),
        "RALLY_BEST_N": (
            lambda: udfs.RALLY_BEST_N(held),
            lambda: [[math.ceil((min(h[0], 9) + 1) / 2)] for h in held],
        ),
        "BEST_X_TOTAL": (
            lambda: udfs.BEST_X_TOTAL(scores, 5.0),
            lambda: [[best(row)] for row in scores],
        ),
        "NEAU_POINTS": (
            lambda: udfs.NEAU_POINTS(field_col, buy_in_col, total_col, rank_col),
            lambda: [
                [math.sqrt(a[0] * bb[0] * bb[0] / c[0]) / (d[0] + 1)]
                for a, bb, c, d in zip(field_col, buy_in_col, total_col, rank_col, strict=True)
            ],
        ),
        "ABSOLUTE_POINTS": (
            lambda: udfs.ABSOLUTE_POINTS(
                rank_col, col(table), 5.0, col(bonus), field_col, 2.0, 3.0
            ),
            lambda: [
                [
                    (table[int(k[0]) - 1] if k[0] <= 5 else 0)
                    + 5
                    + (bonus[int(k[0]) - 1] if k[0] <= 3 else 0)
                    + (a[0] * 2 if k[0] <= 3 else 0)
                ]
                for k, a in zip(rank_col, field_col, strict=True)
            ],
        ),
        "REVERSE_POINTS": (
            lambda: udfs.REVERSE_POINTS(rank_col, field_col, 1.5, 2.0),
            lambda: [
                [(a[0] - k[0] + 1) * 1.5 + 2] for k, a in zip(rank_col, field_col, strict=True)
            ],
        ),
        "DIPPOUCH_PERCENTILE": (
            lambda: udfs.DIPPOUCH_PERCENTILE(rank_col, field_col),
            lambda: [
                [(a[0] + 0.5 - k[0]) / a[0] * 100] for k, a in zip(rank_col, field_col, strict=True)
            ],
        ),
        "DIPPOUCH_VALUE": (
            lambda: udfs.DIPPOUCH_VALUE(board_col, col(board_rounds)),
            lambda: [
                [min(s / 7 + 2 if q == 1 else s / 3.5 + 2, 15.0)]
                for s, q in zip(boards, board_rounds, strict=True)
            ],
        ),
        "DIPPOUCH_RATING": (lambda: udfs.DIPPOUCH_RATING(rank_col, field_col), dip_rating),
        "FORMULA_POINTS": (
            lambda: udfs.FORMULA_POINTS("pokerstars", field_col, rank_col, buy_in_col),
            lambda: [
                [
                    round(10 * math.sqrt(a) / math.sqrt(k) * (1 + math.log10(b + 0.25)), 2)
                    if k <= math.ceil(0.15 * a)
                    else 0.0
                ]
                for a, k, b in zip(sizes, ranks, buy_in, strict=True)
            ],
        ),
        "PRIZE_SHARE": (
            lambda: udfs.PRIZE_SHARE(prizes, col(places), col(sharing)),
            lambda: [
                [
                    math.floor(
                        sum(prize[0] for prize in prizes[int(k) - 1 : int(k + s) - 1]) / s * 100
                    )
                    / 100
                ]
                for k, s in zip(places, sharing, strict=True)
            ],
        ),
    }


def clear_caches() -> None:
    """Each run starts cold: the rally's event score is the one scoring function cached (the
    poker ones are not: a big league's finishes are nearly all distinct)."""
    rally.score_event.cache_clear()


def timed(call: Callable[[], Any]) -> float:
    """The CPU seconds of one call (this process's, so that other processes' load on a shared
    machine is left out; the call is single-threaded)."""
    clear_caches()
    gc.collect()
    start = time.process_time()
    call()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    data = [cases(random.Random(seed), args.rows) for seed in range(args.rounds)]
    load = os.getloadavg()
    print(f"{args.rows} rows, {args.rounds} fresh data sets, medians of CPU time")
    print(f"load average at the start {load[0]:.1f} (5 min {load[1]:.1f})")
    print(f"{'function':<20} {'ms':>7} {'comprehension ms':>17} {'ratio':>6}  targets")
    for name in data[0]:
        ours, plain = [], []
        for index, round_cases in enumerate(data):
            function, comprehension = round_cases[name]
            order = [(function, ours), (comprehension, plain)]
            for call, times in order if index % 2 else order[::-1]:
                times.append(timed(call))
        mine, base = statistics.median(ours), statistics.median(plain)
        ok = "ok" if mine <= 0.050 and mine / base <= 8 else "MISSED"
        print(f"{name:<20} {mine * 1e3:7.1f} {base * 1e3:17.1f} {mine / base:5.1f}×  {ok}")
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.1f} (5 min {load[1]:.1f})")


if __name__ == "__main__":
    main()
