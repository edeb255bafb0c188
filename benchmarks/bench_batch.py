"""Benchmark: `xlrally sync` of many small workbooks, the batch beside an in-process loop.

    python benchmarks/bench_batch.py [--files 200] [--rounds 3] [--jobs 2]

Makes FILES small rally leagues of varied size (10-60 players, 3-12 events, each its own random
results), then, alternating in each round on fresh copies (so nothing is skipped as unchanged):

- the batch as `xlrally sync` runs it (``run_batch``: JOBS long-lived, memory-limited worker
  processes);
- the same batch with one worker per file (each worker retires after its file, as a big file's
  worker does): the fork-per-file design before issue 15;
- a plain loop calling ``sync_file`` on each file in this one process (one core, no isolation):
  the peer the batch must beat;
- a second batch over the files just synced (all unchanged: skipped).

Prints files per second of each (median of the rounds) and the ratios.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_workbook import make  # noqa: E402

from xlrally.app import batch as batch_module  # noqa: E402
from xlrally.app.batch import run_batch  # noqa: E402
from xlrally.app.sync import sync_file  # noqa: E402


def fresh(sources: list[Path], folder: Path) -> list[Path]:
    folder.mkdir()
    return [Path(shutil.copy(s, folder / s.name)) for s in sources]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    rnd = random.Random(7)
    with tempfile.TemporaryDirectory() as name:
        root = Path(name)
        (root / "source").mkdir()
        sources = []
        for n in range(args.files):
            path = root / "source" / f"league_{n:03d}.xlsx"
            make(str(path), rnd.randint(10, 60), rnd.randint(3, 12), seed=n)
            sources.append(path)
        batch, per_file, loop, skipped = [], [], [], []
        for r in range(args.rounds):
            files = fresh(sources, root / f"batch{r}")
            start = time.perf_counter()
            outcomes = run_batch(files, jobs=args.jobs)
            batch.append(time.perf_counter() - start)
            assert all(o.result == "written" for o in outcomes), outcomes
            start = time.perf_counter()
            again = run_batch(files, jobs=args.jobs)
            skipped.append(time.perf_counter() - start)
            assert all(o.result == "unchanged" for o in again)
            files = fresh(sources, root / f"per_file{r}")
            big_file, batch_module.BIG_FILE = batch_module.BIG_FILE, 0  # every worker retires
            start = time.perf_counter()
            outcomes = run_batch(files, jobs=args.jobs)
            per_file.append(time.perf_counter() - start)
            batch_module.BIG_FILE = big_file
            assert all(o.result == "written" for o in outcomes)
            files = fresh(sources, root / f"loop{r}")
            start = time.perf_counter()
            outcomes = [sync_file(path) for path in files]
            loop.append(time.perf_counter() - start)
            assert all(o.result == "written" for o in outcomes)
    times = {"batch": batch, "per_file": per_file, "loop": loop, "skipped": skipped}
    rate = {k: args.files / statistics.median(v) for k, v in times.items()}
    print(f"{args.files} files, {args.jobs} jobs, {args.rounds} rounds (medians)")
    print(f"batch (long-lived workers):     {rate['batch']:7.1f} files/s")
    print(f"one worker per file:            {rate['per_file']:7.1f} files/s")
    print(f"in-process loop (one core):     {rate['loop']:7.1f} files/s")
    print(f"batch again (all unchanged):    {rate['skipped']:7.1f} files/s")
    print(f"ratio batch / one per file:     {rate['batch'] / rate['per_file']:7.2f}x")
    print(f"ratio batch / loop:             {rate['batch'] / rate['loop']:7.2f}x")


if __name__ == "__main__":
    main()
