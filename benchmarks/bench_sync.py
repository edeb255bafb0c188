"""Benchmark: sync a 200,000-row rally workbook, side by side with an openpyxl load + save.

    python benchmarks/bench_sync.py [--players 2000] [--events 100] [--rounds 3]

A second workbook of the same results also has issue 16's features (4 sections, a minimum of
events, a Prizes sheet): its sync is measured in the same rounds. Each measurement runs in a
fresh process (wall time and that process's peak memory, from
os.wait4), alternating so that machine noise hits all alike: xlrally's sync, the read floor
(python-calamine reading every sheet into Python lists, plus copying the file: what any sync
must at least do), an openpyxl load + save (``--no-openpyxl`` leaves it out: 45 s a round),
and a second sync of the file just synced (nothing changed: skipped). Prints the median of
each and the ratios, and the start-up time of `xlrally --help`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

OPENPYXL_ROUND_TRIP = (
    "import sys, openpyxl; wb = openpyxl.load_workbook(sys.argv[1]); wb.save(sys.argv[1])"
)


READ_FLOOR = """
import shutil, sys
from python_calamine import CalamineWorkbook
book = CalamineWorkbook.from_path(sys.argv[1])
sheets = [book.get_sheet_by_name(n).to_python() for n in book.sheet_names]
shutil.copy(sys.argv[1], sys.argv[1] + ".copy")
"""


def measure(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MB of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}")
    return elapsed, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3, help="repetitions of each measurement")
    parser.add_argument("--no-openpyxl", action="store_true", help="leave openpyxl out")
    args = parser.parse_args()
    xlrally = [sys.executable, "-m", "xlrally"]
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "source.xlsx"
        # In its own process: Linux carries a parent's peak memory into the children it starts
        # (ru_maxrss survives fork and exec), which would floor every peak below.
        maker = [sys.executable, str(HERE / "make_workbook.py"), str(source)]
        sizes = [f"--players={args.players}", f"--events={args.events}"]
        subprocess.run([*maker, *sizes], check=True)
        featured = Path(folder) / "featured.xlsx"
        subprocess.run(
            [sys.executable, str(HERE / "make_workbook.py"), str(featured), *sizes, "--features"],
            check=True,
        )
        rows = args.players * args.events
        print(f"workbook: {rows:,} result rows, {source.stat().st_size / 2**20:.1f} MB")
        alone = []
        for _ in range(args.rounds):  # back to back, before openpyxl loads the machine
            a = Path(folder) / "alone.xlsx"
            shutil.copy(source, a)
            alone.append(measure([*xlrally, "sync", str(a)]))
        ours, theirs, floor, again, features = [], [], [], [], []
        for _ in range(args.rounds):
            a, b = Path(folder) / "a.xlsx", Path(folder) / "b.xlsx"
            shutil.copy(source, a)
            shutil.copy(source, b)
            ours.append(measure([*xlrally, "sync", str(a)]))
            c = Path(folder) / "c.xlsx"
            shutil.copy(featured, c)
            features.append(measure([*xlrally, "sync", str(c)]))
            floor.append(measure([sys.executable, "-c", READ_FLOOR, str(b)]))
            again.append(measure([*xlrally, "sync", str(a)]))
            if not args.no_openpyxl:
                theirs.append(measure([sys.executable, "-c", OPENPYXL_ROUND_TRIP, str(b)]))
        helps = [measure([*xlrally, "--help"])[0] for _ in range(5)]
    t_alone = statistics.median(t for t, _ in alone)
    print(
        f"xlrally sync (writes), alone: {t_alone:6.2f} s  peak {max(m for _, m in alone):5.0f} MB"
        f"  (runs: {', '.join(f'{t:.2f}' for t, _ in alone)})"
    )
    t_ours = statistics.median(t for t, _ in ours)
    peak = max(m for _, m in ours)
    print(f"xlrally sync (writes), side by side: {t_ours:6.2f} s  peak {peak:5.0f} MB")
    t_floor = statistics.median(t for t, _ in floor)
    print(
        f"read floor (calamine + copy): {t_floor:6.2f} s  peak {max(m for _, m in floor):5.0f} MB"
    )
    t_again = statistics.median(t for t, _ in again)
    print(
        f"xlrally sync (unchanged):     {t_again:6.2f} s  peak {max(m for _, m in again):5.0f} MB"
    )
    t_features = statistics.median(t for t, _ in features)
    print(
        f"sync with sections, prizes, a minimum: {t_features:6.2f} s  "
        f"peak {max(m for _, m in features):5.0f} MB  ({t_features / t_ours:.2f}x the plain sync)"
    )
    print(f"ratio sync / read floor:      {t_ours / t_floor:6.2f}x")
    print(f"ratio unchanged / sync:       {t_again / t_ours:6.2f}x")
    if theirs:
        t_theirs = statistics.median(t for t, _ in theirs)
        t_m = max(m for _, m in theirs)
        print(f"openpyxl load + save:         {t_theirs:6.2f} s  peak {t_m:5.0f} MB")
        print(f"ratio openpyxl / xlrally:     {t_theirs / t_ours:6.1f}x")
    print(f"xlrally --help:               {statistics.median(helps):6.2f} s")


if __name__ == "__main__":
    main()
