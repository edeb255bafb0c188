"""What the Excel functions say about a bad argument, and the spellings and year forms they take.

A treasurer sees only the cell's text, so it must name the argument as the function's dialog box
does (``finish``, not the core's ``rank``). The expected texts are written here from that rule;
the numbers come from the Dip Pouch seed (a World Championship is worth 20; otherwise
players / 3.5 + 2, and 0 before 2001) and from Excel's calendar (serial 36892 is 2001-01-01).
"""

from __future__ import annotations

from typing import Any

import pytest

import udfs

# One valid call of each function (from the tests of their numbers), as keyword arguments.
VALID: dict[str, dict[str, Any]] = {
    "RALLY_SCORE": {"points": 3.0, "rounds": 7.0, "byes": 0.0, "games": 6.0},
    "RALLY_BEST_N": {"events_held": 5.0, "cap": 10.0},
    "NEAU_POINTS": {"players": 10.0, "buy_in": 20.0, "total_expense": 200.0, "finish": 1.0},
    "ABSOLUTE_POINTS": {
        "rank": 1.0,
        "points_table": [[10.0], [5.0]],
        "participating": 1.0,
        "bonus_table": [[2.0]],
        "players": 10.0,
        "count_factor": 0.5,
        "count_to_rank": 3.0,
    },
    "REVERSE_POINTS": {
        "rank": 1.0,
        "players": 5.0,
        "multiplier": 1.5,
        "participating": 2.0,
        "bonus_table": [[3.0], [2.0], [1.0]],
    },
    "DIPPOUCH_PERCENTILE": {"placement": 8.0, "players": 65.0},
    "DIPPOUCH_VALUE": {"players": 31.0, "rounds": 5.0, "world_championship": False, "year": 2002.0},
    "DIPPOUCH_RATING": {
        "placements": 8.0,
        "players": 65.0,
        "rounds": 3.0,
        "world_championship": False,
        "years": 2002.0,
        "start_rating": 55.0,
    },
    "PRIZE_SHARE": {"prizes": [[100.0], [50.0]], "place": 1.0, "sharing": 2.0, "unit": 1.0},
    "BEST_X_TOTAL": {"scores": [[1.0, 2.0, 3.0]], "x": 2.0},
}

NOT_A_NUMBER = "must be a number, not 'abc'"
TEXT_IN_ARGUMENT = [
    ("RALLY_SCORE", "points", f"points {NOT_A_NUMBER}"),
    ("RALLY_SCORE", "rounds", f"rounds {NOT_A_NUMBER}"),
    ("RALLY_SCORE", "byes", f"byes {NOT_A_NUMBER}"),
    ("RALLY_SCORE", "games", f"games {NOT_A_NUMBER}"),
    ("RALLY_BEST_N", "events_held", f"events_held {NOT_A_NUMBER}"),
    ("RALLY_BEST_N", "cap", f"cap {NOT_A_NUMBER}"),
    ("NEAU_POINTS", "players", f"players {NOT_A_NUMBER}"),
    ("NEAU_POINTS", "buy_in", f"buy_in {NOT_A_NUMBER}"),
    ("NEAU_POINTS", "total_expense", f"total_expense {NOT_A_NUMBER}"),
    ("NEAU_POINTS", "finish", f"finish {NOT_A_NUMBER}"),
    ("ABSOLUTE_POINTS", "rank", f"rank {NOT_A_NUMBER}"),
    ("ABSOLUTE_POINTS", "points_table", "points_table must hold numbers only, not 'abc'"),
    ("ABSOLUTE_POINTS", "participating", f"participating {NOT_A_NUMBER}"),
    ("ABSOLUTE_POINTS", "bonus_table", "bonus_table must hold numbers only, not 'abc'"),
    ("ABSOLUTE_POINTS", "players", f"players {NOT_A_NUMBER}"),
    ("ABSOLUTE_POINTS", "count_factor", f"count_factor {NOT_A_NUMBER}"),
    ("ABSOLUTE_POINTS", "count_to_rank", f"count_to_rank {NOT_A_NUMBER}"),
    ("REVERSE_POINTS", "rank", f"rank {NOT_A_NUMBER}"),
    ("REVERSE_POINTS", "players", f"players {NOT_A_NUMBER}"),
    ("REVERSE_POINTS", "multiplier", f"multiplier {NOT_A_NUMBER}"),
    ("REVERSE_POINTS", "participating", f"participating {NOT_A_NUMBER}"),
    ("REVERSE_POINTS", "bonus_table", "bonus_table must hold numbers only, not 'abc'"),
    ("DIPPOUCH_PERCENTILE", "placement", f"placement {NOT_A_NUMBER}"),
    ("DIPPOUCH_PERCENTILE", "players", f"players {NOT_A_NUMBER}"),
    ("DIPPOUCH_VALUE", "players", f"players {NOT_A_NUMBER}"),
    ("DIPPOUCH_VALUE", "rounds", f"rounds {NOT_A_NUMBER}"),
    ("DIPPOUCH_VALUE", "world_championship", "world_championship must be yes or no, not 'abc'"),
    ("DIPPOUCH_VALUE", "year", "year must be a year or a date, not 'abc'"),
    ("DIPPOUCH_RATING", "placements", f"event 1: placements {NOT_A_NUMBER}"),
    ("DIPPOUCH_RATING", "players", f"event 1: players {NOT_A_NUMBER}"),
    ("DIPPOUCH_RATING", "rounds", f"event 1: rounds {NOT_A_NUMBER}"),
    (
        "DIPPOUCH_RATING",
        "world_championship",
        "event 1: world_championship must be yes or no, not 'abc'",
    ),
    ("DIPPOUCH_RATING", "years", "event 1: years must be a year or a date, not 'abc'"),
    ("DIPPOUCH_RATING", "start_rating", f"start_rating {NOT_A_NUMBER}"),
    ("PRIZE_SHARE", "prizes", "prizes must hold numbers only, not 'abc'"),
    ("PRIZE_SHARE", "place", f"place {NOT_A_NUMBER}"),
    ("PRIZE_SHARE", "sharing", f"sharing {NOT_A_NUMBER}"),
    ("PRIZE_SHARE", "unit", f"unit {NOT_A_NUMBER}"),
    ("BEST_X_TOTAL", "x", "x must be a whole number, not 'abc'"),
]


def call(function: str, **changed: Any) -> Any:
    return getattr(udfs, function)(**{**VALID[function], **changed})


@pytest.mark.parametrize("function", VALID)
def test_each_valid_call_scores(function: str) -> None:
    """The base of the cases below: each call gives a number, so a text below is the bad
    argument's doing."""
    assert isinstance(call(function), float | int)


@pytest.mark.parametrize(("function", "argument", "message"), TEXT_IN_ARGUMENT)
def test_a_text_names_the_argument_it_is_in(function: str, argument: str, message: str) -> None:
    assert call(function, **{argument: "abc"}) == f"#VALUE! {message}"


@pytest.mark.parametrize(
    ("function", "argument", "message"),
    [
        ("NEAU_POINTS", "finish", "finish must be a whole number, not 1.5"),
        ("DIPPOUCH_PERCENTILE", "placement", "placement (66) must be between 1 and players (65)"),
        ("NEAU_POINTS", "buy_in", "buy_in must be a number, not True"),
    ],
)
def test_a_bad_number_names_the_argument_too(function: str, argument: str, message: str) -> None:
    value = {"finish": 1.5, "placement": 66.0, "buy_in": True}[argument]
    assert call(function, **{argument: value}) == f"#VALUE! {message}"


@pytest.mark.parametrize("argument", ["players", "rounds", "world_championship", "years"])
def test_a_per_event_argument_must_fit_the_placements(argument: str) -> None:
    """One value for every event, or one per placement: three values for two placements is
    neither."""
    three = [[VALID["DIPPOUCH_RATING"][argument]]] * 3
    got = call("DIPPOUCH_RATING", placements=[[8.0], [9.0]], **{argument: three})
    assert got == f"#VALUE! {argument} must be one value or one per placement (2)"


WORLD_CHAMPIONSHIP = 20.0
THIRTY_ONE_PLAYERS = 31 / 3.5 + 2  # the seed's Stratagem 2002: 10.857


@pytest.mark.parametrize("spelling", ["yes", "Y", " True ", "x", "WC", "TRUE", 1.0, True])
def test_world_championship_yes(spelling: object) -> None:
    assert call("DIPPOUCH_VALUE", world_championship=spelling) == WORLD_CHAMPIONSHIP


@pytest.mark.parametrize("spelling", ["no", "N", "false", "FALSE", "", None, 0.0, False])
def test_world_championship_no(spelling: object) -> None:
    assert call("DIPPOUCH_VALUE", world_championship=spelling) == pytest.approx(THIRTY_ONE_PLAYERS)


@pytest.mark.parametrize(
    ("year", "rated"),
    [
        (2001.0, True),  # the first rated year
        (2000.0, False),
        (9999.0, True),  # a year up to 9999
        (10000.0, False),  # from 10000 a date serial: 1927-05-18
        (36892.0, True),  # 2001-01-01
        (36891.0, False),  # 2000-12-31
        (2958465.0, True),  # 9999-12-31, Excel's last day
        ("2001-03-04", True),
        (" 2000-12-31", False),
        (None, True),  # no year: a year that counts
    ],
)
def test_the_year_as_a_year_a_serial_or_a_text(year: object, rated: bool) -> None:
    expected = THIRTY_ONE_PLAYERS if rated else 0.0
    assert call("DIPPOUCH_VALUE", year=year) == pytest.approx(expected)


@pytest.mark.parametrize("year", [999.0, 2958466.0, "spring", True])
def test_what_is_not_a_year(year: object) -> None:
    assert (
        call("DIPPOUCH_VALUE", year=year) == f"#VALUE! year must be a year or a date, not {year!r}"
    )


def test_best_x_total_goes_on_after_a_row_it_cannot_total() -> None:
    """Each row of scores is its own total: an error in one row, or a row without a number,
    leaves the others. Best 2 of (3, 4, 5) is 9; of (6, 1) is 7."""
    scores = [[1.0, 2.0, "#N/A"], ["", None, None], [3.0, 4.0, 5.0], [6.0, 1.0, None]]
    assert udfs.BEST_X_TOTAL(scores, 2.0) == [["#N/A in scores"], [""], [9.0], [7.0]]
    per_row = [[2.0], [2.0], ["#DIV/0!"], [1.0]]
    assert udfs.BEST_X_TOTAL(scores, per_row) == [["#N/A in scores"], [""], ["#DIV/0! in x"], [6.0]]
    assert udfs.BEST_X_TOTAL(scores, [[2.0], [1.0]]) == (
        "#VALUE! x must be one number or one per row of scores"
    )
    assert udfs.BEST_X_TOTAL(scores, [[2.0, 1.0]]) == (
        "#VALUE! x must be one number or one per row of scores"
    )


def test_a_rating_without_a_placement_is_the_start_rating_or_blank() -> None:
    """A player who missed every event keeps the rating they came with (55 here), and without
    one the cell stays blank (not the default 40, which they never had)."""
    assert call("DIPPOUCH_RATING", placements=[[None], [None]]) == 55.0
    assert call("DIPPOUCH_RATING", placements=[[None], [None]], start_rating=None) == ""


CELLWISE = [
    (function, argument)
    for function, arguments in {
        "RALLY_SCORE": ("points", "rounds", "byes", "games"),
        "RALLY_BEST_N": ("events_held", "cap"),
        "NEAU_POINTS": ("players", "buy_in", "total_expense", "finish"),
        "ABSOLUTE_POINTS": ("rank", "participating", "players", "count_factor", "count_to_rank"),
        "REVERSE_POINTS": ("rank", "players", "multiplier", "participating"),
        "DIPPOUCH_PERCENTILE": ("placement", "players"),
        "DIPPOUCH_VALUE": ("players", "rounds", "world_championship", "year"),
        "PRIZE_SHARE": ("place", "sharing", "unit"),
    }.items()
    for argument in arguments
]


@pytest.mark.parametrize(("function", "argument"), CELLWISE)
@pytest.mark.parametrize("error", ["#N/A", "#DIV/0!"])
def test_an_error_cell_is_passed_on_naming_its_argument(
    function: str, argument: str, error: str
) -> None:
    """As Excel's own functions pass an error on (=A1+1 with #N/A in A1 is #N/A), a cell holding
    an error gives that error, and the text names the argument it came in (xlwings hands error
    cells over as their text with ``err_to_str``)."""
    assert call(function, **{argument: error}) == f"{error} in {argument}"


@pytest.mark.parametrize(
    ("function", "arguments", "expected"),
    [
        # Rally seed: 100 × 3 / 7 + 7 = 49.86 → 49 (byes blank: none; games blank: rounds − byes)
        ("RALLY_SCORE", {"points": 3.0, "rounds": 7.0, "byes": None, "games": None}, 49),
        ("RALLY_SCORE", {"points": 3.0, "rounds": 7.0, "byes": "", "games": ""}, 49),
        # one bye: 100 × 3 / 6 + 6 = 56
        ("RALLY_SCORE", {"points": 3.0, "rounds": 7.0, "byes": 1.0, "games": None}, 56),
        # sharing blank: one player takes the 1st prize whole; 2nd shared by 2: (50 + 30) / 2
        ("PRIZE_SHARE", {"prizes": [[100.0], [50.0], [30.0]], "place": 1.0, "sharing": None}, 100),
        ("PRIZE_SHARE", {"prizes": [[100.0], [50.0], [30.0]], "place": 2.0, "sharing": 2.0}, 40),
        # Dip Pouch seed: 31 / 3.5 + 2 = 10.857 whatever the rounds, blank or given
        ("DIPPOUCH_VALUE", {"players": 31.0, "rounds": "", "year": 2002.0}, 31 / 3.5 + 2),
    ],
)
def test_what_a_blank_argument_means(
    function: str, arguments: dict[str, Any], expected: float
) -> None:
    assert getattr(udfs, function)(**arguments) == pytest.approx(expected)


def test_a_prize_shared_by_nobody_is_refused() -> None:
    assert call("PRIZE_SHARE", sharing=0.0) == "#VALUE! sharing must be at least 1, not 0"
