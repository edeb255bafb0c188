"""The money section and what it takes in every output (issue 34): the Standings sheet, the
text, JSON and the page show tests/ledger_league.py's hand-worked numbers; a league that uses
neither gets none of it."""

from __future__ import annotations

import dataclasses
import json

from ledger_league import league

from xlrally.core.league import compute_standings
from xlrally.core.standings import Standings
from xlrally.formats.grid import standings_grid
from xlrally.formats.page import standings_page
from xlrally.formats.report import as_csv, as_json, as_table, json_text


def standings(**changes: object) -> Standings:
    base = league()
    settings = dataclasses.replace(base.settings, **changes)  # type: ignore[arg-type]
    return compute_standings(dataclasses.replace(base, settings=settings))


def values(table: Standings) -> list[list[object]]:
    return [[cell.value for cell in row] for row in standings_grid(table)]


def test_the_sheet_shows_each_account_and_events_withholding() -> None:
    """Below the prizes: Money, each player's paid, due and balance, then each event's takings,
    withheld, working, prize money and payouts, then the money in words."""
    grid = values(standings())
    start = grid.index(["Money"])
    assert grid[start + 1 : start + 6] == [
        ["Player", "Paid", "Due", "Balance"],
        ["Ann", 70, 70, 0],
        ["Ben", 50, 50, 0],
        ["Cara", 40, 50, -10],
        ["Dev", 10, 30, -20],
    ]
    assert grid[start + 7 : start + 10] == [
        ["Event", "Took", "Withheld", "Working", "Prize money", "Paid out"],
        [
            "W1",
            100,
            16,
            "10% of 100 = 10, to the nearest 5: 10, capped at 8; 2 × 4 players = 8; withheld 16",
            84,
            84,
        ],
        [
            "W2",
            60,
            11,
            "10% of 60 = 6, to the nearest 5: 5; 2 × 3 players = 6; withheld 11",
            49,
            49,
        ],
    ]
    assert grid[start + 10 :] == [
        ["Money in 170: from players 170. Out 145: payouts 133, expenses 12."],
        [
            "Held 25 = the pot in hand 27 (the pot 27 less the prizes paid, 0) + players' "
            "credit 0 − owed by players 30 + the league's own 28."
        ],
        ["The events withheld 27 into the pot."],
        ["Each player owes a season fee of 10."],
        ["Counted on 2026-01-16: 25, as the ledger says."],
    ]


def test_the_pot_line_says_what_was_withheld() -> None:
    """Pot 27, all of it withheld by the events; the prizes pay it all."""
    grid = values(standings())
    assert ["Pot 27: 27 withheld by the events; paid 27, held 0."] in grid


def test_what_it_takes_on_the_sheet() -> None:
    """Events left 1 (a field of the table's 4): Absolute Points 10 / 6 / 3 / 1, the most
    recent event breaking ties. Ben and Ann have 16: either needs 1st (10) to be sure of the
    title, since the other can win. Each is sure of the top 2 with any place (4th: 17; only the
    other can pass, Cara reaches 6 + 10 = 16), but not by staying away (Cara's 16 would then
    win the tie on the most recent event). Cara can still reach both; Dev (1 + 10 = 11)
    neither."""
    grid = values(standings(events_left=1))
    start = grid.index(["What it takes"])
    assert grid[start + 1 : start + 5] == [
        ["Player", "Title", "Top 2"],
        ["Ben", "needs 10 (1st)", "needs 1 (4th or better)"],
        ["Ann", "needs 10 (1st)", "needs 1 (4th or better)"],
        ["Cara", "possible", "possible"],
    ]
    assert grid[-1] == ["The other 1 player can reach none of these places."]


def test_the_text_shows_the_same() -> None:
    """The text's money and what-it-takes lines."""
    text = as_table(standings(events_left=1))
    assert "  Cara: paid 40.00, due 50.00, balance -10.00" in text
    assert "  Ben: title needs 10 (1st); top 2 needs 1 (4th or better)" in text
    assert "Counted on 2026-01-16: 25, as the ledger says." in text


def test_json_has_the_money_and_what_it_takes() -> None:
    """The JSON keys, with the hand-worked numbers (docs/cli.md)."""
    data = json.loads(json_text(standings(events_left=1)))
    money = data["money"]
    assert money["accounts"][2] == {"player": "Cara", "paid": 40, "due": 50, "balance": -10}
    assert (money["held"], money["pot"], money["withheld"], money["owed"], money["own"]) == (
        25,
        27,
        27,
        30,
        28,
    )
    assert money["counts"] == [{"date": "2026-01-16", "amount": 25, "ledger": 25}]
    outlook = data["what_it_takes"]
    assert (outlook["coming"], outlook["next"], outlook["places"]) == (
        ["event 1 to come"],
        "event 1 to come",
        [1, 2],
    )
    assert outlook["players"][0] == {
        "player": "Ben",
        "goals": [
            {"goal": "title", "place": 1, "chance": "possible", "needs": 10, "at": 1},
            {"goal": "top 2", "place": 2, "chance": "possible", "needs": 1, "at": 4},
        ],
    }


def test_the_page_has_a_money_and_a_what_it_takes_section() -> None:
    """Both sections, after the prizes, with the same words."""
    page = standings_page(standings(events_left=1))
    assert (
        page.index('id="prizes-title"')
        < page.index('id="money-title"')
        < page.index('id="outlook-title"')
    )
    assert "<td>-10.00</td>" in page
    assert '<td class="name">needs 10 (1st)</td>' in page


def test_a_league_without_them_shows_none_of_it() -> None:
    """No ledger, fee or withholding, and what it takes not asked: no Money or What it takes
    rows, no JSON keys, no page sections (and no prizes: their shares would be of no pot, an
    error since issue 32)."""
    base = league()
    settings = dataclasses.replace(base.settings, season_fee=0, withholding=None, prizes=())
    bare = compute_standings(dataclasses.replace(base, ledger=None, settings=settings))
    assert (bare.money, bare.outlook) == (None, None)
    assert ["Money"] not in values(bare)
    assert ["What it takes"] not in values(bare)
    data = as_json(bare)
    assert "money" not in data
    assert "what_it_takes" not in data
    page = standings_page(bare)
    assert "money-title" not in page
    assert "outlook-title" not in page


def test_the_csv_is_the_standings_alone() -> None:
    """The CSV is one table of the standings: the same with the money and outlook as without
    them (they are in the JSON and the text)."""
    full = standings(events_left=1)
    assert full.money is not None
    assert full.outlook is not None
    assert as_csv(full) == as_csv(dataclasses.replace(full, money=None, outlook=None))
