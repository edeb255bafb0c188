"""Seasons: several in one workbook, standings for one.

An event may name its season (the Events sheet's ``Season`` column). When events do, the
standings are those of one season: the one asked for (``--season``), else the one the
Settings name, else the latest (the season of the most recent dated event; undated, the last
listed). Results of other seasons' events are left out, not reported. Without seasons, every
event counts, and a workbook whose events span more than a year gets a warning: a player once
rose from 21st to 7th on last season's results left in the sheet. A rating list (Dip Pouch)
spans years by design, and gets no such warning.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from xlrally.core.errors import LeagueProblems, Problem
from xlrally.core.model import Event, League
from xlrally.core.players import key, tidy

LONGEST_SEASON = dt.timedelta(days=366)
"""Events of one season further apart than this get a warning."""


def seasons(events: tuple[Event, ...]) -> list[str]:
    """The seasons named by events, earliest first: by their latest dated event; a season
    with no dated event comes before the dated ones, in the order listed (so the latest is the
    season of the most recent dated event, or without dates the last listed). Spellings that
    differ only in case or spacing are one season, named as its first event writes it."""
    last: dict[str, tuple[int, dt.date, int]] = {}
    named: dict[str, str] = {}
    for index, event in enumerate(events):
        if not event.season:
            continue
        season = key(event.season)
        named.setdefault(season, tidy(event.season))
        dated = (1, event.date, 0) if event.date is not None else (0, dt.date.min, index)
        last[season] = max(last.get(season, dated), dated)
    return [named[s] for s in sorted(last, key=lambda s: last[s])]


def in_season(
    league: League, season: str | None = None, spans_years: bool = False
) -> tuple[League, tuple[str, ...]]:
    """The league restricted to one season, and warnings about its seasons (none about a span
    of years for a system that ``spans_years`` by design: a rating list).

    Raises LeagueProblems when the season asked for (or the one the Settings name, when events
    have seasons) is no event's.
    """
    named = seasons(league.events)
    if not named:
        if season:
            message = f"season {season!r} asked for, but no event has a Season"
            raise LeagueProblems([Problem(message, field="season")])
        return league, () if spans_years else _span_warning(league.events, "the events")
    wanted = season or league.settings.season or named[-1]
    found = {key(s): s for s in named}.get(key(wanted))
    if found is None:
        where = "asked for" if season else "in Settings"
        message = (
            f"season {wanted!r} ({where}) is no event's Season; the seasons are {', '.join(named)}"
        )
        raise LeagueProblems([Problem(message, field="season")])
    chosen = tuple(e for e in league.events if key(e.season) == key(found))
    left_out = {key(e.name) for e in league.events if key(e.season) != key(found)}
    results = tuple(r for r in league.results if key(r.event) not in left_out)
    notes = [] if spans_years else [*_span_warning(chosen, f"season {found}'s events")]
    unseasoned = [e.name for e in league.events if not e.season]
    if unseasoned:
        notes.append(
            f"events without a Season are left out: {', '.join(unseasoned)}; give each its season"
        )
    settings = dataclasses.replace(league.settings, season=found)
    restricted = dataclasses.replace(league, settings=settings, events=chosen, results=results)
    return restricted, tuple(notes)


def _span_warning(events: tuple[Event, ...], what: str) -> tuple[str, ...]:
    dates = [e.date for e in events if e.date is not None]
    if not dates or max(dates) - min(dates) <= LONGEST_SEASON:
        return ()
    return (
        f"{what} span {min(dates).isoformat()} to {max(dates).isoformat()}, more than a year: "
        "if that is two seasons, give each event its season in a Season column of the Events "
        "sheet (the standings are then the latest season's, or the one Settings names)",
    )
