"""Benchmark: `xlrally import` side by side with `xlrally sync` of the same workbook.

    python benchmarks/bench_import.py [--rounds 5] [--cases all] [--compare REV]

Issue 27's targets: an import costs at most 1.3× the time and 1.3× the peak memory of a sync of
the same workbook. Each case makes a league with realistic data (names drawn from the 1990 US
Census lists in tests/data, uneven attendance: each event a different share of the players,
late entries, byes), and the file to import (a TRF file a pairing program would write: a
Swiss of real pairings, every game written on both sides, points columns that add up; or a
CSV). Then, alternating in each round so that machine noise hits both alike, each in a fresh
process on a fresh copy of the workbook (synced once before, as leagues are, so that there is
a Standings sheet to replace, but read whole: its sync record made stale): `xlrally sync` and
`xlrally import`. Wall time and
the process's peak resident memory (its own and its children's, which is where both work)
come from os.wait4. Prints each case's medians and ratios; and, beside them, a full sync of the
workbook as the import left it (the same league with the event, which the import also scores:
a big event makes the league bigger, and its Standings longer).

``--compare REV``: also run the import of the xlrally of git revision REV (exported with `git
archive`, run with PYTHONPATH from the case's folder: run from a checkout, ``python -m`` would
import the checkout's package first) on the same workbooks and check that both write the same
bytes, part by part, but for the digest of the code that the sync record names (its "rules",
which differ whenever the code does, by design).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import xlsxwriter

HERE = Path(__file__).resolve().parent
CENSUS = HERE.parent / "tests" / "data" / "census_1990_names.txt"


@dataclass(frozen=True)
class Case:
    name: str
    system: str
    results: int
    """About how many result rows the league has."""
    players: int
    """The league's players."""
    imported: int
    """Players in the imported event."""
    rounds: int = 0
    """The event's rounds (a TRF file); 0: a CSV."""


CASES = {
    "rally-20k-2": Case(
        "2-player event into a 20,000-result rally league", "rally", 20_000, 400, 2, 3
    ),
    "rally-200k-500": Case(
        "500 players × 11 rounds into a 200,000-result rally league",
        "rally",
        200_000,
        3000,
        500,
        11,
    ),
    "absolute-200k-5000": Case(
        "5,000-row CSV into a 200,000-result absolute points league",
        "absolute",
        200_000,
        8000,
        5000,
    ),
    "reverse-20k-60": Case(
        "60-player CSV into a 20,000-result reverse league", "reverse", 20_000, 600, 60
    ),
    "neau-20k-60": Case("60-player CSV into a 20,000-result Neau league", "neau", 20_000, 600, 60),
    "dippouch-20k-40": Case(
        "40-player TRF ranks into a 20,000-result Dip Pouch league", "dippouch", 20_000, 500, 40, 5
    ),
}


def census() -> tuple[list[str], list[str]]:
    firsts, lasts = [], []
    for line in CENSUS.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        kind, name, _ = line.split()
        (firsts if kind == "first" else lasts).append(name.title())
    return firsts, lasts


def player_names(count: int, rnd: random.Random) -> list[str]:
    firsts, lasts = census()
    names: list[str] = []
    seen = set()
    while len(names) < count:
        name = f"{rnd.choice(firsts)} {rnd.choice(lasts)}"
        if name not in seen:
            seen.add(name)
            names.append(name)
    return names


def make_league(path: Path, case: Case, seed: int = 7) -> list[str]:
    """A league of about ``case.results`` rows, events of uneven attendance; its players."""
    rnd = random.Random(seed)
    players = player_names(case.players, rnd)
    per_event = max(2, case.results // 100)
    events = max(1, case.results // per_event)
    book = xlsxwriter.Workbook(str(path))  # shared strings, as Excel writes
    settings = book.add_worksheet("Settings")
    rows: list[list[object]] = [["Setting", "Value"], ["System", case.system], ["League", "Bench"]]
    for r, row in enumerate(rows):
        settings.write_row(r, 0, row)
    if case.system in ("absolute", "reverse"):
        points = book.add_worksheet("Points")
        points.write_row(0, 0, ["Rank", "Points"])
        for rank in range(1, 41):
            points.write_row(rank, 0, [rank, max(0, 100 - 3 * rank)])
    date_format = book.add_format({"num_format": "d mmm yyyy"})
    ev = book.add_worksheet("Events")
    ev_header = ["Event", "Date", "Rounds", "Buy-in"]
    ev.write_row(0, 0, ev_header)
    res = book.add_worksheet("Results")
    fields = {
        "rally": ["Event", "Player", "Points", "Games", "Byes", "Club"],
        "absolute": ["Event", "Player", "Rank", "Buy-in"],
        "reverse": ["Event", "Player", "Rank"],
        "neau": ["Event", "Player", "Rank", "Buy-in"],
        "dippouch": ["Event", "Player", "Rank", "Country"],
    }[case.system]
    res.write_row(0, 0, fields)
    row = 1
    start = dt.date(2021, 1, 9)
    for e in range(events):
        name = f"{start + dt.timedelta(weeks=e):%b %Y} {e + 1:03d}"
        ev.write_string(e + 1, 0, name)
        day = dt.datetime.combine(start + dt.timedelta(weeks=e), dt.time())
        ev.write_datetime(e + 1, 1, day, date_format)
        ev.write_number(e + 1, 2, 6)
        ev.write_number(e + 1, 3, 20)
        share = rnd.uniform(0.5, 1.0)  # uneven attendance
        field = rnd.sample(players, min(len(players), max(2, int(per_event * share))))
        for rank, player in enumerate(field, start=1):
            if case.system == "rally":
                byes = 1 if rnd.random() < 0.08 else 0
                games = max(1, 6 - byes - (1 if rnd.random() < 0.1 else 0))  # some leave early
                values: list[object] = [name, player, rnd.randint(0, 2 * games) / 2, games, byes]
                values.append(rnd.choice(["Hastings", "Oxford", "", "Battersea"]))
            elif case.system == "dippouch":
                values = [name, player, rank, rnd.choice(["England", "France", "Italy", ""])]
            else:
                values = [name, player, rank, 20][: len(fields)]
            res.write_row(row, 0, values)
            row += 1
    book.close()
    return players


def trf_record(number: int, name: str, points: float, rank: int, rounds: list[str]) -> str:
    first, _, last = name.rpartition(" ")
    shown = f"{last}, {first}"  # the standard's Lastname, Firstname
    line = f"001 {number:4d}      {shown:<33.33s} {1500 + number % 700:4d} ENG {'':11s} {'':10s} "
    line = line.ljust(80) + f"{points:4.1f} {rank:4d}"
    return line + "".join(rounds)


def make_trf(path: Path, players: list[str], rounds: int, rnd: random.Random, event: str) -> None:
    """A Swiss of ``len(players)`` players: each round paired from the standings (random within
    score groups is enough here), the odd player a pairing bye, a few half-point byes asked
    for, late entries and withdrawals; every game written on both sides."""
    count = len(players)
    score = [0.0] * count
    entries: list[list[str]] = [[] for _ in range(count)]
    late = {i for i in range(count) if rnd.random() < 0.05}
    gone = {i: rnd.randint(rounds // 2, rounds) for i in range(count) if rnd.random() < 0.05}
    for r in range(rounds):
        here = [i for i in range(count) if not (i in late and r < 2) and gone.get(i, 99) > r]
        asked = {i for i in here if rnd.random() < 0.03}
        for i in range(count):
            if i not in here:
                entries[i].append("          ")
        for i in asked:
            entries[i].append("  0000 - H")
            score[i] += 0.5
        paired = [i for i in here if i not in asked]
        rnd.shuffle(paired)
        paired.sort(key=lambda i: -score[i])
        if len(paired) % 2:
            bye = paired.pop()
            entries[bye].append("  0000 - U")
            score[bye] += 1
        for a, b in zip(paired[::2], paired[1::2], strict=True):
            outcome = rnd.random()
            mine, theirs = (
                ("1", "0") if outcome < 0.45 else ("=", "=") if outcome < 0.7 else ("0", "1")
            )
            entries[a].append(f"  {b + 1:4d} w {mine}")
            entries[b].append(f"  {a + 1:4d} b {theirs}")
            score[a] += {"1": 1, "=": 0.5, "0": 0}[mine]
            score[b] += {"1": 1, "=": 0.5, "0": 0}[theirs]
    order = sorted(range(count), key=lambda i: -score[i])
    ranks = {i: place for place, i in enumerate(order, start=1)}
    lines = [
        f"012 {event}",
        "022 London",
        "032 ENG",
        "042 2026/03/07",
        "052 2026/03/08",
        f"062 {count}",
        "092 Individual: Swiss-System",
        f"XXR {rounds}",
    ]
    lines += [trf_record(i + 1, players[i], score[i], ranks[i], entries[i]) for i in range(count)]
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode())


def make_csv(path: Path, players: list[str], system: str, rnd: random.Random) -> None:
    rows = ["Pos;Name;Buy-in;Chips"]
    for place, player in enumerate(players, start=1):
        rows.append(f"{place};{player};20;{rnd.randint(0, 90000)}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def measure(
    command: list[str], env: dict[str, str] | None = None, cwd: Path | None = None
) -> tuple[float, float, float]:
    """Wall seconds, peak resident MB and CPU seconds of one process (and its children)."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd
    )
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    error = process.stderr.read().decode() if process.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{error}")
    return elapsed, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def prepare(case: Case, folder: Path) -> tuple[Path, Path, list[str]]:
    """The league and the file to import (made in a child: Linux carries a parent's peak
    memory into the processes it starts, which would floor every peak measured)."""
    league = folder / "league.xlsx"
    source = folder / ("event.trf" if case.rounds else "event.csv")
    subprocess.run([sys.executable, __file__, "--make", case.name, str(folder)], check=True)
    # As leagues are: synced before (a Standings sheet to replace), and read whole by a sync.
    sync = [sys.executable, "-m", "xlrally", "sync", str(league)]
    subprocess.run(sync, check=True, capture_output=True)
    unstamped(league, folder / "unstamped.xlsx")
    (folder / "unstamped.xlsx").replace(league)
    options = [] if case.rounds else ["--date", "2026-03-07", "--column", "Pos=Rank"]
    if case.system == "dippouch" and not case.rounds:
        options += ["--event", "Open"]
    return league, source, options


def make_files(name: str, folder: Path) -> None:
    case = next(c for c in CASES.values() if c.name == name)
    players = make_league(folder / "league.xlsx", case)
    rnd = random.Random(11)
    known = rnd.sample(players, min(len(players), case.imported * 3 // 4))
    newcomers = player_names(case.imported - len(known) + len(players), rnd)
    new = [n for n in newcomers if n not in set(players)][: case.imported - len(known)]
    field = known + new
    rnd.shuffle(field)
    if case.rounds:
        make_trf(folder / "event.trf", field, case.rounds, rnd, "Spring Open 2026")
    else:
        make_csv(folder / "event.csv", field, case.system, rnd)


def unstamped(source: Path, target: Path) -> None:
    """A copy of a synced workbook that the next sync must read whole: the digest a sync
    records (custom property "xlrally inputs") made stale, every other part's contents kept."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = old.read(info)
            if info.filename == "docProps/custom.xml":
                data = re.sub(rb"(<vt:lpwstr>)[0-9a-f]{16,}", rb"\1stale", data)
            new.writestr(info, data)


def written_parts(path: Path) -> dict[str, tuple[bytes, int, tuple[int, ...]]]:
    """Each part of a workbook: its bytes, compression and time; the custom properties with the
    sync record's digest of the code ("rules") left out."""
    found = {}
    with zipfile.ZipFile(path) as package:
        for info in package.infolist():
            data = package.read(info)
            if info.filename == "docProps/custom.xml":
                data = re.sub(rb"(&quot;rules&quot;:&quot;)[0-9a-f]+", rb"\1", data)
            found[info.filename] = (data, info.compress_type, info.date_time)
    return found


def export(revision: str, folder: Path) -> Path:
    """The xlrally package of a git revision, for ``--compare``."""
    target = folder / f"xlrally-{revision}"
    target.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(HERE.parent), "archive", revision, "xlrally"],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="repetitions of each measurement")
    parser.add_argument("--cases", default="all", help="comma-separated keys: " + ", ".join(CASES))
    parser.add_argument("--compare", metavar="REV", help="also check the bytes against REV")
    parser.add_argument("--make", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.make:
        make_files(args.make[0], Path(args.make[1]))
        return
    keys = list(CASES) if args.cases == "all" else args.cases.split(",")
    xlrally = [sys.executable, "-m", "xlrally"]
    with tempfile.TemporaryDirectory(prefix="xlrally-bench-import-") as name:
        folder = Path(name)
        old = export(args.compare, folder) if args.compare else None
        for key in keys:
            case = CASES[key]
            work = folder / key
            work.mkdir()
            league, source, options = prepare(case, work)
            print(f"\n{case.name} ({league.stat().st_size / 2**20:.1f} MB)", flush=True)
            times: dict[str, list[tuple[float, float, float]]] = {
                "sync": [],
                "import": [],
                "sync after": [],
            }
            imported = work / "imported.xlsx"
            shutil.copyfile(league, imported)
            subprocess.run(
                [*xlrally, "import", str(imported), str(source), *options],
                check=True,
                capture_output=True,
            )
            for round_ in range(args.rounds):
                order = ["sync", "import", "sync after"]
                for what in order[round_ % 3 :] + order[: round_ % 3]:
                    copy = work / "copy.xlsx"
                    if what == "sync":
                        shutil.copyfile(league, copy)
                        times[what].append(measure([*xlrally, "sync", str(copy)]))
                    elif what == "sync after":
                        unstamped(imported, copy)
                        times[what].append(measure([*xlrally, "sync", str(copy)]))
                    else:
                        shutil.copyfile(league, copy)
                        command = [*xlrally, "import", str(copy), str(source), *options]
                        times[what].append(measure(command))
            sync_t, sync_m, sync_c = (
                statistics.median(m[i] for m in times["sync"]) for i in range(3)
            )
            import_t, import_m, import_c = (
                statistics.median(m[i] for m in times["import"]) for i in range(3)
            )
            after_t, after_m, after_c = (
                statistics.median(m[i] for m in times["sync after"]) for i in range(3)
            )
            load = os.getloadavg()[0]
            print(f"  sync         {sync_t:6.2f} s  {sync_m:6.0f} MB  {sync_c:6.2f} s CPU")
            print(
                f"  import       {import_t:6.2f} s  {import_m:6.0f} MB  {import_c:6.2f} s CPU   "
                f"{import_t / sync_t:4.2f}× the time, {import_m / sync_m:4.2f}× the memory, "
                f"{import_c / sync_c:4.2f}× the CPU of the sync (load average {load:.1f})"
            )
            print(
                f"  sync after   {after_t:6.2f} s  {after_m:6.0f} MB  {after_c:6.2f} s CPU   "
                f"(the league with the event: the import is {import_t / after_t:4.2f}× its "
                f"time, {import_m / after_m:4.2f}× its memory)"
            )
            if old is not None:
                mine, theirs = work / "mine.xlsx", work / "theirs.xlsx"
                shutil.copyfile(league, mine)
                shutil.copyfile(league, theirs)
                measure([*xlrally, "import", str(mine), str(source), *options], cwd=work)
                env = {**os.environ, "PYTHONPATH": str(old)}
                measure([*xlrally, "import", str(theirs), str(source), *options], env, work)
                same = written_parts(mine) == written_parts(theirs)
                print(f"  the same bytes as {args.compare}'s import: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
