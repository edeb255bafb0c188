"""The ranked systems' exhaustive search: the groups of players that could all end above a
player (or not above), left out by dominance and by what the places can give, each tried
event by event within :data:`SEARCH_STEPS` steps."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from xlrally.core.outlook.shares import Shares
from xlrally.core.outlook.tracks import Key, PointsTrack, RatingTrack, Track, scores_best_first

SEARCH_STEPS = 50_000
"""The most steps one search may take before its goal is said to be open rather than guessed:
a step is a share-out of one event's places tried for a group, or one of the group's players
looked at again."""


class Groups:
    """The groups of ``size`` of ``players`` that must all end above the player (``up``) or
    not above (down), tried one by one (:class:`_Search`). A group is left out when someone
    outside it is at least as strong (up; as weak, down) as someone in it whatever happens
    (:func:`_dominates`: swapping them can only help), or when the places cannot give its
    players what they need (points: the best places of every event, summed)."""

    def __init__(
        self,
        ranked: Shares,
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


def _dominates(ranked: Shares, a: Track, b: Track, *, up: bool) -> bool:
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
    return all(x >= y for x, y in zip(scores_best_first(a), scores_best_first(b), strict=False))


class TooHard(Exception):
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
        ranked: Shares,
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
                    raise TooHard
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
