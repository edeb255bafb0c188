"""Benchmark: how near the read floor a pure-Python sync of a poker league can come (issue 33).

    python benchmarks/bench_lean.py [--rounds 5] [--cases neau,absolute] [--check] [--fastexcel]

For each case, three commands (four with ``--fastexcel``), each a fresh process, in a rotated
order every round on fresh copies of the varied league of `bench_sync.py` (200,000 results,
3,000 players): the **read floor** (python-calamine reading every sheet, the file copied),
**`lean_sync.py`** (only the work any sync of the league must do, the fastest way found,
every check and every extra left out: see its docstring) and **`xlrally sync`**. Reported:
each one's median wall time and peak memory, and the median of the per-round ratios to the
floor.

Issue 33 asks for a poker league's sync within 2.0× the floor. Where the lean script is not
within it, no pure-Python sync that also checks, resolves names, breaks ties and keeps the
package whole can be.

``--fastexcel`` adds `lean_sync.py --fastexcel`, the lean script reading the Results sheet
into Arrow columns (see ``spike_fastexcel.py``).

``--check``: first count the players whose total and Working cell the lean script makes as
xlrally does (``xlrally.read_standings``, the Standings sheet's rows; a player with a shared
place or a tie broken differs, as the script does neither), so that it is seen to do the same
work.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import cast

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_sync import READ_FLOOR, XLRALLY, Run, measure, workbook  # noqa: E402

LEAN = [sys.executable, str(HERE / "lean_sync.py")]


def check(path: Path) -> None:
    """Print how many of the lean script's totals and Working cells are xlrally's (names
    matched as xlrally matches them)."""
    import lean_sync

    from xlrally.app.sync import read_standings
    from xlrally.core.players import key
    from xlrally.formats.cells import SparseRow
    from xlrally.formats.grid import standings_sheet

    lean = lean_sync.standings(str(path))
    by_key = {key(row[1]): row for row in lean.table}
    totals = workings = 0
    rows = [row for row in standings_sheet(read_standings(path)) if isinstance(row, SparseRow)]
    for row in rows:
        total, _, results, counted = by_key[key(str(row.head[1].value))]
        totals += abs(total - cast(float, row.head[2].value)) < 1e-9
        workings += lean.shown_working(results, counted) == row.tail[0].value
    print(
        f"check: of {len(rows):,} players, {totals:,} totals and {workings:,} Working cells "
        "are xlrally's (the others: a shared place, or a tie broken, which it leaves out)"
    )


def measured(source: Path, folder: Path, rounds: int, fast: bool) -> dict[str, list[Run]]:
    """The commands' runs on copies of ``source``, in a rotated order each round."""
    commands = {
        "read floor": [sys.executable, "-c", READ_FLOOR],
        "lean_sync.py": LEAN,
        "xlrally sync": [*XLRALLY, "sync"],
    }
    if fast:
        commands["lean, fastexcel"] = [*LEAN, "--fastexcel"]
    runs: dict[str, list[Run]] = {label: [] for label in commands}
    labels = list(commands)
    for round_ in range(rounds):
        turn = round_ % len(labels)
        for label in labels[turn:] + labels[:turn]:
            copy = folder / "league.xlsx"
            shutil.copyfile(source, copy)
            runs[label].append(measure([*commands[label], str(copy)]))
        print(f"round {round_ + 1} of {rounds} done", file=sys.stderr)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="repetitions of each measurement")
    parser.add_argument("--cases", default="neau,absolute", help="comma-separated leagues")
    parser.add_argument("--check", action="store_true", help="compare the totals first")
    parser.add_argument(
        "--fastexcel", action="store_true", help="add lean_sync.py reading by fastexcel"
    )
    parser.add_argument("--compare", type=Path, help=argparse.SUPPRESS)  # --check's child
    args = parser.parse_args()
    if args.compare:
        check(args.compare)
        return
    for case in args.cases.split(","):
        with tempfile.TemporaryDirectory(prefix="xlrally-lean-") as name:
            source = workbook(case, Path(name))
            print(f"{case} league ({source.name})")
            if args.check:  # in a child: a parent's peak memory is carried into its children
                subprocess.run([sys.executable, __file__, "--compare", str(source)], check=True)
            runs = measured(source, Path(name), args.rounds, args.fastexcel)
        floor = runs["read floor"]
        print(f"{'':16} {'time':>6} {'peak':>6} {'/ floor':>8}")
        for label, times in runs.items():
            pairs = zip(times, floor, strict=True)
            ratio = statistics.median(m.seconds / f.seconds for m, f in pairs)
            seconds = statistics.median(m.seconds for m in times)
            peak = statistics.median(m.peak for m in times)
            print(f"{label:16} {seconds:5.2f}s {peak:5.0f}M {ratio:7.2f}×")


if __name__ == "__main__":
    main()
