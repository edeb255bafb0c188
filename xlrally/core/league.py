"""A league's standings, computed from what was entered, for every system.

This is the one entry point the edges call: they build a :class:`League` from whatever they read
and get :class:`Standings` (or :class:`~xlrally.core.errors.LeagueProblems` listing every problem).
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

import dataclasses
import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from operator import itemgetter

from xlrally.core.checks import Collector, check_event, check_ranks
from xlrally.core.errors import LeagueProblems, Problem, ScoringError
from xlrally.core.model import (
    MAX_NAME_LENGTH,
    Event,
    EventStatus,
    League,
    Result,
    Settings,
    Standings,
    Status,
)
from xlrally.core.names import norm
from xlrally.core.numbers import plural, real, show, whole
from xlrally.core.players import Roster, likely_duplicates, likely_typos
from xlrally.core.players import key as _k
from xlrally.core.prizes import pay, pot_of
from xlrally.core.ranking import Entry, Score, best_n, rank_with_minimum
from xlrally.core.seasons import in_season
from xlrally.core.sections import of_section, section_names
from xlrally.core.systems import SYSTEMS, Scorer, System, dippouch, known
from xlrally.core.systems.dippouch import ordinal


def _order(events: tuple[Event, ...]) -> list[Event]:
    """Date order; the same date or no date keeps the order given (undated events last)."""
    return sorted(events, key=lambda e: (e.date is None, e.date or dt.date.min))


def compute_standings(
    league: League, as_of: dt.date | None = None, season: str | None = None
) -> Standings:
    """Score every held event and rank the players. Raises LeagueProblems listing every problem.

    ``as_of``: only events dated on or before it count (undated events always count).
    ``season``: when events name their seasons, the season to score (see
    :mod:`xlrally.core.seasons`; default the Settings' season, else the latest).
    """
    league, season_notes = in_season(league, season)
    settings = league.settings
    system = SYSTEMS.get(settings.system)
    if system is None:
        message = f"unknown system {settings.system!r}: use one of {known()}"
        raise LeagueProblems([Problem(message, field="system")])
    problems = Collector()
    events, faulty = _index_events(league.events, system, problems)
    entered = _index_results(league, events, problems)
    scored = _score_events(
        settings, system, league.events, events, faulty, entered, as_of, problems
    )
    if problems.problems:
        raise LeagueProblems(problems.problems)

    held = [s.name for s in scored.statuses if s.held]
    history: dict[str, tuple[dippouch.RatingStep, ...]] = {}
    if system.rated:
        counted_per_player = None
        entries, history = _rated_entries(scored.dip_events, entered.display)
        rule = (
            f"Everyone starts at a Dip Pouch rating of {show(dippouch.START_RATING)}; each event "
            "moves a rating towards the percentile by the event's value in %"
        )
    else:
        counted_per_player = system.counted_per_player(
            len(held), settings.best_x, settings.events_cap
        )
        entries = _best_n_entries(scored.scores, entered.display, counted_per_player)
        rule = _rule(counted_per_player, len(held))
    rows = rank_with_minimum(
        entries,
        settings.min_events,
        settings.below_minimum == "unranked",
        settings.tie_breaks,
        held,
    )
    warnings = league.notes + season_notes + tuple(scored.notes) + _name_warnings(league, entered)
    countries = {
        entered.display[pk]: country
        for spelling, country in league.countries.items()
        if (pk := entered.roster.resolve(spelling)) in entered.display
    }
    sections = {
        entered.display[pk]: names
        for spelling, names in league.sections.items()
        if (pk := entered.roster.resolve(spelling)) in entered.display
    }
    standings = Standings(
        settings,
        scored.statuses,
        rows,
        counted_per_player,
        rule,
        warnings,
        history,
        as_of,
        countries,
        sections,
    )
    if not settings.prizes:
        return standings
    collected = _collected(league, held, entered) if settings.pot_share else 0.0
    return _with_prizes(standings, collected)


def _with_prizes(standings: Standings, collected: float) -> Standings:
    """The standings with their payouts: the league's table, then each section's that has
    prizes (shares are of the one pot)."""
    settings = standings.settings
    pot = pot_of(settings.pot, settings.pot_share, collected)
    tables = {"": standings.rows}
    for name in section_names(standings):
        if any(norm(p.section) == norm(name) for p in settings.prizes):
            tables[name] = of_section(standings, name).rows
    payouts = []
    for section, rows in tables.items():
        prizes = [p for p in settings.prizes if norm(p.section) == norm(section)]
        if prizes:
            payouts.append(pay(rows, prizes, pot, settings.currency_unit, section))
    return dataclasses.replace(standings, payouts=tuple(payouts), collected=collected, pot=pot)


def _collected(league: League, held: list[str], entered: _Entered) -> float:
    """The money the scored events took: each result's total expense (buy-in and re-buys),
    else its buy-in, else the event's buy-in (0 where none is given). Only a pot that is a
    share of it needs it."""
    events = {_k(e.name): e for e in league.events}
    money = 0.0
    for name in held:
        event = events[_k(name)]
        for _, result in entered.by_event[_k(name)]:
            paid = next(
                (v for v in (result.total, result.buy_in, event.buy_in) if v is not None), 0
            )
            money += real(paid, "buy-in")
    return money


def _index_events(
    listed: tuple[Event, ...], system: System, problems: Collector
) -> tuple[dict[str, Event], set[str]]:
    """Events by key (the first of two with one name), and the keys of faulty events."""
    events: dict[str, Event] = {}
    faulty: set[str] = set()
    for event in listed:
        k = _k(event.name)
        if not check_event(event, system, problems):
            faulty.add(k)
        if k in events:
            message = f"event {event.name!r} is listed twice"
            problems.add(message, event=event.name, field="event", origin=event.origin)
        events.setdefault(k, event)
    return events, faulty


def _name_warnings(league: League, entered: _Entered) -> tuple[str, ...]:
    """Names that look like one player's (never merged): spelled alike but for accents,
    punctuation or an initial, or one typing slip apart. Each names the results behind the two
    spellings and where the rarer one first appears, so a typo is found where it was made.
    Two names both listed in the Players sheet are known to be two players: no warning."""
    listed = {_k(name) for name in league.players}
    results: Counter[str] = Counter()
    first_in: dict[str, str] = {}
    # Latest event first, so that each player's earliest event is the one left in first_in
    # (dict.fromkeys and update: a pass over 200,000 results at C speed).
    for event in reversed(_order(league.events)):
        keys = list(map(itemgetter(0), entered.by_event.get(_k(event.name), ())))
        results.update(keys)
        first_in.update(dict.fromkeys(keys, event.name))

    def described(name: str) -> str:
        pk = _k(name)
        count = results.get(pk, 0)
        where = f", first in {first_in[pk]}" if pk in first_in else ""
        return f"{name!r} ({plural(count, 'result')}{where})"

    names = list(entered.display.values())
    found = [(a, b, "look like the same player") for a, b in likely_duplicates(names)]
    found += [(a, b, "differ by one letter") for a, b in likely_typos(names)]
    return tuple(
        f"{described(a)} and {described(b)} {why}: if they are one player, add an alias in the "
        "Players sheet; if two, list both names there"
        for a, b, why in found
        if not (_k(a) in listed and _k(b) in listed)
    )


@dataclass
class _Entered:
    """Results by event key as (player key, result), each player's name to show, and the
    roster that resolved the spellings."""

    by_event: dict[str, list[tuple[str, Result]]]
    display: dict[str, str]
    roster: Roster


def _index_results(league: League, events: dict[str, Event], problems: Collector) -> _Entered:
    """Resolve each result's event and player; report unknown events, bad names, duplicates."""
    roster = Roster({_k(alias): name for alias, name in league.aliases.items()})
    entered = _Entered({k: [] for k in events}, {}, roster)
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
    system: System,
    listed: tuple[Event, ...],
    events: dict[str, Event],
    faulty: set[str],
    entered: _Entered,
    as_of: dt.date | None,
    problems: Collector,
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
        status = _status(event, results, system, as_of)
        statuses.append(EventStatus(event.name, event.date, status))
        if status is Status.NOT_RANKED:
            scored.notes.append(f"{event.name}: results have no ranks yet, so it is not scored")
        if status is not Status.RANKED or ek in faulty:
            continue
        field_size = len(results)
        if event.players is not None:
            field_size = whole(event.players, "players", minimum=1)
            if field_size < len(results):
                message = f"players ({field_size}) is less than the {len(results)} results listed"
                problems.add(message, event=event.name, field="players", origin=event.origin)
                continue
        _score_event(settings, system, event, keyed, field_size, scored, problems)
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


def _status(event: Event, results: list[Result], system: System, as_of: dt.date | None) -> Status:
    if as_of is not None and event.date is not None and event.date > as_of:
        return Status.LATER
    if event.pending:
        return Status.PENDING
    if not results:
        return Status.NO_RESULTS
    if system.ranked and all(r.rank is None for r in results):
        return Status.NOT_RANKED
    return Status.RANKED


def _score_event(
    settings: Settings,
    system: System,
    event: Event,
    keyed: list[tuple[str, Result]],
    field_size: int,
    scored: _Scored,
    problems: Collector,
) -> None:
    ranks: list[int] = []
    ranked: list[Result] = []
    placements: dict[str, int] = {}
    failures: list[tuple[Result, ScoringError]] = []
    score = None if system.scorer is None else system.scorer(settings, event, field_size)
    sharing = system.ranked and score is not None and settings.shared_places != "refuse"
    if score is not None and sharing:
        score = _sharing(score, keyed, settings.shared_places)
    if score is not None and event.weight is not None and event.weight != 1:
        score = _weighted(score, real(event.weight, "weight"))  # checked: more than 0
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
            if system.ranked:
                ranks.append(whole(result.rank, "rank"))
                ranked.append(result)
        except ScoringError as error:
            failures.append((result, error))
    _report_failures(event, failures, field_size, problems)
    if system.ranked and len(ranked) == len(keyed):
        check_ranks(system, ranked, ranks, field_size, problems, shared=sharing)
    if system.rated and event.date is not None:
        rounds = None if event.rounds is None else whole(event.rounds, "rounds", minimum=1)
        value = None if event.value is None else real(event.value, "value")
        scored.dip_events.append(
            dippouch.DipEvent(
                event.name,
                event.date,
                field_size,
                rounds,
                event.world_championship,
                placements,
                value,
            )
        )


@dataclass(frozen=True)
class Weighted:
    """A score multiplied by its event's weight (Events sheet, ``Weight``), with the working:
    ``100 × 3 / 4 + 4 = 79, × 2 (event weight) = 158``."""

    score: Score
    weight: float

    @property
    def explain(self) -> str:
        total = show(self.score.value * self.weight)
        return f"{self.score.explain}, × {show(self.weight)} (event weight) = {total}"


def _weighted(score: Scorer, weight: float) -> Scorer:
    """The scorer whose every score is ``score``'s × ``weight`` (a double-points final: 2).
    The weighted value is the score everywhere: in best N, totals and tie-breaks."""

    def weighted(result: Result) -> Score:
        plain = score(result)
        return plain._replace(value=plain.value * weight, working=Weighted(plain, weight))

    return weighted


@dataclass(frozen=True)
class SharedPlace:
    """The working of a place shared by several players (a chop in a poker league)."""

    first: int
    sharing: int
    places: tuple[Score, ...]
    """The score of each shared place (only the better one, for ``better``)."""
    value: float

    @property
    def explain(self) -> str:
        """E.g. ``2nd-3rd shared by 2: average of 27 (2nd) and 21 (3rd) = 24``."""
        last = self.first + self.sharing - 1
        head = f"{ordinal(self.first)}-{ordinal(last)} shared by {self.sharing}"
        if len(self.places) == 1:
            return f"{head}: each scores {ordinal(self.first)} place, {self.places[0].explain}"
        last_at = len(self.places) - 1
        shown = [*enumerate(self.places[:SHARED_PLACES_LISTED])]
        if last_at >= SHARED_PLACES_LISTED:  # a tie of thousands: the first places, the last
            shown[-1] = (last_at, self.places[-1])
        parts = [f"{show(p.value)} ({ordinal(self.first + i)})" for i, p in shown]
        skipped = len(self.places) - len(shown)
        more = f", … {plural(skipped, 'more place')}" if skipped else ""
        listed = ", ".join(parts[:-1]) + f"{more} and {parts[-1]}"
        return f"{head}: average of {listed} = {show(self.value)}"


SHARED_PLACES_LISTED = 6
"""The places a shared place's working lists; a longer tie lists the first five and the last."""


def _sharing(score: Scorer, keyed: list[tuple[str, Result]], how: str) -> Scorer:
    """Wrap an event's scorer so that players sharing a place score the average of the places
    they share (``average``) or the better place's points (``better``)."""
    sharing = Counter(result.rank for _, result in keyed)
    # The players sharing a place score alike unless their own numbers differ (a buy-in): the
    # shared score is worked out once per rank and those numbers, not once per player (a tie
    # of 5,000 would otherwise score 25 million places).
    done: dict[tuple[object, ...], Score] = {}

    def shared(result: Result) -> Score:
        count = sharing.get(result.rank, 1)
        if count == 1:
            return score(result)
        alike = (result.rank, result.points, result.games, result.byes, result.buy_in, result.total)
        if alike in done:
            return done[alike]
        first = whole(result.rank, "rank", minimum=1)
        spread = range(first, first + count) if how == "average" else range(first, first + 1)
        places = tuple(score(result._replace(rank=place)) for place in spread)
        value = sum(p.value for p in places) / len(places)
        done[alike] = Score(places[0].event, value, SharedPlace(first, count, places, value))
        return done[alike]

    return shared


def _report_failures(
    event: Event,
    failures: list[tuple[Result, ScoringError]],
    field_size: int,
    problems: Collector,
) -> None:
    """Each result that could not be scored, at its own cell; but one mistake, one message: when
    several results fail for want of one event cell (a blank Buy-in, a blank Players while ranks
    run past the results listed), one message names that cell instead."""
    no_buy_in = [r for r, e in failures if e.field == "buy-in" and r.buy_in is None]
    beyond = [r for r, e in failures if e.field == "rank" and _beyond(r, field_size)]
    explained: set[int] = set()
    if event.buy_in is None and len(no_buy_in) > 1:
        message = (
            f"buy-in is missing: {len(no_buy_in)} results have no Buy-in of their own (the first "
            f"at {_cell(no_buy_in[0], 'buy-in')}); give the event's Buy-in here"
        )
        problems.add(message, event=event.name, field="buy-in", origin=event.origin)
        explained.update(map(id, no_buy_in))
    if event.players is None and len(beyond) > 1:
        highest = max(whole(r.rank, "rank") for r in beyond)
        message = (
            f"players is blank, so the {field_size} results listed are taken as the whole "
            f"field, but ranks go up to {highest}: give the number of players here"
        )
        problems.add(message, event=event.name, field="players", origin=event.origin)
        explained.update(map(id, beyond))
    for result, error in failures:
        if id(result) in explained:
            continue
        message = error.message
        if error.field == "rank" and event.players is None and "players" in message:
            message += " (the results listed; give the event's Players if more played)"
        problems.result(result, message, error.field)


def _beyond(result: Result, field_size: int) -> bool:
    """Whether the result's rank is a whole number past the field."""
    try:
        return whole(result.rank, "rank") > field_size
    except ScoringError:
        return False


def _cell(result: Result, field: str) -> str:
    return result.origin.where(field) if result.origin is not None else repr(result.player)


def _rule(counted: int | None, held: int) -> str:
    if held == 0:
        return "No event has been scored yet"
    events = f"{held} event" + ("" if held == 1 else "s")
    if counted is None or counted >= held:
        return "The one event counts" if held == 1 else f"All {events} count"
    return f"Best {counted} of {events} count"
