"""What a league's own settings do to a points system's scores, whatever the system: an
event's weight (a double-points final) and a place shared by several players (a chop).

Each wraps an event's scorer (:data:`~xlrally.core.systems.base.Scorer`) and keeps the working:

    weighted score = score × weight                             (Events sheet, ``Weight``)
    shared place   = average of the scores of the places shared (Settings, ``Shared places``:
                     ``average``), or the better place's score  (``better``)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from xlrally.core.model import Result
from xlrally.core.numbers import ordinal, show, whole
from xlrally.core.ranking import Score
from xlrally.core.words import plural

Scorer = Callable[[Result], Score]
"""Scores one result of an event; raises :class:`ScoringError` naming the field at fault."""


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


def weighted(score: Scorer, weight: float) -> Scorer:
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


def sharing(score: Scorer, keyed: list[tuple[str, Result]], how: str) -> Scorer:
    """Wrap an event's scorer so that players sharing a place score the average of the places
    they share (``average``) or the better place's points (``better``)."""
    sharing = Counter(result.rank for _, result in keyed)
    if max(sharing.values(), default=1) == 1:
        return score  # no place is shared: each result scores its own, without a wrapper
    # The players sharing a place score alike unless their own numbers differ (a buy-in): the
    # shared score is worked out once per rank and those numbers, not once per player (a tie
    # of 5,000 would otherwise score 25 million places).
    done: dict[tuple[object, ...], Score] = {}

    def shared(result: Result) -> Score:
        count = sharing.get(result.rank, 1)
        if count == 1:
            return score(result)
        alike = (
            result.rank,
            result.points,
            result.games,
            result.byes,
            result.buy_in,
            result.total,
            result.knockouts,
            result.re_buys,
        )
        if alike in done:
            return done[alike]
        first = whole(result.rank, "rank", minimum=1)
        spread = range(first, first + count) if how == "average" else range(first, first + 1)
        places = tuple(score(result._replace(rank=place)) for place in spread)
        value = sum(p.value for p in places) / len(places)
        done[alike] = Score(places[0].event, value, SharedPlace(first, count, places, value))
        return done[alike]

    return shared
