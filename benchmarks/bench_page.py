"""Benchmark: the published page of a big league, its size, and how soon Chromium can use it.

    python benchmarks/bench_page.py [--players 5000] [--events 60] [--rounds 3]

Targets: issue 15's, a page of at most 5 MB for 5,000 players × 60 events, opening in
Chromium within 2 s (the default ``--top``); issue 33's, the same league with everyone in
full (``--top 0``) interactive within 5 s. For each system the league is made with
:func:`league` (real-looking names; each player has a strength and a habit of turning up, so
that results look like a season's, not like dice), its standings computed (not timed), and
the page written with the default ``--top`` and with everyone in full. Chromium (headless,
through puppeteer-core under Node, as the browser tests drive it; a 1366 × 768 window) then
opens each page in a fresh tab, alternating (tests/browser/load_time.mjs), and takes: the load
event, the first frame once the main thread is free after it (interactive), how long the
table takes to show its last row once scrolled to its end, and the last row's player's
section once their name is followed; a 12-player page is the yardstick of the machine.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
for folder in (HERE.parent / "tests", HERE.parent, HERE):
    sys.path.insert(0, str(folder))

from bench_players import names  # noqa: E402
from helpers import npm_package, program  # noqa: E402

from xlrally.core.league import compute_standings  # noqa: E402
from xlrally.core.model import Event, League, Result, Settings  # noqa: E402
from xlrally.core.rules import FormulaRule  # noqa: E402
from xlrally.core.systems.poker import PointStructure  # noqa: E402
from xlrally.formats.page import standings_page  # noqa: E402
from xlrally.formats.top import TOP  # noqa: E402

SCRIPT = HERE.parent / "tests" / "browser" / "load_time.mjs"
PUPPETEER = "23.11.1"


def league(system: str, players: int, events: int, seed: int = 1) -> League:
    """A season of ``events`` weekly events among ``players`` players. Each player has a
    strength (a rally game is won with that chance, drawn with a fifth of the rest; the
    finishing order of a poker or Diplomacy event is by strength plus luck) and turns up to
    30-90% of the events."""
    rnd = random.Random(seed)
    everyone = names(players, rnd)
    strength = {p: rnd.uniform(0.15, 0.85) for p in everyone}
    turns_up = {p: rnd.uniform(0.3, 0.9) for p in everyone}
    settings = Settings(
        system,
        league="Big League",
        structure=PointStructure(points=(25, 20, 15, 10, 5), bonus=(3, 2, 1), participating=5),
        formula=FormulaRule("pokerstars"),  # the formula system's (the others ignore it)
    )
    held, results = [], []
    for number in range(events):
        name = f"Week {number + 1}"
        field = [p for p in everyone if rnd.random() < turns_up[p]]
        date = dt.date(2026, 1, 3) + dt.timedelta(weeks=number)
        held.append(Event(name, date, rounds=5, buy_in=20, players=len(field)))
        if system == "rally":
            for player in field:
                points = 0.0
                for _ in range(5):
                    luck = rnd.random()
                    win = strength[player]
                    points += 1 if luck < win else 0.5 if luck < win + (1 - win) / 5 else 0
                results.append(Result(name, player, points=points, games=5))
            continue
        order = sorted(field, key=lambda p: -(strength[p] + rnd.gauss(0, 0.2)))
        for place, player in enumerate(order, start=1):
            total = 20 * (1 + (rnd.random() < 0.2)) if system == "neau" else None
            results.append(Result(name, player, rank=place, total=total))
    return League(settings, tuple(held), tuple(results))


def load_times(pages: dict[str, Path], rounds: int) -> dict[str, list[dict[str, float]]]:
    """For each page, ``rounds`` times, alternating: its times (tests/browser/load_time.mjs)."""
    run = subprocess.run(
        [
            program("node"),
            str(SCRIPT),
            program("chromium", "chromium-browser"),
            str(rounds),
            *(path.as_uri() for path in pages.values()),
        ],
        capture_output=True,
        text=True,
        timeout=1800,
        env={**os.environ, "PUPPETEER_DIR": str(npm_package("puppeteer-core", PUPPETEER))},
        check=True,
    )
    times = json.loads(run.stdout.strip().splitlines()[-1])
    return {key: times[path.as_uri()] for key, path in pages.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--events", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--systems", default="rally,neau,dippouch")
    parser.add_argument("--no-everyone", action="store_true", help="leave the --top 0 pages out")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="xlrally-page-"))
    pages: dict[str, Path] = {}
    small = compute_standings(league("rally", 12, 6))
    pages["12 players (yardstick)"] = folder / "small.html"
    pages["12 players (yardstick)"].write_text(standings_page(small), encoding="utf-8")
    for system in args.systems.split(","):
        standings = compute_standings(league(system, args.players, args.events))
        for top, label in ((TOP, f"top {TOP}"), (None, "everyone")):
            start = time.perf_counter()
            page = standings_page(standings, top=top)
            made = time.perf_counter() - start
            path = folder / f"{system}-{label.replace(' ', '')}.html"
            path.write_text(page, encoding="utf-8")
            key = f"{system}, {label}"
            if top is not None or not args.no_everyone:
                pages[key] = path
            size = path.stat().st_size / 1e6
            print(f"{key:<24} {size:6.2f} MB, written in {made:.2f} s")
    load = os.getloadavg()
    times = load_times(pages, args.rounds)
    after = os.getloadavg()
    print(
        f"\nChromium at 1366 × 768, medians of {args.rounds}; load average {load[0]:.1f} before, "
        f"{after[0]:.1f} after"
    )
    print(f"{'page':<24} {'load':>7} {'interactive':>12} {'last row':>9} {'section':>8}")
    base = statistics.median(t["interactive"] for t in times["12 players (yardstick)"])
    for key, runs in times.items():
        median = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(
            f"{key:<24} {median['load']:6.2f}s {median['interactive']:11.2f}s "
            f"{median['bottom']:8.2f}s {median['section']:7.2f}s"
            f"  ({median['interactive'] / base:5.1f}× the yardstick)"
        )


if __name__ == "__main__":
    main()
