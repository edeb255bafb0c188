"""The formula system (xlrally.core.systems.formula): each preset against its source's own
worked example, the cut, a league's own expression, and whole leagues scored by hand.
"""

from __future__ import annotations

import pytest

from xlrally.core.errors import LeagueProblems
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, PointStructure, Result, Settings
from xlrally.core.rules import NO_CUT, Cut, FormulaRule, KnockoutRule
from xlrally.core.systems import SYSTEMS
from xlrally.core.systems.formula import (
    PRESETS,
    describe,
    event_pot,
    formula_points,
    pokerstars_points,
    score_formula,
)


@pytest.mark.parametrize(
    ("players", "place", "buy_in", "points"),
    [
        (150, 3, 20, 163.09),  # Example 1: "= 10 * 7.071 * 2.31 = 163.09"
        (900, 25, 0, 23.88),  # Example 2, a freeroll: "= 10 * 6 * 0.39794 = 23.88"
        (250, 10, 10, 100.54),  # Example 3 (200 FPP at $0.05): "= 10 * 5 * 2.01 = 100.54"
    ],
)
def test_pokerstars_against_its_worked_examples(
    players: int, place: int, buy_in: float, points: float
) -> None:
    """The PokerStars Tournament Ranking System page's three examples, to the hundredth."""
    assert pokerstars_points(players, place, buy_in) == points


def test_pokerstars_scores_the_top_15_percent_only() -> None:
    """15% of 150 is 22.5: place 22 scores, 10 × √(150 / 22) × 2.3064 = 60.22; place 23 is
    past the cut and scores 0."""
    assert pokerstars_points(150, 22, 20) == 60.22
    past = score_formula(FormulaRule("pokerstars"), 150, 23, buy_in=20)
    assert (past.points, past.explain) == (0, "place 23 of 150: past the cut (the top 15%: 22) = 0")
    assert pokerstars_points(5, 1, 20) > 0  # the winner is always inside
    assert pokerstars_points(5, 2, 20) == 0  # 15% of 5 is 0.75: only the winner


@pytest.mark.parametrize(
    ("players", "place", "points"),
    [(16, 4, 20), (9, 1, 30), (100, 25, 20), (100, 100, 10)],  # 10 × √n / √k by hand
)
def test_the_school_league(players: int, place: int, points: float) -> None:
    """PokerStars School: 10 × √n / √k, every place (16th of 16... 100th of 100: 10)."""
    assert formula_points("school", players, place) == pytest.approx(points)


def test_depth_decay_against_udiscs_example() -> None:
    """UDisc: 10 players, depth 60%: the winner N = 10, places 2 to 4 score 7, 5 and 4 (its
    tie example adds "7 + 5 + 4"), the curve ends at 2 (6th), then 1 participation point."""
    shown = [formula_points("depth decay", 10, place, cut=Cut(share=0.6)) for place in range(1, 11)]
    assert shown == [10, 7, 5, 4, 3, 2, 1, 1, 1, 1]
    # "if the depth percentage is set at 50%, and 18 people show up to play, then 9 of those
    # players will receive points": the first 18, the 9th 2, the 10th 1
    eighteen = [formula_points("depth decay", 18, place) for place in (1, 9, 10, 18)]
    assert eighteen == [18, 2, 1, 1]
    working = score_formula(FormulaRule("depth decay", Cut(share=0.6)), 10, 2).explain
    assert working == "place 2 of 10: 10 × (2 / 10)^((2 − 1) / max(6 − 1, 1)) = 7.2478, rounded 7"


def test_percentage_of_a_points_pool() -> None:
    """Community Card Player: 25 players, 100 × 25 = 2500, 2nd place's 20%: 500 points; a
    place past the shares given scores 0."""
    shares = PointStructure(shares=(0.25, 0.20, 0.16))
    assert formula_points("percentage", 25, 2, structure=shares) == 500
    assert formula_points("percentage", 25, 4, structure=shares) == 0


def test_the_cut_settings() -> None:
    """A cut of places, no cut, and points below the cut override the preset's."""
    assert formula_points("pokerstars", 150, 30, buy_in=20, cut=NO_CUT) == 51.57  # 10 × √5 × 2.3064
    assert formula_points("school", 20, 4, cut=Cut(places=3), below_cut=2) == 2
    assert formula_points("school", 20, 3, cut=Cut(places=3), below_cut=2) == pytest.approx(
        25.819889  # 10 × √(20 / 3)
    )


def test_the_presets_say_their_rule() -> None:
    """The rule in words lists the formula, its rounding and its cut."""
    assert describe(FormulaRule("PokerStars")) == (
        "pokerstars: 10 × √players / √place × (1 + log10(buy-in + 0.25)), to 2 decimals; the "
        "top 15% score, 0 past the cut"
    )
    assert describe(FormulaRule("players - place")) == "players − place"
    assert set(PRESETS) == {"pokerstars", "school", "depth decay", "percentage"}


def test_the_pot_of_an_event() -> None:
    """Each result's Total, else its buy-in × (1 + re-buys), and the event's buy-in for each
    player not listed: 30 + 10 × 2 + 10 + 5 + 10 (the 5th player) = 75."""
    event = Event("W1", buy_in=10, players=5)
    results = [
        Result("W1", "Ann", rank=1, total=30),
        Result("W1", "Ben", rank=2, re_buys=1),
        Result("W1", "Cy", rank=3),
        Result("W1", "Di", rank=4, buy_in=5),
    ]
    assert event_pot(event, results, 5) == 75


def test_a_leagues_own_formula_over_every_name() -> None:
    """``pot / 10 − place + 2 × knockouts + re-buys`` with the pot above (75): Ann 7.5 − 1 +
    4 = 10.5; Ben 7.5 − 2 + 1 = 6.5; Cy 7.5 − 3 = 4.5; Di 7.5 − 4 = 3.5."""
    events = (Event("W1", buy_in=10, players=5),)
    results = (
        Result("W1", "Ann", rank=1, total=30, knockouts=2),
        Result("W1", "Ben", rank=2, re_buys=1),
        Result("W1", "Cy", rank=3),
        Result("W1", "Di", rank=4, buy_in=5),
    )
    rule = FormulaRule("pot / 10 - place + 2 * knockouts + re-buys")
    table = compute_standings(League(Settings("formula", formula=rule), events, results))
    assert [(r.player, r.total) for r in table.rows] == [
        ("Ann", 10.5),
        ("Ben", 6.5),
        ("Cy", 4.5),
        ("Di", 3.5),
    ]
    ann = table.rows[0].scores[0]
    assert ann.explain == "place 1 of 5: 75 / 10 − 1 + 2 × 2 + 0 = 10.5"


def test_a_pokerstars_league_scored_by_hand() -> None:
    """Week 1 (150 players, $20): Ann 1st 10 × √150 × 2.3064 = 282.48; Ben 3rd 163.09; Cy
    23rd, past the cut, 0. Week 2 (40 players, $10, the top 6): Ben 1st 10 × √40 × 2.0107 =
    127.17; Ann 6th 10 × √(40 / 6) × 2.0107 = 51.92. Best 1 counts: Ann 282.48, Ben 163.09."""
    events = (Event("Week 1", buy_in=20, players=150), Event("Week 2", buy_in=10, players=40))
    results = (
        Result("Week 1", "Ann", rank=1),
        Result("Week 1", "Ben", rank=3),
        Result("Week 1", "Cy", rank=23),
        Result("Week 2", "Ben", rank=1),
        Result("Week 2", "Ann", rank=6),
    )
    table = compute_standings(
        League(Settings("formula", best_x=1, formula=FormulaRule("pokerstars")), events, results)
    )
    assert [(r.rank, r.player, r.total) for r in table.rows] == [
        (1, "Ann", 282.48),
        (2, "Ben", 163.09),
        (3, "Cy", 0),
    ]
    assert [s.value for s in table.rows[0].scores] == [282.48, 51.92]
    assert [s.value for s in table.rows[1].scores] == [163.09, 127.17]


def test_knockout_points_on_a_formula() -> None:
    """School (16 players): Ann 1st 10 × 4 = 40, + 2 KOs × 5 = 50."""
    results = (Result("W1", "Ann", rank=1, knockouts=2), Result("W1", "Ben", rank=2))
    table = compute_standings(
        League(
            Settings("formula", formula=FormulaRule("school"), knockouts=KnockoutRule(points=5)),
            (Event("W1", players=16),),
            results,
        )
    )
    ann = table.rows[0].scores[0]
    assert (ann.value, ann.explain) == (50, "place 1 of 16: 10 × √16 / √1 = 40 + 2 KOs × 5 = 50")
    pokerstars = compute_standings(
        League(
            Settings(
                "formula", formula=FormulaRule("pokerstars"), knockouts=KnockoutRule(points=10)
            ),
            (Event("W1", buy_in=20, players=150),),
            results,
        )
    )
    ann = pokerstars.rows[0].scores[0]
    assert ann.explain == (  # 282.48 (see above) + 20
        "place 1 of 150: 10 × √150 / √1 × (1 + log10(20 + 0.25)) = 282.4782, rounded 282.48 "
        "+ 2 KOs × 10 = 302.48"
    )


def test_a_formula_league_refuses_what_it_cannot_score() -> None:
    """A missing buy-in the formula uses is a problem at each result; a negative event buy-in
    at the event; a bad formula names its column and the setting."""
    results = (Result("W1", "Ann", rank=1), Result("W1", "Ben", rank=2, buy_in=10))
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(
            League(Settings("formula", formula=FormulaRule("pokerstars")), (Event("W1"),), results)
        )
    assert [(p.player, p.field, p.message) for p in caught.value.problems] == [
        (
            "Ann",
            "buy-in",
            "buy-in is missing (give it on the event or the result): the formula uses it",
        ),
    ]
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(
            League(
                Settings("formula", formula=FormulaRule("school")),
                (Event("W1", buy_in=-5),),
                results,
            )
        )
    assert [(p.field, p.message) for p in caught.value.problems] == [
        ("buy-in", "buy-in must be at least 0, not -5")
    ]
    for text, message in [
        (
            "",
            "formula: Formula is missing: name a preset (pokerstars, school, depth decay, "
            "percentage) or write an expression",
        ),
        (
            "10 * sqrt(palyers)",
            "formula column 11: unknown name 'palyers' (did you mean "
            "'players'?): use players, place, buy-in, re-buys, knockouts, pot, table, share, cut",
        ),
    ]:
        with pytest.raises(LeagueProblems) as caught:
            compute_standings(League(Settings("formula", formula=FormulaRule(text)), (), ()))
        [problem] = caught.value.problems
        assert (problem.field, problem.message) == ("formula", message)


def test_the_formula_system_is_the_registrys_sixth() -> None:
    """Registered after the five, ranked, taking knockouts (its Points sheet, Points and Share
    by place, is read with its rule, not as a poker points table)."""
    system = SYSTEMS["formula"]
    assert list(SYSTEMS).index("formula") == 5
    assert (system.ranked, system.takes_knockouts, system.points_table) == (True, True, False)
    assert not SYSTEMS["rally"].takes_knockouts
    assert not SYSTEMS["dippouch"].takes_knockouts
