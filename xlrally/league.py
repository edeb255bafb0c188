"""A league as entered (settings, events, results) and its standings, for every system.

This is the one entry point the edges call: they build a :class:`League` from whatever they read
and get :class:`Standings` (or :class:`~xlrally.errors.LeagueProblems` listing every problem).
Everything is recomputed from the raw results each time, so changing the point structure
changes every event's points.

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

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from xlrally import dippouch, poker, rally
from xlrally.errors import LeagueProblems, Origin, Problem, ScoringError
from xlrally.numeric import show, whole
from xlrally.players import Roster, likely_duplicates
from xlrally.players import key as _k
from xlrally.standings import Entry, Score, Standing, best_n, rank_entries

SYSTEMS: dict[str, str] = {
    "rally": "Rapidplay Rally",
    "absolute": "Absolute Points",
    "reverse": "Relative Reverse Order",
    "neau": "Neau's formula",
    "dippouch": "Dip Pouch Tournament Rating",
}
"""System keys (as written in a workbook's Settings) and their names."""

RANKED_SYSTEMS = frozenset({"absolute", "reverse", "neau", "dippouch"})
"""Systems whose results are finishing positions (ranks)."""

MAX_NAME_LENGTH = 255
"""Longer player or event names are refused: they are pasted data, not names."""


@dataclass(frozen=True)
class Settings:
    """How a league is scored. ``best_x`` None: all events count (rally: the seed's formula)."""

    system: str
    league: str = ""
    season: str = ""
    best_x: int | None = None
    events_cap: int = rally.DEFAULT_EVENTS_CAP
    structure: poker.PointStructure = field(default_factory=poker.PointStructure)
    tie_breaks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Event:
    """One event of the season. ``players`` is the field size when not every player is listed."""

    name: str
    date: dt.date | None = None
    rounds: object = None
    buy_in: object = None
    world_championship: bool = False
    players: object = None
    pending: bool = False
    origin: Origin | None = None


class Result(NamedTuple):
    """One player's result in one event; which fields matter depends on the system.

    A named tuple rather than a frozen dataclass: a big league has 200,000 of them, and a
    named tuple is four times cheaper to create. It is just as immutable.
    """

    event: str
    player: str
    points: object = None
    games: object = None
    byes: object = None
    rank: object = None
    buy_in: object = None
    total: object = None
    origin: Origin | None = None


@dataclass(frozen=True)
class League:
    """Everything entered for a league. ``aliases`` maps another spelling to a player's name."""

    settings: Settings
    events: tuple[Event, ...]
    results: tuple[Result, ...]
    aliases: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class EventStatus:
    """An event as the standings see it; ``status`` is one of :data:`STATUSES`."""

    name: str
    date: dt.date | None
    status: str

    @property
    def held(self) -> bool:
        """True if the event was scored."""
        return self.status == "ranked"


STATUSES = ("ranked", "pending", "not ranked", "no results", "later")
"""ranked: scored; pending: marked pending; not ranked: results without ranks yet;
no results: nothing entered yet; later: dated after the as-of date."""


@dataclass(frozen=True)
class Standings:
    """The standings of a league, with everything needed to show the working."""

    settings: Settings
    events: tuple[EventStatus, ...]
    rows: tuple[Standing, ...]
    counted_per_player: int | None
    rule: str
    warnings: tuple[str, ...] = ()
    history: Mapping[str, tuple[dippouch.RatingStep, ...]] = field(default_factory=dict)
    as_of: dt.date | None = None

    @property
    def system(self) -> str:
        """The system key, e.g. ``"rally"``."""
        return self.settings.system

    @property
    def held(self) -> tuple[str, ...]:
        """Names of the events that were scored, in order."""
        return tuple(e.name for e in self.events if e.held)


def _order(events: tuple[Event, ...]) -> list[Event]:
    """Date order; the same date or no date keeps the order given (undated events last)."""
    return sorted(events, key=lambda e: (e.date is None, e.date or dt.date.min))


class _Collector:
    """Gathers problems so that all of them are reported at once."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(
        self,
        message: str,
        *,
        event: str | None = None,
        player: str | None = None,
        field: str | None = None,
        origin: Origin | None = None,
    ) -> None:
        self.problems.append(Problem(message, event, player, field, origin))

    def result(self, result: Result, message: str, field: str | None) -> None:
        self.add(
            message, event=result.event, player=result.player, field=field, origin=result.origin
        )


def _check_event(event: Event, system: str, problems: _Collector) -> bool:
    """Report what is wrong with an event's own fields; True if nothing is."""
    before = len(problems.problems)

    def fail(message: str, field_name: str) -> None:
        problems.add(message, event=event.name, field=field_name, origin=event.origin)

    if len(event.name) > MAX_NAME_LENGTH:
        fail(f"event name is {len(event.name)} characters long; at most {MAX_NAME_LENGTH}", "event")
    checks: list[tuple[str, object, int]] = [("players", event.players, 1)]
    if system == "rally":
        if event.rounds is None and not event.pending:
            fail("rounds is missing: a rally event needs its number of rounds", "rounds")
        checks.append(("rounds", event.rounds, 1))
    elif system == "dippouch":
        checks.append(("rounds", event.rounds, 1))
        if event.date is None:
            fail("date is missing: Dip Pouch ratings take events in date order", "date")
    for name, value, minimum in checks:
        if value is not None:
            try:
                whole(value, name, minimum=minimum)
            except ScoringError as error:
                fail(error.message, name)
    if system == "neau" and event.buy_in is not None:
        try:
            poker.score_neau(1, event.buy_in, None, 1)
        except ScoringError as error:
            fail(error.message, "buy-in")
    return len(problems.problems) == before


def _check_ranks(
    system: str, results: list[Result], ranks: list[int], field_size: int, problems: _Collector
) -> None:
    """Ranks must be distinct (Dip Pouch: ties share the better place, 1, 2, 2, 4) and, when
    every player is listed, must not skip a place."""
    first_at: dict[int, Result] = {}
    for result, rank in zip(results, ranks, strict=True):
        if rank in first_at and system != "dippouch":
            message = (
                f"rank {rank} is given twice ({first_at[rank].player} and {result.player}); "
                f"{SYSTEMS[system]} needs distinct ranks"
            )
            problems.result(result, message, "rank")
        first_at.setdefault(rank, result)
    before = len(problems.problems)
    counts = {rank: ranks.count(rank) for rank in first_at}
    for rank, count in counts.items():
        hidden = [r for r in range(rank + 1, rank + count) if r in first_at]
        if system == "dippouch" and hidden:
            message = (
                f"rank {hidden[0]} cannot follow {count} players tied at {rank} "
                f"(ties share the better place: 1, 2, 2, 4)"
            )
            problems.result(first_at[hidden[0]], message, "rank")
    if field_size == len(results) and len(problems.problems) == before:
        expected = 1
        for rank in sorted(counts):
            if rank != expected:
                message = (
                    f"ranks skip place {expected}: ranks must run 1..{field_size} "
                    f"(or give the event's Players when not everyone is listed)"
                )
                problems.result(first_at[rank], message, "rank")
                break
            expected = rank + counts[rank]


def _scorer(settings: Settings, event: Event, field_size: int) -> Callable[[Result], Score]:
    """The function that scores one result of this event under the league's system (not Dip
    Pouch). It raises ScoringError; it is made once per event, as it runs once per result."""
    name, structure = event.name, settings.structure
    if settings.system == "rally":
        rounds, score_event = event.rounds, rally.score_event

        def rally_score(result: Result) -> Score:
            working = score_event(result.points, rounds, result.byes, result.games)
            return Score(name, working.score, working)

        return rally_score

    ranked = {"absolute": poker.score_absolute, "reverse": poker.score_reverse}
    if settings.system in ranked:
        score_rank = ranked[settings.system]

        def points(result: Result) -> Score:
            if result.rank is None:
                raise ScoringError("rank is missing", "rank")
            working = score_rank(result.rank, field_size, structure)
            return Score(name, working.total, working)

        return points

    def neau(result: Result) -> Score:
        if result.rank is None:
            raise ScoringError("rank is missing", "rank")
        buy_in = result.buy_in if result.buy_in is not None else event.buy_in
        if buy_in is None:
            raise ScoringError("buy-in is missing (give it on the event or the result)", "buy-in")
        working = poker.score_neau(field_size, buy_in, result.total, result.rank)
        return Score(name, working.points, working)

    return neau


def compute_standings(league: League, as_of: dt.date | None = None) -> Standings:
    """Score every held event and rank the players. Raises LeagueProblems listing every problem.

    ``as_of``: only events dated on or before it count (undated events always count).
    """
    settings = league.settings
    if settings.system not in SYSTEMS:
        known = ", ".join(SYSTEMS)
        message = f"unknown system {settings.system!r}: use one of {known}"
        raise LeagueProblems([Problem(message, field="system")])
    problems = _Collector()
    events, faulty = _index_events(league.events, settings.system, problems)
    entered = _index_results(league, events, problems)
    scored = _score_events(settings, league.events, events, faulty, entered, as_of, problems)
    if problems.problems:
        raise LeagueProblems(problems.problems)

    held = [s.name for s in scored.statuses if s.held]
    history: dict[str, tuple[dippouch.RatingStep, ...]] = {}
    if settings.system == "dippouch":
        counted_per_player = None
        entries, history = _rated_entries(scored.dip_events, entered.display)
        rule = (
            f"Dip Pouch rating: everyone starts at {show(dippouch.START_RATING)}; each event moves "
            "a rating towards the percentile by the event's value in %"
        )
    else:
        counted_per_player = _counted_per_player(settings, len(held))
        entries = _best_n_entries(scored.scores, entered.display, counted_per_player)
        rule = _rule(counted_per_player, len(held))
    rows = rank_entries(entries, settings.tie_breaks, held)
    warnings = tuple(scored.notes) + tuple(
        f"{a!r} and {b!r} look like the same player; add an alias in the Players sheet if they are"
        for a, b in likely_duplicates(entered.display.values())
    )
    return Standings(
        settings, scored.statuses, rows, counted_per_player, rule, warnings, history, as_of
    )


def _index_events(
    listed: tuple[Event, ...], system: str, problems: _Collector
) -> tuple[dict[str, Event], set[str]]:
    """Events by key (the first of two with one name), and the keys of faulty events."""
    events: dict[str, Event] = {}
    faulty: set[str] = set()
    for event in listed:
        k = _k(event.name)
        if not _check_event(event, system, problems):
            faulty.add(k)
        if k in events:
            message = f"event {event.name!r} is listed twice"
            problems.add(message, event=event.name, field="event", origin=event.origin)
        events.setdefault(k, event)
    return events, faulty


@dataclass
class _Entered:
    """Results by event key as (player key, result), and each player's name to show."""

    by_event: dict[str, list[tuple[str, Result]]]
    display: dict[str, str]


def _index_results(league: League, events: dict[str, Event], problems: _Collector) -> _Entered:
    """Resolve each result's event and player; report unknown events, bad names, duplicates."""
    roster = Roster({_k(alias): name for alias, name in league.aliases.items()})
    entered = _Entered({k: [] for k in events}, {})
    players_in: dict[str, set[str]] = {k: set() for k in events}
    resolved: dict[str, str] = {}  # spelling -> player key, worked out once per spelling
    event_keys: dict[str, str] = {}  # spelling -> event key
    for result in league.results:
        ek = event_keys.get(result.event)
        if ek is None:
            ek = event_keys[result.event] = _k(result.event)
        if ek not in events:
            problems.result(result, f"event {result.event!r} is not in the Events sheet", "event")
            continue
        name = result.player
        pk = resolved.get(name)
        if pk is None:  # a spelling not seen yet: check it once
            if not name.strip():
                problems.result(result, "player name is missing", "player")
                continue
            if len(name) > MAX_NAME_LENGTH:
                message = f"player name is {len(name)} characters long; at most {MAX_NAME_LENGTH}"
                problems.result(result, message, "player")
                continue
            pk = resolved[name] = roster.resolve(name)
            entered.display.setdefault(pk, roster.display(name))
        if pk in players_in[ek]:
            message = f"{entered.display[pk]!r} has two results in {events[ek].name!r}"
            problems.result(result, message, "player")
            continue
        players_in[ek].add(pk)
        entered.by_event[ek].append((pk, result))
    return entered


@dataclass
class _Scored:
    """What scoring the events gave: statuses, scores by player key, rated events, notes."""

    statuses: tuple[EventStatus, ...] = ()
    scores: dict[str, list[Score]] = field(default_factory=dict)
    dip_events: list[dippouch.DipEvent] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _score_events(
    settings: Settings,
    listed: tuple[Event, ...],
    events: dict[str, Event],
    faulty: set[str],
    entered: _Entered,
    as_of: dt.date | None,
    problems: _Collector,
) -> _Scored:
    """Score each held event in date order (Dip Pouch: collect its placements)."""
    scored = _Scored()
    statuses = []
    for event in _order(listed):
        ek = _k(event.name)
        if events.get(ek) is not event:
            continue  # a duplicate, already reported
        keyed = entered.by_event[ek]
        results = [result for _, result in keyed]
        status = _status(event, results, settings.system, as_of)
        statuses.append(EventStatus(event.name, event.date, status))
        if status == "not ranked":
            scored.notes.append(f"{event.name}: results have no ranks yet, so it is not scored")
        if status != "ranked" or ek in faulty:
            continue
        field_size = len(results)
        if event.players is not None:
            field_size = whole(event.players, "players", minimum=1)
            if field_size < len(results):
                message = f"players ({field_size}) is less than the {len(results)} results listed"
                problems.add(message, event=event.name, field="players", origin=event.origin)
                continue
        _score_event(settings, event, keyed, field_size, scored, problems)
    scored.statuses = tuple(statuses)
    return scored


def _rated_entries(
    dip_events: list[dippouch.DipEvent], display: dict[str, str]
) -> tuple[list[Entry], dict[str, tuple[dippouch.RatingStep, ...]]]:
    """Dip Pouch: each player's current rating, percentiles as scores, and their history."""
    entries = []
    history = {}
    for pk, steps in dippouch.rating_history(dip_events).items():
        player = display[pk]
        history[player] = steps
        rated = tuple(Score(s.event, s.percentile, s, eligible=s.value > 0) for s in steps)
        counted = frozenset(s.event for s in rated if s.eligible)
        entries.append(Entry(player, steps[-1].after, rated, counted))
    return entries, history


def _best_n_entries(
    scores: dict[str, list[Score]], display: dict[str, str], counted_per_player: int | None
) -> list[Entry]:
    """Points systems: each player's total of their best N scores."""
    entries = []
    for pk, player_scores in scores.items():
        chosen = best_n(player_scores, counted_per_player)
        total = sum(s.value for s in chosen)
        counted = frozenset(s.event for s in chosen)
        entries.append(Entry(display[pk], total, tuple(player_scores), counted))
    return entries


def _status(event: Event, results: list[Result], system: str, as_of: dt.date | None) -> str:
    if as_of is not None and event.date is not None and event.date > as_of:
        return "later"
    if event.pending:
        return "pending"
    if not results:
        return "no results"
    if system in RANKED_SYSTEMS and all(r.rank is None for r in results):
        return "not ranked"
    return "ranked"


def _score_event(
    settings: Settings,
    event: Event,
    keyed: list[tuple[str, Result]],
    field_size: int,
    scored: _Scored,
    problems: _Collector,
) -> None:
    system = settings.system
    ranks: list[int] = []
    ranked: list[Result] = []
    placements: dict[str, int] = {}
    score = None if system == "dippouch" else _scorer(settings, event, field_size)
    scores = scored.scores
    for pk, result in keyed:
        try:
            if score is None:
                if result.rank is None:
                    raise ScoringError("rank is missing", "rank")
                dippouch.percentile(result.rank, field_size)
                placements[pk] = whole(result.rank, "rank")
            elif pk in scores:
                scores[pk].append(score(result))
            else:
                scores[pk] = [score(result)]
            if system in RANKED_SYSTEMS:
                ranks.append(whole(result.rank, "rank"))
                ranked.append(result)
        except ScoringError as error:
            message = error.message
            if error.field == "rank" and event.players is None and "players" in message:
                message += " (the results listed; give the event's Players if more played)"
            problems.result(result, message, error.field)
    if system in RANKED_SYSTEMS and len(ranked) == len(keyed):
        _check_ranks(system, ranked, ranks, field_size, problems)
    if system == "dippouch" and event.date is not None:
        rounds = None if event.rounds is None else whole(event.rounds, "rounds", minimum=1)
        scored.dip_events.append(
            dippouch.DipEvent(
                event.name, event.date, field_size, rounds, event.world_championship, placements
            )
        )


def _counted_per_player(settings: Settings, held: int) -> int | None:
    if settings.best_x is not None:
        return settings.best_x
    if settings.system == "rally":
        return rally.events_counted(held, settings.events_cap)
    return None


def _rule(counted: int | None, held: int) -> str:
    events = f"{held} event" + ("" if held == 1 else "s")
    if counted is None or counted >= held:
        return "The one event counts" if held == 1 else f"All {events} count"
    return f"Best {counted} of {events} count"
