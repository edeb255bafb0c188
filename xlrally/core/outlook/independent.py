"""The rally's solver: players who do not interact, so each goal comes from two sorted
lists of keys and the least score from a binary search (see :mod:`xlrally.core.outlook`)."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence

from xlrally.core.outlook.coming import Coming
from xlrally.core.outlook.goals import Chance, Goal
from xlrally.core.outlook.tracks import Key, Track


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


class Independent:
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
