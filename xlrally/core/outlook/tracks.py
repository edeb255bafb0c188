"""Each player's final order key for any results to come: a points player's best N
(:class:`PointsTrack`), a Dip Pouch rating replayed (:class:`RatingTrack`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from xlrally.core.outlook.coming import Coming
from xlrally.core.ranking import Entry, Score, best_n
from xlrally.core.systems.dippouch import START_RATING

Key = tuple[bool, tuple[tuple[float, ...], ...]]
"""A player's place in the final order: qualified, then :func:`~xlrally.core.ranking.order_key`."""

NOBODY: Key = (False, ((float("-inf"),),))
"""The key of a newcomer who never plays: not in the standings at all, so below everyone."""

New = Sequence[float | None]
"""A player's results to come: a score per remaining event, None where they do not play."""


class Track(Protocol):
    """A player's final order key for any results to come."""

    player: str
    played: int
    minimum: int

    def key(self, new: New) -> Key: ...

    def total(self, new: New) -> float: ...


class _Replayed:
    """What both tracks derive from a player's entry for the results to come (their
    ``_entry``): the order key, below everyone for a player with no score at all, and the
    total."""

    minimum: int
    order: Callable[[Entry], tuple[tuple[float, ...], ...]]

    def _entry(self, new: New) -> Entry:
        raise NotImplementedError

    def key(self, new: New) -> Key:
        entry = self._entry(new)
        if not entry.scores:
            return NOBODY
        return (len(entry.scores) >= self.minimum, self.order(entry))

    def total(self, new: New) -> float:
        return self._entry(new).total


class PointsTrack(_Replayed):
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


class RatingTrack(_Replayed):
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


def scores_best_first(track: Track) -> tuple[float, ...]:
    """A points player's scores so far, best first (empty for a rating)."""
    if isinstance(track, PointsTrack):
        return tuple(sorted((s.value for s in track.scores), reverse=True))
    return ()
