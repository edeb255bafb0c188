"""Benchmark: recalculating 10,000 rows of RALLY_SCORE in LibreOffice Calc, beside the same rows
of Calc's own formula ``INT(100*A/(B-C))+D``, side by side in one run.

    python benchmarks/bench_calc.py [--rows 10000] [--rounds 9] [--profile] [--instructions]

Issue 30's target: at most 5× the plain formula. Real headless LibreOffice with the extension
installed (tests/calc/office.py: a profile of its own in a temporary folder), a document for
each way of computing the same rows (a league's rally results: rounds 4-7, a few byes, games as
played): the plain formula a row; the same with its division by Calc's own C++ add-in
(``QUOTIENT``: what an add-in call costs without Python); one RALLY_SCORE formula a row (as
filled down); one array formula over the rows (entered with Ctrl+Shift+Enter); and both again
over rows of which no two are alike (no answer kept can be used, no row is computed once for
rows like it). Each round recalculates every
document once, in rotating order (``calculateAll()``). Two times are taken of each
recalculation:

* wall-clock, inside the driver beside LibreOffice, around ``calculateAll()`` alone;
* LibreOffice's CPU time: the time its threads spent on a CPU meanwhile (the first field of
  ``/proc/<pid>/task/<tid>/schedstat``, in nanoseconds; Linux only).

On a machine that other programs load, the wall-clock of a longer computation is stretched
more than that of a short one: a task that has just woken runs at once for a while, then
shares the cores (the same runs' run-queue wait, the second schedstat field, is printed to show
it). The CPU time is what the recalculation itself costs, whatever runs beside it. Medians of
the rounds; the minimum wall-clock is the least disturbed round.

``--profile`` installs an instrumented copy of the extension instead (the add-in's method
timed inside LibreOffice's Python, and switchable to skip the work) and shows where the array
formula's time goes: Calc and the bridge handing the four ranges over (the method returning
one value at once), handing the 10,000 answers back (returning the answers computed before),
and in Python the conversion in, the Excel function, the conversion out; and the per-row
form's fixed cost of a call (a method returning at once).

``--instructions`` counts, instead of timing, the instructions LibreOffice runs for each
recalculation (valgrind's callgrind; the same on a loaded machine as on an idle one; slow),
with ``--profile`` for the profile's documents too.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "calc"))

from office import Office, available, installed  # noqa: E402

from xlrally.calc.extension import build  # noqa: E402

PLAIN = "INT(100*A/(B-C))+D"
PER_ROW = "RALLY_SCORE, one a row"
ARRAY = "RALLY_SCORE, one array formula"
ADD_IN = "QUOTIENT(100*A;B-C)+D, a C++ add-in"
UNLIKE = "RALLY_SCORE, one a row, no two rows alike"
ARRAY_UNLIKE = "RALLY_SCORE, one array formula, no two rows alike"


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


# ---------------------------------------------------------------- LibreOffice's CPU time


def _descendants(root: int) -> Iterator[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found = {root}
    changed = True
    while changed:
        changed = False
        for pid, parent in parents.items():
            if parent in found and pid not in found:
                found.add(pid)
                changed = True
    yield from found


class Clock:
    """LibreOffice's own process (``soffice.bin``, started by ``office``): the nanoseconds its
    threads have spent on a CPU (``field`` 0) or waiting for one (``field`` 1)."""

    def __init__(self, office: Office) -> None:
        self.pids = [
            pid
            for pid in _descendants(office.process.pid)
            if Path(f"/proc/{pid}/comm").read_text().strip() == "soffice.bin"
        ]

    def read(self, field: int) -> float:
        total = 0
        for pid in self.pids:
            for task in os.listdir(f"/proc/{pid}/task"):
                with suppress(OSError):  # a thread that ended meanwhile
                    total += int(_schedstat(pid, task)[field])
        return total / 1e9


def _schedstat(pid: int, task: str) -> list[str]:
    return Path(f"/proc/{pid}/task/{task}/schedstat").read_text().split()


class Timings:
    """Each recalculation's wall-clock, CPU time and run-queue wait, by document."""

    def __init__(self, office: Office) -> None:
        self.office = office
        self.clock = Clock(office) if Path("/proc/self/schedstat").exists() else None
        self.wall: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}
        self.wait: dict[str, list[float]] = {}

    def recalculate(self, name: str, doc: int) -> None:
        clock = self.clock
        before = (clock.read(0), clock.read(1)) if clock else (0.0, 0.0)
        wall = float(self.office("time_calculate", doc))
        self.wall.setdefault(name, []).append(wall)
        if clock:
            self.cpu.setdefault(name, []).append(clock.read(0) - before[0])
            self.wait.setdefault(name, []).append(clock.read(1) - before[1])

    def table(self, base: str, rows: int) -> None:
        """Each document's medians, and their ratios to ``base``'s."""
        wall_base = statistics.median(self.wall[base])
        cpu_base = statistics.median(self.cpu[base]) if self.clock else 0.0
        head = f"{rows:,} rows"
        print(f"{head:<48} wall median (min)    × plain  CPU time    × plain  waiting")
        for name, walls in self.wall.items():
            wall = statistics.median(walls)
            line = f"  {name:<46} {wall * 1000:7.1f} ms ({min(walls) * 1000:6.1f})"
            line += f" {wall / wall_base:5.1f}×"
            if self.clock:
                cpu, wait = statistics.median(self.cpu[name]), statistics.median(self.wait[name])
                line += f"  {cpu * 1000:7.1f} ms  {cpu / cpu_base:5.1f}×  {wait * 1000:7.1f} ms"
            print(line)

    def ratio(self, name: str, base: str, cpu: bool = False) -> float:
        times = self.cpu if cpu else self.wall
        return statistics.median(times[name]) / statistics.median(times[base])


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (5 min: {five:.1f}) on {os.cpu_count()} cores"


# ---------------------------------------------------------------- the profile's extension

PROFILED = """
def method(function: Function) -> Callable[..., Any]:
    import time as _time

    known: dict[str, Any] = {}
    ready: dict[int, Any] = {}
    by_row = set(BY_ROW.get(function.compute, ()))
    rows = [i for i, argument in enumerate(function.arguments) if argument.name in by_row]

    def call(_self: Any, *args: Any) -> Any:
        ranged = type(args[0]) is tuple
        first = args[0][0][0] if ranged else args[0]
        if type(first) is float and first < 0:  # "the bridge alone"
            return ((0.0,),)
        if type(first) is float and first >= 1000:  # "answers ready": the bridge both ways
            if len(args[0]) not in ready:
                ready[len(args[0])] = tuple((float(i % 100),) for i in range(len(args[0])))
            return ready[len(args[0])]
        if tuple not in map(type, args):
            key = repr(args)
            found = known.get(key)
            if found is None:
                if len(known) >= KEPT:
                    known.clear()
                found = known[key] = answer(function.compute(*map(from_calc, args)))
            return found
        with collector_paused():
            start = _time.thread_time()
            found = by_distinct_rows(function, rows, args) if rows else None
            if found is not None:
                with open(LOG_FILE, "a", encoding="ascii") as f:
                    f.write(f"{_time.thread_time() - start}\\n")
                return found
            start = _time.thread_time()
            converted = list(map(from_calc, args))
            middle = _time.thread_time()
            computed = function.compute(*converted)
            end = _time.thread_time()
            out = answer(computed)
            done = _time.thread_time()
        with open(LOG_FILE, "a", encoding="ascii") as f:
            f.write(f"{middle - start} {end - middle} {done - end}\\n")
        return out

"""
"""The add-in's method as :func:`xlrally.calc.calls.method` makes it, timed inside LibreOffice
(thread CPU time, ranges only) and, for rows whose first argument is marked, without the work:
points below 0 return one value at once (the bridge handing the arguments over), points of
1000 or more return as many answers as rows, made before (the bridge both ways)."""


def profiled(oxt: Path, log_file: Path) -> Path:
    """A copy of the extension whose add-in methods are :data:`PROFILED`."""
    out = oxt.with_name("profiled.oxt")
    head = "def method(function: Function) -> Callable[..., Any]:"
    tail = "    call.__name__ = function.name"
    with zipfile.ZipFile(oxt) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == "pythonpath/xlrally/calc/calls.py":
                text = data.decode()
                if head not in text or tail not in text:
                    sys.exit("bench_calc --profile: calls.py no longer has method: update PROFILED")
                start, end = text.index(head), text.index(tail)
                method = PROFILED.replace("LOG_FILE", repr(str(log_file)))
                data = (text[:start] + method.lstrip() + text[end:]).encode()
            target.writestr(info, data)
    return out


# ---------------------------------------------------------------- the run


@contextmanager
def calc(folder: Path, extension: Path) -> Iterator[Office]:
    profile = folder / "profile"
    installed(extension, profile)
    office = Office(profile)
    try:
        yield office
    finally:
        office.stop()


def unlike(data: list[list[Any]]) -> list[list[Any]]:
    """The rows with no two alike: each row's rounds raised by its row's index (more rounds
    than any event has, but every row's arguments differ: points must stay in half-point
    steps, and byes and games below the rounds)."""
    return [
        [points, rounds + i, byes, games] for i, (points, rounds, byes, games) in enumerate(data)
    ]


def per_row(data: list[list[Any]], formula: str) -> list[list[Any]]:
    """The rows, each with ``formula`` in column E (``{i}``: the row's number)."""
    return [[*row, "=" + formula.format(i=i)] for i, row in enumerate(data, 1)]


RALLY = "RALLY_SCORE(A{i};B{i};C{i};D{i})"


def documents(
    office: Office, data: list[list[Any]], marks: dict[str, float], unlike_too: bool = True
) -> dict[str, int]:
    """The documents, each recalculated once (the add-in and its imports loaded): the plain
    formula; the same formula with its division by Calc's own add-in (Analysis, C++:
    ``QUOTIENT``, the integer part of a quotient: the cost of an add-in call without Python);
    RALLY_SCORE a row and as one array formula; RALLY_SCORE a row and as one array formula over
    rows of which no two are alike (no answer known before, no row computed once for many:
    :mod:`xlrally.calc.calls`); for each ``marks`` entry, the
    two RALLY_SCORE forms again with that number added to the points (:data:`PROFILED`)."""
    docs: dict[str, int] = {}
    sheets = {
        PLAIN: per_row(data, "INT(100*A{i}/(B{i}-C{i}))+D{i}"),
        ADD_IN: per_row(data, "QUOTIENT(100*A{i};B{i}-C{i})+D{i}"),
    }
    if unlike_too:
        sheets[UNLIKE] = per_row(unlike(data), RALLY)
    for name, rows in sheets.items():
        docs[name] = office("new")
        office("put", docs[name], "Sheet1", rows)
    if unlike_too:
        docs[ARRAY_UNLIKE] = array_document(office, unlike(data))
    for suffix, mark in {"": 0.0, **marks}.items():
        rows = [[row[0] + mark, *row[1:]] for row in data]
        doc = office("new")
        office("put", doc, "Sheet1", per_row(rows, RALLY))
        docs[PER_ROW + suffix] = doc
        docs[ARRAY + suffix] = array_document(office, rows)
    for doc in docs.values():
        office("calculate", doc)
    return docs


def array_document(office: Office, rows: list[list[Any]]) -> int:
    """A document of ``rows`` and one RALLY_SCORE array formula over them (column E)."""
    n = len(rows)
    doc = office("new")
    office("put", doc, "Sheet1", rows)
    formula = f"=RALLY_SCORE(A1:A{n};B1:B{n};C1:C{n};D1:D{n})"
    office("array", doc, "Sheet1", f"E1:E{n}", formula)
    return doc


def check(office: Office, docs: dict[str, int], data: list[list[Any]]) -> None:
    """RALLY_SCORE (both forms) and QUOTIENT give the plain formula's numbers, on the same rows
    (the rows of which no two are alike: beside the plain formula over them, made for this)."""
    n = len(data)
    plain = office("values", docs[PLAIN], "Sheet1", f"E1:E{n}")
    for name in (PER_ROW, ARRAY, ADD_IN):
        got = office("values", docs[name], "Sheet1", f"E1:E{n}")
        assert got == plain, f"{name} and the plain formula disagree"
    if UNLIKE in docs:
        twin = office("new")
        office("put", twin, "Sheet1", per_row(unlike(data), "INT(100*A{i}/(B{i}-C{i}))+D{i}"))
        office("calculate", twin)
        want = office("values", twin, "Sheet1", f"E1:E{n}")
        office("close", twin)
        for name in (UNLIKE, ARRAY_UNLIKE):
            got = office("values", docs[name], "Sheet1", f"E1:E{n}")
            assert got == want, f"{name} and the plain formula disagree"


def rounds_of(timings: Timings, docs: dict[str, int], rounds: int) -> None:
    names = list(docs)
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            timings.recalculate(name, docs[name])


def measure(args: argparse.Namespace, data: list[list[Any]], folder: Path) -> None:
    with calc(folder, build(folder / "xlrally.oxt")) as office:
        docs = documents(office, data, {})
        check(office, docs, data)
        timings = Timings(office)
        rounds_of(timings, docs, args.rounds)
        for doc in docs.values():
            office("close", doc)
    alike = len({tuple(row) for row in data})
    print(f"Recalculating in LibreOffice Calc, median of {args.rounds} rounds ({load()})")
    print(f"(the {len(data):,} rows hold {alike:,} different sets of arguments)")
    timings.table(PLAIN, len(data))
    kinds = {"wall-clock": False, "CPU time": True} if timings.clock else {"wall-clock": False}
    for name in (PER_ROW, ARRAY, ARRAY_UNLIKE):
        for kind, cpu in kinds.items():
            ratio = timings.ratio(name, PLAIN, cpu=cpu)
            verdict = "met" if ratio <= 5 else "NOT met"
            print(f"target: {name} at most 5× the plain formula, {kind}: {ratio:.1f}× {verdict}")


def profile(args: argparse.Namespace, data: list[list[Any]], folder: Path) -> None:
    log = folder / "log"
    extension = profiled(build(folder / "xlrally.oxt"), log)
    marks = {", the bridge alone": -1000.0, ", answers ready": 1000.0}
    with calc(folder, extension) as office:
        docs = documents(office, data, marks, unlike_too=False)
        check(office, docs, data)
        del docs[PER_ROW + ", answers ready"]  # one answer a call: the bridge alone's twin
        timings = Timings(office)
        inner: list[list[float]] = []
        names = list(docs)
        for r in range(args.rounds):
            for name in names[r % len(names) :] + names[: r % len(names)]:
                log.write_text("")
                timings.recalculate(name, docs[name])
                if name == ARRAY:
                    inner.append([float(v) for v in log.read_text().split()])
    print(f"Where the time goes, median of {args.rounds} rounds ({load()})")
    timings.table(PLAIN, len(data))
    if all(len(p) == 1 for p in inner):
        whole = statistics.median(p[0] for p in inner) * 1000
        print(
            f"  inside the array formula's call (its thread's CPU time): by distinct rows "
            f"(found, converted, computed, handed out) {whole:.1f} ms"
        )
        return
    parts = [statistics.median(p[i] for p in inner) * 1000 for i in range(3)]
    print(
        f"  inside the array formula's call (its thread's CPU time): Calc's values converted "
        f"{parts[0]:.1f} ms, the Excel function {parts[1]:.1f} ms, the answers converted "
        f"{parts[2]:.1f} ms"
    )


EMPTY = "an empty document (the request's own cost)"


class Instructions:
    """Callgrind (valgrind) counting the instructions LibreOffice runs: ``soffice`` started
    under it (``VALGRIND=callgrind``, which LibreOffice's own launcher reads), counting only
    from :meth:`on`; :meth:`since` dumps the count since the dump before (``callgrind_control``)."""

    def __init__(self, folder: Path) -> None:
        self.out = folder / "callgrind"
        self.env = {
            "VALGRIND": "callgrind",
            "VALGRIND_OPTS": f"--instr-atstart=no --callgrind-out-file={self.out}.%p",
        }
        self.pid = 0
        self.dumps = 0

    def attach(self, office: Office) -> None:
        (self.pid,) = (
            pid
            for pid in _descendants(office.process.pid)
            if Path(f"/proc/{pid}/comm").read_text().startswith("callgrind")
            and b"soffice.bin" in Path(f"/proc/{pid}/cmdline").read_bytes()
        )
        self._control("-i", "on")

    def _control(self, *options: str) -> None:
        subprocess.run(
            ["callgrind_control", *options, str(self.pid)], check=True, capture_output=True
        )

    def since(self) -> int:
        self._control("-d")
        self.dumps += 1
        text = Path(f"{self.out}.{self.pid}.{self.dumps}").read_text()
        for line in text.splitlines():
            if line.startswith(("totals:", "summary:")):
                return int(line.split()[1])
        sys.exit(f"bench_calc: no count in {self.out}.{self.pid}.{self.dumps}")


def instructions(args: argparse.Namespace, data: list[list[Any]], folder: Path) -> None:
    """Each recalculation's instructions (the same on a loaded machine as on an idle one);
    with ``--profile``, of :data:`PROFILED`'s documents too (the bridge alone)."""
    extension = build(folder / "xlrally.oxt")
    marks = {", the bridge alone": -1000.0, ", answers ready": 1000.0} if args.profile else {}
    if args.profile:
        extension = profiled(extension, folder / "log")
    profile = folder / "profile"
    installed(extension, profile)
    counter = Instructions(folder)
    office = Office(profile, counter.env, wait=1800.0)
    counts: dict[str, list[int]] = {}
    try:
        docs = {EMPTY: office("new"), **documents(office, data, marks)}
        check(office, docs, data)
        docs.pop(PER_ROW + ", answers ready", None)
        counter.attach(office)
        counter.since()
        names = list(docs)
        for r in range(args.rounds):
            for name in names[r % len(names) :] + names[: r % len(names)]:
                office("calculate", docs[name])
                counts.setdefault(name, []).append(counter.since())
    finally:
        office.stop()
    request = statistics.median(counts.pop(EMPTY))
    base = statistics.median(counts[PLAIN]) - request
    print(f"Instructions LibreOffice runs to recalculate, median of {args.rounds} rounds")
    print(f"  {EMPTY:<46} {request / 1e6:9.2f} M (taken off the others)")
    for name, runs in counts.items():
        count = statistics.median(runs) - request
        each = count / len(data)
        print(f"  {name:<46} {count / 1e6:9.2f} M  {each:8,.0f} a row  {count / base:5.1f}× plain")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--profile", action="store_true", help="where the time goes")
    parser.add_argument(
        "--instructions", action="store_true", help="instructions counted (valgrind; slow)"
    )
    args = parser.parse_args()
    reason = available()
    if reason:
        sys.exit(f"bench_calc: {reason}")
    data = results(args.rows)
    with tempfile.TemporaryDirectory(prefix="xlrally-bench-calc-") as folder:
        run = instructions if args.instructions else profile if args.profile else measure
        run(args, data, Path(folder))


if __name__ == "__main__":
    main()
