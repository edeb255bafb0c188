"""Benchmark: `standings`, `check` and `publish` beside `sync` on the same big workbook.

    python benchmarks/bench_commands.py [--players 2000] [--events 100] [--rounds 5]

Issue 15's target: none of the read-only commands slower than `sync` on the same file. Each
command runs as the user runs it (the `xlrally` program, a new process each time, output to
/dev/null), in rotating order; `sync` gets a fresh copy of the workbook each time, so that it
is never skipped as unchanged. The workbook (200,000 result rows by default) is made once by
``make_workbook.py``.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_workbook import make  # noqa: E402

COMMANDS = {
    "sync": ["sync"],
    "standings -f json": ["standings", "-f", "json"],
    "standings (table)": ["standings"],
    "check": ["check"],
    "publish": ["publish", "-o", "{folder}/page.html"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    program = shutil.which("xlrally", path=str(Path(sys.executable).parent)) or "xlrally"
    with tempfile.TemporaryDirectory(prefix="xlrally-commands-") as folder:
        source = Path(folder) / "source.xlsx"
        make(str(source), args.players, args.events)
        times: dict[str, list[float]] = {name: [] for name in COMMANDS}
        names = list(COMMANDS)
        for round_ in range(args.rounds):
            for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
                target = Path(folder) / "league.xlsx"
                shutil.copyfile(source, target)
                command = [program, *(a.format(folder=folder) for a in COMMANDS[name])]
                start = time.perf_counter()
                subprocess.run(
                    [*command, str(target)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    check=True,
                )
                times[name].append(time.perf_counter() - start)
    rows = args.players * args.events
    print(f"{rows:,} result rows, {args.rounds} rounds, medians")
    sync = statistics.median(times["sync"])
    for name, seconds in times.items():
        median = statistics.median(seconds)
        print(f"{name:<20} {median:6.2f} s  {median / sync:5.2f}× sync")


if __name__ == "__main__":
    main()
