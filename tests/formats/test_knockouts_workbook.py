"""Knockout points and the team table read from a workbook: the settings, the Results'
Knockouts and Knocked out by columns, the Players' Team column, each mistake at its cell, and
the same columns left alone in a league that does not use them.

Scores: the seed's Absolute Points table (33, 27, 21 for ranks 1 to 3), worked by hand.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import Sheets

from xlrally.core.errors import LeagueProblems
from xlrally.core.league import compute_standings
from xlrally.core.rules import KnockoutRule, TeamRule
from xlrally.formats.workbook import MemorySheets, read_league


def book(settings: list[list[Any]], system: str = "absolute") -> Sheets:
    return {
        "Settings": [["Setting", "Value"], ["System", system], ["Participating", 5], *settings],
        "Points": [["Rank", "Points", "Bonus"], [1, 25, 3], [2, 20, 2], [3, 15, 1]],
        "Events": [["Event"], ["W1"], ["W2"]],
        "Results": [
            ["Event", "Player", "Rank", "KOs", "Eliminated by"],
            ["W1", "Ann", 1, 1, None],
            ["W1", "Ben", 2, None, "Ann"],
            ["W1", "Cy", 3, None, "Ben"],
            ["W2", "Ben", 1, None, None],
            ["W2", "Ann", 2, None, "Ben"],
        ],
        "Players": [["Player", "Club"], ["Ann", "Rooks"], ["Ben", "Knights"], ["Cy", "Rooks"]],
    }


def test_knockout_settings_and_columns() -> None:
    """10 a knockout, 5 for the leader, weighted: W1 Ann 33 + 10 = 43 (her count, 1), Ben 27
    + 10 = 37 (named once); W2 Ben knocks out Ann, the leader: 33 + 10 + 5 = 48."""
    settings: list[list[Any]] = [
        ["Knockout points", 10],
        ["Bounty points", 5],
        ["Bounties", "leader"],
        ["Knockouts weighted", "yes"],
    ]
    league = read_league(MemorySheets(book(settings)))
    assert league.settings.knockouts == KnockoutRule(10, 5, ("leader",), weighted=True)
    rows = {r.player: r for r in compute_standings(league).rows}
    assert (rows["Ann"].total, rows["Ben"].total, rows["Cy"].total) == (43 + 27, 37 + 48, 21)
    w2 = rows["Ben"].score("W2")
    assert w2 is not None
    assert w2.explain == (
        "rank 1: 25 + 5 participating + 3 bonus = 33 + 1 KO × 10 + 1 bounty × 5 (Ann, the "
        "leader) = 48"
    )


def test_a_team_table_from_the_players_club_column() -> None:
    """Team best N 1: Knights Ben 27 + 33 = 60; Rooks Ann 33 + 27 = 60 (Cy's 21 dropped):
    level, the same countback, they share 1st."""
    league = read_league(MemorySheets(book([["Team best N", 1]])))
    assert league.settings.teams == TeamRule(1, "players")
    assert league.teams == {"Ann": "Rooks", "Ben": "Knights", "Cy": "Rooks"}
    table = compute_standings(league).teams
    assert [(t.rank_label, t.team, t.total) for t in table] == [
        ("1=", "Knights", 60),
        ("1=", "Rooks", 60),
    ]


@pytest.mark.parametrize(
    ("settings", "system", "cell", "message"),
    [
        (
            [["Knockout points", -10]],
            "absolute",
            "Settings!B4",
            "Knockout points must not be negative, not -10",
        ),
        (
            [["Knockouts weighted", "maybe"]],
            "absolute",
            "Settings!B4",
            "Knockouts weighted must be yes or no, not 'maybe'",
        ),
        (
            [["Team best N", 0]],
            "absolute",
            "Settings!B4",
            "Team best N must be a whole number of at least 1, not 0",
        ),
        (
            [["Team scores", "best"]],
            "absolute",
            "Settings!B4",
            "Team scores must be players or each event, not 'best'",
        ),
        (
            [["Bounty points", 5]],
            "dippouch",
            "Settings!B4",
            "Bounty points is for poker finishes: the Dip Pouch Tournament Rating do not use it",
        ),
    ],
)
def test_each_mistake_at_its_cell(
    settings: list[list[Any]], system: str, cell: str, message: str
) -> None:
    """A bad setting, or one the system cannot use, is named at its cell."""
    sheets = book(settings, system)
    if system == "dippouch":
        sheets["Settings"].append(["Events cap", 9])
    with pytest.raises(LeagueProblems) as caught:
        read_league(MemorySheets(sheets))
    assert (cell, message) in [(p.cell, p.message) for p in caught.value.problems]


def test_a_knocked_out_by_name_not_in_the_event_is_named_at_its_cell() -> None:
    """``Eliminated by`` Zed, who did not play W1: the cell is Results!E3."""
    sheets = book([["Knockout points", 10]])
    sheets["Results"][2] = ["W1", "Ben", 2, None, "Zed"]
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(read_league(MemorySheets(sheets)))
    assert [(p.cell, p.message) for p in caught.value.problems] == [
        (
            "Results!E3",
            "'Zed' has no result in 'W1': whoever knocked a player out must be listed in the event",
        )
    ]


def test_team_best_n_needs_a_team_column() -> None:
    sheets = book([["Team best N", 2]])
    sheets["Players"] = [["Player", "Alias"], ["Ann", "Annie"]]
    with pytest.raises(LeagueProblems) as caught:
        read_league(MemorySheets(sheets))
    assert [(p.cell, p.message) for p in caught.value.problems] == [
        (
            "Settings!B4",
            "Team best N needs a Team column in the Players sheet (each player's team or club)",
        )
    ]


def test_a_rally_leaves_the_same_columns_alone() -> None:
    """A rally's Results with KOs and Eliminated by columns (of anything): not read, no
    problem, scored as ever (100 × 3 / 4 + 4 = 79)."""
    sheets: Sheets = {
        "Settings": [["System", "rally"]],
        "Events": [["Event", "Rounds"], ["Dec", 4]],
        "Results": [
            ["Event", "Player", "Points", "KOs", "Eliminated by", "Re-buys"],
            ["Dec", "Bobby", 3, "lots", "the arbiter", "?"],
        ],
    }
    league = read_league(MemorySheets(sheets))
    assert league.results[0][-4:-1] == (None, None, None)  # knockouts, rebuys, knocked out by
    assert compute_standings(league).rows[0].total == 79
