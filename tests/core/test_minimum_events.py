"""Issue 16: a minimum number of events to qualify ("must play 3 events").

A rally season of three events (seed formula ⌊100 × points / (rounds − byes)⌋ + games; three
events held: the best ⌈(3 + 1) / 2⌉ = 2 count):

- Bobby plays all three: Dec 3 of 4 → 79, Feb 4 of 6 → 72, May 1 point in 1 game → 21:
  79 + 72 = 151.
- Ann plays Dec and Feb as Bobby did: 151, equal to Bobby, but only 2 events.
- Mikhail wins every game of Dec and Feb: ⌊100 × 4 / 4⌋ + 4 = 104 and 100 + 6 = 106: 210,
  the best total, in 2 events.
- José plays May only: 2 points, 4 games, 1 bye → ⌊100 × 2 / 4⌋ + 4 = 54.

With a minimum of 3, only Bobby qualifies. The others follow him whatever their totals, in
their own order (Mikhail 210, Ann 151, José 54), marked with the events they still need; Ann
is not tied with Bobby: the line between them is the minimum, not the total.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path

import pytest
from helpers import write_book

from xlrally.app.sync import read_standings
from xlrally.core.errors import FileProblems
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.ranking import Entry, Score, rank_with_minimum
from xlrally.formats.grid import standings_grid
from xlrally.formats.page import standings_page
from xlrally.formats.report import as_csv, as_table, json_text

EVENTS = (
    Event("Dec 2025", dt.date(2025, 12, 6), rounds=4),
    Event("Feb 2026", dt.date(2026, 2, 7), rounds=6),
    Event("May 2026", dt.date(2026, 5, 9), rounds=5),
)
RESULTS = (
    Result("Dec 2025", "Bobby", points=3, games=4),
    Result("Feb 2026", "Bobby", points=4, games=6),
    Result("May 2026", "Bobby", points=1, games=1),
    Result("Dec 2025", "Ann", points=3, games=4),
    Result("Feb 2026", "Ann", points=4, games=6),
    Result("Dec 2025", "Mikhail", points=4, games=4),
    Result("Feb 2026", "Mikhail", points=6, games=6),
    Result("May 2026", "José", points=2, games=4, byes=1),
)


def season(minimum: int, below: str = "ranked after") -> League:
    return League(Settings("rally", min_events=minimum, below_minimum=below), EVENTS, RESULTS)


def test_without_a_minimum_the_best_total_wins() -> None:
    rows = compute_standings(season(0)).rows
    assert [(r.rank_label, r.player, r.total) for r in rows] == [
        ("1", "Mikhail", 210),
        ("2=", "Ann", 151),
        ("2=", "Bobby", 151),
        ("4", "José", 54),
    ]


def test_players_short_of_the_minimum_are_ranked_after_the_qualified() -> None:
    rows = compute_standings(season(3)).rows
    assert [(r.rank_label, r.player, r.total, r.needs) for r in rows] == [
        ("1", "Bobby", 151, 0),
        ("2", "Mikhail", 210, 1),
        ("3", "Ann", 151, 1),
        ("4", "José", 54, 2),
    ]


def test_or_left_unranked() -> None:
    rows = compute_standings(season(3, "unranked")).rows
    assert [(r.rank_label, r.shown_rank, r.player) for r in rows] == [
        ("1", 1, "Bobby"),
        ("–", None, "Mikhail"),
        ("–", None, "Ann"),
        ("–", None, "José"),
    ]


def test_every_output_marks_the_players_short_of_the_minimum() -> None:
    """The text table and the page mark the row; the sheet's working says it; CSV and JSON
    carry the number; the notes under each table give the rule."""
    standings = compute_standings(season(3, "unranked"))
    rule = (
        "Players must play 3 events to qualify: 3 players with fewer are listed after the "
        "qualified, without a rank, marked “needs N more”."
    )
    table = as_table(standings)
    assert "Mikhail (needs 1 more)" in table
    assert "José (needs 2 more)" in table
    assert rule in table
    page = standings_page(standings)
    assert 'Mikhail</a> <span class="needs">needs 1 more</span>' in page
    assert rule in page
    grid = standings_grid(standings)
    mikhail = next(row for row in grid if len(row) > 1 and row[1].value == "Mikhail")
    assert mikhail[0].value is None  # no rank
    assert str(mikhail[-1].value).startswith("Needs 1 more event to qualify (minimum 3). ")
    assert any(row and row[0].value == rule for row in grid)
    rows = list(csv.DictReader(io.StringIO(as_csv(standings))))
    assert [(r["Rank"], r["Player"], r["Needs"]) for r in rows] == [
        ("1", "Bobby", "0"),
        ("", "Mikhail", "1"),
        ("", "Ann", "1"),
        ("", "José", "2"),
    ]
    data = json.loads(json_text(standings))
    assert [(p["rank"], p["player"], p["needs"]) for p in data["standings"]] == [
        (1, "Bobby", 0),
        (None, "Mikhail", 1),
        (None, "Ann", 1),
        (None, "José", 2),
    ]


def test_the_settings_are_read_from_the_workbook(tmp_path: Path) -> None:
    """`Minimum events` and `Below minimum` in Settings; a value not among the choices is
    refused with the cell to correct."""

    def book(below: str) -> Path:
        return write_book(
            tmp_path / f"{below}.xlsx",
            {
                "Settings": [
                    ["Setting", "Value"],
                    ["System", "rally"],
                    ["Minimum events", 3],
                    ["Below minimum", below],
                ],
                "Events": [
                    ["Event", "Date", "Rounds"],
                    *([e.name, e.date, e.rounds] for e in EVENTS),
                ],
                "Results": [
                    ["Event", "Player", "Points", "Games", "Byes"],
                    *([r.event, r.player, r.points, r.games, r.byes] for r in RESULTS),
                ],
            },
        )

    rows = read_standings(book("Unranked")).rows
    assert [(r.rank_label, r.player) for r in rows][:2] == [("1", "Bobby"), ("–", "Mikhail")]
    with pytest.raises(FileProblems) as caught:
        read_standings(book("later"))
    assert caught.value.messages[0].endswith(
        "Settings!B4: Below minimum must be ranked after or unranked, not 'later'"
    )


def test_a_section_keeps_the_minimums_rule() -> None:
    """A section's table is ranked among its players by the same rule: in an 'Open' section
    of Bobby, Mikhail and José with a minimum of 3 and players below it unranked, only Bobby
    has a rank; the section is named as the Players sheet spells it, whatever case it is
    asked for in, and a section nobody is in is an empty table under the name asked for."""
    from xlrally.core.sections import of_section

    league = season(3, "unranked")
    open_section = dict.fromkeys(("Bobby", "Mikhail", "José"), ("Open",))
    standings = compute_standings(
        League(league.settings, league.events, league.results, sections=open_section)
    )
    table = of_section(standings, "OPEN")
    assert table.section == "Open"
    assert [(r.rank_label, r.player) for r in table.rows] == [
        ("1", "Bobby"),
        ("–", "Mikhail"),
        ("–", "José"),
    ]
    empty = of_section(standings, "Juniors")
    assert (empty.section, empty.rows) == ("Juniors", ())


# ---------------------------------------------------------------- events still needed


def test_events_still_needed_count_events_played_not_scores_counted() -> None:
    """Minimum 4 events; Al played 3, of which only the best 2 count: he needs 4 − 3 = 1
    more (counting the scores that count would say 2)."""
    scores = (Score("A", 79), Score("B", 54), Score("C", 29))
    rows = rank_with_minimum(
        [Entry("Al", 133, scores, frozenset({"A", "B"}))], minimum=4, unranked=False
    )
    assert [(r.player, r.needs) for r in rows] == [("Al", 1)]


def test_events_still_needed_in_a_league_and_on_its_sheet() -> None:
    """Rally, 3 events held: the best ⌈(3 + 1) / 2⌉ = 2 count. Minimum 4. Al plays all three
    (3, 2, 1 of 4 games: 79, 54, 29; 29 dropped): 1 more needed, as every output says."""
    events = tuple(
        Event(n, dt.date(2026, m, 1), rounds=4) for n, m in (("A", 1), ("B", 2), ("C", 3))
    )
    results = tuple(
        Result(event, "Al", points=points, games=4)
        for event, points in zip("ABC", (3, 2, 1), strict=True)
    )
    standings = compute_standings(League(Settings("rally", min_events=4), events, results))
    [row] = standings.rows
    assert (row.total, row.needs) == (133, 1)
    texts = [str(c.value) for r in standings_grid(standings) for c in r if isinstance(c.value, str)]
    assert any("1 more" in t for t in texts), texts
    assert not any("2 more" in t for t in texts), texts
