"""Benchmark: 100,000 players in every scoring system, side by side with the rally.

    python benchmarks/bench_players.py [--players 100000] [--events 4] [--rounds 3]

The goal (issue 11): every system within 2x the rally's time at 100,000 players; the checks
that used to be quadratic (duplicate ranks counted per rank, likely-duplicate names compared
pair by pair) must not stand out. Each round builds a fresh league per system from a new seed
(nothing cached from one measurement helps the next) and runs the systems in a rotated order,
so that machine noise hits them alike. Prints each system's median and its ratio to the rally.

Names are realistic and varied: 220 first names, 3,000 surnames, and a fifth of the players
sharing one surname ("... Smith", with a middle name), the case that was slowest.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import random
import statistics
import time

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.systems.poker import PointStructure

SYSTEMS = ("rally", "absolute", "reverse", "neau", "dippouch")
STEMS = ("Al", "Be", "Ca", "Do", "El", "Fi", "Gu", "Ha", "Io", "Ju", "Ka")
ENDINGS = ("n", "x", "ra", "lo", "mi", "ne", "to", "sa", "ve", "da", "ric", "na", "lia", "ro")
ENDINGS += ("bel", "dor", "tan", "win", "ley", "mond")
FIRST = [stem + end for stem in STEMS for end in ENDINGS]
SURNAMES = [
    f"{a}{b}{c}"
    for a in ("B", "C", "D", "F", "G", "H", "K", "L", "M", "N", "P", "R", "S", "T", "W")
    for b in ("a", "e", "i", "o", "u", "ar", "or", "el", "an", "in")
    for c in (
        "ck",
        "ll",
        "nd",
        "rt",
        "ss",
        "ng",
        "ton",
        "son",
        "well",
        "man",
        "ford",
        "ley",
        "wood",
        "er",
        "by",
        "ham",
        "ridge",
        "worth",
        "ey",
        "ing",
    )
]


def names(count: int, rnd: random.Random) -> list[str]:
    """``count`` distinct player names, a fifth of them '<first> <middle> Smith'."""
    found: set[str] = set()
    smiths = count // 5
    while len(found) < smiths:
        found.add(f"{rnd.choice(FIRST)} {rnd.choice(FIRST)} Smith")
    while len(found) < count:
        found.add(f"{rnd.choice(FIRST)} {rnd.choice(SURNAMES)}")
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
            del data, standings
    rally = statistics.median(seconds["rally"])
    print(
        f"{args.players:,} players, {args.events} events, each played by 60%; median of "
        f"{args.rounds} rounds"
    )
    for system in SYSTEMS:
        median = statistics.median(seconds[system])
        runs = ", ".join(f"{s:.2f}" for s in seconds[system])
        print(f"  {system:9} {median:6.2f} s  {median / rally:4.2f}x the rally   (runs: {runs})")


if __name__ == "__main__":
    main()
