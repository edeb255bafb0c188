"""The ranked systems' ground: players who share out each remaining event's places, their
keys and totals (remembered), and each player's best and worst results alone; what
:class:`~xlrally.core.outlook.ranked.Ranked` and the search (:mod:`~.search`) stand on."""

from __future__ import annotations

from collections.abc import Sequence

from xlrally.core.outlook.coming import Coming
from xlrally.core.outlook.tracks import Key, New, Track, scores_best_first


def _best_first(values: Sequence[float]) -> list[int]:
    """The places (indexes of ``values``) from the best score down; equal scores: the better
    place first."""
    return sorted(range(len(values)), key=lambda r: (-values[r], r))


class Shares:
    """Players who share out places (poker, Dip Pouch): the events' places best first, each
    player's key and total for any results (remembered), their strength now, and what each
    can do alone (:meth:`rise`, :meth:`fall`)."""

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
        self._falls: dict[int, list[float | None]] = {}
        everyone = [*self.tracks, newcomer]
        now = [
            (self.total(t, self.none), t.played, scores_best_first(t), -i)
            for i, t in enumerate(everyone)
        ]
        by_strength = sorted(range(len(everyone)), key=lambda i: now[i], reverse=True)
        self.strength = {id(everyone[i]): -at for at, i in enumerate(by_strength)}
        """Each player's place in the order of strength without more results (0 the
        strongest, then -1, ...): the total, events, scores best first."""

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
