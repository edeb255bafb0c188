"""The least a pure-Python sync of a poker league does, for `bench_lean.py` (issue 33).

    python benchmarks/lean_sync.py LEAGUE.xlsx [--fastexcel]  # writes LEAGUE.xlsx.copy

Not xlrally, and not to be used on a league: a yardstick of what pure Python costs (it takes
only xlrally's number formatting and XML escaping, so that its texts are the sheet's). It does
only the work every sync of a Neau or an Absolute Points league of `leagues.py` must do, each
step written the fastest way this project's measurements found (C-level maps, one ``%`` per
cell, deflate in a thread fed as the rows are made):

1. read the Settings, Events, Points and Results sheets with python-calamine (as the read
   floor does; ``--fastexcel``: the Results sheet by fastexcel into Arrow columns, then
   lists, as ``spike_fastexcel.py`` measures);
2. score each result (:func:`scored_neau`, :func:`scored_absolute`: the formulas of
   ``xlrally.core.systems.poker``, from the seed), an event's players being its results;
3. take two spellings of a name that differ only in spaces or capitals as one player, keep
   each player's best X, total them and sort the players by total;
4. write the Standings rows: rank, name, total, every score (bold when it counted) and the
   working of each counted score, as xlrally words it;
5. deflate the sheet's XML (level 1, as xlrally's writer does a big part) and write it after
   a copy of the file.

Left out, and each a cost the real sync has: every check of a cell, an event, a rank or a
name (blank, too long, unknown, given twice, places not distinct), shared places, names
resolved through aliases and spelt alike, tie-breaks (an absolute league's totals tie often),
warnings, column widths and styles, the sheet's fingerprint, the notes under the table, and
keeping every other part of the package as it was (the zip's directory is not rewritten
here). ``bench_lean.py --check`` counts how many players' totals equal xlrally's.
"""

from __future__ import annotations

import math
import queue
import shutil
import sys
import threading
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any, NamedTuple

from python_calamine import CalamineWorkbook

# xlrally's own number and text formatting: the Working cells' words, as the sheet holds them
from xlrally.core.numbers import show
from xlrally.ooxml.escapes import xml_text

BLOCK = 4096
CELL = '<c r="%s%d" s="%d"><v>%.15g</v></c>'
"""A score's cell (``%``: one C-level format per cell, the fastest way measured)."""
WORKING_END = "%d + 1) = %s"


def columns(rows: Sequence[Sequence[object]], count: int) -> list[list[object]]:
    """The first ``count`` columns of the rows after the heading, transposed by blocks."""
    out: list[list[object]] = [[] for _ in range(count)]
    for start in range(1, len(rows), BLOCK):
        for column, values in zip(
            out, zip(*rows[start : start + BLOCK], strict=True), strict=False
        ):
            column.extend(values)
    return out


def letters(column: int) -> str:
    """A column's letters: 0 is A."""
    text, column = "", column + 1
    while column:
        column, rest = divmod(column - 1, 26)
        text = chr(65 + rest) + text
    return text


def neau(a: float, b: float, c: float, d: float) -> float:
    """Neau's formula: √((a × b) × (b / c)) / (d + 1)."""
    return math.sqrt((a * b) * (b / c)) / (d + 1.0)


Working = Callable[[int], str]
"""The working of result ``i``, its event's name first."""


class Given(NamedTuple):
    """What the league's sheets give the scoring, each read once: its settings, the Events
    rows, the Results columns, each result's event (by position) and that event's players
    (its results), the events' names, and the workbook for a system's own sheet."""

    settings: dict[Any, Any]
    events: list[list[Any]]
    results: list[list[Any]]
    at: list[int]
    players: list[int]
    names: list[str]
    book: CalamineWorkbook


def scored_neau(given: Given) -> tuple[list[float], Working]:
    """Neau's formula for each result, and its working (``Week 001: √(12 × 25 × 25 / 25) /
    (3 + 1) = 2.17``: the start shared by an event's results with one buy-in and total)."""
    _, _, finishes, buy_ins, totals = given.results
    at, a, names = given.at, given.players, given.names
    event_buy_in = [float(row[2]) for row in given.events]
    # a blank cell: "" from python-calamine, None from fastexcel
    b = [
        paid if type(paid) is float else event_buy_in[e]
        for paid, e in zip(buy_ins, at, strict=True)
    ]
    c = [spent if type(spent) is float else paid for spent, paid in zip(totals, b, strict=True)]
    points = list(map(neau, a, b, c, finishes))
    heads: dict[tuple[int, int, float, float], str] = {}

    def head(event: int, players: int, buy_in: float, spent: float) -> str:
        key = (event, players, buy_in, spent)
        found = heads.get(key)
        if found is None:
            shown = show(buy_in)
            found = heads[key] = (
                f"{names[event]}: √({players} × {shown} × {shown} / {show(spent)}) / ("
            )
        return found

    start = list(map(head, at, a, b, c))
    return points, lambda i: start[i] + WORKING_END % (finishes[i], show(points[i]))


def scored_absolute(given: Given) -> tuple[list[float], Working]:
    """Absolute Points for each result: the Points sheet's points and bonus by rank, the
    participating points, and the player-count points (players × factor, to a rank), and the
    working (``Week 001: rank 2: 80 + 5 participating + 5 bonus + 6 player count (12 × 0.5) =
    96``)."""
    settings, at, a, names = given.settings, given.at, given.players, given.names
    participating = float(settings["Participating"])
    factor = float(settings["Player count factor"])
    to_rank = int(settings["Player count to rank"])
    table = given.book.get_sheet_by_name("Points").to_python()[1:]
    by_rank = [float(row[1] or 0) for row in table]
    bonus_by_rank = [float(row[2] or 0) for row in table]
    finishes = list(map(int, given.results[2]))
    edge = len(by_rank)
    base = [by_rank[d - 1] if d <= edge else 0.0 for d in finishes]
    bonus = [bonus_by_rank[d - 1] if d <= edge else 0.0 for d in finishes]
    count = [n * factor if d <= to_rank else 0.0 for n, d in zip(a, finishes, strict=True)]
    points = [p + participating + q + r for p, q, r in zip(base, bonus, count, strict=True)]

    def working(i: int) -> str:
        parts = [show(base[i])]
        if participating:
            parts.append(f"{show(participating)} participating")
        if bonus[i]:
            parts.append(f"{show(bonus[i])} bonus")
        if count[i]:
            parts.append(f"{show(count[i])} player count ({a[i]} × {show(factor)})")
        return f"{names[at[i]]}: rank {finishes[i]}: {' + '.join(parts)} = {show(points[i])}"

    return points, working


SYSTEMS = {"neau": scored_neau, "absolute": scored_absolute}


class Lean(NamedTuple):
    """Steps 1 to 3 done: the players by total (total, name, their results in event order,
    those counted); each result's event (by position), points and working; the events' names;
    the scores counted per player."""

    table: list[tuple[float, str, list[int], set[int]]]
    at: list[int]
    points: list[float]
    working: Working
    names: list[str]
    best: int

    def dropped(self, i: int) -> str:
        """A dropped score as the working lists it: ``Week 002 (5)``."""
        return f"{self.names[self.at[i]]} ({show(self.points[i])})"

    def shown_working(self, results: list[int], counted: set[int]) -> str:
        """A player's Working cell, as xlrally's sheet words it: each counted score's working,
        then the scores dropped."""
        text = "; ".join([self.working(i) for i in results if i in counted])
        if len(counted) < len(results):
            dropped = ", ".join([self.dropped(i) for i in results if i not in counted])
            text += f". Dropped (best {self.best} count): {dropped}"
        return text + "."


def read_results(path: str, book: CalamineWorkbook, fast: bool) -> list[list[Any]]:
    """The Results sheet's columns (its header left out): from python-calamine's rows, or
    with ``fast`` from fastexcel's Arrow columns (``benchmarks/spike_fastexcel.py``)."""
    if not fast:
        rows = book.get_sheet_by_name("Results").to_python(skip_empty_area=False)
        return columns(rows, len(rows[0]))
    import fastexcel

    table = fastexcel.read_excel(path).load_sheet_by_name("Results").to_arrow()
    return [table.column(i).to_pylist() for i in range(table.num_columns)]


def standings(path: str, fast: bool = False) -> Lean:
    """Steps 1 to 3 (``fast``: see :func:`read_results`)."""
    book = CalamineWorkbook.from_path(path)
    settings = dict(row[:2] for row in book.get_sheet_by_name("Settings").to_python()[1:])
    best = int(settings["Best X"])
    events = book.get_sheet_by_name("Events").to_python()[1:]
    names = [row[0] for row in events]
    order = {name: at for at, name in enumerate(names)}
    results = read_results(path, book, fast)
    # one player however the name is spaced or capitalised (xlrally.core.players.key), the
    # first spelling met shown
    first: dict[str, str] = {}
    spelt = {
        name: first.setdefault(" ".join(name.split()).casefold(), name) for name in set(results[1])
    }
    players = list(map(spelt.__getitem__, results[1]))
    at = list(map(order.__getitem__, results[0]))
    field = list(map(Counter(at).__getitem__, at))  # each result's event's players
    given = Given(settings, events, results, at, field, names, book)
    points, working = SYSTEMS[settings["System"]](given)
    mine: dict[str, list[int]] = {}
    for index in sorted(range(len(players)), key=players.__getitem__):
        mine.setdefault(players[index], []).append(index)
    value = points.__getitem__
    table = []
    for player, own in mine.items():
        own.sort(key=at.__getitem__)  # in event order (they are in the sheet's order)
        counted = sorted(own, key=value, reverse=True)[:best]
        table.append((math.fsum(map(value, counted)), player, own, set(counted)))
    table.sort(key=itemgetter(0), reverse=True)
    return Lean(table, at, points, working, names, best)


def main() -> None:
    [path] = [arg for arg in sys.argv[1:] if arg != "--fastexcel"]
    lean = standings(path, fast="--fastexcel" in sys.argv)
    table, at, points, names = lean.table, lean.at, lean.points, lean.names
    column = [letters(event + 4) for event in range(len(names))]
    pieces: queue.Queue[bytes | None] = queue.Queue()
    packed: list[bytes] = []

    def deflate() -> None:
        compressor = zlib.compressobj(1, zlib.DEFLATED, -15)
        while (piece := pieces.get()) is not None:
            packed.append(compressor.compress(piece))
        packed.append(compressor.flush())

    beside = threading.Thread(target=deflate)
    beside.start()
    rows: list[str] = []
    for number, (total, player, results, counted) in enumerate(table, start=2):
        shown = xml_text(lean.shown_working(results, counted))
        cells = "".join(
            [CELL % (column[at[i]], number, 6 if i in counted else 7, points[i]) for i in results]
        )
        name = xml_text(player)
        rows.append(
            f'<row r="{number}"><c r="A{number}"><v>{number - 1}</v></c><c r="B{number}" '
            f't="inlineStr"><is><t>{name}</t></is></c><c r="C{number}"><v>{total:.15g}</v></c>'
            f'{cells}<c r="DZ{number}" t="inlineStr"><is><t>{shown}</t></is></c></row>'
        )
        if len(rows) == 200:
            pieces.put("".join(rows).encode())
            rows = []
    pieces.put("".join(rows).encode())
    pieces.put(None)
    beside.join()
    shutil.copy(path, path + ".copy")
    with open(path + ".copy", "ab") as out:
        out.write(b"".join(packed))


if __name__ == "__main__":
    main()
