"""Prize rules as chess congresses and clubs word them (issue 32, finding 1 and 13): a pot's
prizes may not exceed it; one prize per player (the larger); tied prizes split equally, by
the Hort system or by the tie-break; a prize for a section nobody is in is said, not silently
held. Every amount is worked by hand beside its test; the sources of the rules are in
docs/workbook-format.md (Prizes).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from pathlib import Path

import pytest
from helpers import write_book

from xlrally.app.sync import read_standings
from xlrally.core.errors import FileProblems, LeagueProblems
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.prizes import Prize, pay
from xlrally.core.ranking import Standing
from xlrally.excel.functions import prize_share
from xlrally.formats.grid import standings_grid
from xlrally.formats.page import standings_page
from xlrally.formats.report import as_csv, as_json, as_table
from xlrally.formats.view import pot_summary

# ----------------------------------------------------------------- tied prizes


def wiki_rows() -> list[Standing]:
    """The Hort system's worked example (de.wikipedia.org, "Hort-System", CC BY-SA 4.0):
    A and B on 8 points (Buchholz 71 and 70.5), C alone on 7.5, D, E and F on 7 (Buchholz
    68.5, 67, 66.5). The tie-break has placed them; nobody shares a rank."""
    totals = {"A": 8, "B": 8, "C": 7.5, "D": 7, "E": 7, "F": 7}
    return [
        Standing(place, False, player, total, ())
        for place, (player, total) in enumerate(totals.items(), start=1)
    ]


WIKI_PRIZES = [Prize(1, 100), Prize(2, 80), Prize(3, 60), Prize(4, 40), Prize(5, 20), Prize(6, 10)]


def paid(rows: list[Standing], ties: str, unit: float = 0.01) -> dict[str, float]:
    payout = pay(rows, WIKI_PRIZES, pot=310, unit=unit, ties=ties)
    return {a.player: a.amount for a in payout.awards}


def test_the_hort_system_splits_half_equally_half_by_the_tie_break() -> None:
    """A and B cover 1st and 2nd (100 + 80 = 180): half of it, 90, is shared equally (45
    each); half of each one's own place is theirs: A 45 + 100 / 2 = 95, B 45 + 80 / 2 = 85 (the
    issue's example). C is alone: 60. D, E, F cover 40 + 20 + 10 = 70: 35 shared is 11.666...
    each; D 20 + 11.666 = 31.66, E 10 + 11.666 = 21.66, F 5 + 11.666 = 16.66, rounded down to
    the cent (the article pays whole euros and rounds the 11.67 up, to 32, 22 and 17)."""
    assert paid(wiki_rows(), "hort") == {
        "A": 95,
        "B": 85,
        "C": 60,
        "D": 31.66,
        "E": 21.66,
        "F": 16.66,
    }


def test_equal_and_tie_break_splits_of_the_same_table() -> None:
    """Equal: A and B (100 + 80) / 2 = 90 each; D, E, F 70 / 3 = 23.333, 23.33 each.
    By tie-break: each takes their own place's prize, as the standings order them."""
    assert paid(wiki_rows(), "equal") == {
        "A": 90,
        "B": 90,
        "C": 60,
        "D": 23.33,
        "E": 23.33,
        "F": 23.33,
    }
    assert paid(wiki_rows(), "tie-break") == {
        "A": 100,
        "B": 80,
        "C": 60,
        "D": 40,
        "E": 20,
        "F": 10,
    }


def test_hort_with_players_the_tie_break_leaves_level() -> None:
    """D, E and F level on 7, and the tie-break separates only D: E and F share 5th. Equal
    part 70 / 3 / 2 = 11.666...; D's own 40 / 2 = 20: 31.66; E and F share 5th and 6th,
    (20 + 10) / 2 / 2 = 7.5 each: 19.16 each."""
    rows = wiki_rows()
    rows[5] = dataclasses.replace(rows[5], rank=5, tied=True)
    rows[4] = dataclasses.replace(rows[4], tied=True)
    assert paid(rows, "hort") == {
        "A": 95,
        "B": 85,
        "C": 60,
        "D": 31.66,
        "E": 19.16,
        "F": 19.16,
    }


def test_the_working_of_a_hort_split() -> None:
    payout = pay(wiki_rows()[:2], WIKI_PRIZES[:2], pot=180, ties="hort")
    assert [a.explain for a in payout.awards] == [
        "1st-2nd level on 8, Hort: (100 + 80) / 2 / 2 + 100 / 2 = 45 + 50 = 95",
        "1st-2nd level on 8, Hort: (100 + 80) / 2 / 2 + 80 / 2 = 45 + 40 = 85",
    ]


@pytest.mark.parametrize(
    ("ties", "order", "expected"),
    [("equal", 1, 90), ("equal", 2, 90), ("hort", 1, 95), ("hort", 2, 85), ("tie-break", 2, 80)],
)
def test_prize_share_agrees_with_the_standings(ties: str, order: int, expected: float) -> None:
    """PRIZE_SHARE(prizes, place, sharing, unit, ties, order): the Excel function gives what
    the standings pay (the issue's example: 100 and 80 for 1st and 2nd, two level)."""
    assert prize_share([[100.0], [80.0]], 1.0, 2.0, None, ties, float(order)) == expected


def test_prize_share_refuses_an_order_past_the_players_sharing() -> None:
    assert prize_share([[100.0], [80.0]], 1.0, 2.0, None, "hort", 3.0) == (
        "#VALUE! order must be at most sharing (2), not 3"
    )


# ----------------------------------------------------------------- the league


def two_nights() -> tuple[tuple[Event, ...], tuple[Result, ...]]:
    """Reverse points (4 players: 4, 3, 2, 1), two nights. Night 1: Ann, Bea, Cy, Dan; night 2:
    Bea, Ann, Dan, Cy. Totals: Ann 4 + 3 = 7, Bea 3 + 4 = 7, Cy 2 + 1 = 3, Dan 1 + 2 = 3.
    Most recent event first: Bea (4) above Ann (3), Dan (2) above Cy (1)."""
    events = (Event("N1", dt.date(2026, 1, 8)), Event("N2", dt.date(2026, 1, 15)))
    order = {"N1": ["Ann", "Bea", "Cy", "Dan"], "N2": ["Bea", "Ann", "Dan", "Cy"]}
    results = tuple(
        Result(night, player, rank=place)
        for night, players in order.items()
        for place, player in enumerate(players, start=1)
    )
    return events, results


def league_awards(**settings: object) -> dict[str, float]:
    events, results = two_nights()
    prizes = (Prize(1, 100), Prize(2, 80))
    chosen = Settings("reverse", tie_breaks=("recent",), prizes=prizes, pot=180, **settings)  # type: ignore[arg-type]
    standings = compute_standings(League(chosen, events, results))
    return {a.player: a.amount for p in standings.payouts for a in p.awards}


def test_a_league_chooses_how_tied_players_share() -> None:
    """Bea and Ann level on 7, Bea ahead on the most recent night. The default is the
    tie-break's order, as before (Bea 100, Ann 80); equal: 90 each; Hort: Bea 95, Ann 85."""
    assert league_awards() == {"Bea": 100, "Ann": 80}
    assert league_awards(prize_ties="equal") == {"Bea": 90, "Ann": 90}
    assert league_awards(prize_ties="hort") == {"Bea": 95, "Ann": 85}


# ----------------------------------------------------------------- one prize per player


def ladies_league(per_player: str, ladies_first: float) -> dict[tuple[str, str], float]:
    """Reverse points, one night of 5: Ann 1st (5), Bob 2nd (4), Cat 3rd (3), Dee 4th (2), Eve
    5th (1). Ann, Cat and Dee are in Ladies. League prizes 1st 100, 2nd 60; Ladies 1st
    ``ladies_first``, 2nd 30."""
    places = ["Ann", "Bob", "Cat", "Dee", "Eve"]
    results = tuple(Result("N1", p, rank=n) for n, p in enumerate(places, start=1))
    prizes = (
        Prize(1, 100),
        Prize(2, 60),
        Prize(1, ladies_first, section="Ladies"),
        Prize(2, 30, section="Ladies"),
    )
    settings = Settings("reverse", prizes=prizes, pot=400, prizes_per_player=per_player)
    sections = {"Ann": ("Ladies",), "Cat": ("Ladies",), "Dee": ("Ladies",)}
    league = League(settings, (Event("N1", dt.date(2026, 1, 8)),), results, sections=sections)
    standings = compute_standings(league)
    return {(p.section, a.player): a.amount for p in standings.payouts for a in p.awards}


def test_every_prize_won_by_default() -> None:
    """All (the default): Ann collects the league's 1st and the Ladies' 1st."""
    assert ladies_league("all", 50) == {
        ("", "Ann"): 100,
        ("", "Bob"): 60,
        ("Ladies", "Ann"): 50,
        ("Ladies", "Cat"): 30,
    }


def test_one_prize_each_the_larger_and_the_next_moves_up() -> None:
    """One: Ann takes the league's 100 (larger than the Ladies' 50); Ladies 1st passes to Cat,
    2nd to Dee."""
    assert ladies_league("one", 50) == {
        ("", "Ann"): 100,
        ("", "Bob"): 60,
        ("Ladies", "Cat"): 50,
        ("Ladies", "Dee"): 30,
    }


def test_one_prize_each_when_the_section_pays_more() -> None:
    """Ladies 1st 120 is more than the league's 100: Ann takes it. The league's 1st passes to
    Bob (100), its 2nd to Cat (60). Cat was the Ladies' next (30): she takes the league's 60,
    so the Ladies' 2nd passes to Dee."""
    assert ladies_league("one", 120) == {
        ("", "Bob"): 100,
        ("", "Cat"): 60,
        ("Ladies", "Ann"): 120,
        ("Ladies", "Dee"): 30,
    }


def test_one_prize_each_equal_prizes_go_to_the_league() -> None:
    """Ladies 1st 100 equals the league's 1st: a place prize before a section's (US Chess rule
    32B4), so Ann takes the league's, and the Ladies' 1st passes to Cat."""
    assert ladies_league("one", 100) == {
        ("", "Ann"): 100,
        ("", "Bob"): 60,
        ("Ladies", "Cat"): 100,
        ("Ladies", "Dee"): 30,
    }


def test_the_working_names_who_took_another_prize() -> None:
    places = ["Ann", "Bob", "Cat"]
    results = tuple(Result("N1", p, rank=n) for n, p in enumerate(places, start=1))
    prizes = (Prize(1, 100), Prize(1, 50, section="Ladies"))
    settings = Settings("reverse", prizes=prizes, pot=150, prizes_per_player="one")
    sections = {"Ann": ("Ladies",), "Cat": ("Ladies",)}
    league = League(settings, (Event("N1", dt.date(2026, 1, 8)),), results, sections=sections)
    ladies = compute_standings(league).payouts[1]
    assert [(a.player, a.explain) for a in ladies.awards] == [
        ("Cat", "1st: 50 (one prize each: Ann takes another)")
    ]


# ----------------------------------------------------------------- the pot


def pot_problems(prizes: tuple[Prize, ...], **settings: object) -> list[str]:
    events, results = two_nights()
    chosen = Settings("reverse", prizes=prizes, **settings)  # type: ignore[arg-type]
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(League(chosen, events, results))
    return [p.message for p in caught.value.problems]


def test_shares_over_the_whole_pot_are_refused() -> None:
    """60% + 50% + 35% = 145%: the 35% takes the shares past the pot (the issue's treasurer
    paid 3,870 out of a 2,670 pot and `check` said ok)."""
    prizes = (Prize(1, share=0.6), Prize(2, share=0.5), Prize(3, share=0.35))
    assert pot_problems(prizes, pot=2670) == [
        "the prizes' shares add up to 145%, more than the whole pot: lower them to 100% at most"
    ]


def test_amounts_over_a_fixed_pot_are_refused() -> None:
    """A pot of 100: 1st 60 and 2nd 50 add up to 110."""
    prizes = (Prize(1, 60), Prize(2, 50))
    assert pot_problems(prizes, pot=100) == [
        "the prizes add up to 110, more than the pot (100): lower them, or raise the Pot in "
        "Settings"
    ]


def test_a_negative_or_absurd_prize_is_refused() -> None:
    """A prize of -50 was silently paid as nothing; one of 1e308 overflowed into an internal
    error (exit 70)."""
    assert pot_problems((Prize(1, -50),), pot=100) == ["amount must not be negative (-50)"]
    assert pot_problems((Prize(1, 1e308),), pot=100) == [
        "amount must be at most 1,000,000,000,000, not 1e+308"
    ]


def test_without_a_pot_the_prizes_listed_are_paid() -> None:
    """No Pot and no Pot share: the fixed prizes are paid from the club's funds, and they
    are the pot (100 + 80 = 180, all paid); a share of no pot would pay nothing: refused."""
    events, results = two_nights()
    settings = Settings("reverse", prizes=(Prize(1, 100), Prize(2, 80)))
    standings = compute_standings(League(settings, events, results))
    assert (standings.pot, standings.paid, standings.pot_held) == (180, 180, 0)
    assert pot_summary(standings) == (
        "Pot 180 (the prizes listed; no Pot in Settings); paid 180, held 0."
    )
    assert pot_problems((Prize(1, 100), Prize(2, share=0.5))) == [
        "a share of the pot, but the league has no pot: give the prize an Amount, or set Pot "
        "or Pot share in Settings"
    ]


def test_fixed_prizes_over_a_pot_still_growing_are_a_warning() -> None:
    """Half the buy-ins (2 nights × 4 players × 20 = 160, half 80) against fixed prizes of
    100 + 80 = 180: 100 more must come in before they can be paid; not an error, the pot grows
    with every night."""
    events, results = two_nights()
    events = tuple(dataclasses.replace(e, buy_in=20) for e in events)
    settings = Settings("reverse", prizes=(Prize(1, 100), Prize(2, 80)), pot_share=0.5)
    standings = compute_standings(League(settings, events, results))
    assert (standings.collected, standings.pot) == (160, 80)
    assert [w for w in standings.warnings if "pot" in w] == [
        "the prizes add up to 180, more than the pot so far (80): 100 more must come in before "
        "they can all be paid"
    ]


# ----------------------------------------------------------------- from the workbook


def night_book(tmp_path: Path, settings: list[list[object]], prizes: list[list[object]]) -> Path:
    events, results = two_nights()
    return write_book(
        tmp_path / "league.xlsx",
        {
            "Settings": [["Setting", "Value"], ["System", "reverse"], *settings],
            "Events": [["Event", "Date"], *([e.name, e.date] for e in events)],
            "Results": [
                ["Event", "Player", "Rank"],
                *([r.event, r.player, r.rank] for r in results),
            ],
            "Players": [["Player", "Section"], ["Ann", "Ladies"], ["Cy", "Ladies"]],
            "Prizes": [["Place", "Amount", "Share", "Section"], *prizes],
        },
    )


def test_an_over_full_pot_is_named_at_its_cell(tmp_path: Path) -> None:
    path = night_book(
        tmp_path,
        [["Pot", 100]],
        [[1, 60, None, None], [2, 50, None, None]],
    )
    with pytest.raises(FileProblems) as caught:
        read_standings(path)
    assert caught.value.messages == (
        f"{path}: Prizes!B3: the prizes add up to 110, more than the pot (100): lower them, or "
        "raise the Pot in Settings",
    )


def test_a_negative_prize_is_named_at_its_cell(tmp_path: Path) -> None:
    path = night_book(tmp_path, [["Pot", 100]], [[1, -50, None, None]])
    with pytest.raises(FileProblems) as caught:
        read_standings(path)
    assert caught.value.messages == (f"{path}: Prizes!B2: amount must not be negative (-50)",)


def test_a_prize_for_a_section_nobody_is_in_is_a_warning_at_its_cell(tmp_path: Path) -> None:
    """Juniors: no player is in it, so its 1st (20) is held back, and said."""
    path = night_book(
        tmp_path,
        [["Pot", 200]],
        [[1, 100, None, None], [1, 20, None, "Juniors"]],
    )
    standings = read_standings(path)
    assert [w for w in standings.warnings if "Juniors" in w] == [
        "Prizes!D3: no player is in the section 'Juniors' (the Players sheet's Section column), "
        "so its prizes are held"
    ]


def test_every_output_shows_the_same_hort_split(tmp_path: Path) -> None:
    """Settings `Prize ties: Hort`, `Tie break: most recent`: Bea 95, Ann 85 (hand-worked
    above) in the Standings' Prizes table, the text, CSV (a Prize column), JSON and the page."""
    path = night_book(
        tmp_path,
        [["Pot", 180], ["Tie break", "most recent"], ["Prize ties", "Hort"]],
        [[1, 100, None, None], [2, 80, None, None]],
    )
    standings = read_standings(path)
    grid = [[cell.value for cell in row] for row in standings_grid(standings)]
    start = grid.index(["Prizes"])
    assert [row[1:3] for row in grid[start + 2 : start + 4]] == [["Bea", 95], ["Ann", 85]]
    assert "  Bea: 95.00 (1st-2nd level on 7, Hort:" in as_table(standings)
    assert "  Ann: 85.00 (1st-2nd level on 7, Hort:" in as_table(standings)
    rows = as_csv(standings).splitlines()
    assert rows[0].split(",")[-1] == "Prize"
    assert [(r.split(",")[2], r.split(",")[-1]) for r in rows[1:]] == [
        ("Bea", "95.00"),
        ("Ann", "85.00"),
        ("Dan", ""),
        ("Cy", ""),
    ]
    awards = json.loads(json.dumps(as_json(standings)))["prizes"]["awards"]
    assert [(a["player"], a["amount"]) for a in awards] == [("Bea", 95), ("Ann", 85)]
    page = standings_page(standings)
    assert "<td>95.00</td>" in page
    assert "<td>85.00</td>" in page


def test_the_prize_settings_are_named_when_wrong(tmp_path: Path) -> None:
    path = night_book(
        tmp_path,
        [["Pot", 180], ["Prize ties", "coin"], ["Prizes per player", "two"]],
        [[1, 100, None, None]],
    )
    with pytest.raises(FileProblems) as caught:
        read_standings(path)
    assert caught.value.messages == (
        f"{path}: Settings!B4: Prize ties must be tie-break, equal or hort, not 'coin'",
        f"{path}: Settings!B5: Prizes per player must be all or one, not 'two'",
    )
