"""FORMULA_POINTS, the formula system's Excel function: the sources' worked examples, ranges,
the cut, a league's own formula, and each kind of bad argument in its own words."""

from __future__ import annotations

import pytest

import udfs


def test_the_pokerstars_examples_down_a_column() -> None:
    """The page's three examples (163.09, 23.88, 100.54), then a place past the top 15% (0)
    and a blank row (blank)."""
    got = udfs.FORMULA_POINTS(
        "pokerstars",
        [[150.0], [900.0], [250.0], [150.0], [None]],
        [[3.0], [25.0], [10.0], [23.0], [None]],
        [[20.0], [0.0], [10.0], [20.0], [None]],
    )
    assert got == [[163.09], [23.88], [100.54], [0.0], [""]]


def test_presets_with_their_tables_and_cuts() -> None:
    """Depth decay at 60% (UDisc: 10, 7, 5, 4 ... 2, then 1); the percentage table (CCP:
    25 players, 2nd at 20%: 500); a cut of 3 places with 2 points below it."""
    places = [[float(k)] for k in range(1, 8)]
    assert udfs.FORMULA_POINTS("depth decay", 10.0, places, cut=0.6) == [
        [10.0],
        [7.0],
        [5.0],
        [4.0],
        [3.0],
        [2.0],
        [1.0],
    ]
    assert udfs.FORMULA_POINTS("Percentage", 25.0, 2.0, shares=[[0.25], [0.2]]) == 500
    inside, past = udfs.FORMULA_POINTS("school", 16.0, [[3.0], [4.0]], cut=3.0, below_cut=2.0)
    assert inside == [pytest.approx(23.094011)]  # 10 × √(16 / 3)
    assert past == [2.0]
    assert udfs.FORMULA_POINTS("pokerstars", 150.0, 30.0, 20.0, cut="none") == 51.57


def test_a_leagues_own_formula() -> None:
    """``100 × (players − place + 1) / players + 5 × knockouts``: 8 players, 2nd, one
    knockout: 100 × 7 / 8 + 5 = 92.5; ``pot / players`` with a pot of 160: 20."""
    own = "100 * (players - place + 1) / players + 5 * knockouts"
    assert udfs.FORMULA_POINTS(own, 8.0, 2.0, knockouts=1.0) == 92.5
    assert udfs.FORMULA_POINTS("pot / players", 8.0, 1.0, pot=160.0) == 20


def test_bad_arguments_say_which_and_why() -> None:
    """A bad formula names its column; a missing buy-in, a place past the field, a cut that is
    no cut and an error cell each say so; a range where one cell is wanted is refused."""
    assert udfs.FORMULA_POINTS("10 * sqrt(plac)", 16.0, 4.0) == (
        "#VALUE! formula column 11: unknown name 'plac' (did you mean 'place'?): use players, "
        "place, buy-in, re-buys, knockouts, pot, table, share, cut"
    )
    assert udfs.FORMULA_POINTS("pokerstars", 150.0, 3.0) == (
        "#VALUE! buy_in is missing (give it on the event or the result): the formula uses it"
    )
    assert udfs.FORMULA_POINTS("school", 10.0, 11.0) == (
        "#VALUE! place (11) must be between 1 and players (10)"
    )
    assert udfs.FORMULA_POINTS("school", 10.0, 1.0, cut="top") == (
        "#VALUE! Formula cut must be a share (15%), a number of places (10) or none, not 'top'"
    )
    assert udfs.FORMULA_POINTS("#N/A", 10.0, 1.0) == "#N/A in formula"
    assert udfs.FORMULA_POINTS("school", "#DIV/0!", 1.0) == "#DIV/0! in players"
    assert udfs.FORMULA_POINTS([["school"]], 10.0, 1.0) == "#VALUE! formula must be one cell"
    assert udfs.FORMULA_POINTS(None, 10.0, 1.0).startswith("#VALUE! formula: Formula is missing")
