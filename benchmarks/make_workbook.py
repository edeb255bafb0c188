"""Make a large rally workbook for the benchmarks: PLAYERS × EVENTS result rows.

python benchmarks/make_workbook.py big.xlsx --players 2000 --events 100
"""

from __future__ import annotations

import argparse
import datetime as dt
import random

import xlsxwriter


def make(path: str, players: int, events: int, seed: int = 1) -> None:
    """Write Settings, Events and a Results sheet of players × events rows (8 columns)."""
    rnd = random.Random(seed)
    # Not constant_memory: like Excel, write shared strings.
    wb = xlsxwriter.Workbook(path)
    settings = wb.add_worksheet("Settings")
    for row, (key, value) in enumerate(
        [("Setting", "Value"), ("System", "rally"), ("League", "Benchmark")]
    ):
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
    wb.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--events", type=int, default=100)
    args = parser.parse_args()
    make(args.path, args.players, args.events)


if __name__ == "__main__":
    main()
