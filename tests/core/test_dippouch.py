"""The Dip Pouch Tournament Rating against the WDD page's example and published percentiles."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import SEED

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.systems import dippouch

DIP = SEED["dippouch"]
STRATAGEM = DIP["stratagem_2002"]


def test_worked_example() -> None:
    """Rating 55, 8th of 65, multi-round: percentile 88.46, value 15, new rating 60.019."""
    ex = DIP["worked_example"]
    pct = dippouch.percentile(ex["placement"], ex["players"])
    value = dippouch.tournament_value(ex["players"], rounds=2)
    assert round(pct, 2) == ex["percentile"]
    assert value == ex["value"]
    assert round(dippouch.updated_rating(ex["old"], value, pct), 3) == ex["new"]


@pytest.mark.parametrize(
    ("placement", "published"), STRATAGEM["placement_to_percentile_2dp"].items()
)
def test_stratagem_2002_percentiles(placement: str, published: float) -> None:
    """Every percentile on the WDD's Stratagem 2002 page (31 players, ties share the place)."""
    assert round(dippouch.percentile(int(placement), STRATAGEM["players"]), 2) == published


def test_stratagem_2002_value() -> None:
    """31 players, 5 rounds: 31 / 3.5 + 2 = 10.857142857."""
    value = dippouch.tournament_value(STRATAGEM["players"], STRATAGEM["rounds"], year=2002)
    assert value == pytest.approx(STRATAGEM["tournament_value"], abs=1e-9)


@pytest.mark.parametrize(
    ("players", "rounds", "wc", "year", "value"),
    [
        (14, 1, False, 2010, 4.0),  # 14 / 7 + 2
        (91, 1, False, 2010, 15.0),  # 15 capped
        (35, 3, False, 2010, 12.0),  # 35 / 3.5 + 2
        (200, 3, False, 2000, 0.0),  # before 2001
        (30, 3, True, 1995, 20.0),  # a World Championship always 20
        (30, 3, True, 2010, 20.0),  # and is not capped at 15
    ],
)
def test_tournament_value_rules(
    players: int, rounds: int, wc: bool, year: int, value: float
) -> None:
    """Hand-worked values for each branch of the tournament value rule."""
    assert dippouch.tournament_value(players, rounds, wc, year) == pytest.approx(value)


def test_history_runs_in_date_order_from_40() -> None:
    """Two events given out of order are rated oldest first (hand-worked).

    2005: 1st of 7, one round: percentile 92.857, value 3: 40 + 0.03 × 52.857 = 41.5857.
    2006: 7th of 7, one round: percentile 7.143, value 3: 41.5857 + 0.03 × (7.143 − 41.5857)
    = 41.585714 − 1.033286 = 40.552429.
    """
    late = dippouch.DipEvent("B", dt.date(2006, 1, 1), 7, 1, False, {"ann": 7})
    early = dippouch.DipEvent("A", dt.date(2005, 1, 1), 7, 1, False, {"ann": 1})
    steps = dippouch.rating_history([late, early])["ann"]
    assert [s.event for s in steps] == ["A", "B"]
    assert steps[0].after == pytest.approx(41.585714, abs=1e-6)
    assert steps[1].after == pytest.approx(40.552429, abs=1e-6)
    only_2005 = dippouch.rating_history([late, early], as_of=dt.date(2005, 12, 31))["ann"]
    assert len(only_2005) == 1


def test_explain() -> None:
    """The seed example's working: rating 55 → 60.02: 15% of (88.46 − 55)."""
    step = dippouch.RatingStep(
        dt.date(2010, 1, 1), "X", 8, 65, 15, dippouch.percentile(8, 65), 55, 60.019
    )
    assert step.explain == "8th of 65, value 15: rating 55 → 60.02: 15% of (88.46 − 55)"


# Issue 18: rules whose breaking no test noticed (surviving mutants), worked by hand
# (seed: value N / 7 + 2 for a one-round event, 20 for a World Championship, 0 before 2001).


def rating(
    events: tuple[Event, ...], places: dict[str, int], as_of: dt.date | None = None
) -> float:
    results = tuple(Result(event, "Ann", rank=place) for event, place in places.items())
    [row] = compute_standings(League(Settings("dippouch"), events, results), as_of).rows
    return row.total


def test_events_listed_out_of_date_order_are_rated_in_date_order() -> None:
    """A (2005, 7 players, one round: value 3), Ann 1st: percentile (7.5 − 1) / 7 = 92.857;
    B (2006, same), Ann 7th: (7.5 − 7) / 7 = 7.143. In date order: 40 + 3% × 52.857 = 41.5857,
    then 41.5857 + 3% × (7.143 − 41.5857) = 40.5524. (The order listed, B first, would give
    40.6296.)"""
    later = Event("B", dt.date(2006, 1, 1), rounds=1, players=7)
    earlier = Event("A", dt.date(2005, 1, 1), rounds=1, players=7)
    assert rating((later, earlier), {"A": 1, "B": 7}) == pytest.approx(40.5524, abs=1e-4)


def test_a_world_championship_is_worth_20() -> None:
    """8 players, Ann 1st: percentile (8.5 − 1) / 8 = 93.75; value 20: 40 + 20% × 53.75 =
    50.75 (as an ordinary event, 8 / 3.5 + 2 = 4.29, it would be 42.30)."""
    wc = Event("WDC", dt.date(2010, 8, 1), players=8, world_championship=True)
    assert rating((wc,), {"WDC": 1}) == pytest.approx(50.75)


def test_2001_is_the_first_year_that_counts() -> None:
    """An event of 2001 counts (7 players, one round: value 3; Ann 1st: 41.5857); one of
    2000 is worth 0 (rating stays 40)."""
    assert rating(
        (Event("E", dt.date(2001, 1, 1), rounds=1, players=7),), {"E": 1}
    ) == pytest.approx(41.5857, abs=1e-4)
    assert rating((Event("E", dt.date(2000, 12, 31), rounds=1, players=7),), {"E": 1}) == 40


def test_as_of_includes_the_day_itself() -> None:
    """`--as-of 2005-01-01` includes an event of that date (41.5857, above); the day before
    leaves it out: nothing is rated, so nobody is listed."""
    event = Event("A", dt.date(2005, 1, 1), rounds=1, players=7)
    assert rating((event,), {"A": 1}, as_of=dt.date(2005, 1, 1)) == pytest.approx(41.5857, abs=1e-4)
    results = (Result("A", "Ann", rank=1),)
    before = compute_standings(
        League(Settings("dippouch"), (event,), results), dt.date(2004, 12, 31)
    )
    assert before.rows == ()


def test_rating_history_takes_an_event_on_the_as_of_day() -> None:
    """`--as-of 2006-01-01` means "as it stood at the end of that day": an event dated that day
    counts (7 players, one round: value 3; Ann 1st: 40 + 3% × (92.857 − 40) = 41.5857)."""
    from xlrally.core.systems.dippouch import DipEvent, rating_history

    event = DipEvent("A", dt.date(2006, 1, 1), 7, 1, False, {"ann": 1})
    [step] = rating_history([event], as_of=dt.date(2006, 1, 1))["ann"]
    assert step.after == pytest.approx(41.5857, abs=1e-4)
    assert rating_history([event], as_of=dt.date(2005, 12, 31)) == {}
