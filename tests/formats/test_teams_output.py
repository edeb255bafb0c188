"""The team table and the knockout and formula notes in every output: the Standings sheet's
cells, the text, CSV, JSON and the page; and nothing new for a league without them.

The league is tests/core/test_teams.py's (worked by hand there): Knights 14 (Ben 9 + Di 5),
Rooks 14 (Ann 7 + Cy 7), the Knights ahead on countback.
"""

from __future__ import annotations

import csv
import io

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.rules import FormulaRule, KnockoutRule, TeamRule
from xlrally.core.standings import Standings
from xlrally.formats.grid import standings_grid
from xlrally.formats.page import standings_page
from xlrally.formats.report import as_csv, as_json, as_table


def ranked(event: str, players: list[str]) -> list[Result]:
    return [Result(event, p, rank=i + 1) for i, p in enumerate(players)]


RESULTS = (
    *ranked("W1", ["Ann", "Ben", "Cy", "Di", "Ed"]),
    *ranked("W2", ["Ben", "Cy", "Di", "Ann", "Ed"]),
)
TEAMS = {"Ann": "Rooks", "Cy": "Rooks", "Ed": "Rooks", "Ben": "Knights", "Di": "Knights"}


BEST_TWO = TeamRule(2)


def standings(teams: TeamRule | None = BEST_TWO) -> Standings:
    settings = Settings("reverse", teams=teams or TeamRule())
    return compute_standings(League(settings, (Event("W1"), Event("W2")), RESULTS, teams=TEAMS))


def test_the_sheet_has_the_team_table_under_the_players() -> None:
    """A title row with the rule, a header, one row per team: rank, team, total, working."""
    grid = standings_grid(standings())
    values = [[cell.value for cell in row] for row in grid]
    at = values.index(["Teams: each team's best 2 players' totals count"])
    assert values[at + 1 : at + 4] == [
        ["Rank", "Team", "Total", "Working"],
        [1, "Knights", 14, "Ben 9 + Di 5 = 14"],
        [2, "Rooks", 14, "Ann 7 + Cy 7 = 14"],
    ]
    assert values[at - 1] == []  # a blank row before it
    assert grid[at + 2][0].look.number_format == "0"


def test_text_csv_json_and_page_show_the_teams() -> None:
    """The text lists the teams under the table, the CSV gives a second table, the JSON a
    ``teams`` list with the counted scores, the page a Teams section."""
    table = standings()
    text = as_table(table)
    assert (
        "Teams: each team's best 2 players' totals count:\n  1    Knights: 14 (Ben 9 + Di 5 = 14)\n  2    Rooks: 14 (Ann 7 + Cy 7 = 14)"
        in text
    )
    rows = list(csv.reader(io.StringIO(as_csv(table))))
    blank = rows.index([])
    assert rows[blank + 1 :] == [
        ["Rank", "Tied", "Team", "Total", "Counted"],
        ["1", "", "Knights", "14", "Ben 9; Di 5"],
        ["2", "", "Rooks", "14", "Ann 7; Cy 7"],
    ]
    shape = as_json(table)
    assert shape["teams"][1] == {
        "rank": 2,
        "tied": False,
        "team": "Rooks",
        "total": 14,
        "counted": [
            {"player": "Ann", "event": None, "score": 7},
            {"player": "Cy", "event": None, "score": 7},
        ],
        "players": ["Ann", "Cy", "Ed"],
        "explain": "Ann 7 + Cy 7 = 14",
        "decided_by": "countback",
    }
    page = standings_page(table)
    assert '<h2 id="teams-title">Teams</h2>' in page
    assert "Teams: each team&#x27;s best 2 players&#x27; totals count." in page
    assert '<th scope="row" class="other">Rooks</th><td>14</td>' in page


def test_each_events_scores_in_csv_name_their_events() -> None:
    """``each event``: each counted score with its event, in the CSV's Counted column."""
    rows = list(csv.reader(io.StringIO(as_csv(standings(TeamRule(1, "each event"))))))
    assert rows[-2:] == [
        ["1", "yes", "Knights", "9", "Ben 4 (W1); Ben 5 (W2)"],
        ["1", "yes", "Rooks", "9", "Ann 5 (W1); Cy 4 (W2)"],
    ]


def test_a_league_without_teams_shows_nothing_new() -> None:
    """No Team best N: no team rows, no ``teams`` key, no CSV second table, no page section."""
    table = standings(None)
    grid = standings_grid(table)
    assert not any(row and str(row[0].value).startswith("Teams") for row in grid)
    assert "teams" not in as_json(table)
    assert [] not in list(csv.reader(io.StringIO(as_csv(table))))
    assert "Teams" not in as_table(table)
    assert "teams-title" not in standings_page(table)


def test_the_rules_a_league_adds_are_said_under_the_table() -> None:
    """A formula league's notes say its formula; knockout points say their rule; the page
    says both in its header."""
    results = (
        Result("W1", "Ann", rank=1, knockouts=1),
        Result("W1", "Ben", rank=2, knocked_out_by="Ann"),
    )
    settings = Settings(
        "formula",
        formula=FormulaRule("school"),
        knockouts=KnockoutRule(points=10, bounty=5, bounties=("last winner",)),
    )
    table = compute_standings(League(settings, (Event("W1", players=16),), results))
    lines = [row[0].value for row in standings_grid(table) if len(row) == 1]
    assert "Points: school: 10 × √players / √place." in lines
    assert (
        "Knockouts: 10 points each; 5 more for knocking out last event's winner; an event's "
        "weight does not multiply them." in lines
    )
    assert "Points: school: 10 × √players / √place." in as_table(table)
    assert '<p class="note">Points: school: 10 × √players / √place.</p>' in standings_page(table)
