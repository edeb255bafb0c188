"""Issue 16: prize money: the pot, payouts by final place, ties, the qualifying minimum, sections.

Every amount is worked by hand beside the test.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest
from helpers import Sheets, write_book
from remake_examples import EXAMPLES_FOLDER
from test_minimum_events import EVENTS, RESULTS, season
from test_sections import PLAYERS

from xlrally.app.sync import read_standings
from xlrally.core.errors import FileProblems, ScoringError
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.prizes import Prize, prize_split
from xlrally.core.sections import of_section
from xlrally.formats.grid import standings_grid
from xlrally.formats.page import standings_page
from xlrally.formats.report import as_table
from xlrally.formats.view import pot_summary


def awards(league: League) -> list[tuple[str, str, float, str]]:
    standings = compute_standings(league)
    return [(p.section, a.player, a.amount, a.explain) for p in standings.payouts for a in p.awards]


def chop(prizes: tuple[Prize, ...], pot: float) -> League:
    """Reverse points, one event of 4: Ann 1st; Bea and Cy share 2nd (a chop); Dan 4th."""
    places = {"Ann": 1, "Bea": 2, "Cy": 2, "Dan": 4}
    results = tuple(Result("W1", name, rank=place) for name, place in places.items())
    settings = Settings("reverse", prizes=prizes, pot=pot)
    return League(settings, (Event("W1", dt.date(2026, 1, 8)),), results)


def test_a_tie_on_a_prize_place_splits_the_places_it_covers() -> None:
    """Bea and Cy share 2nd and 3rd: (30 + 20.01) / 2 = 25.005 each, rounded down to the
    cent: 25 each, 0.01 left over. Paid 50 + 25 + 25 = 100 of the 100.01 pot: 0.01 held."""
    prizes = (Prize(1, 50), Prize(2, 30), Prize(3, 20.01))
    assert awards(chop(prizes, pot=100.01)) == [
        ("", "Ann", 50, "1st: 50"),
        ("", "Bea", 25, "2nd-3rd shared by 2: (30 + 20.01) / 2 = 25 (0.01 left over)"),
        ("", "Cy", 25, "2nd-3rd shared by 2: (30 + 20.01) / 2 = 25 (0.01 left over)"),
    ]
    standings = compute_standings(chop(prizes, pot=100.01))
    assert pot_summary(standings) == (
        "Pot 100.01; paid 100, held 0.01 (0.01 of it left over by rounding)."
    )


def test_a_tie_running_past_the_last_prize_lists_only_prizes() -> None:
    """Bea and Cy share 2nd and 3rd, and only 2nd pays: 30 / 2 = 15 each. The working lists
    the prizes the group covers, not a "+ 0" for each place past them: a tie of 5,000
    players once made a working longer than an Excel cell (32,767 characters)."""
    assert awards(chop((Prize(1, 50), Prize(2, 30)), pot=80))[1:] == [
        ("", "Bea", 15, "2nd-3rd shared by 2: (30) / 2 = 15"),
        ("", "Cy", 15, "2nd-3rd shared by 2: (30) / 2 = 15"),
    ]
    many = {f"Player {n}": 2 for n in range(5_000)} | {"Ann": 1}
    results = tuple(Result("W1", name, rank=place) for name, place in many.items())
    league = League(
        Settings("reverse", prizes=(Prize(1, 50), Prize(2, 30)), pot=80),
        (Event("W1", dt.date(2026, 1, 8)),),
        results,
    )
    # 30 / 5,000 = 0.006 each, under a cent: 0 each and the 30 left over
    shared = awards(league)[1][3]
    assert shared == "2nd-5001st shared by 5000: (30) / 5000 = 0 (30 left over)"


def test_a_pot_from_a_share_of_buy_ins_and_re_buys() -> None:
    """Neau, one event of 5, buy-in 20; P2 and P4 re-buy once (total expense 40). Collected:
    3 × 20 + 2 × 40 = 140; half kept for the pot: 70. 1st gets 60% = 42, 2nd 40% = 28.
    Neau points √(5 × 20 × 20 / c) / (d + 1): P1 10 / 2 = 5; P2 √50 / 3 = 2.36; P3 10 / 4 =
    2.5; P4 √50 / 5 = 1.41; P5 10 / 6 = 1.67. So 2nd in the league is P3, not P2."""
    results = tuple(
        Result("Night 1", f"P{d}", rank=d, total=40 if d in (2, 4) else None) for d in range(1, 6)
    )
    settings = Settings("neau", prizes=(Prize(1, share=0.6), Prize(2, share=0.4)), pot_share=0.5)
    league = League(settings, (Event("Night 1", dt.date(2026, 1, 8), buy_in=20),), results)
    standings = compute_standings(league)
    assert (standings.collected, standings.pot) == (140, 70)
    assert [(a.player, a.amount) for a in standings.payouts[0].awards] == [("P1", 42), ("P3", 28)]
    assert pot_summary(standings) == "Pot 70: 50% of 140 collected; paid 70, held 0."


def test_players_short_of_the_minimum_are_skipped_and_their_prize_held() -> None:
    """Minimum 3 events (tests/core/test_minimum_events.py): only Bobby qualifies. 1st 100 is
    his; nobody qualifies for 2nd, so its 50 stays in the 150 pot."""
    base = season(3)
    settings = dataclasses.replace(base.settings, prizes=(Prize(1, 100), Prize(2, 50)), pot=150)
    standings = compute_standings(dataclasses.replace(base, settings=settings))
    assert [(a.player, a.amount) for a in standings.payouts[0].awards] == [("Bobby", 100)]
    assert (standings.paid, standings.pot_held) == (100, 50)


def test_prizes_from_the_workbook_per_section_in_every_output(tmp_path: Path) -> None:
    """A Prizes sheet: the league's 1st 60% and a Junior 1st 20 (of a 100 pot, Settings `Pot`).
    League: Mikhail 210 (tests/core/test_sections.py) takes 60; Junior: Ann takes 20.
    Paid 80, held 20."""
    path = write_book(
        tmp_path / "prizes.xlsx",
        {
            **_sheets(),
            "Settings": [["Setting", "Value"], ["System", "rally"], ["Pot", 100]],
            "Prizes": [
                ["Place", "Amount", "Share", "Section"],
                [1, None, "60%", None],
                [1, 20, None, "Junior"],
            ],
        },
    )
    standings = read_standings(path)
    assert [(p.section, a.player, a.amount) for p in standings.payouts for a in p.awards] == [
        ("", "Mikhail", 60),
        ("Junior", "Ann", 20),
    ]
    summary = "Pot 100; paid 80, held 20."
    assert summary in as_table(standings)
    assert summary in standings_page(standings)
    grid = [[cell.value for cell in row] for row in standings_grid(standings)]
    start = grid.index(["Prizes"])
    assert grid[start + 2][:3] == [None, "Mikhail", 60]
    assert grid[start + 3][:3] == ["Junior", "Ann", 20]
    assert grid[start + 4] == [summary]


def _sheets() -> Sheets:
    """The sheets of the workbook of tests/core/test_sections.py, as rows."""
    return {
        "Settings": [["Setting", "Value"], ["System", "rally"]],
        "Events": [["Event", "Date", "Rounds"], *([e.name, e.date, e.rounds] for e in EVENTS)],
        "Results": [
            ["Event", "Player", "Points", "Games", "Byes"],
            *([r.event, r.player, r.points, r.games, r.byes] for r in RESULTS),
        ],
        "Players": PLAYERS,
    }


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ([1, None, None], "Prizes!B2: give the place an Amount or a Share of the pot"),
        ([1, 10, "50%"], "Prizes!B2: give the place an Amount or a Share of the pot"),
        ([0, 10, None], "Prizes!A2: place must be a whole number from 1, not 0"),
        ([1, None, "150%"], "Prizes!C2: share must be between 0% and 100%, not '150%'"),
    ],
)
def test_bad_prize_rows_are_named(tmp_path: Path, row: list[object], message: str) -> None:
    sheets = _sheets()
    sheets["Prizes"] = [["Place", "Amount", "Share"], row]
    path = write_book(tmp_path / "bad.xlsx", sheets)
    with pytest.raises(FileProblems) as caught:
        read_standings(path)
    assert any(m.endswith(message) for m in caught.value.messages), caught.value.messages


def test_the_new_poker_example_shows_prizes_and_the_rally_example_sections() -> None:
    """`xlrally new --system neau`: the night took Ann's 20, Ben's 40 (a re-buy) and Cara's 20
    (the event's buy-in) = 80; half is the pot, 40: 1st 60% = 24 (Ann), 2nd 40% = 16 (Ben).
    The rally example: U1600 ranks José (120) above Mikhail (63); Junior is José alone."""
    neau = read_standings(EXAMPLES_FOLDER / "neau.xlsx")
    assert [(a.player, a.amount) for a in neau.payouts[0].awards] == [("Ann", 24), ("Ben", 16)]
    rally = read_standings(EXAMPLES_FOLDER / "rally.xlsx")
    assert [(r.player, r.total) for r in of_section(rally, "U1600").rows] == [
        ("José", 120),
        ("Mikhail", 63),
    ]
    assert [r.player for r in of_section(rally, "Junior").rows] == ["José"]


def test_what_two_tied_groups_leave_over_adds_up() -> None:
    """Reverse points, one event of 6 (found by mutation testing: only the last group's
    remainder was counted). Ann 1st; Bea and Cy share 2nd: (30 + 20.01) / 2 = 25.005, 25 each,
    0.01 left; Dan and Eve share 4th: (10 + 5.01) / 2 = 7.505, 7.50 each, 0.01 left; Fay 6th.
    Paid 50 + 2 × 25 + 2 × 7.5 = 115 of 115.02: 0.02 held, all of it left over by rounding."""
    places = {"Ann": 1, "Bea": 2, "Cy": 2, "Dan": 4, "Eve": 4, "Fay": 6}
    prizes = (Prize(1, 50), Prize(2, 30), Prize(3, 20.01), Prize(4, 10), Prize(5, 5.01))
    league = League(
        Settings("reverse", prizes=prizes, pot=115.02),
        (Event("W1", dt.date(2026, 1, 8)),),
        tuple(Result("W1", name, rank=place) for name, place in places.items()),
    )
    assert [(player, amount) for _, player, amount, _ in awards(league)] == [
        ("Ann", 50),
        ("Bea", 25),
        ("Cy", 25),
        ("Dan", 7.5),
        ("Eve", 7.5),
    ]
    assert pot_summary(compute_standings(league)) == (
        "Pot 115.02; paid 115, held 0.02 (0.02 of it left over by rounding)."
    )


def test_a_prize_under_one_unit_of_money_is_paid() -> None:
    """A 50-cent prize is a prize (mutation testing: only prizes over 1 were paid)."""
    assert awards(chop((Prize(1, 0.5),), pot=0.5)) == [("", "Ann", 0.5, "1st: 0.5")]


def test_a_currency_unit_of_zero_is_refused() -> None:
    with pytest.raises(ScoringError, match="unit must be more than 0, not 0"):
        prize_split([50], 1, 1, unit=0)
