"""Issue 16: sections (grading bands, juniors, divisions): a table each, from the same results.

The season of tests/core/test_minimum_events.py (hand-worked there): Mikhail 210, Ann 151,
Bobby 151, José 54. Sections from the Players sheet: Mikhail U1600; Ann Junior; Bobby Open;
José "U1600, Junior" (two sections). Each section ranks its own players: U1600 Mikhail 1,
José 2; Junior Ann 1, José 2; Open Bobby 1.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from helpers import write_book
from test_minimum_events import EVENTS, RESULTS

from xlrally.app.sync import read_standings
from xlrally.cli import cli
from xlrally.core.sections import of_section, section_names
from xlrally.formats.grid import standings_grid
from xlrally.formats.page import standings_page

PLAYERS = [
    ["Player", "Section"],
    ["Mikhail", "U1600"],
    ["Ann", "Junior"],
    ["Bobby", "Open"],
    ["José", "U1600, Junior"],
]


def league_book(tmp_path: Path) -> Path:
    return write_book(
        tmp_path / "league.xlsx",
        {
            "Settings": [["Setting", "Value"], ["System", "rally"]],
            "Events": [["Event", "Date", "Rounds"], *([e.name, e.date, e.rounds] for e in EVENTS)],
            "Results": [
                ["Event", "Player", "Points", "Games", "Byes"],
                *([r.event, r.player, r.points, r.games, r.byes] for r in RESULTS),
            ],
            "Players": PLAYERS,
        },
    )


def test_each_section_ranks_its_own_players(tmp_path: Path) -> None:
    standings = read_standings(league_book(tmp_path))
    assert section_names(standings) == ["U1600", "Junior", "Open"]  # as met down the table
    ranked = {
        name: [(r.rank_label, r.player, r.total) for r in of_section(standings, name).rows]
        for name in section_names(standings)
    }
    assert ranked == {
        "U1600": [("1", "Mikhail", 210), ("2", "José", 54)],
        "Junior": [("1", "Ann", 151), ("2", "José", 54)],
        "Open": [("1", "Bobby", 151)],
    }


def test_the_standings_sheet_has_a_table_per_section(tmp_path: Path) -> None:
    """Below the league's table and notes: a title row, the heading row, the section's rows."""
    grid = standings_grid(read_standings(league_book(tmp_path)))
    values = [[cell.value for cell in row] for row in grid]
    start = values.index(["Section: Junior"])
    assert values[start + 1][:4] == ["Rank", "Player", "Total", "Events"]
    assert [row[:3] for row in values[start + 2 : start + 4]] == [[1, "Ann", 151], [2, "José", 54]]


def test_standings_section_option_json_and_page(tmp_path: Path) -> None:
    path = league_book(tmp_path)
    run = CliRunner().invoke(cli, ["standings", str(path), "--section", "junior", "-f", "json"])
    assert run.exit_code == 0, run.output
    data = json.loads(run.output)
    assert data["section"] == "Junior"
    assert [(p["rank"], p["player"], p["sections"]) for p in data["standings"]] == [
        (1, "Ann", ["Junior"]),
        (2, "José", ["U1600", "Junior"]),
    ]
    unknown = CliRunner().invoke(cli, ["standings", str(path), "--section", "U1400"])
    assert unknown.exit_code == 1
    assert "no section 'U1400'; the sections are: U1600, Junior, Open" in unknown.output
    page = standings_page(read_standings(path))
    junior = page[page.index(">Section: Junior<") :]
    junior = junior[: junior.index("</table>")]
    assert [name for name in ("Ann", "José", "Mikhail", "Bobby") if f">{name}<" in junior] == [
        "Ann",
        "José",
    ]
