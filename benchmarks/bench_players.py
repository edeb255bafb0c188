"""Benchmark: 100,000 players in every scoring system, side by side with the rally.

    python benchmarks/bench_players.py [--players 100000] [--events 4] [--rounds 3]

The goal (issue 11): every system within 2x the rally's time at 100,000 players; the checks
that used to be quadratic (duplicate ranks counted per rank, likely-duplicate names compared
pair by pair) must not stand out. Each round builds a fresh league per system from a new seed
(nothing cached from one measurement helps the next) and runs the systems in a rotated order,
so that machine noise hits them alike. Prints each system's median and its ratio to the rally.

Names are real-looking: 1,500 first names and 5,000 surnames of the 1990 US Census, drawn as
often as people bear them (about 1% of players are Smiths, the case that was slowest), a tenth
with a middle initial. The typo check finds many real one-letter neighbours among them
(Smith / Smyth); the benchmark prints how many warnings that makes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import random
import statistics
import time
from pathlib import Path

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.rules import FormulaRule
from xlrally.core.systems import SYSTEMS as REGISTRY
from xlrally.core.systems.poker import PointStructure

SYSTEMS = tuple(REGISTRY)
NAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "census_1990_names.txt"


def census_names() -> tuple[list[str], list[float], list[str], list[float]]:
    """First names and surnames with their frequencies (1990 US Census; see the file's head)."""
    first: list[str] = []
    first_weight: list[float] = []
    last: list[str] = []
    last_weight: list[float] = []
    for line in NAMES.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        kind, name, weight = line.split()
        names, weights = (first, first_weight) if kind == "first" else (last, last_weight)
        names.append(name)
        weights.append(float(weight))
    return first, first_weight, last, last_weight


def names(count: int, rnd: random.Random) -> list[str]:
    """``count`` distinct real-looking player names, drawn as often as people bear them (so
    there are many Smiths and Johnsons), a tenth with a middle initial."""
    first, first_weight, last, last_weight = census_names()
    found: set[str] = set()
    while len(found) < count:
        batch = count - len(found)
        firsts = rnd.choices(first, first_weight, k=batch)
        lasts = rnd.choices(last, last_weight, k=batch)
        for given, family in zip(firsts, lasts, strict=True):
            middle = f" {rnd.choice('ABCDEFGHJKLMNPRSTW')}." if rnd.random() < 0.1 else ""
            found.add(f"{given}{middle} {family}")
    ordered = sorted(found)
    rnd.shuffle(ordered)
    return ordered


def league(system: str, players: int, events: int, seed: int) -> League:
    """A league of ``players`` players over ``events`` events, each played by a random 60%."""
    rnd = random.Random(seed)
    everyone = names(players, rnd)
    settings = Settings(
        system,
        structure=PointStructure(points=(25, 20, 15, 10, 5), bonus=(3, 2, 1), participating=5),
        formula=FormulaRule("pokerstars"),  # the formula system's (the others ignore it)
    )
    held, results = [], []
    for number in range(events):
        name = f"Event {number + 1}"
        field = rnd.sample(everyone, int(players * 0.6))
        date = dt.date(2026, 1, 3) + dt.timedelta(weeks=number)
        held.append(
            Event(
                name, date, rounds=5, buy_in=20, players=len(field) if system != "rally" else None
            )
        )
        for place, player in enumerate(field, start=1):
            if system == "rally":
                byes = 1 if rnd.random() < 0.1 else 0
                results.append(
                    Result(
                        name,
                        player,
                        points=rnd.randint(0, 2 * (5 - byes)) / 2,
                        games=5 - byes,
                        byes=byes,
                    )
                )
            elif system == "neau":
                results.append(Result(name, player, rank=place, total=20 * len(field)))
            else:
                results.append(Result(name, player, rank=place))
    return League(settings, tuple(held), tuple(results))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--events", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    seconds: dict[str, list[float]] = {system: [] for system in SYSTEMS}
    warnings = 0
    for round_number in range(args.rounds):
        order = SYSTEMS[round_number % len(SYSTEMS) :] + SYSTEMS[: round_number % len(SYSTEMS)]
        for system in order:
            data = league(system, args.players, args.events, seed=1000 * round_number + len(system))
            gc.collect()
            gc.disable()  # as the sync does (xlrally.app.sync.paused_gc)
            start = time.perf_counter()
            standings = compute_standings(data)
            seconds[system].append(time.perf_counter() - start)
            gc.enable()
            assert len(standings.rows) > 0.9 * args.players  # 0.4**4 play no event
            warnings = len(standings.warnings)
            del data, standings
    rally = statistics.median(seconds["rally"])
    print(
        f"{args.players:,} players, {args.events} events, each played by 60%; median of "
        f"{args.rounds} rounds; {warnings:,} name warnings in the last league"
    )
    for system in SYSTEMS:
        median = statistics.median(seconds[system])
        runs = ", ".join(f"{s:.2f}" for s in seconds[system])
        print(f"  {system:9} {median:6.2f} s  {median / rally:4.2f}x the rally   (runs: {runs})")


if __name__ == "__main__":
    main()
