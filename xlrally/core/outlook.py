"""What it takes: for each player, whether the title, each prize place and qualifying under a
minimum are clinched, still possible or gone, and the least score in the next event that
guarantees each whatever the others do (issue 34).

**What can still happen.** The remaining events are the league's events not scored yet
(pending, without results or ranks, or dated after the as-of date), in date order; the
``Events left`` setting says how many more will be held instead (the listed ones first, then
events not listed yet). Every remaining event is held by the end. In each, every player of the
table, and any number of newcomers, either does not play or gets a result the rule allows:

* the rally: any result of the event's rounds (points in half points up to the games played,
  games and byes within the rounds; an event without Rounds is taken as up to 9 rounds, so a
  score of 0 to 109), scored by the rally's formula and the event's weight;
* a ranked system (absolute, reverse, Neau, Dip Pouch): a distinct place in a field of the
  event's Players, else of as many players as the table has (no shared places); its points
  by the league's structure and the event's weight (Neau: the event's buy-in, else the last
  scored event's, and no re-buys, which only lower a player's points), or for Dip Pouch the
  place's percentile and the event's tournament value.

**The goals.** Place *k* (the title is place 1; the others are the Prizes sheet's places of
the league's table) is reached when fewer than *k* players finish above the player in the
standings' own order (total, then the tie-break chain), the player having qualified: a place
shared by a tie counts. Qualifying is playing the league's minimum of events. A goal is
*clinched* when it is reached whatever happens, *gone* when nothing reaches it, else
*possible*; for a possible goal, *needs* is the least score in the next event such that it and
every higher score guarantee the goal whatever everyone else does, the player included, in
every event after it (None when no score in the next event does).

**How.** Each player's final order key is a function of their results to come (a
:class:`PointsTrack` or :class:`RatingTrack`); it never falls when a score rises. In the rally
players do not interact, so the worst case for a player is to play no more while everyone else
scores the most, and the best case the reverse: two sorted lists answer every goal, and the
least score is a binary search. In a ranked system places are shared out: a player's best and
worst cases are found by matching players to places (exact for one event left), else by a
search over the few players who could pass (or be passed), bounded by what the places can give
and by players who dominate others; the search is exact and runs only where the bounds leave the
answer open. ``tests/core/test_outlook_oracle.py`` checks every answer against a brute-force
enumeration of every outcome through :func:`~xlrally.core.league.compute_standings`.

>>> from xlrally.core.league import compute_standings
>>> from xlrally.core.model import Event, League, Result, Settings
>>> events = (Event("Dec", rounds=4), Event("Feb", rounds=4), Event("May", rounds=5, pending=True))
>>> league = League(Settings("rally", best_x=2), events, (
...     Result("Dec", "Ann", points=3), Result("Feb", "Ann", points=2),     # 79 + 54 = 133
...     Result("Dec", "Bob", points=2.5), Result("Feb", "Bob", points=2)))  # 66 + 54 = 120
>>> outlook = what_it_takes(league, compute_standings(league))
>>> [(p.player, str(p.goals[0].chance), p.goals[0].needs) for p in outlook.prospects]
[('Ann', 'possible', 95), ('Bob', 'possible', None)]

Bob can reach 66 + 105 = 171 in May, so Ann needs 79 + s ≥ 171; the least May score of 92 or
more is 95 (4½ from 5 games), and the one below it, 91 (3½ from 4 and a bye), is not enough.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from xlrally.core.errors import ScoringError
from xlrally.core.model import Event, EventStatus, League, Result, Settings
from xlrally.core.numbers import plural, real, show, whole
from xlrally.core.players import key as name_key
from xlrally.core.ranking import Entry, RatingLine, Score, Standing, best_n, order_key
from xlrally.core.systems.base import PointsSystem, PointsTally, System
from xlrally.core.systems.dippouch import START_RATING, percentile, tournament_value

SEARCH_STEPS = 50_000
"""The most steps one search may take before its goal is said to be open rather than guessed:
a step is a share-out of one event's places tried for a group, or one of the group's players
looked at again."""

DEFAULT_ROUNDS = 9
"""A remaining rally event without Rounds is taken as up to 9 rounds (scores 0 to 109): a
score of fewer rounds is also one of 9 rounds with byes."""

Key = tuple[bool, tuple[tuple[float, ...], ...]]
"""A player's place in the final order: qualified, then :func:`~xlrally.core.ranking.order_key`."""

NOBODY: Key = (False, ((float("-inf"),),))
"""The key of a newcomer who never plays: not in the standings at all, so below everyone."""

New = Sequence[float | None]
"""A player's results to come: a score per remaining event, None where they do not play."""


class Chance(str, Enum):
    """What can become of a goal."""

    CLINCHED = "clinched"
    POSSIBLE = "possible"
    GONE = "gone"
    OPEN = "open"
    """Not worked out: deciding it would take the search more than :data:`SEARCH_STEPS`
    steps (a rare position: see the module docstring)."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Goal:
    """One goal of one player: place ``place`` (1 the title), or qualifying (``place`` 0)."""

    place: int
    chance: Chance
    needs: float | None = None
    """The least score in the next event that, with every higher one, guarantees the goal
    whatever else happens; None when decided, or when no score there guarantees it."""
    at: int | None = None
    """A ranked system's worst place that scores ``needs`` (1 is 1st)."""


@dataclass(frozen=True)
class Prospect:
    """A player's goals: the title, each prize place, qualifying (when there is a minimum)."""

    player: str
    goals: tuple[Goal, ...]

    def goal(self, place: int) -> Goal | None:
        """The goal of ``place`` (0: qualifying)."""
        return next((g for g in self.goals if g.place == place), None)


@dataclass(frozen=True)
class Outlook:
    """What the remaining events can change, for every player of the table (in its order)."""

    coming: tuple[str, ...]
    """The remaining events, in date order (events not listed yet are named ``event 2 to come``)."""
    places: tuple[int, ...]
    """The places asked about: 1 (the title) and the league's prize places."""
    minimum: int
    prospects: tuple[Prospect, ...]
    notes: tuple[str, ...] = ()
    """What was assumed (an event without Rounds or Players)."""

    @property
    def next_event(self) -> str | None:
        """The next event, whose score :attr:`Goal.needs` is about."""
        return self.coming[0] if self.coming else None


class Table(Protocol):
    """What what it takes reads of the standings (:class:`~xlrally.core.standings.Standings`,
    which holds the outlook, so it is not imported here)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def events(self) -> tuple[EventStatus, ...]: ...

    @property
    def rows(self) -> tuple[Standing, ...]: ...

    @property
    def history(self) -> Mapping[str, tuple[RatingLine, ...]]: ...

    @property
    def held(self) -> tuple[str, ...]: ...

    @property
    def scoring(self) -> System: ...


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


class Track(Protocol):
    """A player's final order key for any results to come."""

    player: str
    played: int
    minimum: int

    def key(self, new: New) -> Key: ...

    def total(self, new: New) -> float: ...


class PointsTrack:
    """A points system's player: their scores so far, and the best N of all at the end."""

    def __init__(
        self,
        player: str,
        scores: tuple[Score, ...],
        coming: Sequence[Coming],
        counted: int | None,
        minimum: int,
        order: Callable[[Entry], tuple[tuple[float, ...], ...]],
    ) -> None:
        self.player = player
        self.scores = scores
        self.played = len(scores)
        self.names = [c.name for c in coming]
        self.counted = counted
        self.minimum = minimum
        self.order = order

    def _entry(self, new: New) -> Entry:
        scores = list(self.scores)
        scores.extend(Score(n, v) for n, v in zip(self.names, new, strict=True) if v is not None)
        chosen = best_n(scores, self.counted)
        total = sum(s.value for s in chosen)
        return Entry(self.player, total, tuple(scores), frozenset(s.event for s in chosen))

    def key(self, new: New) -> Key:
        entry = self._entry(new)
        if not entry.scores:
            return NOBODY
        return (len(entry.scores) >= self.minimum, self.order(entry))

    def total(self, new: New) -> float:
        return self._entry(new).total


class RatingTrack:
    """A Dip Pouch player: their rating history replayed with the results to come, every
    event in date order (``updated_rating``'s formula, as the standings compute it)."""

    def __init__(
        self,
        player: str,
        steps: Sequence[tuple[int, str, float, float]],
        coming: Sequence[Coming],
        minimum: int,
        order: Callable[[Entry], tuple[tuple[float, ...], ...]],
    ) -> None:
        self.player = player
        self.played = len(steps)
        self.coming = list(coming)
        self.minimum = minimum
        self.order = order
        first = min((c.position for c in coming), default=len(steps) + 10**9)
        # the history before the first event to come is the same in every outcome
        self.before = [s for s in steps if s[0] < first]
        self.after = [s for s in steps if s[0] >= first]
        rating = START_RATING
        for _, _, value, pct in self.before:
            rating = rating + value / 100 * (pct - rating)
        self.base = rating
        self.base_scores = tuple(Score(e, pct, eligible=v > 0) for _, e, v, pct in self.before)

    def _entry(self, new: New) -> Entry:
        steps = list(self.after)
        steps.extend(
            (c.position, c.name, c.value, pct)
            for c, pct in zip(self.coming, new, strict=True)
            if pct is not None
        )
        steps.sort(key=lambda s: s[0])
        rating = self.base
        for _, _, value, pct in steps:
            rating = rating + value / 100 * (pct - rating)
        scores = self.base_scores + tuple(Score(e, pct, eligible=v > 0) for _, e, v, pct in steps)
        return Entry(self.player, rating, scores, frozenset(s.event for s in scores if s.eligible))

    def key(self, new: New) -> Key:
        entry = self._entry(new)
        if not entry.scores:
            return NOBODY
        return (len(entry.scores) >= self.minimum, self.order(entry))

    def total(self, new: New) -> float:
        return self._entry(new).total


# ---------------------------------------------------------------- the remaining events


def _coming(league: League, standings: Table) -> tuple[list[Coming], list[str], list[str]]:
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


# ---------------------------------------------------------------- the entry point


def outlook_of(league: League, standings: Table) -> Outlook:
    """:func:`what_it_takes`, or, when the league gives too little to work it out, an outlook
    with no prospects and a note saying why."""
    try:
        return what_it_takes(league, standings)
    except ScoringError as error:
        note = f"What it takes is not worked out: {error.message}"
        return Outlook((), (), standings.settings.min_events, (), (note,))


def what_it_takes(league: League, standings: Table) -> Outlook:
    """What the remaining events can change for each player of ``standings`` (the league's
    table; see the module docstring). Raises :class:`ScoringError` when the league gives too
    little to work it out (a Neau league with no buy-in at all, points below 0)."""
    settings = standings.settings
    coming, notes, order = _coming(league, standings)
    places = tuple(sorted({1, *(p.place for p in settings.prizes if not p.section)}))
    minimum = settings.min_events
    key_of = order_key(settings.tie_breaks, order)
    system = standings.scoring
    tracks: list[Track]
    if system.rated:
        position = {name: i for i, name in enumerate(order)}
        tracks = [
            RatingTrack(
                row.player,
                [
                    (position[s.event], s.event, line.value, s.value)  # type: ignore[attr-defined]
                    for s, line in zip(row.scores, standings.history[row.player], strict=True)
                ],
                coming,
                minimum,
                key_of,
            )
            for row in standings.rows
        ]
        newcomer: Track = RatingTrack("", [], coming, minimum, key_of)
    else:
        held = len(standings.held) + len(coming)
        counted = system.counted_per_player(held, settings.best_x, settings.events_cap)
        tracks = [
            PointsTrack(row.player, row.scores, coming, counted, minimum, key_of)
            for row in standings.rows
        ]
        newcomer = PointsTrack("", (), coming, counted, minimum, key_of)
    if any(v < 0 for c in coming for v in c.values) or any(
        s.value < 0 for row in standings.rows for s in row.scores
    ):
        raise ScoringError("what it takes is worked out for scores of 0 or more only")
    if coming and not coming[0].ranked:
        solver: _Solver = _Independent(tracks, coming, newcomer)
    else:
        solver = _Ranked(tracks, coming, newcomer, rated=system.rated, shuffles=_shuffles(settings))
    prospects = []
    for index, track in enumerate(tracks):
        goals = [solver.goal(index, k) for k in places]
        if minimum:
            goals.append(_qualifying(track, coming, minimum))
        prospects.append(Prospect(track.player, tuple(goals)))
    return Outlook(tuple(c.name for c in coming), places, minimum, tuple(prospects), tuple(notes))


def _shuffles(settings: Settings) -> bool:
    """Whether a points player's key depends on which event gave which score (the ``recent``
    tie-break), not only on the scores."""
    return "recent" in settings.tie_breaks


def _qualifying(track: Track, coming: Sequence[Coming], minimum: int) -> Goal:
    if track.played >= minimum:
        return Goal(0, Chance.CLINCHED)
    if track.played + len(coming) < minimum:
        return Goal(0, Chance.GONE)
    if track.played + 1 == minimum:  # any result in the next event
        return Goal(0, Chance.POSSIBLE, min(coming[0].values))
    return Goal(0, Chance.POSSIBLE)


class _Solver(Protocol):
    def goal(self, index: int, place: int) -> Goal: ...


def _least(values: Sequence[float], guarantees: Callable[[float], bool]) -> float | None:
    """The least of ``values`` (ascending) from which on every value guarantees (the test is
    monotone: a higher score never guarantees less), or None."""
    if not values or not guarantees(values[-1]):
        return None
    low, high = 0, len(values) - 1  # values[high] guarantees
    while low < high:
        middle = (low + high) // 2
        if guarantees(values[middle]):
            high = middle
        else:
            low = middle + 1
    return values[high]


class _Independent:
    """Players who do not interact (the rally): each goal from two sorted lists of keys."""

    def __init__(self, tracks: Sequence[Track], coming: Sequence[Coming], newcomer: Track):
        m = len(coming)
        self.tracks = tracks
        self.coming = coming
        self.none: list[float | None] = [None] * m
        top: list[float | None] = [max(c.values) for c in coming]
        self.low = [t.key(self.none) for t in tracks]
        self.high = [t.key(top) for t in tracks]
        self.lows = sorted(self.low)
        self.highs = sorted(self.high)
        self.newcomer = newcomer.key(top) if m else None

    @staticmethod
    def _above(keys: list[Key], key: Key, own: Key) -> int:
        """How many of ``keys`` (sorted; ``own`` among them) other than ``own`` beat ``key``."""
        return len(keys) - bisect.bisect_right(keys, key) - (own > key)

    def _threats(self, index: int, key: Key, place: int) -> int:
        count = self._above(self.highs, key, self.high[index])
        if self.newcomer is not None and self.newcomer > key:
            count += place  # as many newcomers as it takes
        return count

    def goal(self, index: int, place: int) -> Goal:
        low, high = self.low[index], self.high[index]
        if low[0] and self._threats(index, low, place) < place:
            return Goal(place, Chance.CLINCHED)
        if not high[0] or self._above(self.lows, high, low) >= place:
            return Goal(place, Chance.GONE)
        if not self.coming:
            return Goal(place, Chance.POSSIBLE)
        track = self.tracks[index]

        def guarantees(score: float) -> bool:
            key = track.key([score, *self.none[1:]])
            return key[0] and self._threats(index, key, place) < place

        return Goal(place, Chance.POSSIBLE, _least(self.coming[0].values, guarantees))


def _best_first(values: Sequence[float]) -> list[int]:
    """The places (indexes of ``values``) from the best score down; equal scores: the better
    place first."""
    return sorted(range(len(values)), key=lambda r: (-values[r], r))


def _rating(total: float) -> Key:
    """A rating as a key that compares by the rating alone (for bounds)."""
    return (True, ((total,),))


class _Ranked:
    """Players who share out places (poker, Dip Pouch): see the module docstring.

    Two questions, for a player and a place *k*: can *k* others finish above the player (the
    worst case; with the player's first result fixed at a place when working out what
    guarantees the goal), and can fewer than *k* (the best case)? Both are decided exactly:
    by matching players to places when one event is left (:func:`_served`), else by what each
    player can do alone, a greedy outcome that may already answer, and an exhaustive search
    over the groups of players that could (:class:`_Groups`, :class:`_Search`).
    """

    def __init__(
        self,
        tracks: Sequence[Track],
        coming: Sequence[Coming],
        newcomer: Track,
        *,
        rated: bool,
        shuffles: bool,
    ) -> None:
        self.tracks = list(tracks)
        self.coming = coming
        self.newcomer = newcomer
        self.rated = rated
        self.shuffles = shuffles or rated  # a rating depends on the order of the events
        self.m = len(coming)
        self.none: list[float | None] = [None] * self.m
        # each event's places from the best score down (equal scores: the better place first)
        self.order = [_best_first(c.values) for c in coming]
        self._keys: dict[tuple[int, tuple[float | None, ...]], Key] = {}
        self._totals: dict[tuple[int, tuple[float | None, ...]], float] = {}
        self._places: dict[tuple[int, int | None, bool], list[int]] = {}
        self._extremes: dict[tuple[bool, int | None], list[float | None]] = {}
        self._rises: dict[tuple[int, int | None], list[float | None]] = {}
        self._bounds: dict[int | None, tuple[list[Key], list[int]]] = {}
        self._falls: dict[int, list[float | None]] = {}
        everyone = [*self.tracks, newcomer]
        now = [(self.total(t, self.none), t.played, _values(t), -i) for i, t in enumerate(everyone)]
        by_strength = sorted(range(len(everyone)), key=lambda i: now[i], reverse=True)
        self.strength = {id(everyone[i]): -at for at, i in enumerate(by_strength)}
        """Each player's place in the order of strength without more results (0 the
        strongest, then -1, ...): the total, events, scores best first."""
        self._place_keys: dict[int, list[Key | None]] = {}
        self._low: dict[int, float] = {}
        self._lows: list[tuple[float, int]] = []
        self._absent = sorted(self.key(t, self.none) for t in self.tracks)

    def key(self, track: Track, new: New) -> Key:
        """``track.key(new)``, remembered: the same players' same results recur."""
        memo = (id(track), tuple(new))
        found = self._keys.get(memo)
        if found is None:
            found = self._keys[memo] = track.key(new)
        return found

    def total(self, track: Track, new: New) -> float:
        """``track.total(new)``, remembered."""
        memo = (id(track), tuple(new))
        found = self._totals.get(memo)
        if found is None:
            found = self._totals[memo] = track.total(new)
        return found

    # -- one player alone

    def places(self, e: int, blocked: int | None, *, best_first: bool = True) -> list[int]:
        """Event ``e``'s places but ``blocked``, best first (or worst first)."""
        memo = (e, blocked, best_first)
        found = self._places.get(memo)
        if found is None:
            places = [r for r in self.order[e] if r != blocked]
            found = self._places[memo] = places if best_first else places[::-1]
        return found

    def value(self, e: int, place: int) -> float:
        return self.coming[e].values[place]

    def extreme(self, best: bool, blocked: int | None = None) -> list[float | None]:
        """The best (or worst) score of every event, the first event's ``blocked`` place
        left out."""
        found = self._extremes.get((best, blocked))
        if found is None:
            found = []
            for e in range(self.m):
                places = self.places(e, blocked if e == 0 else None)
                found.append(self.value(e, places[0 if best else -1]) if places else None)
            self._extremes[best, blocked] = found
        return list(found)

    def _top_blocked(self, blocked: int | None) -> int | None:
        """``blocked`` if it is the first event's best place (the only one that changes
        anyone's best alone), else None."""
        return blocked if self.m and blocked is not None and blocked == self.order[0][0] else None

    def complete(
        self,
        track: Track,
        new: list[float | None],
        start: int,
        options: Sequence[float | None],
        *,
        up: bool,
    ) -> list[float | None]:
        """``new`` with each event from ``start`` on played at ``options[e]``; a rating skips
        an event where that leaves it higher (``up``) or lower: event by event, as a rating
        moves with each. Points always play: a score never lowers a total."""
        out = list(new)
        for e in range(start, self.m):
            out[e] = options[e]
            if self.rated and options[e] is not None:
                played = self.total(track, out)
                out[e] = None
                skipped = self.total(track, out)
                if (played > skipped) if up else (played < skipped):
                    out[e] = options[e]
        return out

    def rise(self, track: Track, blocked: int | None = None) -> list[float | None]:
        """The player's best results alone: the best place in every event (in the first, not
        ``blocked``); a rating plays only where that raises it."""
        blocked = self._top_blocked(blocked)
        found = self._rises.get((id(track), blocked))
        if found is None:
            found = self.complete(track, list(self.none), 0, self.extreme(True, blocked), up=True)
            self._rises[id(track), blocked] = found
        return list(found)

    def fall(self, track: Track, fixed: int | None = None) -> list[float | None]:
        """The player's worst results (the first at place ``fixed`` when given): no more
        (points), or the last place where that lowers a rating."""
        if fixed is None:
            found = self._falls.get(id(track))
            if found is None:
                found = self._falls[id(track)] = self._fall(track, None)
            return list(found)
        return self._fall(track, fixed)

    def _fall(self, track: Track, fixed: int | None) -> list[float | None]:
        new = list(self.none)
        start = 0
        if fixed is not None and self.m:
            new[0] = self.value(0, fixed)
            start = 1
        if not self.rated:
            return new
        return self.complete(track, new, start, self.extreme(False), up=False)

    def can_qualify(self, track: Track, start: int, new: Sequence[float | None]) -> bool:
        """Whether the player can still reach the minimum, ``new`` as it is before event
        ``start``: by playing every event from there."""
        played = track.played + sum(v is not None for v in new[:start])
        return played + self.m - start >= track.minimum

    def goal(self, index: int, place: int) -> Goal:
        try:
            return self._goal(index, place)
        except _TooHard:
            return Goal(place, Chance.OPEN)

    def _goal(self, index: int, place: int) -> Goal:
        if not self.possible(index, place):
            return Goal(place, Chance.GONE)
        if not self.threatened(index, place, None):
            return Goal(place, Chance.CLINCHED)
        if not self.m:
            return Goal(place, Chance.POSSIBLE)
        values = self.coming[0].values
        by_score = sorted(range(len(values)), key=lambda r: (values[r], -r))  # worst first

        def guarantees(at: int) -> bool:
            return not self.threatened(index, place, by_score[at])

        if not guarantees(len(by_score) - 1):
            return Goal(place, Chance.POSSIBLE)
        low, high = 0, len(by_score) - 1  # by_score[high] guarantees, and so does any better
        while low < high:
            middle = (low + high) // 2
            if guarantees(middle):
                high = middle
            else:
                low = middle + 1
        while high and values[by_score[high - 1]] == values[by_score[high]]:
            high -= 1  # places that score alike go together
        needs = values[by_score[high]]
        worst = max(r for r in range(len(values)) if values[r] == needs)
        return Goal(place, Chance.POSSIBLE, needs, worst + 1)

    # -- the worst case

    def threatened(self, index: int, place: int, fixed: int | None) -> bool:
        """Whether some outcome (the player's first result at place ``fixed`` when given)
        leaves the player unqualified or ``place`` others above them."""
        track = self.tracks[index]
        if track.played + (fixed is not None) < track.minimum:
            return True  # not playing again leaves the player short of the minimum
        fall = self.fall(track, fixed)
        floor = self.key(track, fall)
        low = self.total(track, fall)
        candidates = self.candidates(index, place, fixed, _rating(low) if self.rated else floor)
        if len(candidates) < place:
            return False
        if self.m == 1:
            if fixed is not None or not self.rated:
                plans = [(fall, fixed)]
            else:  # the player's worst: not playing, or the last place
                last = self.places(0, None)[-1]
                plans = [([None], None), ([self.value(0, last)], last)]
            for plan, blocked in plans:
                key = self.key(track, plan)
                if (
                    not key[0]
                    or _served(self, candidates, key, blocked, up=True, enough=place) >= place
                ):
                    return True
            return False
        return _Groups(self, track, candidates, place, fixed, up=True).any()

    def _ratings(self) -> list[tuple[float, int]]:
        """The lowest rating each player who stays qualified whatever happens can fall to
        (the others can be left short of the minimum, below the player), sorted, with each
        player's index."""
        if not self._low:
            for i, t in enumerate(self.tracks):
                self._low[i] = self.total(t, self.fall(t))
            kept = [i for i, t in enumerate(self.tracks) if t.played >= t.minimum]
            self._lows = sorted((self._low[i], i) for i in kept)
        return self._lows

    def candidates(self, index: int, place: int, fixed: int | None, floor: Key) -> list[Track]:
        """The players (and ``place`` newcomers) who could finish above the player alone:
        whose best key alone beats ``floor`` (a rating: whose best rating reaches the
        player's lowest, ``floor``'s total; its tie-breaks and events depend on the outcome)."""
        blocked = self._top_blocked(fixed)
        if blocked not in self._bounds:
            everyone = [*self.tracks, self.newcomer]
            bounds: list[tuple[Key, int]] = []
            for i, other in enumerate(everyone):
                if not self.can_qualify(other, 0, self.none):
                    continue
                rise = self.rise(other, blocked)
                bound = _rating(self.total(other, rise)) if self.rated else self.key(other, rise)
                bounds.append((bound, i))
            bounds.sort(key=lambda b: b[0])
            self._bounds[blocked] = ([b for b, _ in bounds], [i for _, i in bounds])
        values, who = self._bounds[blocked]
        if self.rated:  # a best rating equal to the player's lowest may still be above
            start = bisect.bisect_left(values, floor)
        else:
            start = bisect.bisect_right(values, floor)
        newcomer = len(self.tracks)
        found: list[Track] = []
        for i in who[start:]:
            if i == newcomer:
                found += [self.newcomer] * place  # newcomers: as many as it takes
            elif i != index:
                found.append(self.tracks[i])
        return found

    def beating(self, track: Track, key: Key) -> int:
        """How many of the (only) event's best places lift the player above ``key``: a key
        never falls as the place gets better, so they are the best few (a binary search)."""
        order = self.order[0]
        known = self._place_keys.get(id(track))
        if known is None:
            known = self._place_keys[id(track)] = [None] * len(order)
        lo, hi = 0, len(order)
        while lo < hi:
            middle = (lo + hi) // 2
            found = known[middle]
            if found is None:
                found = known[middle] = self.key(track, [self.value(0, order[middle])])
            if found > key:
                lo = middle + 1
            else:
                hi = middle
        return lo

    # -- the best case

    def possible(self, index: int, place: int) -> bool:
        """Whether some outcome leaves the player qualified with fewer than ``place`` others
        above them."""
        track = self.tracks[index]
        top = self.extreme(True)
        if not self.key(track, top)[0]:  # not even playing every event qualifies
            return False
        if not self.rated:  # the best case: the player wins everything, nobody else plays
            best = self.key(track, top)
            above = len(self._absent) - bisect.bisect_right(self._absent, best)
            above -= self.key(track, self.none) > best  # the player's own
            return above < place
        # a rating: the player plays the best place or not, plan by plan; the others who would
        # be above the player without playing again can be pushed down by playing badly
        lows = self._ratings()
        first = self.places(0, None)[0] if self.m else None
        plans = sorted(
            (list(plan) for plan in itertools.product(*[(None, v) for v in top])),
            key=lambda plan: self.key(track, plan),
            reverse=True,
        )
        for plan in plans:
            key = self.key(track, plan)
            if not key[0]:
                break  # the plans are in order: none after this one qualifies
            ceiling = self.total(track, plan)
            # above whatever happens: even at their lowest they are higher (never the player)
            always = len(lows) - bisect.bisect_right(lows, (ceiling, len(self.tracks)))
            allowed = place - 1 - always
            if allowed < 0:
                continue
            pushed = [
                t
                for i, t in enumerate(self.tracks)
                if i != index
                and t.played >= t.minimum  # else not playing leaves them short: below
                and self._low[i] <= ceiling
                and self.key(t, self.none) > key
            ]
            if len(pushed) <= allowed:
                return True
            if self.m == 1:
                blocked = None if plan[0] is None else first
                if len(pushed) - _served(self, pushed, key, blocked, up=False) <= allowed:
                    return True
                continue
            groups = _Groups(self, track, pushed, len(pushed) - allowed, None, up=False)
            if groups.any(list(plan)):
                return True
            if all(len(c.values) > len(pushed) + 1 for c in self.coming):
                # the player's place (the best) is never one the pushed need (the worst): a
                # plan with a lower key has more to push, and it no easier
                break
        return False


def _served(
    ranked: _Ranked,
    players: Sequence[Track],
    key: Key,
    blocked: int | None,
    *,
    up: bool,
    enough: int | None = None,
) -> int:
    """One event left, the player at ``key`` holding place ``blocked``: the most of
    ``players`` that can each end above the player (``up``) or not above (down). Each wants a
    place scoring enough (up) or little enough (down), or none when not playing does: the
    places it can use are a run from the best (from the worst), and serving the shortest runs
    first serves the most. With ``enough``: that many, as soon as that many players can each
    use that many places (any of them can then be served)."""
    places = ranked.places(0, blocked, best_first=up)
    at = None if blocked is None else ranked.order[0].index(blocked)
    reach = []
    wide = 0  # players who can use `enough` places
    for other in players:
        absent = ranked.key(other, [None])
        if absent > key if up else not absent > key:
            reach.append(len(places) + 1)  # needs no place
            wide += 1
            if enough is not None and wide >= enough:
                return enough
            continue
        above = ranked.beating(other, key)  # the best `above` places lift it above
        if up:
            run = above - (at is not None and at < above)
        else:
            count = len(ranked.order[0]) - above  # the worst `count` do not
            run = count - (at is not None and at >= above)
        reach.append(run)
        if enough is not None and run >= enough:
            wide += 1
            if wide >= enough:
                return enough
    served = 0
    for length in sorted(reach):
        if length > len(places) or served < length:
            served += 1
    return served


class _Groups:
    """The groups of ``size`` of ``players`` that must all end above the player (``up``) or
    not above (down), tried one by one (:class:`_Search`). A group is left out when someone
    outside it is at least as strong (up; as weak, down) as someone in it whatever happens
    (:func:`_dominates`: swapping them can only help), or when the places cannot give its
    players what they need (points: the best places of every event, summed)."""

    def __init__(
        self,
        ranked: _Ranked,
        track: Track,
        players: Sequence[Track],
        size: int,
        fixed: int | None,
        *,
        up: bool,
    ) -> None:
        self.r = ranked
        self.track = track
        self.size = size
        self.fixed = fixed
        self.up = up
        # the strongest first (up), the weakest first (down): one that dominates comes first
        strength = ranked.strength
        self.players = sorted(players, key=lambda p: strength[id(p)], reverse=up)
        self.needs: list[float] | None = None
        if up and not ranked.rated:
            target = ranked.total(track, ranked.fall(track, fixed))
            self.needs = [max(0.0, target - ranked.total(p, ranked.none)) for p in self.players]
        self.room: dict[int, float] = {}

    def _room(self, count: int) -> float:
        """The most ``count`` players can gain together: every event's best ``count``
        places, summed."""
        return sum(
            sum(
                self.r.value(e, at)
                for at in self.r.places(e, self.fixed if e == 0 else None)[:count]
            )
            for e in range(self.r.m)
        )

    def _fits(self, needs: Sequence[float]) -> bool:
        """Whether the places can give every few of these players what they need together."""
        running = 0.0
        for count, need in enumerate(sorted(needs), start=1):
            running += need
            if count not in self.room:
                self.room[count] = self._room(count)
            if running > self.room[count] + 1e-9:
                return False
        return True

    def any(self, plan: list[float | None] | None = None) -> bool:
        """Whether some group can (``plan``: the player's own results, fixed)."""
        if self.needs is not None and not self._fits(sorted(self.needs)[: self.size]):
            return False  # even the players who need least cannot all get it
        if not self.up and plan is not None and not self._sinkable(plan):
            return False
        first = self.players[: self.size]
        if _Search(self.r, self.track, first, self.fixed, self.up, plan).greedy():
            return True
        for group in self._groups():
            if self.needs is not None and not self._fits([self.needs[i] for i in group]):
                continue
            members = [self.players[i] for i in group]
            if _Search(self.r, self.track, members, self.fixed, self.up, plan).run():
                return True
        return False

    def _sinkable(self, plan: list[float | None]) -> bool:
        """Down, a rating, the player's results fixed: whether the ``size`` players easiest
        to push down could all end at or below the player's rating, by a necessary condition.

        Not playing an event is playing it at one's own rating, so every player's final rating
        is ``r × K + Σ c_e × y_e`` with the same ``K = Π (1 − v_e)`` and ``c_e = v_e ×
        Π (1 − v)`` (of the later events) for all: ``y_e`` is the place's percentile, or the
        rating then, which is at least ``r × Π (1 − v)`` of the earlier events. The sum over
        the players cannot be less than with the lowest places shared out to those whose
        ratings would be highest, and must be at most the player's rating times their
        number. Checked for the hardest players first, one more at a time. Only when every
        event to come follows everyone's history (else nothing is ruled out)."""
        r = self.r
        tracks = self.players[: self.size]
        if not all(isinstance(t, RatingTrack) and not t.after for t in tracks):
            return True
        if isinstance(self.track, RatingTrack) and self.track.after:
            return True
        ceiling = r.total(self.track, plan)
        v = [c.value / 100 for c in r.coming]
        keep = [1.0] * (r.m + 1)  # keep[e]: Π (1 − v) of the events from e on
        for e in range(r.m - 1, -1, -1):
            keep[e] = keep[e + 1] * (1 - v[e])
        before = [1.0] * (r.m + 1)  # before[e]: Π (1 − v) of the events before e
        for e in range(r.m):
            before[e + 1] = before[e] * (1 - v[e])
        weights = [v[e] * keep[e + 1] for e in range(r.m)]
        hardest = sorted((t.base for t in tracks if isinstance(t, RatingTrack)), reverse=True)
        for count in range(1, len(hardest) + 1):
            chosen = hardest[:count]
            least = keep[0] * sum(chosen)
            for e in range(r.m):
                places = [r.value(e, at) for at in r.places(e, None, best_first=False)]
                if plan[e] is not None:
                    places = places[:-1]  # the player's own place, the best
                skips = [base * before[e] for base in chosen]  # highest first
                least += weights[e] * sum(
                    min(skip, places[i]) if i < len(places) else skip
                    for i, skip in enumerate(skips)
                )
            if least > count * ceiling + 1e-9:
                return False
        return True

    def _groups(self) -> Iterator[tuple[int, ...]]:
        """Groups closed under dominance: with a player, everyone ahead of them who is at
        least as strong (as weak) whatever happens."""
        n = len(self.players)
        ahead = [
            {
                j
                for j in range(i)
                if _dominates(self.r, self.players[j], self.players[i], up=self.up)
            }
            for i in range(n)
        ]

        def grow(i: int, chosen: list[int], skipped: set[int]) -> Iterator[tuple[int, ...]]:
            if len(chosen) == self.size:
                yield tuple(chosen)
                return
            if n - i < self.size - len(chosen):
                return
            if not skipped & ahead[i]:
                chosen.append(i)
                yield from grow(i + 1, chosen, skipped)
                chosen.pop()
            skipped.add(i)
            yield from grow(i + 1, chosen, skipped)
            skipped.discard(i)

        yield from grow(0, [], set())


def _values(track: Track) -> tuple[float, ...]:
    """A points player's scores so far, best first (empty for a rating)."""
    if isinstance(track, PointsTrack):
        return tuple(sorted((s.value for s in track.scores), reverse=True))
    return ()


def _dominates(ranked: _Ranked, a: Track, b: Track, *, up: bool) -> bool:
    """Whether ``a`` ends at least as high as ``b`` (``up``; as low, down) whatever results
    both get, the same results making it so: ``a`` played at least as many events and each of
    its scores, best first, is at least ``b``'s (so its best N of any scores to come are too).
    Where the order of events counts (the ``recent`` tie-break, a rating) only a player
    dominates their own copy (newcomers)."""
    if a is b:
        return True
    if ranked.shuffles or not isinstance(a, PointsTrack) or not isinstance(b, PointsTrack):
        return False
    if not up:
        a, b = b, a
    if a.played < b.played:
        return False
    return all(x >= y for x, y in zip(_values(a), _values(b), strict=False))


class _TooHard(Exception):
    """A search would take more than :data:`SEARCH_STEPS` steps."""


class _Search:
    """An exhaustive search over the remaining events for one group: event by event, the
    group's players either do not play (a rating) or take the best places left (up) or the
    worst (down) in every order, and the player takes their fixed place, or no place or the
    worst place left (up, a rating; points: none) or the best (down). A state the group cannot
    succeed from is remembered, and a branch is cut as soon as one of the group cannot succeed
    even if everything else went their way."""

    def __init__(
        self,
        ranked: _Ranked,
        track: Track,
        group: list[Track],
        fixed: int | None,
        up: bool,
        plan: list[float | None] | None = None,
    ) -> None:
        self.r = ranked
        self.track = track
        self.group = group
        self.fixed = fixed
        self.up = up
        self.plan = plan
        """The player's own results, when fixed (the best case of a rating, plan by plan)."""
        self.failed: set[tuple[object, ...]] = set()
        self.steps = 0

    def _meets(self, key: Key, other: Track, new: list[float | None]) -> bool:
        return self.r.key(other, new) > key if self.up else not self.r.key(other, new) > key

    def _done(self, p_new: list[float | None], new: list[list[float | None]]) -> bool:
        key = self.r.key(self.track, p_new)
        if not key[0]:
            return self.up  # the player not qualified: the worst case, never the best
        return all(self._meets(key, o, n) for o, n in zip(self.group, new, strict=True))

    def greedy(self) -> bool:
        """A few outcomes that may already answer: the player's own worst (best) results,
        and in each event the group's players take the best (worst) places left, if it helps
        them, in one of three orders: the one furthest from succeeding first; the one that
        started furthest first; and that order in the first event, reversed in the next."""
        return any(self._greedy(way) for way in ("furthest", "fixed", "alternate"))

    def _greedy(self, way: str) -> bool:
        r = self.r
        if self.plan is not None:
            p_new = list(self.plan)
        else:
            p_new = r.fall(self.track, self.fixed) if self.up else r.rise(self.track)
        new: list[list[float | None]] = [list(r.none) for _ in self.group]
        target = r.total(self.track, p_new)
        sign = 1 if self.up else -1
        start = sorted(range(len(self.group)), key=lambda i: sign * r.total(self.group[i], new[i]))
        for e in range(r.m):
            places = r.places(e, None, best_first=self.up)
            if p_new[e] is not None:  # the place the player took
                mine = self.fixed if e == 0 and self.fixed is not None else places[-1]
                places = [x for x in places if x != mine]
            if way == "furthest":
                order = sorted(
                    range(len(self.group)),
                    key=lambda i: sign * (r.total(self.group[i], new[i]) - target),
                )
            elif way == "fixed" or e % 2 == 0:
                order = start
            else:
                order = start[::-1]
            for i, at in zip(order, places, strict=False):
                before = r.total(self.group[i], new[i])
                new[i][e] = r.value(e, at)
                if r.rated:
                    after = r.total(self.group[i], new[i])
                    if (after <= before) if self.up else (after >= before):
                        new[i][e] = None
        return self._done(p_new, new)

    def run(self) -> bool:
        m = self.r.m
        return self._event(0, [None] * m, [[None] * m for _ in self.group])

    def _hopeless(self, e: int, p_new: list[float | None], new: list[list[float | None]]) -> bool:
        """Whether, events before ``e`` as they are, one of the group cannot succeed even if
        every event from ``e`` on went their way and the player's the other way."""
        r = self.r
        if self.up:
            p_low = (
                r.complete(self.track, p_new, e, r.extreme(False), up=False) if r.rated else p_new
            )
            key = self.r.key(self.track, p_low)
            if not key[0]:
                return False
            low = self.r.total(self.track, p_low)
            for other, n in zip(self.group, new, strict=True):
                if not r.can_qualify(other, e, n):
                    return True
                best = r.complete(other, n, e, r.extreme(True), up=True)
                if (
                    (self.r.total(other, best) < low)
                    if r.rated
                    else not self.r.key(other, best) > key
                ):
                    return True
            return False
        if not r.can_qualify(self.track, e, p_new):
            return True
        if self.plan is not None:
            p_high = list(self.plan)
        else:
            p_high = r.complete(self.track, p_new, e, r.extreme(True), up=True)
        ceiling = self.r.total(self.track, p_high)
        for other, n in zip(self.group, new, strict=True):
            if other.played + sum(v is not None for v in n[:e]) < other.minimum:
                continue  # can stay short of the minimum: never above the player
            lowest = r.complete(other, n, e, r.extreme(False), up=False)
            if self.r.total(other, lowest) > ceiling:
                return True
        return False

    def _state(
        self, e: int, p_new: list[float | None], new: list[list[float | None]]
    ) -> tuple[object, ...]:
        if self.r.shuffles:
            return (e, tuple(p_new[:e]), *(tuple(n[:e]) for n in new))
        # a points player's key depends only on their scores, not on which event gave which
        return (
            e,
            tuple(p_new[:e]),
            *(tuple(sorted(v for v in n[:e] if v is not None)) for n in new),
        )

    def _event(self, e: int, p_new: list[float | None], new: list[list[float | None]]) -> bool:
        r = self.r
        if e == r.m:
            return self._done(p_new, new)
        state = self._state(e, p_new, new)
        if state in self.failed:
            return False
        self.steps += len(self.group)
        if self._hopeless(e, p_new, new):
            self.failed.add(state)
            return False
        blocked = self.fixed if e == 0 else None
        if self.plan is not None and self.plan[e] is not None:
            blocked = r.order[e][0]  # the player's plan plays the best place
        places = r.places(e, blocked, best_first=self.up)
        seen: set[tuple[tuple[int, float], ...]] = set()
        for players in _subsets(len(self.group), len(places), every=not r.rated):
            for ordering in itertools.permutations(players):
                self.steps += 1
                if self.steps > SEARCH_STEPS:
                    raise _TooHard
                given = tuple(
                    sorted(zip(ordering, (r.value(e, at) for at in places), strict=False))
                )
                if given in seen:
                    continue
                seen.add(given)
                for i, value in given:
                    new[i][e] = value
                for choice in self._choices(e, places[len(ordering) :]):
                    p_new[e] = choice
                    if self._event(e + 1, p_new, new):
                        return True
                p_new[e] = None
                for i, _ in given:
                    new[i][e] = None
        self.failed.add(state)
        return False

    def _choices(self, e: int, free: list[int]) -> list[float | None]:
        """The player's result in event ``e``, the group's places taken (``free``: what is
        left, in the search's order: best first up, worst first down)."""
        r = self.r
        if self.plan is not None:
            return [self.plan[e]]
        if e == 0 and self.fixed is not None:
            return [r.value(0, self.fixed)]
        if not r.rated:
            if self.up or not free:
                return [None]
            return [r.value(e, free[-1])]  # down: the best place left
        options: list[float | None] = [None]
        if free:
            options.append(r.value(e, free[-1]))  # up: the worst left; down: the best left
        return options


def _subsets(k: int, room: int, *, every: bool) -> Iterator[tuple[int, ...]]:
    """Which of ``k`` players play an event with ``room`` places: as many as fit (``every``:
    points players never skip), else any number of them."""
    if every:
        yield from itertools.combinations(range(k), min(k, room))
        return
    for size in range(min(k, room), -1, -1):
        yield from itertools.combinations(range(k), size)
