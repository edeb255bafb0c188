"""Reading the treasurer's sheet and settings (issue 34): the Ledger sheet, Season fee, the
Withhold settings, What it takes and Events left; each bad cell named."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from helpers import Sheets, write_book
from ledger_league import league as hand_worked

from xlrally.app.sync import read_standings
from xlrally.core.errors import FileProblems, LeagueProblems
from xlrally.core.league import compute_standings
from xlrally.core.ledger import Withholding
from xlrally.formats.workbook import MemorySheets, read_league

W1, W2 = dt.date(2026, 1, 8), dt.date(2026, 1, 15)


def sheets() -> Sheets:
    """tests/core/test_ledger.py's league, as a workbook."""
    return {
        "Settings": [
            ["Setting", "Value"],
            ["System", "absolute"],
            ["Tie break", "most recent"],
            ["Season fee", 10],
            ["Withhold", "10%"],
            ["Withhold rounding", 5],
            ["Withhold cap", 8],
            ["Withhold per head", 2],
        ],
        "Points": [["Rank", "Points"], [1, 10], [2, 6], [3, 3], [4, 1]],
        "Events": [["Event", "Date", "Buy-in"], ["W1", W1, 20], ["W2", W2, 20]],
        "Results": [
            ["Event", "Player", "Rank", "Total"],
            ["W1", "Ann", 1, 40],
            ["W1", "Ben", 2, None],
            ["W1", "Cara", 3, None],
            ["W1", "Dev", 4, None],
            ["W2", "Ben", 1, None],
            ["W2", "Ann", 2, None],
            ["W2", "Cara", 3, None],
        ],
        "Prizes": [["Place", "Share"], [1, "60%"], [2, "40%"]],
        "Ledger": [
            ["Date", "Player", "Item", "Amount", "Event"],
            [W1, "Ann", "Buy-in", 20, None],
            [W1, "Ann", "Re-buy", 20, None],
            [W1, "Ben", "buy in", 20, None],
            [W1, "Cara", "Buy-in", 20, None],
            [W1, "Dev", "Buy-in", 10, None],
            [W1, "Ann", "Payout", 50, "W1"],
            [W1, "Ben", "Payout", 34, "W1"],
            [W2, "Ann", "Buy-in", 20, None],
            [W2, "Ben", "Buy-in", 20, None],
            [W2, "Cara", "Buy-in", 20, None],
            [W2, "Ann", "Season fee", 10, None],
            [W2, "Ben", "Season fee", 10, None],
            [W2, "Ben", "Payout", 30, "W2"],
            [W2, "Ann", "Payout", 19, "W2"],
            [W2, None, "Expense", 12, None],
            [dt.date(2026, 1, 16), None, "Held", 25, None],
        ],
    }


def test_the_workbook_reads_as_the_hand_worked_league(tmp_path: Path) -> None:
    """The same entries, settings and money as tests/core/test_ledger.py's league."""
    league = read_league(MemorySheets(sheets()))
    expected = hand_worked()
    settings = league.settings
    assert (settings.season_fee, settings.what_it_takes, settings.events_left) == (10, False, None)
    assert settings.withholding is not None
    assert (settings.withholding.share, settings.withholding.step, settings.withholding.cap) == (
        0.1,
        5,
        8,
    )
    assert (settings.withholding.per_head, settings.withholding.to_pot) == (2, True)
    assert league.ledger is not None
    assert expected.ledger is not None
    strip = [(e.date, e.item, e.amount, e.player, e.event) for e in league.ledger]
    assert strip == [(e.date, e.item, e.amount, e.player, e.event) for e in expected.ledger]
    read = read_standings(write_book(tmp_path / "ledger.xlsx", sheets()))
    assert read.money == compute_standings(expected).money


def test_an_empty_ledger_sheet_still_gives_the_money_section() -> None:
    """A Ledger sheet with its header only: no entries, and the accounts (everyone owes)."""
    book = sheets()
    book["Ledger"] = book["Ledger"][:1]
    money = compute_standings(read_league(MemorySheets(book))).money
    assert money is not None
    assert [(a.player, a.paid, a.due) for a in money.accounts] == [
        ("Ann", 0, 70),
        ("Ben", 0, 50),
        ("Cara", 0, 50),
        ("Dev", 0, 30),
    ]


def test_bad_ledger_cells_are_named(tmp_path: Path) -> None:
    """A date missing, an amount that is no number, an item left blank: each at its cell."""
    book = sheets()
    book["Ledger"][2] = [None, "Ann", "Re-buy", 20, None]
    book["Ledger"][3] = [W1, "Ben", "buy in", "twenty", None]
    book["Ledger"][4] = [W1, "Cara", None, 20, None]
    with pytest.raises(FileProblems) as caught:
        read_standings(write_book(tmp_path / "bad.xlsx", book))
    lines = [line.split(": ", 1)[1] for line in caught.value.messages]
    assert lines[:3] == [
        "Ledger!A3: date is missing",
        "Ledger!D4: amount must be a number, not the text 'twenty'",
        "Ledger!C5: item is missing",
    ]


def test_bad_money_settings_are_named() -> None:
    """A negative season fee or per head, Withheld for neither pot nor league, What it takes
    not yes or no, Events left not a whole number."""
    book = sheets()
    book["Settings"] += [
        ["Withheld for", "charity"],
        ["What it takes", "perhaps"],
        ["Events left", 1.5],
    ]
    book["Settings"][3] = ["Season fee", -10]
    book["Settings"][7] = ["Withhold per head", -2]
    with pytest.raises(LeagueProblems) as caught:
        read_league(MemorySheets(book))
    assert [str(p) for p in caught.value.problems][:5] == [
        "Settings!B4: Season fee must not be below 0, not -10",
        "Settings!B8: Withhold per head must not be below 0, not -2",
        "Settings!B9: Withheld for must be pot or league, not 'charity'",
        "Settings!B10: What it takes must be yes or no, not 'perhaps'",
        "Settings!B11: Events left must be a whole number of at least 0, not 1.5",
    ]


def test_withholding_more_than_an_event_took_names_the_setting() -> None:
    """30 a head withholds more than either night took: said at the first Withhold row."""
    book = sheets()
    book["Settings"][7] = ["Withhold per head", 30]
    book["Ledger"] = book["Ledger"][:1]
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(read_league(MemorySheets(book)))
    assert [p.cell for p in caught.value.problems] == ["Settings!B5", "Settings!B5"]


def test_what_it_takes_and_events_left_are_read() -> None:
    """What it takes yes; Events left 2 turns it on by itself."""
    book = sheets()
    book["Settings"].append(["What it takes", "yes"])
    assert read_league(MemorySheets(book)).settings.what_it_takes
    book = sheets()
    book["Settings"].append(["Events left", 2])
    settings = read_league(MemorySheets(book)).settings
    assert (settings.what_it_takes, settings.events_left) == (True, 2)


def test_withheld_for_the_league() -> None:
    """Withheld for: league."""
    book = sheets()
    book["Settings"].append(["Withheld for", "League"])
    rule = read_league(MemorySheets(book)).settings.withholding
    assert rule == Withholding(0.1, 5, 8, 2, to_pot=False, origin=rule.origin if rule else None)
