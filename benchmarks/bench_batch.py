"""Benchmark: `xlrally sync` of many small workbooks, the batch beside an in-process loop.

    python benchmarks/bench_batch.py [--files 200] [--rounds 3] [--jobs 2]

Makes FILES small varied leagues (``leagues.py``: real-looking names, uneven attendance, ties;
every system in turn, 10-60 players over about 3-12 events), then, in each round on fresh
copies (so nothing is skipped as unchanged), the batch and the loop in alternating order:

- the batch as `xlrally sync` runs it (``run_batch``: JOBS long-lived, memory-limited worker
  processes);
- the same batch with one worker per file (each worker retires after its file, as a big file's
  worker does): the fork-per-file design before issue 15;
- a plain loop calling ``sync_file`` on each file in this one process (one core, no isolation):
  the peer the batch must beat;
- a second batch over the files just synced (all unchanged: skipped);
- after an upgrade (other rules: ``unchanged.rules`` replaced in this process, which the
  workers are forked from, as if xlrally's code had changed), two more batches over those
  files: the first reads each whole and finds its Standings as they are (not written), the
  second skips them, remembered in the cache folder (``xlrally/app/rechecked.py``; before
  issue 33's ninth session, every batch after an upgrade read each untouched file whole).

Prints files per second of each (median of the rounds) and the ratios.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from leagues import SYSTEMS, Shape, make  # noqa: E402

from xlrally.app import batch as batch_module  # noqa: E402
from xlrally.app import unchanged  # noqa: E402
from xlrally.app.batch import run_batch  # noqa: E402
from xlrally.app.rechecked import CACHE_VARIABLE  # noqa: E402
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
            players, events = rnd.randint(10, 60), rnd.randint(3, 12)
            rows = max(players, round(players * events * rnd.uniform(0.4, 0.9)))
            make(path, Shape(SYSTEMS[n % len(SYSTEMS)], rows, players, seed=n, events=events))
            sources.append(path)
        os.environ[CACHE_VARIABLE] = str(root / "cache")  # not the user's
        batch, per_file, loop, skipped, upgraded, remembered = [], [], [], [], [], []
        for r in range(args.rounds):
            for way in ("batch", "loop") if r % 2 == 0 else ("loop", "batch"):
                files = fresh(sources, root / f"{way}{r}")
                start = time.perf_counter()
                if way == "batch":
                    outcomes = run_batch(files, jobs=args.jobs)
                else:
                    outcomes = [sync_file(path) for path in files]
                (batch if way == "batch" else loop).append(time.perf_counter() - start)
                assert all(o.result == "written" for o in outcomes), outcomes
            start = time.perf_counter()
            again = run_batch(files, jobs=args.jobs)
            skipped.append(time.perf_counter() - start)
            assert all(o.result == "unchanged" for o in again)
            these_rules = unchanged.rules
            unchanged.rules = functools.partial(str, f"{r + 1:064x}")  # other rules each round
            for taken in (upgraded, remembered):
                start = time.perf_counter()
                again = run_batch(files, jobs=args.jobs)
                taken.append(time.perf_counter() - start)
                assert all(o.result == "unchanged" for o in again)
            unchanged.rules = these_rules
            files = fresh(sources, root / f"per_file{r}")
            big_file, batch_module.BIG_FILE = batch_module.BIG_FILE, 0  # every worker retires
            start = time.perf_counter()
            outcomes = run_batch(files, jobs=args.jobs)
            per_file.append(time.perf_counter() - start)
            batch_module.BIG_FILE = big_file
            assert all(o.result == "written" for o in outcomes)
    times = {
        "batch": batch,
        "per_file": per_file,
        "loop": loop,
        "skipped": skipped,
        "upgraded": upgraded,
        "remembered": remembered,
    }
    rate = {k: args.files / statistics.median(v) for k, v in times.items()}
    ratios = [t_loop / t_batch for t_loop, t_batch in zip(loop, batch, strict=True)]
    print(f"{args.files} files, {args.jobs} jobs, {args.rounds} rounds (medians)")
    print(f"batch (long-lived workers):     {rate['batch']:7.1f} files/s")
    print(f"one worker per file:            {rate['per_file']:7.1f} files/s")
    print(f"in-process loop (one core):     {rate['loop']:7.1f} files/s")
    print(f"batch again (all unchanged):    {rate['skipped']:7.1f} files/s")
    print(f"after an upgrade, first batch:  {rate['upgraded']:7.1f} files/s (each read whole)")
    print(f"after an upgrade, next batch:   {rate['remembered']:7.1f} files/s (remembered)")
    print(f"ratio batch / one per file:     {rate['batch'] / rate['per_file']:7.2f}x")
    print(f"ratio batch / loop:             {rate['batch'] / rate['loop']:7.2f}x")
    print(f"  each round's, in order:       {', '.join(f'{x:.2f}x' for x in ratios)}")
    print(f"  median of the rounds':        {statistics.median(ratios):7.2f}x")


if __name__ == "__main__":
    main()
