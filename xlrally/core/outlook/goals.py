"""What it takes answers, as values: each player's goals (the title, each prize place,
qualifying) and their chances; and what it reads of the standings (:class:`Table`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from xlrally.core.model import EventStatus, Settings
from xlrally.core.ranking import RatingLine, Standing
from xlrally.core.systems.base import System


class Chance(str, Enum):
    """What can become of a goal."""

    CLINCHED = "clinched"
    POSSIBLE = "possible"
    GONE = "gone"
    OPEN = "open"
    """Not worked out: deciding it would take the search more than
    :data:`~xlrally.core.outlook.search.SEARCH_STEPS` steps (a rare position: see the
    docstring of :mod:`xlrally.core.outlook`)."""

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
