"""Issue 18: rules whose deliberate breaking no test noticed (mutants that survived), each now
checked against its rule, with the numbers worked by hand.

Dip Pouch (seed: percentile (N + 0.5 − place) / N × 100; value N / 7 + 2 for a one-round
event, 20 for a World Championship, 0 before 2001; new = old + value% × (percentile − old)).
"""

from __future__ import annotations

import datetime as dt

import pytest

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.formats.cells import DATE_1904, to_bool, to_date

D = dt.date


def rating(events: tuple[Event, ...], places: dict[str, int], as_of: D | None = None) -> float:
    results = tuple(Result(event, "Ann", rank=place) for event, place in places.items())
    [row] = compute_standings(League(Settings("dippouch"), events, results), as_of).rows
    return row.total


def test_events_listed_out_of_date_order_are_rated_in_date_order() -> None:
    """A (2005, 7 players, one round: value 3), Ann 1st: percentile (7.5 − 1) / 7 = 92.857;
    B (2006, same), Ann 7th: (7.5 − 7) / 7 = 7.143. In date order: 40 + 3% × 52.857 = 41.5857,
    then 41.5857 + 3% × (7.143 − 41.5857) = 40.5524. (The order listed, B first, would give
    40.6296.)"""
    later = Event("B", D(2006, 1, 1), rounds=1, players=7)
    earlier = Event("A", D(2005, 1, 1), rounds=1, players=7)
    assert rating((later, earlier), {"A": 1, "B": 7}) == pytest.approx(40.5524, abs=1e-4)


def test_a_world_championship_is_worth_20() -> None:
    """8 players, Ann 1st: percentile (8.5 − 1) / 8 = 93.75; value 20: 40 + 20% × 53.75 =
    50.75 (as an ordinary event, 8 / 3.5 + 2 = 4.29, it would be 42.30)."""
    wc = Event("WDC", D(2010, 8, 1), players=8, world_championship=True)
    assert rating((wc,), {"WDC": 1}) == pytest.approx(50.75)


def test_2001_is_the_first_year_that_counts() -> None:
    """An event of 2001 counts (7 players, one round: value 3; Ann 1st: 41.5857); one of
    2000 is worth 0 (rating stays 40)."""
    assert rating((Event("E", D(2001, 1, 1), rounds=1, players=7),), {"E": 1}) == pytest.approx(
        41.5857, abs=1e-4
    )
    assert rating((Event("E", D(2000, 12, 31), rounds=1, players=7),), {"E": 1}) == 40


def test_as_of_includes_the_day_itself() -> None:
    """`--as-of 2005-01-01` includes an event of that date (41.5857, above); the day before
    leaves it out: nothing is rated, so nobody is listed."""
    event = Event("A", D(2005, 1, 1), rounds=1, players=7)
    assert rating((event,), {"A": 1}, as_of=D(2005, 1, 1)) == pytest.approx(41.5857, abs=1e-4)
    results = (Result("A", "Ann", rank=1),)
    before = compute_standings(League(Settings("dippouch"), (event,), results), D(2004, 12, 31))
    assert before.rows == ()


@pytest.mark.parametrize(
    ("serial", "day"),
    [
        (45292, D(2024, 1, 1)),  # Excel shows 45292 as 1 January 2024
        (1, D(1900, 1, 1)),
        (59, D(1900, 2, 28)),
        (61, D(1900, 3, 1)),  # after Lotus's phantom 29 February 1900 (serial 60)
    ],
)
def test_excel_serial_dates_are_the_calendar_dates_excel_shows(serial: int, day: D) -> None:
    assert to_date(float(serial)) == day


def test_the_1904_date_system() -> None:
    """In a 1904-system workbook serial 0 is 1 January 1904, and 43830 is 1 January 2024
    (45292 − 1,462 days)."""
    assert to_date(43830.0, epoch=DATE_1904) == D(2024, 1, 1)


@pytest.mark.parametrize("text", ["x", "X", "yes", "Y", "TRUE", "1"])
def test_yes_marks(text: str) -> None:
    """A World Championship column may be marked with x, yes, y, TRUE or 1."""
    assert to_bool(text, "world championship") is True
