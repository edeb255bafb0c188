"""Benchmark: what it takes for a 200-player league of every system, side by side with the
standings themselves.

    python benchmarks/bench_outlook.py [--players 200] [--held 6] [--left 1,2,3] [--rounds 3]

Issue 34: "fast enough for a 200-player league". Each league has ``held`` events played by a
random 60% of the players, then 1, 2 or 3 events left, prizes for the top 3, a qualifying
minimum of 3 events and the countback tie-break. Each round builds fresh leagues from a new
seed and runs the systems in a rotated order. Prints, for each system and number of events
left, the median time of compute_standings and of what_it_takes, and their ratio.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import time

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.outlook import what_it_takes
from xlrally.core.prizes import Prize
from xlrally.core.rules import FormulaRule
from xlrally.core.systems.poker import PointStructure

SYSTEMS = ("rally", "absolute", "reverse", "neau", "formula", "dippouch")


def league(system: str, players: int, held: int, left: int, seed: int) -> League:
    """A league of ``players`` over ``held`` scored events and ``left`` to come."""
    rnd = random.Random(seed)
    everyone = [f"Player {i:03d}" for i in range(players)]
    settings = Settings(
        system,
        structure=PointStructure(points=(25, 20, 15, 10, 5), bonus=(3, 2, 1), participating=5),
        best_x=None if system in ("rally", "dippouch") else 4,
        tie_breaks=("countback",),
        min_events=3,
        prizes=(Prize(1, 100), Prize(2, 60), Prize(3, 40)),
        formula=FormulaRule("pokerstars"),  # read by the formula system alone
    )
    events, results = [], []
    for number in range(held + left):
        name = f"Event {number + 1}"
        date = dt.date(2026, 1, 3) + dt.timedelta(weeks=number)
        to_come = number >= held
        field = int(players * 0.6)
        events.append(Event(name, date, rounds=5, buy_in=20, players=field, pending=to_come))
        if to_come:
            continue
        for place, player in enumerate(rnd.sample(everyone, field), start=1):
            if system == "rally":
                games = rnd.randint(3, 5)
                results.append(
                    Result(name, player, points=rnd.randint(0, 2 * games) / 2, games=games)
                )
            else:
                results.append(Result(name, player, rank=place))
    return League(settings, tuple(events), tuple(results))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--held", type=int, default=6)
    parser.add_argument("--left", default="1,2,3")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    lefts = [int(n) for n in args.left.split(",")]
    times: dict[tuple[str, int], tuple[list[float], list[float]]] = {
        (s, n): ([], []) for s in SYSTEMS for n in lefts
    }
    for round_ in range(args.rounds):
        order = SYSTEMS[round_ % len(SYSTEMS) :] + SYSTEMS[: round_ % len(SYSTEMS)]
        for system in order:
            for left in lefts:
                built = league(system, args.players, args.held, left, seed=round_)
                start = time.perf_counter()
                standings = compute_standings(built)
                middle = time.perf_counter()
                what_it_takes(built, standings)
                end = time.perf_counter()
                times[system, left][0].append(middle - start)
                times[system, left][1].append(end - middle)
    print(f"{args.players} players, {args.held} events held, median of {args.rounds} rounds")
    print(f"{'system':10} {'left':>4} {'standings':>10} {'outlook':>10} {'ratio':>7}")
    for (system, left), (plain, outlook) in times.items():
        a, b = statistics.median(plain), statistics.median(outlook)
        print(f"{system:10} {left:4d} {a:9.3f}s {b:9.3f}s {b / a:6.1f}x")


if __name__ == "__main__":
    main()
