"""The Dip Pouch Tournament Rating against the WDD page's example and published percentiles."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import SEED

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
