"""Several seasons in one workbook: standings of one, never a silent merge."""

from __future__ import annotations

import datetime as dt

import pytest

from xlrally.core.errors import LeagueProblems
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings


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
