"""A league's standings, computed from what was entered, for every system.

This is the one entry point the edges call: they build a :class:`League` from whatever they read
and get :class:`~xlrally.core.standings.Standings` (or
:class:`~xlrally.core.errors.LeagueProblems` listing every problem; :func:`check_league` for the
problems alone, with those the edge found itself). Everything is recomputed from the raw
results each time, so changing the point structure changes every event's points.

The work is the system's (:meth:`~xlrally.core.systems.base.System.tally`: each held event
scored in date order, then what the events come to); around it this module indexes what was
entered (:mod:`~xlrally.core.entered`), decides each event's status, ranks the players
(:mod:`~xlrally.core.ranking`) and pays the prizes (:mod:`~xlrally.core.awards`).

>>> league = League(
...     Settings("rally"),
...     events=(Event("Dec 2025", rounds=4), Event("May 2026", rounds=5)),
...     results=(
...         Result("Dec 2025", "Bobby", points=3),
...         Result("May 2026", "José", points=2, byes=1, games=4),
...         Result("May 2026", "Bobby", points=1, games=5),
...     ),
... )
>>> table = compute_standings(league)
>>> table.rule
'All 2 events count'
>>> [(row.rank_label, row.player, row.total) for row in table.rows]
[('1', 'Bobby', 104), ('2', 'José', 54)]
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Mapping
from typing import TypeVar

from xlrally.core.awards import check_prizes, collected, with_prizes
from xlrally.core.checks import Collector, merged
from xlrally.core.entered import (
    Entered,
    in_date_order,
    index_events,
    index_results,
    name_warnings,
)
from xlrally.core.errors import LeagueProblems, Problem
from xlrally.core.knockouts import resolve, resolved_rule
from xlrally.core.model import Event, EventStatus, League, Result, Settings, Status
from xlrally.core.money import uses_money, with_money
from xlrally.core.numbers import whole
from xlrally.core.outlook import outlook_of
from xlrally.core.players import key as _k
from xlrally.core.ranking import rank_with_minimum
from xlrally.core.seasons import in_season
from xlrally.core.standings import Standings
from xlrally.core.systems import SYSTEMS, System, known
from xlrally.core.systems.base import Tally
from xlrally.core.teams import TeamStanding, team_standings

__all__ = ["Event", "League", "Result", "Settings", "check_league", "compute_standings"]

T = TypeVar("T")


def compute_standings(
    league: League, as_of: dt.date | None = None, season: str | None = None
) -> Standings:
    """Score every held event and rank the players. Raises LeagueProblems listing every problem.

    ``as_of``: only events dated on or before it count (undated events always count).
    ``season``: when events name their seasons, the season to score (see
    :mod:`xlrally.core.seasons`; default the Settings' season, else the latest).
    """
    system = SYSTEMS.get(league.settings.system)
    if system is None:
        message = f"unknown system {league.settings.system!r}: use one of {known()}"
        raise LeagueProblems([Problem(message, field="system")])
    league, season_notes = in_season(league, season, system.spans_years)
    settings = league.settings
    if settings.knockouts.active and not system.takes_knockouts:
        message = f"knockout points are for poker leagues' finishes, not the {system.name}"
        raise LeagueProblems([Problem(message, field="knockout points")])
    problems = Collector()
    events, faulty = index_events(league.events, system, problems)
    entered = index_results(league, events, problems)
    scoring = settings
    knockouts = settings.knockouts.active or system.counts_knockouts(settings)
    if system.takes_knockouts and knockouts:  # else Knocked out by is not needed
        resolve(entered, problems)
        if settings.knockouts.bounty:
            scoring = dataclasses.replace(
                settings, knockouts=resolved_rule(settings.knockouts, entered)
            )
    tally = system.tally(scoring)
    statuses, notes = _score_events(system, tally, events, faulty, entered, as_of, problems)
    check_prizes(settings, problems)
    if problems.problems:
        raise LeagueProblems(problems.problems)

    held = [s.name for s in statuses if s.held]
    tallied = tally.tallied(entered.display, len(held))
    rows = rank_with_minimum(
        tallied.entries,
        settings.min_events,
        settings.below_minimum == "unranked",
        settings.tie_breaks,
        held,
    )
    warnings = league.notes + season_notes + tuple(notes) + name_warnings(league, entered)
    countries = _as_shown(league.countries, entered)
    sections = _as_shown(league.sections, entered)
    teams: tuple[TeamStanding, ...] = ()
    if settings.teams.best_n is not None:
        members = _as_shown(league.teams, entered)
        teams = team_standings(rows, members, settings.teams.best_n, settings.teams.scores, held)
    standings = Standings(
        settings,
        statuses,
        rows,
        tallied.counted_per_player,
        tallied.rule,
        warnings,
        tallied.history,
        as_of,
        countries,
        sections,
        teams=teams,
    )
    return _with_money_and_outlook(league, standings, entered, held)


def _with_money_and_outlook(
    league: League, standings: Standings, entered: Entered, held: list[str]
) -> Standings:
    """The standings with the league's money (its ledger's, else its prizes') and, when the
    league asks, what it takes."""
    settings = league.settings
    if uses_money(league):
        standings = with_money(league, standings, entered)
    elif settings.prizes:
        money = collected(league, held, entered.by_event) if settings.pot_share else 0.0
        standings = with_prizes(standings, money)
    if settings.what_it_takes or settings.events_left is not None:
        standings = dataclasses.replace(standings, outlook=outlook_of(league, standings))
    return standings


def _as_shown(facts: Mapping[str, T], entered: Entered) -> dict[str, T]:
    """What the league says of its players (a country, sections, a team), by each one's name
    as the standings show it; a spelling of no player with results is left out."""
    return {
        entered.display[pk]: fact
        for spelling, fact in facts.items()
        if (pk := entered.roster.resolve(spelling)) in entered.display
    }


def check_league(
    league: League, found: Iterable[Problem] = (), missing: Iterable[str] = ()
) -> None:
    """Raise LeagueProblems listing every problem of the league at once: those an edge
    ``found`` reading it (with the fields whose whole column was ``missing``), then the
    core's own, but for the core's echoes of the edge's (see
    :func:`~xlrally.core.checks.merged`). Returns when there are none."""
    found = list(found)
    try:
        compute_standings(league)
    except LeagueProblems as core:
        raise merged(found, core.problems, missing) from None
    if found:
        raise LeagueProblems(found)


def _score_events(
    system: System,
    tally: Tally,
    events: dict[str, Event],
    faulty: set[str],
    entered: Entered,
    as_of: dt.date | None,
    problems: Collector,
) -> tuple[tuple[EventStatus, ...], list[str]]:
    """Each event's status, in date order, and each held event scored by the tally (unless
    its own fields are faulty); with the notes on events not scored yet."""
    statuses = []
    notes = []
    for event in in_date_order(events.values()):
        ek = _k(event.name)
        keyed = entered.by_event[ek]
        results = [result for _, result in keyed]
        status = _status(event, results, system, as_of)
        statuses.append(EventStatus(event.name, event.date, status))
        if status is Status.NOT_RANKED:
            notes.append(f"{event.name}: results have no ranks yet, so it is not scored")
        if status is not Status.RANKED or ek in faulty:
            continue
        field_size = len(results)
        if event.players is not None:
            field_size = whole(event.players, "players", minimum=1)
            if field_size < len(results):
                message = f"players ({field_size}) is less than the {len(results)} results listed"
                problems.add(message, event=event.name, field="players", origin=event.origin)
                continue
        tally.add(event, keyed, field_size, problems)
    return tuple(statuses), notes


def _status(event: Event, results: list[Result], system: System, as_of: dt.date | None) -> Status:
    if as_of is not None and event.date is not None and event.date > as_of:
        return Status.LATER
    if event.pending:
        return Status.PENDING
    if not results:
        return Status.NO_RESULTS
    if system.waiting(results):
        return Status.NOT_RANKED
    return Status.RANKED
