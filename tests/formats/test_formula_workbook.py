"""The formula system read from a workbook: its settings, the Points sheet's Points and
Share, and each mistake at its cell. Scores are the sources' worked examples (see
tests/core/test_formula.py)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import Sheets

from xlrally.core.errors import LeagueProblems
from xlrally.core.league import compute_standings
from xlrally.core.rules import Cut
from xlrally.formats.workbook import MemorySheets, read_league


def book(settings: list[list[Any]], points: list[list[Any]] | None = None) -> Sheets:
    sheets: Sheets = {
        "Settings": [["Setting", "Value"], ["System", "formula"], *settings],
        "Events": [["Event", "Buy-in", "Players"], ["W1", 20, 150]],
        "Results": [
            ["Event", "Player", "Rank"],
            ["W1", "Ann", 1],
            ["W1", "Ben", 3],
            ["W1", "Cy", 23],
        ],
    }
    if points is not None:
        sheets["Points"] = points
    return sheets


def test_a_pokerstars_league_from_its_workbook() -> None:
    """``Formula`` pokerstars: Ben 3rd of 150 at 20 scores 163.09 (the page's example), Cy
    23rd is past the top 15% (0); the system's name is accepted as well as its key."""
    sheets = book([["Formula", "PokerStars"]])
    sheets["Settings"][1] = ["System", "Field-size formula"]
    league = read_league(MemorySheets(sheets))
    assert league.settings.formula.formula == "PokerStars"
    table = compute_standings(league)
    assert [(r.player, r.total) for r in table.rows] == [
        ("Ann", 282.48),
        ("Ben", 163.09),
        ("Cy", 0),
    ]


def test_the_cut_and_points_below_it_as_a_league_writes_them() -> None:
    """``Formula cut`` 10 (places), 20% (share), 0.2 (a percentage cell), none; ``Below cut``."""
    for written, cut in [(10, Cut(places=10)), ("20%", Cut(share=0.2)), (0.2, Cut(share=0.2))]:
        settings = read_league(
            MemorySheets(book([["Formula", "school"], ["Formula cut", written]]))
        ).settings
        assert settings.formula.cut == cut
    league = read_league(
        MemorySheets(book([["Formula", "pokerstars"], ["Formula cut", "none"], ["Below cut", 1]]))
    )
    cy = compute_standings(league).rows[2]
    assert (cy.player, cy.total) == ("Cy", 58.9)  # 10 × √(150 / 23) × 2.3064 = 58.90, no cut


def test_the_percentage_preset_reads_the_points_sheets_shares() -> None:
    """Community Card Player's table in the Points sheet (25%, 20% as text or a fraction): of
    150 players, 1st 100 × 150 × 25% = 3750, 3rd past the shares given: 0."""
    points: list[list[Any]] = [["Rank", "Share"], [1, "25%"], [2, 0.2]]
    league = read_league(MemorySheets(book([["Formula", "percentage"]], points)))
    assert league.settings.structure.shares == (0.25, 0.2)
    assert [r.total for r in compute_standings(league).rows] == [3750, 0, 0]


@pytest.mark.parametrize(
    ("settings", "points", "cell", "message"),
    [
        (
            [["Formula", "10 * sqrt(palyers)"]],
            None,
            "Settings!B3",
            "formula column 11: unknown name 'palyers' (did you mean 'players'?): use players, "
            "place, buy-in, re-buys, knockouts, pot, table, share, cut",
        ),
        (
            [],
            None,
            "Settings!A2",
            "the formula system needs a Formula setting: Formula is missing: name a preset "
            "(pokerstars, school, depth decay, percentage) or write an expression",
        ),
        (
            [["Formula", "school"], ["Formula cut", "top"]],
            None,
            "Settings!B4",
            "Formula cut must be a share (15%), a number of places (10) or none, not 'top'",
        ),
        (
            [["Formula", "percentage"]],
            [["Rank", "Points"], [1, 10]],
            "Settings!B3",
            "the formula uses share: the Points sheet needs a Rank and a Share column (each "
            "place's share, e.g. 25%)",
        ),
        (
            [["Formula", "percentage"]],
            [["Rank", "Share"], [1, "lots"]],
            "Points!B2",
            "share must be a number, not the text 'lots'",
        ),
    ],
)
def test_each_mistake_at_its_cell(
    settings: list[list[Any]], points: list[list[Any]] | None, cell: str, message: str
) -> None:
    """What cannot be read is named at its cell, once (the core's own words for a formula it
    cannot use are not repeated)."""
    with pytest.raises(LeagueProblems) as caught:
        read_league(MemorySheets(book(settings, points)))
    assert [(p.cell, p.message) for p in caught.value.problems] == [(cell, message)]


def test_formula_settings_belong_to_the_formula_system() -> None:
    """A poker league with a Formula is told so at the cell."""
    sheets = book([["Formula", "school"], ["Below cut", 1]])
    sheets["Settings"][1] = ["System", "absolute"]
    with pytest.raises(LeagueProblems) as caught:
        read_league(MemorySheets(sheets))
    assert [(p.cell, p.message) for p in caught.value.problems] == [
        (
            "Settings!B3",
            "Formula is the formula system's setting: the Absolute Points do not use it",
        ),
        (
            "Settings!B4",
            "Below cut is the formula system's setting: the Absolute Points do not use it",
        ),
    ]
