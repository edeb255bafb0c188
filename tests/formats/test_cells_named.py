"""Each problem names the cell to fix: the column of the value at fault, in the row at fault.

Found by mutation testing: the field a check passes with its message (which decides the cell
named) could be changed or dropped and no test noticed. The expected cells are read off the
sheets written here (Results' Rank is column C, Events' Players column D, the Settings' values
column B), not from xlrally's output."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from helpers import write_book

from xlrally.app.sync import read_standings
from xlrally.core.errors import XlrallyError

POINTS = [["Rank", "Points"], [1, 10], [2, 7], [3, 5]]
ONE_EVENT = [["Event", "Date"], ["W1", dt.date(2026, 1, 8)]]


def results(*rows: tuple[str, Any]) -> list[list[Any]]:
    return [["Event", "Player", "Rank"], *(["W1", player, rank] for player, rank in rows)]


CASES = {
    "a rank given twice where places may not be shared": (
        {
            "Settings": [["System", "absolute"], ["Shared places", "refuse"]],
            "Points": POINTS,
            "Events": ONE_EVENT,
            "Results": results(("Ann", 1), ("Bob", 1)),
        },
        "Results!C3: rank 1 is given twice (Ann and Bob); Absolute Points needs distinct ranks "
        "here (Settings: Shared places is refuse)",
    ),
    "a rank after a tie that hides a place (Dip Pouch: 1, 1, 2)": (
        {
            "Settings": [["System", "dippouch"]],
            "Events": [["Event", "Date", "Rounds"], ["W1", dt.date(2006, 1, 8), 3]],
            "Results": results(("Ann", 1), ("Bob", 1), ("Cy", 2)),
        },
        "Results!C4: rank 2 cannot follow 2 players tied at 1 (ties share the better place: "
        "1, 2, 2, 4)",
    ),
    "an event of no players": (
        {
            "Settings": [["System", "dippouch"]],
            "Events": [["Event", "Date", "Rounds", "Players"], ["W1", dt.date(2006, 1, 8), 3, 0]],
            "Results": results(("Ann", 1), ("Bob", 2)),
        },
        "Events!D2: players must be at least 1, not 0",
    ),
    "a currency unit of 0": (
        {
            "Settings": [["System", "absolute"], ["Currency unit", 0]],
            "Points": POINTS,
            "Prizes": [["Place", "Amount"], [1, 10]],
            "Events": ONE_EVENT,
            "Results": results(("Ann", 1), ("Bob", 2)),
        },
        "Settings!B2: Currency unit must be more than 0, not 0",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_problem_names_its_cell(tmp_path: Path, case: str) -> None:
    sheets, message = CASES[case]
    path = write_book(tmp_path / "league.xlsx", sheets)
    with pytest.raises(XlrallyError) as caught:
        read_standings(path)
    assert str(caught.value) == f"{path}: {message}"
