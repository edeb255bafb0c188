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
from xlrally.core.model import MAX_NAME_LENGTH

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


EVENT_HEADINGS = ["Event", "Date", "Rounds", "Value"]


def dip_pouch(event: list[Any]) -> dict[str, list[list[Any]]]:
    """A Dip Pouch league of one event (Events: Event A, Date B, Rounds C, Value D)."""
    name = event[0]
    return {
        "Settings": [["System", "dippouch"]],
        "Events": [EVENT_HEADINGS, event],
        "Results": [["Event", "Player", "Rank"], [name, "Ann", 1], [name, "Bob", 2]],
    }


DAY = dt.date(2006, 1, 8)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (
            ["W1", None, 3, None],
            "Events!B2: date is missing: Dip Pouch ratings take events in date order",
        ),
        (["W1", DAY, 0, None], "Events!C2: rounds must be at least 1, not 0"),
        (["W1", DAY, 3, 100.5], "Events!D2: value must be between 0 and 100 (%), not 100.5"),
        (["W1", DAY, 3, -0.5], "Events!D2: value must be between 0 and 100 (%), not -0.5"),
        (
            ["W" * (MAX_NAME_LENGTH + 1), DAY, 3, None],
            f"Events!A2: event name is {MAX_NAME_LENGTH + 1} characters long; at most "
            f"{MAX_NAME_LENGTH}",
        ),
    ],
)
def test_an_events_row_names_the_cell_at_fault(
    tmp_path: Path, event: list[Any], message: str
) -> None:
    path = write_book(tmp_path / "league.xlsx", dip_pouch(event))
    with pytest.raises(XlrallyError) as caught:
        read_standings(path)
    assert str(caught.value) == f"{path}: {message}"


@pytest.mark.parametrize(
    "event",
    [["W1", DAY, 3, 0], ["W1", DAY, 3, 100], ["W" * MAX_NAME_LENGTH, DAY, 1, None]],
)
def test_the_limits_themselves_are_allowed(tmp_path: Path, event: list[Any]) -> None:
    """A value of 0 or 100 (%), a one-round event and a name of exactly the longest length are
    fine (the boundaries of the rules above)."""
    read_standings(write_book(tmp_path / "league.xlsx", dip_pouch(event)))


def test_every_mistake_of_a_workbook_is_named_at_once(tmp_path: Path) -> None:
    """A sync names every problem of the workbook in one go, each at its own cell, so that a
    treasurer fixes them all before trying again: two of each kind, so that stopping after the
    first of a kind shows. The cells are read off the sheets below (row 1 is the heading)."""
    day = dt.date(2026, 1, 8)
    sheets = {
        "Settings": [
            ["Setting", "Value"],
            ["System", "absolute"],
            ["Best X", 2.5],
            ["Tie break", "coin toss"],
            ["Pot share", 150],
            ["Currency unit", -1],
        ],
        "Points": [["Rank", "Points"], [1, 10], ["two", 7], [3, "x"]],
        "Events": [
            ["Event", "Date", "Status"],
            ["W1", day, None],
            [None, day, None],
            ["W2", day, "maybe"],
            ["W3", day, "soon"],
        ],
        "Results": [
            ["Event", "Player", "Rank"],
            ["W1", "Ann", 1],
            [None, "Bob", 2],
            ["W1", None, 3],
            [None, "Cy", 4],
            ["W1", "Dan", "x"],
            ["W1", None, 5],
        ],
        "Players": [["Player", "Alias"], [None, "Annie"], [None, "Bobby"]],
        "Prizes": [["Place", "Amount"], ["first", 10], [2, "lots"], ["third", 5]],
    }
    path = write_book(tmp_path / "league.xlsx", sheets)
    with pytest.raises(XlrallyError) as caught:
        read_standings(path)
    assert str(caught.value).splitlines() == [
        f"{path}: {line}"
        for line in (
            "Points!A3: rank must be a number, not the text 'two'",
            "Points!B4: points must be a number, not the text 'x'",
            "Settings!B3: Best X must be a whole number of at least 1, not 2.5",
            "Settings!B4: unknown tie break 'coin toss': use countback, recent, events, best",
            "Prizes!A2: place must be a number, not the text 'first'",
            "Prizes!B3: amount must be a number, not the text 'lots'",
            "Prizes!A4: place must be a number, not the text 'third'",
            "Settings!B5: Pot share must be between 0% and 100%, not 150.0",
            "Settings!B6: Currency unit must be more than 0, not -1",
            "Events!A3: event name is missing",
            "Events!C4: status must be ranked, pending or blank, not 'maybe'",
            "Events!C5: status must be ranked, pending or blank, not 'soon'",
            "Results!A3: event is missing",
            "Results!B4: player name is missing",
            "Results!A5: event is missing",
            "Results!C6: rank must be a number, not the text 'x'",
            "Results!B7: player name is missing",
            "Players!A2: alias 'Annie' has no player",
            "Players!A3: alias 'Bobby' has no player",
        )
    ]
