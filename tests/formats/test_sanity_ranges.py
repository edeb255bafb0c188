"""Numbers past any real league are refused at their cells (issue 32, finding 7): Rounds `1e9`
gave `ok` and a rally score of 1,000,000,121; a field of a billion players, a buy-in, a total
or a Pot past a million million were taken as they were. The limits
(`xlrally.core.numbers`: 1,000 rounds, 1,000,000 players, 1,000,000,000,000 of money) sit far
above the largest real event and far below where the arithmetic goes wrong.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from helpers import rally_sheets, write_book

from xlrally.app.sync import read_standings
from xlrally.core.errors import FileProblems


def _problems(path: Path) -> tuple[str, ...]:
    with pytest.raises(FileProblems) as caught:
        read_standings(path)
    return caught.value.messages


def test_rounds_of_a_billion_are_refused_at_their_cell(tmp_path: Path) -> None:
    """The finding's slip: 1e9 typed for a rally event's rounds."""
    sheets = rally_sheets()
    sheets["Events"][1][2] = 1e9
    sheets["Results"][1] = ["Dec 2025", "Bobby", 1e9, 1e9, 0]
    path = write_book(tmp_path / "rally.xlsx", sheets)
    assert _problems(path) == (
        f"{path}: Events!C2: rounds must be at most 1,000, not 1,000,000,000",
    )


def test_a_long_round_robin_is_scored(tmp_path: Path) -> None:
    """58 rounds (a double round robin of 30 players) is a real event: Bobby's 40 points from
    58 games score ⌊100 × 40 / 58 + 58⌋ = ⌊68.97 + 58⌋ = 126; 2 events held, so
    ⌈(2 + 1) / 2⌉ = 2 count: with May's 21 (100 × 1 / 5 + 1) he has 147, José 54."""
    sheets = rally_sheets()
    sheets["Events"][1][2] = 58
    sheets["Results"][1] = ["Dec 2025", "Bobby", 40, 58, 0]
    path = write_book(tmp_path / "rally.xlsx", sheets)
    totals = {row.player: row.total for row in read_standings(path).rows}
    assert totals == {"Bobby": 147, "José": 54}


def _neau(
    tmp_path: Path, *, pot: Any = None, buy_in: Any = 20, players: Any = None, total: Any = None
) -> Path:
    """A Neau night of two players with a pot (20% of the money, plus ``pot``)."""
    return write_book(
        tmp_path / "neau.xlsx",
        {
            "Settings": [
                ["Setting", "Value"],
                ["System", "neau"],
                ["Pot share", 0.2],
                *([["Pot", pot]] if pot is not None else []),
            ],
            "Events": [
                ["Event", "Date", "Buy-in", "Players"],
                ["W1", dt.date(2026, 1, 7), buy_in, players],
            ],
            "Results": [
                ["Event", "Player", "Rank", "Total"],
                ["W1", "Ann", 1, total],
                ["W1", "Bob", 2, None],
            ],
        },
    )


@pytest.mark.parametrize(
    ("change", "cell", "message"),
    [
        ({"players": 1e9}, "Events!D2", "players must be at most 1,000,000, not 1,000,000,000"),
        (
            {"buy_in": 1e15},
            "Events!C2",
            "buy-in must be at most 1,000,000,000,000, not 1e+15",
        ),
        (
            {"total": 1e13},
            "Results!D2",
            "total must be at most 1,000,000,000,000, not 10,000,000,000,000",
        ),
        (
            {"pot": 1e300},
            "Settings!B4",
            "Pot must be from 0 to 1,000,000,000,000, not 1e+300",
        ),
        ({"pot": -50}, "Settings!B4", "Pot must be from 0 to 1,000,000,000,000, not -50"),
    ],
)
def test_money_and_fields_past_any_club_are_refused_at_their_cells(
    tmp_path: Path, change: dict[str, Any], cell: str, message: str
) -> None:
    """Each slip is one error at its cell; nothing is scored."""
    path = _neau(tmp_path, **change)
    assert _problems(path) == (f"{path}: {cell}: {message}",)


def test_a_big_but_real_night_is_scored(tmp_path: Path) -> None:
    """A 20,000-player field and a 10,000 buy-in are real (a festival's main event): Neau's
    √(players × buy-in × buy-in / total) / (place + 1) = √(20,000 × 10,000) / 2 = 7,071.07
    for the winner."""
    path = _neau(tmp_path, buy_in=10_000, players=20_000)
    ann = next(row for row in read_standings(path).rows if row.player == "Ann")
    assert round(ann.total, 2) == 7071.07
