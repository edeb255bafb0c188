"""The Dip Pouch Tournament Rating for Diplomacy (Matt Shields; World Diplomacy Database).

Source: the WDD page "Dip Pouch Tournament Rating" (seed ``004_d9e7694560094a06``)::

    start rating            40
    percentile              (N + 0.5 − placement) / N × 100   (ties share the better place)
    tournament value        20 for a World Championship, else
                            N / 7 + 2 for one round, N / 3.5 + 2 for more, at most 15;
                            0 for a non-World-Championship event before 2001
    new rating              old + value / 100 × (percentile − old), events in date order

Seed example: rating 55, 8th of 65 in a multi-round event: percentile 88.46, value 15,
new rating 55 + 0.15 × 33.46 = 60.019.

>>> round(percentile(8, 65), 2)
88.46
>>> tournament_value(65, rounds=3)
15.0
>>> round(updated_rating(55, 15, percentile(8, 65)), 3)
60.019
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from xlrally.core.errors import ScoringError
from xlrally.core.numbers import real, show, whole

START_RATING = 40.0
WORLD_CHAMPIONSHIP_VALUE = 20.0
MAX_VALUE = 15.0
FIRST_RATED_YEAR = 2001


def percentile(placement: object, players: object) -> float:
    """(N + 0.5 − placement) / N × 100; a tie shares the better placement (1, 2, 2, 4).

    >>> round(percentile(9, 31), 2), round(percentile(29, 31), 2)
    (72.58, 8.06)
    """
    n = whole(players, "players", minimum=1)
    place = whole(placement, "rank", minimum=1)
    if place > n:
        raise ScoringError(f"rank ({place}) must be between 1 and players ({n})", "rank")
    return (n + 0.5 - place) / n * 100


def tournament_value(
    players: object,
    rounds: object = None,
    world_championship: bool = False,
    year: object = None,
) -> float:
    """The tournament value: how far (in %) one event moves a rating.

    ``rounds`` None is taken as more than one round (nearly every tournament has several);
    ``year`` None as a year that counts.

    >>> round(tournament_value(31, rounds=5), 9), tournament_value(7, rounds=1)
    (10.857142857, 3.0)
    >>> tournament_value(100, rounds=1, year=1999), tournament_value(8, world_championship=True)
    (0.0, 20.0)
    """
    n = whole(players, "players", minimum=1)
    if world_championship:
        return WORLD_CHAMPIONSHIP_VALUE
    if year is not None and whole(year, "year") < FIRST_RATED_YEAR:
        return 0.0
    one_round = rounds is not None and whole(rounds, "rounds", minimum=1) == 1
    return min(n / 7 + 2 if one_round else n / 3.5 + 2, MAX_VALUE)


def updated_rating(old: object, value: object, percentile: object) -> float:
    """old + value / 100 × (percentile − old)."""
    before = real(old, "rating")
    return before + real(value, "value") / 100 * (real(percentile, "percentile") - before)


@dataclass(frozen=True)
class DipEvent:
    """One rated event: its placements by player key (ties share a placement)."""

    name: str
    date: dt.date
    players: int
    rounds: int | None
    world_championship: bool
    placements: Mapping[str, int]
    value: float | None = None
    """The tournament value set for this event (the Events sheet's Value column), used instead
    of the computed one: e.g. to reproduce a published list that valued the event otherwise."""


@dataclass(frozen=True)
class RatingStep:
    """One line of a player's rating history, as the WDD pages show it."""

    date: dt.date
    event: str
    placement: int
    players: int
    value: float
    percentile: float
    before: float
    after: float

    value_set: bool = False
    """The value was set in the Events sheet, not computed."""

    @property
    def explain(self) -> str:
        """E.g. ``8th of 65, value 15: rating 55 → 60.02: 15% of (88.46 − 55)``; a value set in
        the Events sheet says so: ``value 6.43 (set in Events)``."""
        head = f"{ordinal(self.placement)} of {self.players}, value {show(self.value)}"
        if self.value_set:
            head += " (set in Events)"
        if self.value == 0:
            when = "" if self.value_set else f" before {FIRST_RATED_YEAR},"
            return f"{head}:{when} rating stays {show(self.before)}"
        return (
            f"{head}: rating {show(self.before)} → {show(self.after)}: "
            f"{show(self.value)}% of ({show(self.percentile)} − {show(self.before)})"
        )


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st ...

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def rating_history(
    events: Iterable[DipEvent],
    as_of: dt.date | None = None,
    start: float = START_RATING,
) -> dict[str, tuple[RatingStep, ...]]:
    """Each player's rating history, events taken in date order (same date: the order given).

    Events dated after ``as_of`` are left out (the WDD page's year selector).
    """
    ordered = sorted((e for e in events if as_of is None or e.date <= as_of), key=lambda e: e.date)
    histories: dict[str, list[RatingStep]] = {}
    for event in ordered:
        value = event.value
        if value is None:
            value = tournament_value(
                event.players, event.rounds, event.world_championship, event.date.year
            )
        for player, placement in event.placements.items():
            steps = histories.setdefault(player, [])
            before = steps[-1].after if steps else start
            score = percentile(placement, event.players)
            after = updated_rating(before, value, score)
            steps.append(
                RatingStep(
                    event.date,
                    event.name,
                    placement,
                    event.players,
                    value,
                    score,
                    before,
                    after,
                    value_set=event.value is not None,
                )
            )
    return {player: tuple(steps) for player, steps in histories.items()}
