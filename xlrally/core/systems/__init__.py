"""The scoring systems, one object each, behind one registry (like python-chess's variants).

Each :class:`System` says everything the rest of xlrally needs to know about a rule book: its
key and name (either may be written in a workbook's Settings), its result columns,
whether results are finishing positions, whether standings are a rating carried from event
to event rather than a total of best scores, which event fields it needs, and the scorer that
turns one result into a :class:`~xlrally.core.ranking.Score` with its working. The formulas
themselves live in one module per rule book: :mod:`~xlrally.core.systems.rally`,
:mod:`~xlrally.core.systems.poker`, :mod:`~xlrally.core.systems.dippouch`.

>>> [system.key for system in SYSTEMS.values()]
['rally', 'absolute', 'reverse', 'neau', 'dippouch']
>>> lookup("Relative Reverse Order").key, SYSTEMS["dippouch"].total_label
('reverse', 'Rating')
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xlrally.core.errors import ScoringError
from xlrally.core.names import norm
from xlrally.core.ranking import Score
from xlrally.core.systems import dippouch, poker, rally

__all__ = ["SYSTEMS", "System", "dippouch", "known", "lookup", "poker", "rally"]

if TYPE_CHECKING:
    from xlrally.core.model import Event, Result, Settings

Scorer = Callable[["Result"], Score]
"""Scores one result of an event; raises :class:`ScoringError` naming the field at fault."""

ScorerFactory = Callable[["Settings", "Event", int], Scorer]
"""Makes the scorer of one event (settings, event, field size): made once per event."""


@dataclass(frozen=True)
class System:
    """A scoring system as the league, the reader and every output see it."""

    key: str
    name: str
    result_fields: tuple[str, ...]
    """Result columns; the first two are required (player and the system's own result)."""
    event_fields: tuple[str, ...]
    """Events columns a new workbook of this system gets."""
    ranked: bool
    """Results are finishing positions (ranks); an event without ranks is not scored yet."""
    rounds: str = "unused"
    """The event's rounds: ``"required"``, ``"optional"`` (checked when given) or ``"unused"``."""
    dated: bool = False
    """Every event needs a date (the rating takes events in date order)."""
    points_table: bool = False
    """Points come from a Points sheet (rank, points, bonus)."""
    event_buy_in: bool = False
    """An event's buy-in is part of scoring (and checked on the event)."""
    scorer: ScorerFactory | None = None
    """None for a rated system (its events are rated as a whole, in date order)."""
    default_counted: Callable[[int, int], int] | None = None
    """Without a Best X setting: (events held, events cap) -> scores counted (None: all)."""

    @property
    def rated(self) -> bool:
        """Standings are a rating carried from event to event (not a total of best scores)."""
        return self.scorer is None

    @property
    def shared_ranks(self) -> bool:
        """Tied players share the better place (1, 2, 2, 4); else ranks must be distinct."""
        return self.rated

    @property
    def total_label(self) -> str:
        """The heading of the standings' main number."""
        return "Rating" if self.rated else "Total"

    def counted_per_player(self, held: int, best_x: int | None, events_cap: int) -> int | None:
        """How many scores count for each player (None: all of them)."""
        if best_x is not None:
            return best_x
        if self.default_counted is not None:
            return self.default_counted(held, events_cap)
        return None


def _rally(settings: Settings, event: Event, field_size: int) -> Scorer:
    """The rally scorer of one event. A rally's scores take few values (points go by halves
    up to the rounds played), so each is worked out once per event and shared: scores are
    immutable, and a 200-player event scores a dozen different results, not 200."""
    name, rounds, score_event = event.name, event.rounds, rally.score_event
    known: dict[tuple[object, ...], Score] = {}

    def score(result: Result) -> Score:
        points, byes, games = result.points, result.byes, result.games
        # typed, as score_event's own cache: TRUE is not 1 here (it is refused)
        key = (points, byes, games, type(points), type(byes), type(games))
        found = known.get(key)
        if found is None:
            working = score_event(points, rounds, byes, games)
            found = known[key] = Score(name, working.score, working)
        return found

    return score


def _by_rank(
    score_rank: Callable[[object, object, poker.PointStructure], poker.PokerScore],
    settings: Settings,
    event: Event,
    field_size: int,
) -> Scorer:
    """The scorer of a points-table system (``score_rank`` bound by :func:`functools.partial`
    in the registry: a factory made when the module is imported could not be reached by
    mutation testing, which switches a mistake on only after the import)."""
    name, structure = event.name, settings.structure

    def score(result: Result) -> Score:
        if result.rank is None:
            raise ScoringError("rank is missing", "rank")
        working = score_rank(result.rank, field_size, structure)
        return Score(name, working.total, working)

    return score


def _neau(settings: Settings, event: Event, field_size: int) -> Scorer:
    name = event.name

    def score(result: Result) -> Score:
        if result.rank is None:
            raise ScoringError("rank is missing", "rank")
        buy_in = result.buy_in if result.buy_in is not None else event.buy_in
        if buy_in is None:
            raise ScoringError("buy-in is missing (give it on the event or the result)", "buy-in")
        working = poker.score_neau(field_size, buy_in, result.total, result.rank)
        return Score(name, working.points, working)

    return score


SYSTEMS: dict[str, System] = {
    system.key: system
    for system in (
        System(
            "rally",
            "Rapidplay Rally",
            ("player", "points", "games", "byes"),
            ("event", "date", "rounds", "status"),
            ranked=False,
            rounds="required",
            scorer=_rally,
            default_counted=rally.events_counted,
        ),
        System(
            "absolute",
            "Absolute Points",
            ("player", "rank"),
            ("event", "date", "players", "status"),
            ranked=True,
            points_table=True,
            scorer=functools.partial(_by_rank, poker.score_absolute),
        ),
        System(
            "reverse",
            "Relative Reverse Order",
            ("player", "rank"),
            ("event", "date", "players", "status"),
            ranked=True,
            points_table=True,
            scorer=functools.partial(_by_rank, poker.score_reverse),
        ),
        System(
            "neau",
            "Neau's formula",
            ("player", "rank", "buy-in", "total"),
            ("event", "date", "buy-in", "players", "status"),
            ranked=True,
            event_buy_in=True,
            scorer=_neau,
        ),
        System(
            "dippouch",
            "Dip Pouch Tournament Rating",
            ("player", "rank", "country"),
            ("event", "date", "rounds", "players", "world championship", "status"),
            ranked=True,
            rounds="optional",
            dated=True,
        ),
    )
}
"""Every system by key, in the order documented and offered."""


_BY_SPELLING = {
    norm(spelling): system for system in SYSTEMS.values() for spelling in (system.key, system.name)
}


def lookup(name: str) -> System | None:
    """The system a workbook names, by its key or its name (``Neau's formula``; any case,
    spaces and punctuation ignored); None if there is none."""
    return _BY_SPELLING.get(norm(name))


def known() -> str:
    """The keys to offer in a message: ``rally, absolute, reverse, neau, dippouch``."""
    return ", ".join(SYSTEMS)
