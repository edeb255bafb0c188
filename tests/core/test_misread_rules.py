"""Rules that print a wrong line when broken, each with a case that separates right from wrong
(issue 28, finding 3). The expected numbers are worked here by hand from each rule's statement:
the tie-breaks and the minimum from :mod:`xlrally.core.ranking`'s docstring, the decimals from
:mod:`xlrally.formats.view`'s, seasons from :mod:`xlrally.core.seasons`' (names compared as
every name is: trimmed, inner spaces collapsed, case-folded), the Dip Pouch rating from the
seed formula in :mod:`xlrally.core.systems.dippouch`.
"""

from __future__ import annotations

import datetime as dt

import pytest

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.ranking import Entry, Score, rank_entries, rank_with_minimum
from xlrally.formats.grid import standings_grid
from xlrally.formats.report import as_csv

# ---------------------------------------------------------------- tie-break: most recent event


def test_recent_absent_from_the_latest_event_is_below_a_zero_in_it() -> None:
    """``recent`` compares the scores in the latest event held: a player who played it and
    scored 0 has a score there; one who was absent has none, and is below. (A rule that took
    absence as 0 would tie them, and list them by name: Al first.)"""
    rows = rank_entries(
        [
            Entry("Al", 50, (Score("A", 50),), frozenset({"A"})),
            Entry("Bo", 50, (Score("A", 50), Score("B", 0)), frozenset({"A", "B"})),
        ],
        ["recent"],
        ["A", "B"],
    )
    assert [(r.rank_label, r.player, r.decided_by) for r in rows] == [
        ("1", "Bo", None),
        ("2", "Al", "most recent event"),
    ]


def test_recent_in_a_league_a_player_who_scored_0_in_the_last_event() -> None:
    """Rally, best ⌈(2 + 1) / 2⌉ = 2 of the 2 events held (A, then B). Al: A 2 of 4 games,
    ⌊100 × 2 / 4⌋ + 4 = 54, absent from B. Bo: A the same 54, and entered B but played no
    game: ⌊100 × 0 / 4⌋ + 0 = 0. Both 54; Bo has a score in B, Al none: Bo is ahead."""
    events = (Event("A", dt.date(2026, 1, 10), rounds=4), Event("B", dt.date(2026, 2, 7), rounds=4))
    results = (
        Result("A", "Al", points=2, games=4),
        Result("A", "Bo", points=2, games=4),
        Result("B", "Bo", points=0, games=0),
    )
    league = League(Settings("rally", tie_breaks=("recent",)), events, results)
    rows = compute_standings(league).rows
    assert [(r.rank_label, r.player, r.total) for r in rows] == [("1", "Bo", 54), ("2", "Al", 54)]
    assert rows[1].decided_by == "most recent event"


# ---------------------------------------------------------------- tie-break: best single score


def test_best_single_score_counts_a_score_that_was_not_counted() -> None:
    """``best``: the best single score, counted or not. Al's best, 90, is not counted (an
    event that cannot count, as a Dip Pouch event of value 0); Bo's best is 70. Equal totals:
    Al is ahead on 90 > 70 (over counted scores only it would be Bo, 70 > 60)."""
    rows = rank_entries(
        [
            Entry("Al", 120, (Score("A", 90, eligible=False), Score("B", 60), Score("C", 60)),
                  frozenset({"B", "C"})),
            Entry("Bo", 120, (Score("A", 70), Score("B", 50)), frozenset({"A", "B"})),
        ],
        ["best"],
        ["A", "B", "C"],
    )  # fmt: skip
    assert [(r.player, r.decided_by) for r in rows] == [("Al", None), ("Bo", "best single score")]


# ---------------------------------------------------------------- the qualifying minimum


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


# ---------------------------------------------------------------- decimals shown


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


# ---------------------------------------------------------------- seasons


def seasons_spelt(*spellings: str, settings: str = "") -> League:
    """Reverse order, 2 players: 1st 2 points, 2nd 1. Three events, the first two of one
    season written as ``spellings`` give; Oct 2025 in 2025-26. Ann wins Sep and Nov, Bo wins
    Oct. Hand-worked: the first season Ann 2 + 2 = 4, Bo 1 + 1 = 2."""
    events = (
        Event("Sep 2024", dt.date(2024, 9, 7), season=spellings[0]),
        Event("Nov 2024", dt.date(2024, 11, 2), season=spellings[1]),
        Event("Oct 2025", dt.date(2025, 10, 4), season="2025-26"),
    )
    results = (
        Result("Sep 2024", "Ann", rank=1),
        Result("Sep 2024", "Bo", rank=2),
        Result("Nov 2024", "Ann", rank=1),
        Result("Nov 2024", "Bo", rank=2),
        Result("Oct 2025", "Bo", rank=1),
        Result("Oct 2025", "Ann", rank=2),
    )
    return League(Settings("reverse", season=settings), events, results)


@pytest.mark.parametrize(
    ("spellings", "asked"),
    [
        (("Winter 2024", "winter 2024"), "Winter 2024"),
        (("Winter 2024", "Winter  2024 "), "winter 2024"),
        (("2024-25", "2024-25"), " 2024-25"),
    ],
    ids=["case", "spacing", "asked with a space"],
)
def test_a_season_written_in_another_case_or_spacing_is_the_same_season(
    spellings: tuple[str, str], asked: str
) -> None:
    """Both events of the first season count, asked for in the Settings or on the command
    line in any case or spacing, and the season is named as its first event writes it."""
    for league, season in (
        (seasons_spelt(*spellings, settings=asked), None),
        (seasons_spelt(*spellings), asked),
    ):
        standings = compute_standings(league, season=season)
        assert [(r.player, r.total) for r in standings.rows] == [("Ann", 4), ("Bo", 2)]
        assert standings.held == ("Sep 2024", "Nov 2024")
        assert standings.settings.season == " ".join(spellings[0].split())


def test_seasons_in_another_case_are_not_two_seasons() -> None:
    """The latest season by default: 2025-26 (Oct 2025), not a 'winter 2024' that would be a
    season of its own."""
    standings = compute_standings(seasons_spelt("Winter 2024", "WINTER 2024"))
    assert [(r.player, r.total) for r in standings.rows] == [("Bo", 2), ("Ann", 1)]
    with pytest.raises(Exception, match=r"the seasons are Winter 2024, 2025-26$"):
        compute_standings(seasons_spelt("Winter 2024", "WINTER 2024"), season="Spring")
