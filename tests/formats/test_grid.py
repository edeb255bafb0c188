"""Issue 18: how the Standings sheet shows numbers, which no test pinned down: two decimals
whenever any total or score has a fraction (Neau's formula), none when all are whole (the
rally), and the as-of date said under the table."""

from __future__ import annotations

import datetime as dt

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.formats.grid import standings_grid


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
