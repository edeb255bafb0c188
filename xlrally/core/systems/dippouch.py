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

from xlrally.core.checks import Collector, bad_number, check_ranks, report_failures
from xlrally.core.errors import ScoringError
from xlrally.core.model import Event, Result, Settings
from xlrally.core.numbers import ordinal, real, show, whole
from xlrally.core.ranking import Entry, Score
from xlrally.core.systems.base import Example, Fail, System, Tallied, Tally

__all__ = [
    "DIPPOUCH",
    "FIRST_RATED_YEAR",
    "MAX_VALUE",
    "START_RATING",
    "WORLD_CHAMPIONSHIP_VALUE",
    "DipEvent",
    "DipPouch",
    "RatingStep",
    "ordinal",
    "percentile",
    "rating_history",
    "tournament_value",
    "updated_rating",
]

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


# ---------------------------------------------------------------- the system


class RatingTally:
    """The Dip Pouch tally: each event's placements, rated in date order at the end."""

    def __init__(self, system: DipPouch) -> None:
        self.system = system
        self.events: list[DipEvent] = []

    def add(
        self,
        event: Event,
        keyed: list[tuple[str, Result]],
        field_size: int,
        problems: Collector,
    ) -> None:
        placements: dict[str, int] = {}
        ranks: list[int] = []
        ranked: list[Result] = []
        failures: list[tuple[Result, ScoringError]] = []
        for pk, result in keyed:
            try:
                if result.rank is None:
                    raise ScoringError("rank is missing", "rank")
                percentile(result.rank, field_size)
                placements[pk] = whole(result.rank, "rank")
                ranks.append(whole(result.rank, "rank"))
                ranked.append(result)
            except ScoringError as error:
                failures.append((result, error))
        report_failures(event, failures, field_size, problems)
        if len(ranked) == len(keyed):  # ties share the better place (1, 2, 2, 4)
            check_ranks(self.system.name, ranked, ranks, field_size, problems, shared=True)
        if event.date is not None:
            rounds = None if event.rounds is None else whole(event.rounds, "rounds", minimum=1)
            value = None if event.value is None else real(event.value, "value")
            self.events.append(
                DipEvent(
                    event.name,
                    event.date,
                    field_size,
                    rounds,
                    event.world_championship,
                    placements,
                    value,
                )
            )

    def tallied(self, display: Mapping[str, str], held: int) -> Tallied:
        """Each player's current rating, percentiles as scores (those of events worth 0 can
        never count), and their history."""
        entries = []
        history = {}
        for pk, steps in rating_history(self.events).items():
            player = display[pk]
            history[player] = steps
            rated = tuple(Score(s.event, s.percentile, s, eligible=s.value > 0) for s in steps)
            counted = frozenset(s.event for s in rated if s.eligible)
            entries.append(Entry(player, steps[-1].after, rated, counted))
        return Tallied(entries, None, self.system.rule(None, held), history)


@dataclass(frozen=True)
class DipPouch(System):
    """The Dip Pouch rating as a system: a rating carried from event to event, not a total of
    best scores (what differs from the points systems is overridden here)."""

    rated = True
    total_label = "Rating"
    drops_scores = False
    spans_years = True
    marks = (
        "Event columns show the percentile; bold events moved the rating, "
        "(bracketed) ones are worth 0 (before 2001)."
    )
    page_marks = (
        "Event columns show the percentile; events in (brackets) are worth 0 and did "
        "not move the rating."
    )

    def dropped_reason(self, counted_per_player: int | None) -> str:
        return f"worth 0 before {FIRST_RATED_YEAR}"

    def check_weighting(self, event: Event, fail: Fail) -> None:
        """An event may have its Value (0 to 100 %), never a Weight."""
        if event.weight is not None:
            fail("weight is for points systems: give a Dip Pouch event its Value instead", "weight")
        if event.value is not None and (
            message := bad_number(
                event.value, "value", lambda v: 0 <= v <= 100, "between 0 and 100 (%)"
            )
        ):
            fail(message, "value")

    def tally(self, settings: Settings) -> Tally:
        return RatingTally(self)

    def rule(self, counted: int | None, held: int) -> str:
        return (
            f"Everyone starts at a Dip Pouch rating of {show(START_RATING)}; each event "
            "moves a rating towards the percentile by the event's value in %"
        )

    def counted_per_player(self, held: int, best_x: int | None, events_cap: int) -> int | None:
        return None  # every event moves the rating


# Seed: the WDD's Stratagem 2002 (31 players, 5 rounds), with its shared placements.
_STRATAGEM = [
    (1, "Steve Mills"),
    (2, "Garth Boucher"),
    (3, "Stuart Jickling"),
    (4, "Robert Vollman"),
    (5, "Brian Shelden"),
    (6, "Peter Sadlon"),
    (7, "Matthew Schoenhardt"),
    (8, "Rick Worthey"),
    (9, "Ernie Kwok"),
    (9, "Brian Mitenko"),
    (11, "Vance Pon"),
    (12, "Steve Alexander"),
    (12, "James Istvanffy"),
    (12, "Tom Smith"),
    (12, "Dana Winkeler"),
    (16, "Craig Aitken"),
    (16, "Tyzen Ario"),
    (16, "Kevin Dooley"),
    (19, "Neil Goud"),
    (19, "Larry Peery"),
    (21, "John Bryden"),
    (21, "Denis Comtois"),
    (21, "Stan Leung"),
    (24, "Nicholas Alexander"),
    (24, "Mitch Furlong"),
    (24, "Michel Landry"),
    (24, "John Laszlo"),
    (24, "Charlie Pester"),
    (29, "Paul Dickenson"),
    (29, "Robin Ho"),
    (29, "Terry Webb"),
]

DIPPOUCH = DipPouch(
    "dippouch",
    "Dip Pouch Tournament Rating",
    ("player", "rank", "country"),
    ("event", "date", "rounds", "players", "world championship", "status"),
    Example(
        settings=[("League", "Dip Pouch rating list")],
        events=[
            {
                "event": "Stratagem 2002",
                "date": dt.date(2002, 1, 5),
                "rounds": 5,
                "players": 31,
                "world championship": "no",
            }
        ],
        results=[
            {"event": "Stratagem 2002", "player": name, "rank": rank, "country": "Canada"}
            for rank, name in _STRATAGEM
        ],
    ),
    rounds="optional",
    dated=True,
    needs_dates="Dip Pouch ratings take events in date order",
    event_inputs=frozenset(
        ("date", "rounds", "buy-in", "players", "world championship", "weight", "value")
    ),
)
"""The registry's entry (:mod:`xlrally.core.systems`)."""
