"""The ranked systems' solver (poker, Dip Pouch): for each player and place, whether the
worst case reaches it (clinched), the best case does (possible) and the least next-event
score that guarantees it; one event left by matching players to places, else by the search
(:mod:`~.search`)."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence

from xlrally.core.outlook.coming import Coming
from xlrally.core.outlook.goals import Chance, Goal
from xlrally.core.outlook.search import Groups, TooHard
from xlrally.core.outlook.shares import Shares
from xlrally.core.outlook.tracks import Key, Track


def _rating(total: float) -> Key:
    """A rating as a key that compares by the rating alone (for bounds)."""
    return (True, ((total,),))


class Ranked(Shares):
    """Players who share out places (poker, Dip Pouch): see :mod:`xlrally.core.outlook`.

    Two questions, for a player and a place *k*: can *k* others finish above the player (the
    worst case; with the player's first result fixed at a place when working out what
    guarantees the goal), and can fewer than *k* (the best case)? Both are decided exactly:
    by matching players to places when one event is left (:func:`_served`), else by what each
    player can do alone, a greedy outcome that may already answer, and an exhaustive search
    over the groups of players that could (:class:`~.search.Groups`, :class:`~.search._Search`).
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
        super().__init__(tracks, coming, newcomer, rated=rated, shuffles=shuffles)
        self._bounds: dict[int | None, tuple[list[Key], list[int]]] = {}
        self._place_keys: dict[int, list[Key | None]] = {}
        self._low: dict[int, float] = {}
        self._lows: list[tuple[float, int]] = []
        self._absent = sorted(self.key(t, self.none) for t in self.tracks)

    def goal(self, index: int, place: int) -> Goal:
        try:
            return self._goal(index, place)
        except TooHard:
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
        return Groups(self, track, candidates, place, fixed, up=True).any()

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
            groups = Groups(self, track, pushed, len(pushed) - allowed, None, up=False)
            if groups.any(list(plan)):
                return True
            if all(len(c.values) > len(pushed) + 1 for c in self.coming):
                # the player's place (the best) is never one the pushed need (the worst): a
                # plan with a lower key has more to push, and it no easier
                break
        return False


def _served(
    ranked: Ranked,
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
