"""Benchmark: `xlrally sync` of real-looking leagues beside the read floor, in one run.

    python benchmarks/bench_sync.py [--rounds 5] [--cases rally,neau,...] [--big] [--openpyxl]

Each measurement is a fresh process (wall time and the process's peak resident memory, from
``os.wait4``); in every round the cases run in a rotated order and each sync runs right beside
its yardstick, so that the load of a shared machine hits both alike. Reported: the median of
each time, and the median of the per-round ratios (a ratio from one round compares runs made
seconds apart). The workbooks come from ``leagues.py`` (varied: real names, uneven attendance,
ties and tie-breaks, each system's settings; made once into ``~/.cache/xlrally/leagues``) and
``make_workbook.py`` (the first benchmark's dense file).

Cases, each against its yardstick:

- ``bench``: the dense 2,000 × 100 file of ``make_workbook.py`` (``Player 0001`` names);
- ``rally``, ``neau``, ``absolute``: a varied league of the system, 200,000 results, 3,000
  players; ``players``: 200,000 rally results among 47,000 players (about 4 events each);
- ``million`` (with ``--big``): a varied rally league of 1,048,575 results (Excel's last row);
- ``features``: the dense file with sections, prizes and a minimum (issue 16);

  yardstick for all of these: the **read floor**, python-calamine reading every sheet into
  Python lists, then the file copied (issue 33's floor; a sync reads a big Results sheet as
  columns with fastexcel since its eighth session, faster than python-calamine's rows: see
  ``spike_fastexcel.py speed`` for that read alone);
- ``weekly``: the week after: the varied rally league synced, then one result changed (its
  Standings sheet is there, written by xlrally); yardstick: the first sync of the same league
  (no Standings yet), in time and in memory;
- ``unchanged-10k``, ``-50k``, ``-200k``: a sync of a file just synced (nothing changed, so
  skipped); yardstick: the full sync of the same file.

``--openpyxl`` adds an openpyxl load + save of the dense file (45 s a round). Also prints the
start-up time of `xlrally --help` and the machine's load average at the start and the end.
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
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from leagues import Shape  # noqa: E402

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

XLRALLY = [sys.executable, "-m", "xlrally"]
SHAPES = {
    "rally": Shape("rally", 200_000, 3000),
    "neau": Shape("neau", 200_000, 3000),
    "absolute": Shape("absolute", 200_000, 3000),
    "players": Shape("rally", 200_000, 47_000, events=60),
    "million": Shape("rally", 1_048_575, 10_000),
    "unchanged-10k": Shape("rally", 10_000, 300),
    "unchanged-50k": Shape("rally", 50_000, 1000),
    "unchanged-200k": Shape("rally", 200_000, 3000),
    "weekly": Shape("rally", 200_000, 3000),
}
FLOORED = ("bench", "rally", "neau", "absolute", "players", "million", "features")
DEFAULT = (
    "bench,rally,neau,absolute,players,features,weekly,unchanged-10k,unchanged-50k,unchanged-200k"
)


@dataclass
class Run:
    """One measurement: wall seconds, peak resident MB, CPU seconds (user + system)."""

    seconds: float
    peak: float
    cpu: float


def measure(command: list[str]) -> Run:
    """Wall seconds, peak resident MB and CPU seconds of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}")
    return Run(elapsed, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime)


LABELS = {
    "bench": "the benchmark's own file (dense, 2,000 × 100)",
    "rally": "a varied rally league, 200,000 results",
    "neau": "a Neau poker league, 200,000 results",
    "absolute": "an absolute-points league, 200,000 results",
    "players": "47,000 players, 200,000 results",
    "million": "a varied rally league, 1,048,575 results",
    "features": "the dense file with sections, prizes, a minimum",
    "weekly": "the weekly sync (Standings there, one result changed)",
    "unchanged-10k": "unchanged re-sync, 10,000 results",
    "unchanged-50k": "unchanged re-sync, 50,000 results",
    "unchanged-200k": "unchanged re-sync, 200,000 results",
    "openpyxl": "openpyxl load + save of the dense file",
}


@dataclass
class Case:
    """A sync and its yardstick, measured side by side each round."""

    name: str
    source: Path
    ready: Path | None = None
    """The weekly case's synced and edited file; the unchanged case's synced file."""
    runs: list[tuple[Run, Run]] = field(default_factory=list)

    @property
    def yardstick(self) -> str:
        if self.name == "weekly":
            return "first sync"
        if self.name.startswith("unchanged"):
            return "full sync"
        return "xlrally sync" if self.name == "openpyxl" else "read floor"

    def commands(self, scratch: Path) -> tuple[list[str], list[str]]:
        """This round's two commands (the case, its yardstick), on fresh copies."""
        a, b = scratch / "a.xlsx", scratch / "b.xlsx"
        shutil.copyfile(self.source, b)
        if self.name.startswith("unchanged"):
            assert self.ready is not None
            return [*XLRALLY, "sync", str(self.ready)], [*XLRALLY, "sync", str(b)]
        shutil.copyfile(self.ready or self.source, a)
        if self.name == "weekly":
            return [*XLRALLY, "sync", str(a)], [*XLRALLY, "sync", str(b)]
        if self.name == "openpyxl":
            return [sys.executable, "-c", OPENPYXL_ROUND_TRIP, str(b)], [*XLRALLY, "sync", str(a)]
        return [*XLRALLY, "sync", str(a)], [sys.executable, "-c", READ_FLOOR, str(b)]


def workbook(name: str, folder: Path) -> Path:
    """The case's source workbook, made in its own process (Linux carries a parent's peak
    memory into the processes it starts, which would floor every peak measured after)."""
    if name in SHAPES:
        code = (
            "import sys; sys.path.insert(0, sys.argv[1]); import leagues; "
            f"print(leagues.cached(leagues.{SHAPES[name]!r}))"
        )
        made = subprocess.run(
            [sys.executable, "-c", code, str(HERE)], check=True, capture_output=True, text=True
        )
        return Path(made.stdout.strip())
    path = folder / f"{name}.xlsx"
    features = ["--features"] if name == "features" else []
    maker = [sys.executable, str(HERE / "make_workbook.py"), str(path), *features]
    subprocess.run(maker, check=True)
    return path


def prepared(name: str, folder: Path) -> Case:
    """The case with its workbook made (and synced, and edited, where the case needs it)."""
    if name not in LABELS:
        raise SystemExit(f"unknown case {name!r}: {', '.join(LABELS)}")
    source = workbook("bench" if name == "openpyxl" else name, folder)
    scratch = folder / name
    scratch.mkdir()
    case = Case(name, source)
    if name == "weekly" or name.startswith("unchanged"):
        case.ready = scratch / "synced.xlsx"
        shutil.copyfile(source, case.ready)
        subprocess.run([*XLRALLY, "sync", str(case.ready)], check=True, stdout=subprocess.DEVNULL)
    if name == "weekly":
        edit = (
            "import sys, pathlib; sys.path.insert(0, sys.argv[1]); import leagues; "
            "leagues.change_a_result(pathlib.Path(sys.argv[2]))"
        )
        subprocess.run([sys.executable, "-c", edit, str(HERE), str(case.ready)], check=True)
    return case


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="repetitions of each measurement")
    parser.add_argument("--cases", default=DEFAULT, help=f"comma-separated (default {DEFAULT})")
    parser.add_argument("--big", action="store_true", help="add the 1,048,575-row league")
    parser.add_argument("--openpyxl", action="store_true", help="add openpyxl load + save")
    args = parser.parse_args()
    names = args.cases.split(",") + ["million"] * args.big + ["openpyxl"] * args.openpyxl
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="xlrally-bench-") as name:
        folder = Path(name)
        measured = [prepared(case, folder) for case in names]
        for round_number in range(args.rounds):
            turn = round_number % len(measured)
            for case in measured[turn:] + measured[:turn]:
                ours, theirs = case.commands(folder / case.name)
                pair = [ours, theirs] if round_number % 2 else [theirs, ours]
                first, second = measure(pair[0]), measure(pair[1])
                case.runs.append((first, second) if round_number % 2 else (second, first))
            load = os.getloadavg()[0]
            print(
                f"round {round_number + 1} of {args.rounds} done, load {load:.1f}", file=sys.stderr
            )
        helps = [measure([*XLRALLY, "--help"]).seconds for _ in range(5)]
    load_after = os.getloadavg()
    print(
        f"{args.rounds} rounds; load average at the start {load_before[0]:.1f} "
        f"(5 min {load_before[1]:.1f}), at the end {load_after[0]:.1f} (5 min {load_after[1]:.1f})"
    )
    print(
        f"{'case':<58} {'time':>7} {'cpu':>6} {'peak':>6}  {'yardstick':<12} {'time':>7}"
        f" {'cpu':>6} {'peak':>6}  {'ratio':>6} {'cpu':>6} {'memory':>6}"
    )
    for case in measured:
        t_ours = statistics.median(r.seconds for r, _ in case.runs)
        t_base = statistics.median(r.seconds for _, r in case.runs)
        c_ours = statistics.median(r.cpu for r, _ in case.runs)
        c_base = statistics.median(r.cpu for _, r in case.runs)
        p_ours = max(r.peak for r, _ in case.runs)
        p_base = max(r.peak for _, r in case.runs)
        ratio = statistics.median(r.seconds / y.seconds for r, y in case.runs)
        cpu = statistics.median(r.cpu / y.cpu for r, y in case.runs)
        memory = statistics.median(r.peak / y.peak for r, y in case.runs)
        print(
            f"{LABELS[case.name]:<58} {t_ours:6.2f}s {c_ours:5.2f}s {p_ours:5.0f}M  "
            f"{case.yardstick:<12} {t_base:6.2f}s {c_base:5.2f}s {p_base:5.0f}M  "
            f"{ratio:5.2f}× {cpu:5.2f}× {memory:5.2f}×"
        )
    print(f"xlrally --help: {statistics.median(helps):.3f} s (median of 5)")


if __name__ == "__main__":
    main()
