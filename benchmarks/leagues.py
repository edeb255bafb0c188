"""Varied league workbooks for the benchmarks: what real leagues look like, not a dense grid.

    python benchmarks/leagues.py OUT.xlsx --system rally --rows 200000 --players 3000

The benchmark's original file (``make_workbook.py``) is the easy case: every player at every
event, ``Player 0001`` names, no tie-breaks. A league made here has, for each system:

- real-looking names (the 1990 US Census first names and surnames, as often as people bear
  them: many Smiths; a tenth with a middle initial), and now and then a name typed with other
  capitals or a trailing space (the same player, as the reader matches names);
- uneven attendance: each player turns up with a chance of their own (25-95%, scaled so that
  the league reaches its rows), so fields differ from event to event and players have played
  from a handful of events to all of them;
- results by strength plus luck, with ties: rally points in halves over 4-7 rounds with byes
  and withdrawals (Games short of the rounds, or blank for rounds − byes); poker ranks with
  chops (two players sharing a place) and re-buys (a Total above the buy-in);
- each system's settings as a league sets them: the rally's tie-breaks (countback, most
  recent), a poker league's Best X and points table, Neau's buy-ins of 10-100.

The rows are exactly ``--rows`` (the last event's field is cut to fit), so that 1,048,575 rows
fill a sheet to Excel's last row. Written with XlsxWriter with shared strings, as Excel saves.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import random
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

import xlsxwriter
from bench_players import names

SYSTEMS = ("rally", "absolute", "reverse", "neau", "dippouch")
CLUBS = tuple(f"{town} Chess Club" for town in ("Leeds", "York", "Hull", "Bath", "Ely", "Rye"))
COUNTRIES = ("England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey", "")


@dataclass(frozen=True)
class Shape:
    """What a league is made of: its system, exact result rows, players and a seed."""

    system: str
    rows: int
    players: int
    seed: int = 1
    events: int = 0
    """0: as many as the rows need with everyone's own attendance (about 60% on average);
    otherwise attendance is scaled so that about this many events give the rows."""

    @property
    def name(self) -> str:
        """A file name that says the shape (and the maker's version, for caches)."""
        events = f"-e{self.events}" if self.events else ""
        return f"v2-{self.system}-{self.rows}-{self.players}{events}-s{self.seed}.xlsx"


def make(path: str | Path, shape: Shape) -> int:
    """Write the league's workbook; returns its number of events."""
    rnd = random.Random(shape.seed)
    everyone = names(shape.players, rnd)
    strength = {p: rnd.uniform(0.1, 0.9) for p in everyone}
    habit = {p: rnd.uniform(0.25, 0.95) for p in everyone}
    expected = sum(habit.values())
    scale = 1.0 if not shape.events else min(1.0, shape.rows / (shape.events * expected))
    book = xlsxwriter.Workbook(str(path))
    date_format = book.add_format({"num_format": "yyyy-mm-dd"})
    events = _events(shape, everyone, habit, scale, rnd)
    _settings(book, shape.system, len(events))
    _events_sheet(book, shape.system, events, date_format)
    if shape.system in {"absolute", "reverse"}:
        _points_sheet(book)
    results = book.add_worksheet("Results")
    header, write = _RESULTS[shape.system]
    results.write_row(0, 0, header)
    row = 1
    for number, (_, rounds, buy_in, field) in enumerate(events):
        size = rounds if shape.system != "neau" else buy_in
        for cells in write(f"Week {number + 1:03d}", size, field, strength, rnd):
            results.write_row(row, 0, cells)
            row += 1
    book.close()
    assert row - 1 == shape.rows, (row - 1, shape.rows)
    return len(events)


def _events(
    shape: Shape,
    everyone: list[str],
    habit: dict[str, float],
    scale: float,
    rnd: random.Random,
) -> list[tuple[dt.date, int, int, list[str]]]:
    """Each event's date, rounds, buy-in and field (in no order), until the rows are reached."""
    fields = []
    left = shape.rows
    while left > 0:
        field = [p for p in everyone if rnd.random() < habit[p] * scale]
        if len(field) < 2:
            field = rnd.sample(everyone, min(2, len(everyone)))
        fields.append(field[:left])
        left -= len(fields[-1])
    # One season: the events spread over a year (a big league holds several a week).
    start, days = dt.date(2025, 9, 6), 364 / len(fields)
    return [
        (
            start + dt.timedelta(days=int(number * days)),
            rnd.choice((4, 5, 5, 6, 6, 7)),
            rnd.choice((10, 20, 25, 50, 100)),
            field,
        )
        for number, field in enumerate(fields)
    ]


def _settings(book: xlsxwriter.Workbook, system: str, events: int) -> None:
    rows: list[tuple[str, object]] = [("Setting", "Value"), ("System", system)]
    rows.append(("League", f"Varied {system} league"))
    if system == "rally":
        rows += [("Tie break", "countback, most recent")]
    elif system in {"absolute", "reverse", "neau"}:
        rows += [("Best X", max(1, events // 3)), ("Tie break", "countback, more events")]
    if system == "absolute":
        rows += [("Participating", 5), ("Player count factor", 0.5), ("Player count to rank", 3)]
    if system == "reverse":
        rows += [("Participating", 2), ("Multiplier", 1.5)]
    sheet = book.add_worksheet("Settings")
    for row, (key, value) in enumerate(rows):
        sheet.write_row(row, 0, [key, value])


def _events_sheet(
    book: xlsxwriter.Workbook,
    system: str,
    events: list[tuple[dt.date, int, int, list[str]]],
    date_format: object,
) -> None:
    sheet = book.add_worksheet("Events")
    extra = {"rally": "Rounds", "neau": "Buy-in", "dippouch": "Rounds"}.get(system)
    sheet.write_row(0, 0, ["Event", "Date", *([extra] if extra else [])])
    for number, (day, rounds, buy_in, _) in enumerate(events, start=1):
        sheet.write_string(number, 0, f"Week {number:03d}")
        sheet.write_datetime(number, 1, dt.datetime.combine(day, dt.time()), date_format)
        if system == "rally":
            sheet.write_number(number, 2, rounds)
        elif system == "neau":
            sheet.write_number(number, 2, buy_in)
        elif system == "dippouch":
            sheet.write_number(number, 2, 1 + rounds // 3)


def _points_sheet(book: xlsxwriter.Workbook) -> None:
    sheet = book.add_worksheet("Points")
    sheet.write_row(0, 0, ["Rank", "Points", "Bonus"])
    points = (100, 80, 65, 50, 40, 32, 25, 18, 12, 6)
    for rank, value in enumerate(points, start=1):
        sheet.write_row(rank, 0, [rank, value, (10, 5, 2)[rank - 1] if rank <= 3 else None])


def _spelled(player: str, rnd: random.Random) -> str:
    """The name as typed: now and then in other capitals or with a trailing space."""
    luck = rnd.random()
    if luck < 0.004:
        return player.upper()
    if luck < 0.008:
        return player + " "
    return player


def _rally(
    event: str, rounds: int, field: list[str], strength: dict[str, float], rnd: random.Random
) -> list[list[object]]:
    rows = []
    for player in field:
        luck = rnd.random()
        byes = 2 if luck < 0.01 else 1 if luck < 0.09 else 0
        games = rounds - byes
        if rnd.random() < 0.03:  # withdrew
            games = rnd.randint(1, games) if games > 1 else games
        win = strength[player]
        points = 0.0
        for _ in range(games):
            luck = rnd.random()
            points += 1 if luck < win else 0.5 if luck < win + (1 - win) / 4 else 0
        shown_games: object = games if games != rounds - byes or rnd.random() < 0.7 else None
        shown_byes: object = byes if byes or rnd.random() < 0.5 else None
        club = rnd.choice(CLUBS) if rnd.random() < 0.8 else None
        rating = int(1000 + 1500 * win) if rnd.random() < 0.8 else None
        note = "late" if rnd.random() < 0.02 else None
        row = [event, _spelled(player, rnd), points, shown_games, shown_byes]
        rows.append([*row, club, rating, note])
    return rows


def _finish(field: list[str], strength: dict[str, float], rnd: random.Random) -> list[list[object]]:
    """The field in finishing order with its ranks: by strength plus luck, and a chop (two
    players sharing a place) in one event in ten."""
    order = sorted(field, key=lambda p: -(strength[p] + rnd.gauss(0, 0.25)))
    ranks = list(range(1, len(order) + 1))
    if len(order) > 3 and rnd.random() < 0.1:
        ranks[2] = ranks[1]
    return [[player, rank] for player, rank in zip(order, ranks, strict=True)]


def _ranked(
    event: str, _rounds: int, field: list[str], strength: dict[str, float], rnd: random.Random
) -> list[list[object]]:
    return [[event, _spelled(p, rnd), rank] for p, rank in _finish(field, strength, rnd)]


def _neau(
    event: str, event_buy_in: int, field: list[str], strength: dict[str, float], rnd: random.Random
) -> list[list[object]]:
    rows = []
    for player, rank in _finish(field, strength, rnd):
        rebuys = rnd.choice((1, 1, 2, 3)) if rnd.random() < 0.25 else 0
        buy_in = event_buy_in // 2 if rnd.random() < 0.05 else None  # else the event's
        total = (buy_in or event_buy_in) * (1 + rebuys) if rebuys else None
        rows.append([event, _spelled(player, rnd), rank, buy_in, total])
    return rows


def _dippouch(
    event: str, _rounds: int, field: list[str], strength: dict[str, float], rnd: random.Random
) -> list[list[object]]:
    rows = []
    for player, rank in _finish(field, strength, rnd):
        country = COUNTRIES[math.floor(strength[player] * 97) % len(COUNTRIES)]
        rows.append([event, _spelled(player, rnd), rank, country or None])
    return rows


_RESULTS = {
    "rally": (
        ["Event", "Player", "Points", "Games", "Byes", "Club", "Rating", "Note"],
        _rally,
    ),
    "absolute": (["Event", "Player", "Rank"], _ranked),
    "reverse": (["Event", "Player", "Rank"], _ranked),
    "neau": (["Event", "Player", "Rank", "Buy-in", "Total"], _neau),
    "dippouch": (["Event", "Player", "Rank", "Country"], _dippouch),
}


def cached(shape: Shape, folder: Path | None = None) -> Path:
    """The league's workbook, made once into the cache folder (``~/.cache/xlrally/leagues``):
    a million-row league takes a minute to write."""
    if folder is None:
        folder = Path.home() / ".cache" / "xlrally" / "leagues"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / shape.name
    if not path.exists():
        partial = path.with_suffix(".part.xlsx")
        make(partial, shape)
        partial.rename(path)
    return path


def change_a_result(path: Path) -> None:
    """Change one result of the workbook in place, as a week's new results change a synced
    league: the last row's Points one half lower (or higher), or in a ranked league the last
    two rows' ranks swapped. Every other part is copied as it is."""
    with zipfile.ZipFile(path) as package:
        infos = package.infolist()
        data = {info.filename: package.read(info) for info in infos}
    sheet = _results_part(data)
    xml = data[sheet].decode("utf-8")
    cells = list(re.finditer(r'<c r="C(\d+)"([^>]*)><v>([^<]*)</v></c>', xml))
    last, before = cells[-1], cells[-2]
    if int(last.group(1)) == int(before.group(1)) + 1 and before.group(3) != last.group(3):
        values = {last: before.group(3), before: last.group(3)}  # two ranks swapped
    else:
        points = float(last.group(3))
        values = {last: repr(points - 0.5 if points >= 0.5 else points + 0.5)}
    for match in sorted(values, key=lambda m: -m.start()):
        cell = f'<c r="C{match.group(1)}"{match.group(2)}><v>{values[match]}</v></c>'
        xml = xml[: match.start()] + cell + xml[match.end() :]
    data[sheet] = xml.encode("utf-8")
    partial = path.with_suffix(".part")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as out:
        for info in infos:
            out.writestr(info, data[info.filename], compress_type=zipfile.ZIP_DEFLATED)
    partial.replace(path)


def _results_part(data: dict[str, bytes]) -> str:
    """The part of the sheet named Results (by the workbook and its relationships)."""
    book = data["xl/workbook.xml"].decode("utf-8")
    rel = re.search(r'<sheet name="Results" sheetId="\d+" r:id="(rId\d+)"', book)
    rels = data["xl/_rels/workbook.xml.rels"].decode("utf-8")
    assert rel is not None
    target = re.search(rf'Id="{rel.group(1)}"[^>]*Target="([^"]+)"', rels)
    if target is None:
        target = re.search(rf'Target="([^"]+)"[^>]*Id="{rel.group(1)}"', rels)
    assert target is not None
    return "xl/" + target.group(1).removeprefix("/xl/")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--system", choices=SYSTEMS, default="rally")
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--events", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    shape = Shape(args.system, args.rows, args.players, args.seed, args.events)
    events = make(args.path, shape)
    print(f"{args.path}: {args.rows:,} results of {args.players:,} players in {events} events")


if __name__ == "__main__":
    main()
