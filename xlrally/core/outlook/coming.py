"""The remaining events as what it takes sees them: each one's possible scores (the rally's
every result of its rounds; a ranked system's points by place), and the notes on what was
assumed (see :mod:`xlrally.core.outlook`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from xlrally.core.errors import ScoringError
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.numbers import real, show, whole
from xlrally.core.outlook.goals import Table
from xlrally.core.players import key as name_key
from xlrally.core.systems.base import PointsSystem, PointsTally
from xlrally.core.systems.dippouch import percentile, tournament_value
from xlrally.core.words import plural

DEFAULT_ROUNDS = 9
"""A remaining rally event without Rounds is taken as up to 9 rounds (scores 0 to 109): a
score of fewer rounds is also one of 9 rounds with byes."""


@dataclass(frozen=True)
class Coming:
    """One remaining event as the model sees it."""

    name: str
    values: tuple[float, ...]
    """Ranked: the score of each place (index 0 is 1st). Otherwise every score a result can
    get, distinct, ascending."""
    ranked: bool
    value: float = 0.0
    """Dip Pouch: the tournament value (how far the event moves a rating, in %)."""
    position: int = 0
    """Its place among all the season's events in date order."""


def remaining(league: League, standings: Table) -> tuple[list[Coming], list[str], list[str]]:
    """The remaining events as the model sees them, the notes on what was assumed, and every
    event the season will have held, in date order."""
    settings = standings.settings
    system = standings.scoring
    listed = {name_key(e.name): e for e in league.events}
    waiting = [listed[name_key(s.name)] for s in standings.events if not s.held]
    left = settings.events_left
    if left is not None:
        waiting = waiting[:left]
    extra = 0 if left is None else left - len(waiting)
    held = set(standings.held)
    chosen = {e.name for e in waiting}
    order = [e.name for e in standings.events if e.name in held or e.name in chosen]
    unlisted = [Event(f"event {len(waiting) + i + 1} to come") for i in range(extra)]
    order += [e.name for e in unlisted]
    position = {name: i for i, name in enumerate(order)}
    table = max(len(standings.rows), 1)
    notes: list[str] = []
    buy_in = next(
        (
            listed[name_key(s.name)].buy_in
            for s in reversed(standings.events)
            if s.held and listed[name_key(s.name)].buy_in is not None
        ),
        None,
    )
    coming = []
    for event in [*waiting, *unlisted]:
        at = position[event.name]
        if system.rated:
            coming.append(_rated(event, table, at, notes))
        elif isinstance(system, PointsSystem) and system.ranked:
            coming.append(_placed(system, settings, event, table, buy_in, at, notes))
        elif isinstance(system, PointsSystem):
            coming.append(_open(system, settings, event, at, notes))
        else:
            raise ScoringError(f"what it takes is not worked out for {system.name}")
    return coming, notes, order


def _field(event: Event, table: int, notes: list[str]) -> int:
    if event.players is not None:
        return whole(event.players, "players", minimum=1)
    notes.append(
        f"{event.name}: no Players, so a field of {plural(table, 'player')} (the table's) is taken"
    )
    return table


def _weight(event: Event) -> float:
    return 1.0 if event.weight is None else real(event.weight, "weight")


def _placed(
    system: PointsSystem,
    settings: Settings,
    event: Event,
    table: int,
    buy_in: object,
    at: int,
    notes: list[str],
) -> Coming:
    field_size = _field(event, table, notes)
    if system.event_buy_in and event.buy_in is None:
        if buy_in is None:
            raise ScoringError(f"{event.name}: give its Buy-in to work out what it takes")
        shown = show(real(buy_in, "buy-in"))
        notes.append(f"{event.name}: no Buy-in, so the last scored event's {shown} is taken")
        event = dataclasses.replace(event, buy_in=buy_in)
    if settings.knockouts.active:
        raise ScoringError("knockout points to come are not decided by places")
    weight = _weight(event)
    plain = _by_place(system, settings, event, field_size)
    # a score that moves with a player's re-buys or knockouts, or with the event's pot, is not
    # decided by the place: probe with one player re-buying and knocking another out
    if plain != _by_place(system, settings, event, field_size, probe=True):
        raise ScoringError(
            "the points depend on re-buys, knockouts or the pot, not on the place alone"
        )
    values = tuple(v * weight if weight != 1 else v for v in plain)
    return Coming(event.name, values, ranked=True, position=at)


def _by_place(
    system: PointsSystem, settings: Settings, event: Event, field_size: int, *, probe: bool = False
) -> list[float]:
    """Each place's points in a full field of ``field_size`` (every player paying the event's
    buy-in), scored as the tally scores an event (a system that needs the whole event, for its
    pot, sees it); ``probe``: the same with the 1st re-buying and knocking out the last."""
    names = [f"place {place}" for place in range(1, field_size + 1)]
    results = [Result(event.name, n, rank=place) for place, n in enumerate(names, start=1)]
    if probe:
        results[0] = results[0]._replace(re_buys=1, knockouts=1)
    keyed = list(zip(names, results, strict=True))
    tally = system.tally(settings)
    if isinstance(tally, PointsTally):
        score = tally.event_scorer(event, keyed, field_size)
    else:
        score = system.scorer(settings, event, field_size)
    return [score(result).value for result in results]


def _open(
    system: PointsSystem, settings: Settings, event: Event, at: int, notes: list[str]
) -> Coming:
    if event.rounds is None:
        rounds = DEFAULT_ROUNDS
        notes.append(
            f"{event.name}: no Rounds, so up to {DEFAULT_ROUNDS} rounds are taken (scores 0 to "
            f"{100 + DEFAULT_ROUNDS})"
        )
        event = dataclasses.replace(event, rounds=rounds)
    rounds = whole(event.rounds, "rounds", minimum=1)
    score = system.scorer(settings, event, 1)
    weight = _weight(event)
    values = set()
    for byes in range(rounds):
        for games in range(rounds - byes + 1):
            for halves in range(2 * games + 1):
                result = Result(event.name, "", points=halves / 2, games=games, byes=byes)
                plain = score(result).value
                values.add(plain * weight if weight != 1 else plain)
    return Coming(event.name, tuple(sorted(values)), ranked=False, position=at)


def _rated(event: Event, table: int, at: int, notes: list[str]) -> Coming:
    field_size = _field(event, table, notes)
    if event.value is not None:
        value = float(real(event.value, "value"))
    else:
        rounds = None if event.rounds is None else whole(event.rounds, "rounds", minimum=1)
        year = event.date.year if event.date is not None else None
        value = tournament_value(field_size, rounds, event.world_championship, year)
    pcts = tuple(percentile(place, field_size) for place in range(1, field_size + 1))
    return Coming(event.name, pcts, ranked=True, value=value, position=at)
