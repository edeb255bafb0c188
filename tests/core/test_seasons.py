"""Several seasons in one workbook: standings of one, never a silent merge."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from xlrally.core.errors import LeagueProblems
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.seasons import seasons


def two_seasons(settings_season: str = "", *, seasons: bool = True) -> League:
    """Reverse order, 1 point per place. Last season Ann won both weeks (2 players: 2 + 2);
    this season Bo won and Ann came second (2 + 1). Hand-worked totals: 2024-25 Ann 4, Bo 2;
    2025-26 Bo 2, Ann 1; merged Ann 5, Bo 4."""
    old, new = ("2024-25", "2025-26") if seasons else ("", "")
    events = (
        Event("Sep 2024", dt.date(2024, 9, 7), season=old),
        Event("Nov 2024", dt.date(2024, 11, 2), season=old),
        Event("Oct 2025", dt.date(2025, 10, 4), season=new),
    )
    results = (
        Result("Sep 2024", "Ann", rank=1),
        Result("Sep 2024", "Bo", rank=2),
        Result("Nov 2024", "Ann", rank=1),
        Result("Nov 2024", "Bo", rank=2),
        Result("Oct 2025", "Bo", rank=1),
        Result("Oct 2025", "Ann", rank=2),
    )
    return League(Settings("reverse", season=settings_season), events, results)


def totals(league: League, season: str | None = None) -> list[tuple[str, float]]:
    return [(r.player, r.total) for r in compute_standings(league, season=season).rows]


def test_the_latest_season_by_default() -> None:
    table = compute_standings(two_seasons())
    assert [(r.player, r.total) for r in table.rows] == [("Bo", 2), ("Ann", 1)]
    assert table.settings.season == "2025-26"
    assert table.held == ("Oct 2025",)


def test_the_settings_or_the_command_pick_a_season() -> None:
    assert totals(two_seasons("2024-25")) == [("Ann", 4), ("Bo", 2)]
    assert totals(two_seasons(), season="2024-25") == [("Ann", 4), ("Bo", 2)]
    assert totals(two_seasons("2024-25"), season="2025-26") == [("Bo", 2), ("Ann", 1)]


def test_an_unknown_season_is_an_error_naming_the_seasons() -> None:
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(two_seasons(), season="2023")
    assert [str(p) for p in caught.value.problems] == [
        "season '2023' (asked for) is no event's Season; the seasons are 2024-25, 2025-26"
    ]


def test_events_over_more_than_a_year_without_seasons_are_warned() -> None:
    """Issue 13: the seasons merge (Ann 5, Bo 4), as before, but not silently."""
    table = compute_standings(two_seasons(seasons=False))
    assert [(r.player, r.total) for r in table.rows] == [("Ann", 5), ("Bo", 4)]
    assert table.warnings[0].startswith(
        "the events span 2024-09-07 to 2025-10-04, more than a year: if that is two seasons"
    )


def problem(league: League, season: str | None = None) -> tuple[str, str | None]:
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(league, season=season)
    (only,) = caught.value.problems
    return only.message, only.field


def test_a_season_asked_for_when_no_event_has_one_is_an_error() -> None:
    """Named at the Settings' Season field (the command line's --season has no cell)."""
    assert problem(two_seasons(seasons=False), season="2025-26") == (
        "season '2025-26' asked for, but no event has a Season",
        "season",
    )


def test_a_season_the_settings_name_that_no_event_has_is_an_error() -> None:
    assert problem(two_seasons("2019-20")) == (
        "season '2019-20' (in Settings) is no event's Season; the seasons are 2024-25, 2025-26",
        "season",
    )


def test_seasons_are_ordered_by_their_latest_dated_event() -> None:
    """The module's rule: earliest first by the season's latest dated event; a season with
    no dated event before the dated ones, in the order listed; the latest is the default."""
    events = (
        Event("a", None, season="Winter"),
        Event("b", dt.date(2025, 3, 1), season="B"),
        Event("c", dt.date(2024, 1, 1), season="A"),
        Event("d", dt.date(2025, 1, 1), season="A"),  # A's latest: 2025-01-01, before B's
        Event("e", None, season="Summer"),
        Event("f", None, season="B"),  # an undated event does not move a dated season
    )
    assert seasons(events) == ["Winter", "Summer", "A", "B"]
    undated = (Event("x", None, season="Old"), Event("y", None, season="New"))
    assert seasons(undated) == ["Old", "New"]


def test_events_without_a_season_are_left_out_and_named() -> None:
    """Oct 2025 has no Season while the others do: the standings are 2024-25's (the only
    season), and a note names the event left out. Hand-worked: Ann 2 + 2 = 4, Bo 1 + 1 = 2."""
    league = two_seasons()
    events = (*league.events[:2], dataclasses.replace(league.events[2], season=""))
    table = compute_standings(dataclasses.replace(league, events=events))
    assert [(r.player, r.total) for r in table.rows] == [("Ann", 4), ("Bo", 2)]
    assert [e.name for e in table.events] == ["Sep 2024", "Nov 2024"]
    assert "events without a Season are left out: Oct 2025; give each its season" in table.warnings


@pytest.mark.parametrize(("days", "warned"), [(366, False), (367, True)])
def test_a_season_longer_than_a_year_is_warned(days: int, warned: bool) -> None:
    """366 days apart is still a year (a leap year's season); one more day is warned."""
    first = dt.date(2024, 9, 7)
    events = (
        Event("First", first, season="S"),
        Event("Last", first + dt.timedelta(days=days), season="S"),
    )
    results = (Result("First", "Ann", rank=1), Result("Last", "Ann", rank=1))
    table = compute_standings(League(Settings("reverse"), events, results))
    expected = [
        f"season S's events span 2024-09-07 to {(first + dt.timedelta(days=days)).isoformat()}, "
        "more than a year: if that is two seasons, give each event its season in a Season "
        "column of the Events sheet (the standings are then the latest season's, or the one "
        "Settings names)"
    ]
    assert [w for w in table.warnings if "span" in w] == (expected if warned else [])


# ---------------------------------------------------------------- a season's spelling


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
