"""Standings shared by every system: best-N selection, ranking, ties and tie-breaks.

* Best N: each player's N highest scores count; between equal scores the earlier event counts.
* Ranking: by total, highest first. Equal totals share a rank (standard competition ranking,
  ``1, 2, 3=, 3=, 5``) and are listed by name, unless a tie-break chain is configured.
* Tie-breaks (tried in the order given; the one that separates two rows is recorded):

  - ``countback``: compare the counted scores from the best down (best, then second best, ...);
  - ``recent``: compare scores in the most recent event held, then the one before, ...;
  - ``events``: more events played;
  - ``best``: best single score (counted or not).

>>> scores = [Score("A", 54), Score("B", 79), Score("C", 34)]
>>> [s.event for s in best_n(scores, 2)]
['B', 'A']
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import groupby, repeat
from operator import itemgetter
from typing import NamedTuple, Protocol

from xlrally.core.errors import XlrallyError

TIE_BREAKS: dict[str, str] = {
    "countback": "countback",
    "recent": "most recent event",
    "events": "more events played",
    "best": "best single score",
}
"""Tie-break criteria: key -> the words shown to users."""

_TIE_BREAK_SPELLINGS = {
    "countback": "countback",
    "count back": "countback",
    "recent": "recent",
    "most recent": "recent",
    "most recent event": "recent",
    "events": "events",
    "more events": "events",
    "more events played": "events",
    "most events": "events",
    "best": "best",
    "best score": "best",
    "best single score": "best",
}

_PLACES = 9
"""Totals are compared rounded to 9 decimal places, so 0.1 + 0.2 ties with 0.3."""


class Working(Protocol):
    """A scored result that can show its working (RallyScore, PokerScore, RatingStep ...)."""

    @property
    def explain(self) -> str: ...


class RatingLine(Protocol):
    """One line of a player's rating history (a rated system's, e.g.
    :class:`~xlrally.core.systems.dippouch.RatingStep`): the rating after one event."""

    @property
    def event(self) -> str: ...

    @property
    def date(self) -> dt.date: ...

    @property
    def before(self) -> float: ...

    @property
    def after(self) -> float: ...

    @property
    def explain(self) -> str: ...


class Score(NamedTuple):
    """One player's score in one event. ``eligible`` False: it can never count (e.g. worth 0).

    ``working`` is the scored result it came from; its text is made only when asked for.
    (A named tuple: one is made per result, and it is cheaper to create than a dataclass.)
    """

    event: str
    value: float
    working: Working | None = None
    eligible: bool = True

    @property
    def explain(self) -> str:
        """One line of working, e.g. ``100 × 2 / (5 − 1) + 4 = 54``."""
        return self.working.explain if self.working is not None else ""


_new_score = functools.partial(tuple.__new__, Score)


def scores_made(event: str, values: Iterable[float], workings: Iterable[Working]) -> list[Score]:
    """An event's scores, one per value with its working (each eligible), made at C speed
    without a call per score (a system that scores a whole event at once).

    >>> scores_made("E1", [5, 3], [None, None])
    [Score(event='E1', value=5, working=None, eligible=True), Score(event='E1', value=3, \
working=None, eligible=True)]
    """
    return list(map(_new_score, zip(repeat(event), values, workings, repeat(True))))


@dataclass(frozen=True)
class Entry:
    """What ranking needs to know of a player: total, scores in event order, counted events."""

    player: str
    total: float
    scores: tuple[Score, ...]
    counted: frozenset[str]


@dataclass(frozen=True)
class Standing:
    """One row of the standings.

    ``decided_by`` names what separated this row from the one above: ``None`` for the first row
    or a lower total, a tie-break's words, or ``"tied"`` when nothing did.
    """

    rank: int
    tied: bool
    player: str
    total: float
    scores: tuple[Score, ...]
    counted: frozenset[str] = field(default_factory=frozenset)
    decided_by: str | None = None

    needs: int = 0
    """Events still to play to reach the league's minimum (0: qualified)."""
    ranked: bool = True
    """False for a player short of the minimum in a league that leaves them unranked: listed
    (in the order of ``rank``) but without a rank."""

    @property
    def rank_label(self) -> str:
        """``"3"``, ``"3="`` for a shared rank, ``"–"`` for an unranked player."""
        if not self.ranked:
            return "–"
        return f"{self.rank}=" if self.tied else str(self.rank)

    @property
    def shown_rank(self) -> int | None:
        """The rank as a number, or None for an unranked player (a blank cell, JSON null)."""
        return self.rank if self.ranked else None

    @property
    def events(self) -> int:
        """Events played."""
        return len(self.scores)

    def score(self, event: str) -> Score | None:
        """The player's score in ``event``, or None if they did not play it."""
        return next((s for s in self.scores if s.event == event), None)


def parse_tie_breaks(text: str | None) -> tuple[str, ...]:
    """Read a comma-separated tie-break chain such as ``"countback, most recent"``.

    >>> parse_tie_breaks("Countback, most recent event")
    ('countback', 'recent')
    >>> parse_tie_breaks("coin toss")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlrally.core.errors.XlrallyError: unknown tie break 'coin toss': use countback, recent, ...
    """
    chain = []
    for part in (text or "").split(","):
        words = " ".join(part.split()).casefold()
        if not words:
            continue
        if words not in _TIE_BREAK_SPELLINGS:
            known = ", ".join(TIE_BREAKS)
            raise XlrallyError(f"unknown tie break {part.strip()!r}: use {known}")
        chain.append(_TIE_BREAK_SPELLINGS[words])
    return tuple(chain)


def best_n(scores: Iterable[Score], n: int | None) -> tuple[Score, ...]:
    """The ``n`` highest eligible scores (all if ``n`` is None), highest first.

    Between equal scores the one listed first (the earlier event) is taken.
    """
    eligible = [s for s in scores if s.eligible]
    ranked = sorted(eligible, key=lambda s: -s.value)  # sorted() is stable
    return tuple(ranked if n is None else ranked[:n])


def best_total(values: Iterable[float], n: int | None) -> float:
    """The sum of the ``n`` largest values (all if ``n`` is None): a best-N total.

    >>> best_total([54, 79, 34], 2)
    133
    """
    ranked = sorted(values, reverse=True)
    return sum(ranked if n is None else ranked[:n])


def _key(value: float) -> float:
    return round(value, _PLACES)


def _criterion(
    name: str, events_newest_first: Sequence[str]
) -> Callable[[Entry], tuple[float, ...]]:
    """A sort key for one tie-break; a larger key is better."""
    if name == "countback":
        return lambda e: tuple(
            sorted((_key(s.value) for s in e.scores if s.event in e.counted), reverse=True)
        )
    if name == "recent":
        missing = float("-inf")
        position = {event: at for at, event in enumerate(events_newest_first)}  # names unique
        count = len(events_newest_first)

        def recent(e: Entry) -> tuple[float, ...]:
            # Each score put in its event's place (a season's key is as long as the season).
            values = [missing] * count
            for s in e.scores:
                at = position.get(s.event)
                if at is not None:
                    values[at] = _key(s.value)
            return tuple(values)

        return recent
    if name == "events":
        return lambda e: (float(len(e.scores)),)
    if name == "best":
        return lambda e: (max((_key(s.value) for s in e.scores), default=float("-inf")),)
    raise XlrallyError(f"unknown tie break {name!r}")


def rank_with_minimum(
    entries: Iterable[Entry],
    minimum: int,
    unranked: bool,
    tie_breaks: Sequence[str] = (),
    events_in_order: Sequence[str] = (),
) -> tuple[Standing, ...]:
    """:func:`rank_entries`, with players who played fewer than ``minimum`` events after all
    who did, whatever their totals: ranked among themselves from the next place on, each
    marked with the events it still needs (``unranked``: listed so, without a rank).

    >>> rows = rank_with_minimum([Entry("a", 9, (Score("E1", 9),), frozenset({"E1"})),
    ...                           Entry("b", 5, (Score("E1", 2), Score("E2", 3)), frozenset())],
    ...                          minimum=2, unranked=False)
    >>> [(r.rank_label, r.player, r.needs) for r in rows]
    [('1', 'b', 0), ('2', 'a', 1)]
    """
    items = list(entries)
    qualified = rank_entries(
        [e for e in items if len(e.scores) >= minimum], tie_breaks, events_in_order
    )
    short = rank_entries([e for e in items if len(e.scores) < minimum], tie_breaks, events_in_order)
    return qualified + tuple(
        replace(
            row,
            rank=row.rank + len(qualified),
            needs=minimum - len(row.scores),
            ranked=not unranked,
        )
        for row in short
    )


def order_key(
    tie_breaks: Sequence[str] = (), events_in_order: Sequence[str] = ()
) -> Callable[[Entry], tuple[tuple[float, ...], ...]]:
    """The key :func:`rank_entries` orders players by, highest first: the total, then each
    tie-break's key in the chain. Two players share a rank exactly when their keys are equal.

    >>> key = order_key(("countback",))
    >>> key(Entry("a", 9, (Score("E1", 5), Score("E2", 4)), frozenset({"E1", "E2"})))
    ((9,), (5, 4))
    """
    newest_first = list(reversed(events_in_order))
    criteria = [_criterion(name, newest_first) for name in tie_breaks]

    def full_key(e: Entry) -> tuple[tuple[float, ...], ...]:
        # Tuples compare element by element; a shorter countback (fewer scores) loses.
        return ((_key(e.total),), *(c(e) for c in criteria))

    return full_key


def rank_entries(
    entries: Iterable[Entry],
    tie_breaks: Sequence[str] = (),
    events_in_order: Sequence[str] = (),
) -> tuple[Standing, ...]:
    """Rank players by total, then by the tie-break chain, then (for display only) by name.

    ``events_in_order`` is the order the events were held (oldest first), for ``recent``.

    Each total is rounded once; the tie-break keys are made only for the players who share a
    total with someone (a league of 47,000 players has few, and a ``recent`` key is as long as
    the season): the same order as sorting everyone by :func:`order_key`.

    >>> rows = rank_entries([Entry("b", 5, (), frozenset()), Entry("a", 5, (), frozenset()),
    ...                      Entry("c", 9, (), frozenset())])
    >>> [(r.rank_label, r.player) for r in rows]
    [('1', 'c'), ('2=', 'a'), ('2=', 'b')]
    """
    items = sorted(entries, key=lambda e: (e.player.casefold(), e.player))
    totals = {id(e): _key(e.total) for e in items}
    items.sort(key=lambda e: totals[id(e)], reverse=True)  # stable: names order equal totals
    newest_first = list(reversed(events_in_order))
    criteria = [_criterion(name, newest_first) for name in tie_breaks]
    rows: list[Standing] = []
    start = 0
    while start < len(items):
        total = totals[id(items[start])]
        end = start + 1
        while end < len(items) and totals[id(items[end])] == total:
            end += 1
        if end - start == 1:
            entry = items[start]
            rows.append(
                Standing(start + 1, False, entry.player, entry.total, entry.scores, entry.counted)
            )
        else:
            rows.extend(_tied(items[start:end], start, tie_breaks, criteria))
        start = end
    return tuple(rows)


def _tied(
    group: list[Entry],
    first: int,
    tie_breaks: Sequence[str],
    criteria: Sequence[Callable[[Entry], tuple[float, ...]]],
) -> list[Standing]:
    """The rows of players sharing a total, from place ``first`` + 1: ordered by the
    tie-break chain (names keep their order within it), each separated from the one above by
    the first tie-break that differs, or tied."""
    rows: list[Standing] = []
    ordered = _by_chain(group, criteria, 0)
    equal = len(criteria)  # the level of a row equal to the one above on every tie-break
    for index, (entry, level) in enumerate(ordered):
        if index == 0:
            decided_by = None
        else:
            decided_by = "tied" if level == equal else TIE_BREAKS[tie_breaks[level]]
        tied_above = index > 0 and level == equal
        tied_below = index + 1 < len(ordered) and ordered[index + 1][1] == equal
        rank = rows[-1].rank if tied_above else first + index + 1
        rows.append(
            Standing(
                rank,
                tied_above or tied_below,
                entry.player,
                entry.total,
                entry.scores,
                entry.counted,
                decided_by,
            )
        )
    return rows


def _by_chain(
    group: list[Entry], criteria: Sequence[Callable[[Entry], tuple[float, ...]]], level: int
) -> list[tuple[Entry, int]]:
    """``group`` ordered by the tie-breaks from ``criteria[level]`` on (highest first, the
    order given kept among equals), each with the level of the tie-break that separates it
    from the one above (``len(criteria)``: none does). A tie-break's key is made only for the
    players the ones before it left tied (a ``recent`` key is as long as the season)."""
    if level == len(criteria) or len(group) == 1:
        return [(entry, len(criteria)) for entry in group]
    criterion = criteria[level]
    keyed = sorted(((criterion(e), e) for e in group), key=itemgetter(0), reverse=True)
    ordered: list[tuple[Entry, int]] = []
    for _, run in groupby(keyed, key=itemgetter(0)):
        below = _by_chain([entry for _, entry in run], criteria, level + 1)
        if ordered:  # separated from the run above by this tie-break
            below[0] = (below[0][0], level)
        ordered.extend(below)
    return ordered
