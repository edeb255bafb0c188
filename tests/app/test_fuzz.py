"""Fuzzing: hypothesis-generated workbooks, valid and invalid, through read, sync and read again.

Nothing but domain errors may come out, and every valid workbook round-trips: the Standings
read back from the file are the engine's, and a second sync changes nothing.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path
from typing import Any

from helpers import plain, write_book
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from xlrally.app.sync import read_standings, sync_file
from xlrally.core.errors import XlrallyError
from xlrally.core.systems import SYSTEMS
from xlrally.formats.grid import standings_grid
from xlrally.ooxml.reader import FileSheets

NAMES = st.sampled_from(
    [
        "Ann",
        "ann ",
        "Bo",
        "José",
        "=1+1",
        "@x",
        "-y",
        "<b>z</b>",
        "J Smith",
        "John Smith",
        "",
        "Zoë 漢字",
    ]
)
NUMBER = st.one_of(
    st.integers(-2, 12),
    st.sampled_from([0.5, 1.5, 2.25, 1e9]),
    st.none(),
    st.sampled_from(["3", "x", ""]),
)


@st.composite
def workbooks(draw: st.DrawFn) -> dict[str, list[list[Any]]]:
    system = draw(st.sampled_from([*SYSTEMS, "elo"]))
    settings_rows: list[list[Any]] = [["System", system]]
    if draw(st.booleans()):
        settings_rows.append(["Best X", draw(st.one_of(st.integers(0, 4), st.just("two")))])
    events = draw(
        st.lists(st.sampled_from(["E1", "E2", "E3", "e1", "=E4"]), min_size=1, max_size=4)
    )
    event_rows: list[list[Any]] = [["Event", "Date", "Rounds", "Buy-in", "Players", "Status"]]
    for index, name in enumerate(events):
        event_rows.append(
            [
                name,
                f"2024-0{index + 1}-01",
                draw(NUMBER),
                draw(NUMBER),
                draw(st.one_of(st.none(), st.integers(0, 12))),
                draw(st.sampled_from([None, "pending", "ranked", "later"])),
            ]
        )
    header = ["Event", "Player", "Points", "Games", "Byes", "Rank", "Total"]
    results: list[list[Any]] = [header]
    for _ in range(draw(st.integers(0, 10))):
        results.append(
            [
                draw(st.sampled_from([*events, "E9"])),
                draw(NAMES),
                draw(NUMBER),
                draw(NUMBER),
                draw(NUMBER),
                draw(NUMBER),
                draw(NUMBER),
            ]
        )
    return {
        "Settings": settings_rows,
        "Events": event_rows,
        "Results": results,
        "Points": [["Rank", "Points", "Bonus"], [1, 10, 2], [2, 5, None]],
    }


@st.composite
def valid_workbooks(draw: st.DrawFn) -> dict[str, list[list[Any]]]:
    """Workbooks that must score: consistent rounds, points, ranks (ties only for Dip Pouch)."""
    system = draw(st.sampled_from(list(SYSTEMS)))
    names = draw(
        st.lists(
            st.sampled_from(["Ann", "Bo", "=Cy", "@Di", "Ed <i>", "Fay", "Gus"]),
            min_size=1,
            max_size=6,
            unique=True,
        )
    )
    events = [f"Event {i}" for i in range(1, draw(st.integers(1, 4)) + 1)]
    rounds = {e: draw(st.integers(3, 6)) for e in events}
    event_rows: list[list[Any]] = [["Event", "Date", "Rounds", "Buy-in"]]
    event_rows += [[e, f"2024-0{i + 1}-05", rounds[e], 20] for i, e in enumerate(events)]
    results: list[list[Any]] = [["Event", "Player", "Points", "Games", "Byes", "Rank", "Total"]]
    for name in events:
        players = draw(st.lists(st.sampled_from(names), unique=True, min_size=1))
        order = draw(st.permutations(players))
        for place, player in enumerate(order, start=1):
            byes = draw(st.integers(0, rounds[name] - 1))
            games = draw(st.integers(0, rounds[name] - byes))
            points = draw(st.integers(0, 2 * games)) / 2
            rank = 1 if system == "dippouch" and draw(st.booleans()) and place == 2 else place
            total = draw(st.sampled_from([None, 20, 40]))
            results.append([name, player, points, games, byes, rank, total])
    settings_rows: list[list[Any]] = [
        ["System", system],
        ["Participating", draw(st.integers(0, 3))],
    ]
    if draw(st.booleans()):
        settings_rows.append(["Tie break", "countback, most recent"])
    return {
        "Settings": settings_rows,
        "Events": event_rows,
        "Results": results,
        "Points": [["Rank", "Points", "Bonus"], [1, 10, 2], [2, 5, None]],
    }


def rally_totals(sheets: dict[str, list[list[Any]]]) -> dict[str, int]:
    """The rally seed's rule written again, independently of xlrally: each event scores
    ⌊100 × points / (rounds − byes) + games⌋, and the best ⌈(min(held, 9) + 1) / 2⌉ count."""
    rounds = {row[0]: row[2] for row in sheets["Events"][1:]}
    scores: dict[str, list[int]] = {}
    for event_name, player, points, games, byes, *_ in sheets["Results"][1:]:
        score = math.floor(100 * points / (rounds[event_name] - byes) + games)
        scores.setdefault(player, []).append(score)
    counted = math.ceil((min(len(rounds), 9) + 1) / 2)
    return {p: sum(sorted(s, reverse=True)[:counted]) for p, s in scores.items()}


@given(st.one_of(workbooks(), valid_workbooks()))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_workbooks_round_trip_or_fail_cleanly(sheets: dict[str, list[list[Any]]]) -> None:
    """read -> sync -> read: only domain errors; valid workbooks read back the engine's grid."""
    with tempfile.TemporaryDirectory() as folder:
        path = write_book(Path(folder) / "fuzz.xlsx", sheets)
        before = path.read_bytes()
        try:
            standings = read_standings(path)
        except XlrallyError:
            event("invalid workbook")
            outcome = sync_file(path)
            assert not outcome.ok
            assert all(line.startswith(f"{path}: ") for line in outcome.problems)
            assert path.read_bytes() == before
            return
        event("valid workbook")
        outcome = sync_file(path)
        assert outcome.ok, outcome.problems
        with FileSheets(path) as book:
            written = book.values("Standings")
        expected = [[cell.value for cell in row] for row in standings_grid(standings)]
        assert plain(written) == plain(expected)
        assert read_standings(path).rows == standings.rows
        if sheets["Settings"][0] == ["System", "rally"]:  # right, not only consistent
            assert {r.player: r.total for r in standings.rows} == rally_totals(sheets)
        assert sync_file(path).result == "unchanged"
