"""Benchmark: knockout points, the formula system and a team table, side by side with plain
Absolute Points on the same league.

    python benchmarks/bench_knockouts.py [--players 20000] [--events 40] [--field 1000] [--rounds 3]

Each event ranks ``field`` players drawn from ``players`` (bench_players' census names); each
result but the winner's names who knocked the player out (a better finisher). Each round
builds the leagues afresh from a new seed and runs the variants in a rotated order, so that
machine noise hits them alike. Prints each variant's median time and its ratio to plain
Absolute Points. The leader's bounty finds the leader before every event (the standings as
they stood), so it is the one expected to cost more; the goal is every variant within 2x the
plain league.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import random
import statistics
import time

from bench_players import names as census

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, PointStructure, Result, Settings
from xlrally.core.rules import FormulaRule, KnockoutRule, TeamRule

SEED = PointStructure(points=(25, 20, 15, 10, 5), bonus=(3, 2, 1), participating=5)


def league(players: int, events: int, field: int, rnd: random.Random) -> League:
    names = census(players, rnd)  # real-looking names: the typo check sees what a league has
    listed = []
    results = []
    for number in range(events):
        name = f"Event {number:03d}"
        listed.append(Event(name, buy_in=20))
        ranked = rnd.sample(names, field)
        for place, player in enumerate(ranked, start=1):
            hitman = ranked[rnd.randrange(place - 1)] if place > 1 else None
            results.append(Result(name, player, rank=place, knocked_out_by=hitman))
    teams = {name: f"Club {rnd.randrange(players // 20)}" for name in names}
    return League(Settings("absolute", structure=SEED), tuple(listed), tuple(results), teams=teams)


VARIANTS = {
    "absolute": lambda s: s,
    "+ knockouts": lambda s: dataclasses.replace(s, knockouts=KnockoutRule(points=10)),
    "+ leader bounty": lambda s: dataclasses.replace(
        s, knockouts=KnockoutRule(points=10, bounty=10, bounties=("leader",))
    ),
    "+ team table": lambda s: dataclasses.replace(s, teams=TeamRule(5)),
    "formula pokerstars": lambda s: dataclasses.replace(
        s, system="formula", formula=FormulaRule("pokerstars")
    ),
    "formula own": lambda s: dataclasses.replace(
        s, system="formula", formula=FormulaRule("100 * (players - place + 1) / players")
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20000)
    parser.add_argument("--events", type=int, default=40)
    parser.add_argument("--field", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    times: dict[str, list[float]] = {name: [] for name in VARIANTS}
    names = list(VARIANTS)
    for round_number in range(args.rounds):
        base = league(args.players, args.events, args.field, random.Random(round_number))
        order = names[round_number % len(names) :] + names[: round_number % len(names)]
        for name in order:
            variant = dataclasses.replace(base, settings=VARIANTS[name](base.settings))
            gc.collect()
            start = time.perf_counter()
            compute_standings(variant)
            times[name].append(time.perf_counter() - start)
    plain = statistics.median(times["absolute"])
    results = args.field * args.events
    print(
        f"{results:,} results ({args.events} events of {args.field} from {args.players:,} players)"
    )
    for name in names:
        median = statistics.median(times[name])
        print(f"  {name:<20} {median:7.3f} s   {median / plain:5.2f}x")


if __name__ == "__main__":
    main()
