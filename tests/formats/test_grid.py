"""Issue 18: how the Standings sheet shows numbers, which no test pinned down: two decimals
whenever any total or score has a fraction (Neau's formula), none when all are whole (the
rally), and the as-of date said under the table."""

from __future__ import annotations

import datetime as dt

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.formats.grid import standings_grid
from xlrally.formats.report import as_csv


def neau() -> League:
    """√(10 × 20 × 20 / 20) / 2 = 7.0711 for the winner: fractions."""
    results = (Result("N1", "Ann", rank=1), Result("N1", "Ben", rank=2))
    return League(
        Settings("neau"), (Event("N1", dt.date(2026, 3, 7), buy_in=20, players=10),), results
    )


def rally() -> League:
    """⌊100 × 3 / 4⌋ + 4 = 79: whole numbers."""
    return League(
        Settings("rally"),
        (Event("Dec 2025", dt.date(2025, 12, 6), rounds=4),),
        (Result("Dec 2025", "Bobby", points=3),),
    )


def test_fractional_standings_show_two_decimals() -> None:
    grid = standings_grid(compute_standings(neau()))
    total, score = grid[1][2], grid[1][4]
    assert total.value == 200**0.5 / 2
    assert total.look.number_format == "0.00"
    assert score.look.number_format == "0.00"


def test_whole_standings_show_no_decimals() -> None:
    grid = standings_grid(compute_standings(rally()))
    assert (grid[1][2].value, grid[1][2].look.number_format) == (79, "0")


def test_the_as_of_date_is_said_under_the_table() -> None:
    grid = standings_grid(compute_standings(rally(), as_of=dt.date(2026, 1, 31)))
    notes = [row[0].value for row in grid if len(row) == 1]
    assert "As of 2026-01-31." in notes


def test_a_text_longer_than_a_cell_is_shortened_and_says_so() -> None:
    """An Excel cell holds 32,767 characters (Excel's specifications and limits); a longer
    working or note is cut to that, its end saying where the full text is."""
    from xlrally.formats.grid import SHORTENED, fit

    assert fit("short") == "short"
    assert fit("x" * 32_767) == "x" * 32_767
    cut = fit("x" * 40_000)
    assert len(cut) == 32_767
    assert cut.endswith(SHORTENED)


# ---------------------------------------------------------------- a rating's decimals


DIP_EVENTS = (
    Event("Five", dt.date(2024, 3, 2), rounds=3, players=5),
    Event("Two", dt.date(2024, 4, 6), rounds=3, players=2),
)
DIP_RESULTS = (
    *(
        Result("Five", name, rank=place)
        for place, name in enumerate(["Ann", "Bo", "Cy", "Di", "Ed"], 1)
    ),
    Result("Two", "Ann", rank=1),
    Result("Two", "Bo", rank=2),
)
"""Percentiles (N + 0.5 − place) / N × 100 are all whole here: of 5, 90 70 50 30 10; of 2,
75 25. The ratings are not: value N / 3.5 + 2 (several rounds), rating 40 + value / 100 ×
(percentile − 40). Five (value 3.4285714): Ann 41.7142857, Bo 41.0285714, Cy 40.3428571,
Di 39.6571429, Ed 38.9714286. Two (value 2.5714286): Ann 41.7142857 + 0.025714286 ×
33.2857143 = 42.5702; Bo 41.0285714 − 0.025714286 × 16.0285714 = 40.6164."""


def test_fractional_ratings_are_shown_with_two_decimals_though_every_score_is_whole() -> None:
    """Two decimals when any total is fractional (a Dip Pouch list of 2- and 5-player events:
    checking the scores alone would show 42.57 as 43)."""
    standings = compute_standings(League(Settings("dippouch"), DIP_EVENTS, DIP_RESULTS))
    ratings = {r.player: round(r.total, 4) for r in standings.rows}
    assert ratings == {"Ann": 42.5702, "Bo": 40.6164, "Cy": 40.3429, "Di": 39.6571, "Ed": 38.9714}
    assert all(float(s.value).is_integer() for r in standings.rows for s in r.scores)
    header, *lines = [line.split(",") for line in as_csv(standings).splitlines()]
    shown = {row[header.index("Player")]: row[header.index("Rating")] for row in lines}
    assert shown == {"Ann": "42.57", "Bo": "40.62", "Cy": "40.34", "Di": "39.66", "Ed": "38.97"}
    total = standings_grid(standings)[1][2]
    assert isinstance(total.value, float)
    assert (round(total.value, 4), total.look.number_format) == (42.5702, "0.00")
