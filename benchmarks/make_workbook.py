"""Make a large rally workbook for the benchmarks: PLAYERS × EVENTS result rows.

python benchmarks/make_workbook.py big.xlsx --players 2000 --events 100
"""

from __future__ import annotations

import argparse
import datetime as dt
import random

import xlsxwriter


def make(path: str, players: int, events: int, seed: int = 1, features: bool = False) -> None:
    """Write Settings, Events and a Results sheet of players × events rows (8 columns).

    ``features``: also issue 16's: a minimum of events, a pot, a Prizes sheet (10 places, and
    3 for each section) and a Players sheet giving every player one or two of 4 sections."""
    rnd = random.Random(seed)
    # Not constant_memory: like Excel, write shared strings.
    wb = xlsxwriter.Workbook(path)
    settings = wb.add_worksheet("Settings")
    rows: list[tuple[str, object]] = [
        ("Setting", "Value"),
        ("System", "rally"),
        ("League", "Benchmark"),
    ]
    if features:
        rows += [("Minimum events", events // 2), ("Pot", 5000)]
    for row, (key, value) in enumerate(rows):
        settings.write_row(row, 0, [key, value])
    ev = wb.add_worksheet("Events")
    ev.write_row(0, 0, ["Event", "Date", "Rounds"])
    date_format = wb.add_format({"num_format": "yyyy-mm-dd"})
    start = dt.date(2020, 1, 4)
    for e in range(events):
        ev.write_string(e + 1, 0, f"Event {e + 1:03d}")
        ev.write_datetime(
            e + 1, 1, dt.datetime.combine(start + dt.timedelta(weeks=e), dt.time()), date_format
        )
        ev.write_number(e + 1, 2, 6)
    res = wb.add_worksheet("Results")
    res.write_row(0, 0, ["Event", "Player", "Points", "Games", "Byes", "Club", "Rating", "Note"])
    row = 1
    for e in range(events):
        for p in range(players):
            byes = 1 if rnd.random() < 0.1 else 0
            games = 6 - byes
            points = rnd.randint(0, 2 * games) / 2
            res.write_row(
                row,
                0,
                [
                    f"Event {e + 1:03d}",
                    f"Player {p + 1:04d}",
                    points,
                    games,
                    byes,
                    "Club",
                    1500 + p % 700,
                    "",
                ],
            )
            row += 1
    if features:
        sections = ("U1800", "U1600", "U1400", "Junior")
        sheet = wb.add_worksheet("Players")
        sheet.write_row(0, 0, ["Player", "Alias", "Section"])
        for p in range(players):
            named = [sections[p % 3]] + (["Junior"] if rnd.random() < 0.1 else [])
            sheet.write_row(p + 1, 0, [f"Player {p + 1:04d}", "", ", ".join(named)])
        prizes = wb.add_worksheet("Prizes")
        prizes.write_row(0, 0, ["Place", "Amount", "Section"])
        places = [(n, 500 - 40 * n, "") for n in range(1, 11)]
        places += [(n, 100 // n, name) for name in sections for n in (1, 2, 3)]
        for r, place in enumerate(places, start=1):
            prizes.write_row(r, 0, list(place))
    wb.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--features", action="store_true", help="sections, prizes, a minimum")
    args = parser.parse_args()
    make(args.path, args.players, args.events, features=args.features)


if __name__ == "__main__":
    main()
