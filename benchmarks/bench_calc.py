"""Benchmark: recalculating 10,000 rows of RALLY_SCORE in LibreOffice Calc, beside the same rows
of Calc's own formula ``INT(100*A/(B-C))+D``, side by side in one run.

    python benchmarks/bench_calc.py [--rows 10000] [--rounds 7]

Issue 30's target: at most 5× the plain formula. Real headless LibreOffice with the extension
installed (tests/calc/office.py: a profile of its own in a temporary folder), three documents
of the same rows (a league's rally results: rounds 4-7, a few byes, games as played): one
RALLY_SCORE formula a row (as filled down), one array formula over the 10,000 rows (entered
with Ctrl+Shift+Enter), and the plain formula a row. Each round recalculates every document
once, in rotating order; the time is taken inside LibreOffice's process bridge around
``calculateAll()`` alone; the median of the rounds is reported.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "calc"))

from office import Office, available, installed  # noqa: E402

from xlrally.calc.extension import build  # noqa: E402


def results(rows: int, seed: int = 30) -> list[list[Any]]:
    """Points, rounds, byes, games of ``rows`` players' events."""
    rng = random.Random(seed)
    out = []
    for _ in range(rows):
        rounds = rng.randint(4, 7)
        byes = rng.choice([0, 0, 0, 1])
        games = rounds - byes - rng.choice([0, 0, 0, 1])
        out.append([rng.randint(0, 2 * games) / 2, rounds, byes, games])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    reason = available()
    if reason:
        sys.exit(f"bench_calc: {reason}")
    data = results(args.rows)
    n = args.rows
    with tempfile.TemporaryDirectory(prefix="xlrally-bench-calc-") as folder:
        oxt = build(Path(folder) / "xlrally.oxt")
        profile = Path(folder) / "profile"
        installed(oxt, profile)
        office = Office(profile)
        try:
            docs: dict[str, int] = {}
            kinds = {
                "RALLY_SCORE, one a row": lambda i: f"=RALLY_SCORE(A{i};B{i};C{i};D{i})",
                "INT(100*A/(B-C))+D": lambda i: f"=INT(100*A{i}/(B{i}-C{i}))+D{i}",
            }
            for name, formula in kinds.items():
                doc = office("new")
                office("put", doc, "Sheet1", [[*row, formula(i)] for i, row in enumerate(data, 1)])
                docs[name] = doc
            doc = office("new")
            office("put", doc, "Sheet1", data)
            office(
                "array", doc, "Sheet1", f"E1:E{n}", f"=RALLY_SCORE(A1:A{n};B1:B{n};C1:C{n};D1:D{n})"
            )
            docs["RALLY_SCORE, one array formula"] = doc
            for doc in docs.values():
                office("calculate", doc)  # once first: the add-in and its imports loaded
            first = office("values", docs["RALLY_SCORE, one a row"], "Sheet1", f"E1:E{n}")
            plain = office("values", docs["INT(100*A/(B-C))+D"], "Sheet1", f"E1:E{n}")
            assert first == plain, "RALLY_SCORE and the plain formula disagree"
            times: dict[str, list[float]] = {name: [] for name in docs}
            names = list(docs)
            for r in range(args.rounds):
                for name in names[r % len(names) :] + names[: r % len(names)]:
                    times[name].append(office("time_calculate", docs[name]))
            for doc in docs.values():
                office("close", doc)
        finally:
            office.stop()
    base = statistics.median(times["INT(100*A/(B-C))+D"])
    print(f"Recalculating {n:,} rows in LibreOffice Calc (median of {args.rounds} rounds)")
    for name, found in times.items():
        median = statistics.median(found)
        print(f"  {name:<34} {median * 1000:8.1f} ms   {median / base:5.1f}× the plain formula")
    ratio = statistics.median(times["RALLY_SCORE, one a row"]) / base
    print(f"target: RALLY_SCORE at most 5× the plain formula: {'met' if ratio <= 5 else 'NOT met'}")


if __name__ == "__main__":
    main()
