"""League point structures of a poker league manager (RubyChip "League Structures").

Source: seed ``002_7907927ba8a28ef1``. Rank 1 is the *last player remaining*.

Absolute Points::

    points = table[rank] (0 past the table) + participating + bonus[rank] (0 past the table)
             + players × player-count factor      (only for ranks 1..R; factor 0 = none)

Relative Reverse Order::

    points = (players − rank + 1) × multiplier + participating + bonus[rank]

Neau's formula (Dr. Neau's Tournament Manager)::

    points = √((a × b) × (b / c)) / (d + 1)

    a players in the event, b the buy-in, c the player's total expense with re-buys,
    d the finish position. (d + 1) stays outside the square root.

>>> SEED = PointStructure(points=(25, 20, 15, 10, 5), bonus=(3, 2, 1), participating=5)
>>> [absolute_points(rank, 7, SEED) for rank in range(1, 8)]
[33, 27, 21, 15, 10, 5, 5]
>>> reverse_points(1, 5, PointStructure(bonus=(3, 2, 1), participating=2, multiplier=1.5))
12.5
>>> round(neau_points(players=10, buy_in=20, total_expense=40, finish=1), 9)
5.0
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import NamedTuple, cast

from xlrally.core.adjustments import Scorer
from xlrally.core.checks import distinct_places
from xlrally.core.errors import ScoringError
from xlrally.core.model import Event, PointStructure, Result, Settings
from xlrally.core.numbers import non_negative, real, show, whole
from xlrally.core.ranking import Score, scores_made
from xlrally.core.systems.base import Example, Fail, PointsSystem

__all__ = [
    "ABSOLUTE",
    "NEAU",
    "REVERSE",
    "NeauSystem",
    "PointStructure",
    "PokerScore",
    "RankTable",
    "absolute_points",
    "neau_points",
    "reverse_points",
    "score_absolute",
    "score_neau",
    "score_reverse",
]


class PokerScore(NamedTuple):
    """Points for one finish, split into their parts so that the working can be shown.

    A named tuple, its working written only when asked for: one is made per result (200,000
    in a big league), and only the scores that count are ever explained."""

    rank: int
    players: int
    base: float
    participating: float
    bonus: float
    player_count: float
    total: float
    structure: PointStructure
    reverse: bool = False
    """Relative Reverse Order's finish (else Absolute Points')."""

    @property
    def explain(self) -> str:
        """The working, e.g. ``rank 1: 25 + 5 participating + 3 bonus = 33``."""
        if self.reverse:
            multiplier = self.structure.multiplier
            reverse = f"({self.players} − {self.rank} + 1)"
            parts = [reverse if multiplier == 1 else f"{reverse} × {show(multiplier)}"]
            head = f"rank {self.rank} of {self.players}"
        else:
            parts, head = [show(self.base)], f"rank {self.rank}"
        if self.participating:
            parts.append(f"{show(self.participating)} participating")
        if self.bonus:
            parts.append(f"{show(self.bonus)} bonus")
        if self.player_count:
            count = f"({self.players} × {show(self.structure.player_count_factor)})"
            parts.append(f"{show(self.player_count)} player count {count}")
        return f"{head}: {' + '.join(parts)} = {show(self.total)}"


def check_rank(rank: object, players: object) -> tuple[int, int]:
    """Return (rank, players) as ints if 1 <= rank <= players."""
    n_players = whole(players, "players", minimum=1)
    n_rank = whole(rank, "rank", minimum=1)
    if n_rank > n_players:
        raise ScoringError(f"rank ({n_rank}) must be between 1 and players ({n_players})", "rank")
    return n_rank, n_players


def _by_rank(table: tuple[float, ...], rank: int) -> float:
    return table[rank - 1] if rank <= len(table) else 0


def _absolute_parts(
    rank: object, players: object, structure: PointStructure
) -> tuple[int, int, float, float, float]:
    """(rank, players, points by rank, bonus, player-count points), checked."""
    n_rank, n_players = check_rank(rank, players)
    limit = structure.player_count_to_rank
    counted = structure.player_count_factor and (limit is None or n_rank <= limit)
    player_count = n_players * structure.player_count_factor if counted else 0
    base, bonus = _by_rank(structure.points, n_rank), _by_rank(structure.bonus, n_rank)
    return n_rank, n_players, base, bonus, player_count


def score_absolute(rank: object, players: object, structure: PointStructure) -> PokerScore:
    """Absolute Points for one finish, with the working (see :func:`absolute_points`).

    >>> score_absolute(1, 8, PointStructure((25,), (3,), 5, player_count_factor=2)).explain
    'rank 1: 25 + 5 participating + 3 bonus + 16 player count (8 × 2) = 49'
    """
    n_rank, n_players, base, bonus, player_count = _absolute_parts(rank, players, structure)
    participating = structure.participating
    total = base + participating + bonus + player_count
    return PokerScore(n_rank, n_players, base, participating, bonus, player_count, total, structure)


def score_reverse(rank: object, players: object, structure: PointStructure) -> PokerScore:
    """Relative Reverse Order for one finish, with the working (see :func:`reverse_points`).

    >>> score_reverse(2, 5, PointStructure(bonus=(3, 2), participating=2, multiplier=1.5)).explain
    'rank 2 of 5: (5 − 2 + 1) × 1.5 + 2 participating + 2 bonus = 10'
    """
    return _reverse(*check_rank(rank, players), structure)


_new_poker = functools.partial(tuple.__new__, PokerScore)
"""``PokerScore(...)`` at C speed (one per result), every field given."""


def _reverse(rank: int, players: int, structure: PointStructure) -> PokerScore:
    """Relative Reverse Order's arithmetic for a finish already checked: its one home."""
    base = (players - rank + 1) * structure.multiplier
    bonus = _by_rank(structure.bonus, rank)
    total = base + structure.participating + bonus
    return _new_poker(
        (rank, players, base, structure.participating, bonus, 0, total, structure, True)
    )


def absolute_finishes(
    ranks: Sequence[int], players: int, structure: PointStructure
) -> list[PokerScore]:
    """:func:`score_absolute` of each of an event's finishes, its ranks places from 1 to
    ``players`` (checked). Past the points and bonus tables (and the player-count rank) every
    finish scores alike but for its rank: those are made from one score's parts."""
    factor, limit = structure.player_count_factor, structure.player_count_to_rank
    edge = max(len(structure.points), len(structure.bonus), limit if limit and factor else 0)
    if not ranks or max(ranks) <= edge:
        return [score_absolute(rank, players, structure) for rank in ranks]
    beyond = score_absolute(edge + 1, players, structure)[1:]  # the parts past every table
    return [
        _new_poker((rank, *beyond)) if rank > edge else score_absolute(rank, players, structure)
        for rank in ranks
    ]


def reverse_finishes(
    ranks: Sequence[int], players: int, structure: PointStructure
) -> list[PokerScore]:
    """:func:`score_reverse` of each of an event's finishes, its ranks places from 1 to
    ``players`` (checked): the same arithmetic without checking each again."""
    return [_reverse(rank, players, structure) for rank in ranks]


def absolute_points(rank: object, players: object, structure: PointStructure) -> float:
    """Absolute Points: table + participating + bonus + player-count points.

    The number alone, computed afresh (the Excel functions' path); :func:`score_absolute` has
    the working.

    >>> absolute_points(2, 8, PointStructure((25, 20), (3, 2), 5, player_count_factor=2))
    43
    """
    _, _, base, bonus, player_count = _absolute_parts(rank, players, structure)
    return base + structure.participating + bonus + player_count


def reverse_points(rank: object, players: object, structure: PointStructure) -> float:
    """Relative Reverse Order: (players − rank + 1) × multiplier + participating + bonus.

    The number alone, computed afresh; :func:`score_reverse` has the working.

    >>> reverse_points(2, 5, PointStructure(bonus=(3, 2), participating=2, multiplier=1.5))
    10.0
    """
    n_rank, n_players = check_rank(rank, players)
    base = (n_players - n_rank + 1) * structure.multiplier
    return base + structure.participating + _by_rank(structure.bonus, n_rank)


class NeauScore(NamedTuple):
    """Neau points for one finish with the numbers used (a named tuple, its working written
    only when asked for: see :class:`PokerScore`)."""

    players: int
    buy_in: float
    total_expense: float
    finish: int
    points: float

    @property
    def explain(self) -> str:
        """The working, e.g. ``√(10 × 20 × 20 / 40) / (1 + 1) = 5``."""
        return f"{_neau_head(*self[:3])}{self.finish} + 1) = {show(self.points)}"


@functools.lru_cache(maxsize=4096)
def _neau_head(players: int, buy_in: float, total_expense: float) -> str:
    """The working's start, ``√(10 × 20 × 20 / 40) / (``: the same for most of an event's
    finishes (one buy-in, few totals), so worked out once for them (a Neau league of
    200,000 results shows 108,000 workings, from a few thousand heads)."""
    b = show(buy_in)
    return f"√({players} × {b} × {b} / {show(total_expense)}) / ("


def score_neau(players: object, buy_in: object, total_expense: object, finish: object) -> NeauScore:
    """Neau's formula, checked, with the numbers used (see :func:`neau_points`).

    >>> score_neau(10, 20, None, 10).explain
    '√(10 × 20 × 20 / 20) / (10 + 1) = 1.29'
    """
    d, a = check_rank(finish, players)
    b, c = _neau_money(buy_in, total_expense)
    return NeauScore(a, float(b), float(c), d, _neau(a, b, c, d))


def _neau_money(buy_in: object, total_expense: object) -> tuple[float | int, float | int]:
    """The buy-in and total expense, checked; a total of None is the buy-in (no re-buys)."""
    b = real(buy_in, "buy-in")
    if b <= 0:
        raise ScoringError(f"buy-in must be more than 0, not {show(b)}", "buy-in")
    c = b if total_expense is None else non_negative(total_expense, "total")
    if c < b:
        raise ScoringError(
            f"total expense ({show(c)}) must not be below the buy-in ({show(b)})", "total"
        )
    return b, c


def neau_points(players: object, buy_in: object, total_expense: object, finish: object) -> float:
    """Neau's formula: √((a × b) × (b / c)) / (d + 1), with a the players, b the buy-in, c the
    player's total expense (buy-in plus re-buys; None: no re-buys) and d the finish.

    The number alone, computed afresh (no working, no cache: the Excel functions' path);
    :func:`score_neau` has the working.

    >>> round(neau_points(10, 20, 40, 1), 4)  # √(10 × 20 × 20 / 40) / 2 = √100 / 2
    5.0
    """
    d, a = check_rank(finish, players)
    b, c = _neau_money(buy_in, total_expense)
    return _neau(a, b, c, d)


def _neau(a: float, b: float, c: float, d: float) -> float:
    """√((a × b) × (b / c)) / (d + 1), on numbers already checked: the formula's one home."""
    return math.sqrt((a * b) * (b / c)) / (d + 1.0)


# ---------------------------------------------------------------- the systems

_new_neau = functools.partial(tuple.__new__, NeauScore)
"""``NeauScore(...)`` at C speed (one per result), every field given."""


def _amounts(values: list[object]) -> list[float] | None:
    """The values, when every one is a finite number (an int or a float, not a yes/no)."""
    if not set(map(type, values)) <= {int, float}:
        return None
    numbers = cast("list[float]", values)
    return numbers if all(map(math.isfinite, numbers)) else None


@dataclass(frozen=True)
class RankTable(PointsSystem):
    """Absolute Points or Relative Reverse Order: each finish scored by ``points`` (rank,
    players, the league's structure), with the working."""

    points: Callable[[object, object, PointStructure], PokerScore] = score_absolute
    finishes: Callable[[Sequence[int], int, PointStructure], list[PokerScore]] = absolute_finishes
    """``points`` of each of an event's finishes at once (the ranks checked)."""

    def scorer(self, settings: Settings, event: Event, field_size: int) -> Scorer:
        name, structure, points = event.name, settings.structure, self.points

        def score(result: Result) -> Score:
            if result.rank is None:
                raise ScoringError("rank is missing", "rank")
            working = points(result.rank, field_size, structure)
            return Score(name, working.total, working)

        return score

    def event_scores(
        self, settings: Settings, event: Event, results: Sequence[Result], field_size: int
    ) -> list[Score] | None:
        """Each finish's points by its rank, when the ranks are distinct places."""
        ranks = distinct_places(results, field_size)
        if ranks is None:
            return None
        workings = self.finishes(ranks, field_size, settings.structure)
        return scores_made(event.name, [working.total for working in workings], workings)


@dataclass(frozen=True)
class NeauSystem(PointsSystem):
    """Neau's formula: a result's buy-in (else the event's) and total expense."""

    def scorer(self, settings: Settings, event: Event, field_size: int) -> Scorer:
        name = event.name

        def score(result: Result) -> Score:
            if result.rank is None:
                raise ScoringError("rank is missing", "rank")
            buy_in = result.buy_in if result.buy_in is not None else event.buy_in
            if buy_in is None:
                raise ScoringError(
                    "buy-in is missing (give it on the event or the result)", "buy-in"
                )
            working = score_neau(field_size, buy_in, result.total, result.rank)
            return Score(name, working.points, working)

        return score

    def event_scores(
        self, settings: Settings, event: Event, results: Sequence[Result], field_size: int
    ) -> list[Score] | None:
        """Neau's formula for every finish, each with :func:`score_neau`'s checks: distinct
        places, a buy-in (the result's, else the event's) more than 0, a total expense (else
        the buy-in) not below it; the same arithmetic on the same numbers."""
        finishes = distinct_places(results, field_size)
        if finishes is None:
            return None
        given = [result.buy_in for result in results]
        if None in given:
            if event.buy_in is None:
                return None
            given = [event.buy_in if b is None else b for b in given]
        buy_ins = _amounts(given)
        if buy_ins is None or min(buy_ins) <= 0:
            return None
        totals = [result.total for result in results]
        spent = _amounts([b if t is None else t for b, t in zip(buy_ins, totals, strict=True)])
        if spent is None or not all(map(operator.ge, spent, buy_ins)):
            return None
        a = field_size
        points = list(map(_neau, repeat(a), buy_ins, spent, finishes))
        workings = zip(repeat(a), map(float, buy_ins), map(float, spent), finishes, points)
        return scores_made(event.name, points, map(_new_neau, workings))

    def check_own(self, event: Event, fail: Fail) -> None:
        """The event's Buy-in, when given, must be one Neau's formula can use."""
        if event.buy_in is not None:
            try:
                score_neau(1, event.buy_in, None, 1)
            except ScoringError as error:
                fail(error.message, "buy-in")


_PLAYERS = ["Ann", "Ben", "Cara", "Dev", "Eli", "Fay", "Gus"]
_POKER_EVENTS = ("event", "date", "players", "status")
POKER_SETTINGS = (
    "Best X",
    "Shared places",
    "Knockout points",
    "Bounty points",
    "Bounties",
    "Knockouts weighted",
    "Pot",
    "Pot share",
    "Currency unit",
)


def _d(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def _ranked(event: str, players: list[str]) -> list[dict[str, object]]:
    return [{"event": event, "player": p, "rank": i + 1} for i, p in enumerate(players)]


ABSOLUTE = RankTable(
    "absolute",
    "Absolute Points",
    ("player", "rank"),
    _POKER_EVENTS,
    # Seed: Absolute Points 25/20/15/10/5 + 5 participating + 3/2/1 bonus (33, 27, 21, 15, 10, 5).
    Example(
        settings=[
            ("League", "Thursday Hold'em"),
            ("Season", "2026"),
            ("Participating", 5),
            ("Best X", 2),
            ("Minimum events", 2),
        ],
        points=[(1, 25, 3), (2, 20, 2), (3, 15, 1), (4, 10, 0), (5, 5, 0)],
        events=[
            {"event": "Week 1", "date": _d("2026-01-08")},
            {"event": "Week 2", "date": _d("2026-01-15")},
            {"event": "Week 3", "date": _d("2026-01-22"), "status": "pending"},
        ],
        results=[
            *_ranked("Week 1", _PLAYERS),
            *_ranked("Week 2", _PLAYERS[::-1]),
            {"event": "Week 3", "player": "Ann", "rank": 1},
        ],
    ),
    settings=(*POKER_SETTINGS, "Participating", "Player count factor", "Player count to rank"),
    points_table=True,
    points=score_absolute,
)
"""The registry's entry (:mod:`xlrally.core.systems`)."""

REVERSE = RankTable(
    "reverse",
    "Relative Reverse Order",
    ("player", "rank"),
    _POKER_EVENTS,
    # Seed: Relative Reverse Order, 5 players, multiplier 1.5, 2 participating, 3/2/1 bonus.
    Example(
        settings=[
            ("League", "Friday Sit & Go"),
            ("Season", "2026"),
            ("Participating", 2),
            ("Multiplier", 1.5),
            ("Tie break", "countback, most recent"),
        ],
        points=[(1, 0, 3), (2, 0, 2), (3, 0, 1)],
        events=[
            {"event": "Round 1", "date": _d("2026-02-06")},
            {"event": "Round 2", "date": _d("2026-02-13")},
        ],
        results=[
            *_ranked("Round 1", _PLAYERS[:5]),
            *_ranked("Round 2", ["Eli", "Dev", "Cara", "Ben", "Ann"]),
        ],
    ),
    settings=(*POKER_SETTINGS, "Participating", "Multiplier"),
    points_table=True,
    points=score_reverse,
    finishes=reverse_finishes,
)
"""The registry's entry."""

NEAU = NeauSystem(
    "neau",
    "Neau's formula",
    ("player", "rank", "buy-in", "total"),
    ("event", "date", "buy-in", "players", "status"),
    # Seed: Neau's formula, a = 10 players, b = 20 buy-in, c = total with re-buys, d = finish.
    # Prizes: half of what the night took (20 + 40 + 20 = 80) is the pot, 60% and 40% of it.
    # The Ledger: the night's buy-ins and Ben's re-buy (80), the other half paid out on the
    # night (25 and 15), the cash box counted: 40, the pot.
    Example(
        settings=[("League", "Neau League"), ("Season", "2026"), ("Pot share", "50%")],
        events=[{"event": "March Main", "date": _d("2026-03-07"), "buy-in": 20, "players": 10}],
        results=[
            {"event": "March Main", "player": "Ann", "rank": 1, "total": 20},
            {"event": "March Main", "player": "Ben", "rank": 2, "total": 40},
            {"event": "March Main", "player": "Cara", "rank": 10},
        ],
        prizes=[(1, None, "60%"), (2, None, "40%")],
        ledger=[
            (_d("2026-03-07"), "Ann", "Buy-in", 20, "March Main"),
            (_d("2026-03-07"), "Ben", "Buy-in", 20, "March Main"),
            (_d("2026-03-07"), "Ben", "Re-buy", 20, "March Main"),
            (_d("2026-03-07"), "Cara", "Buy-in", 20, "March Main"),
            (_d("2026-03-07"), "Ann", "Payout", 25, "March Main"),
            (_d("2026-03-07"), "Ben", "Payout", 15, "March Main"),
            (_d("2026-03-07"), None, "Held", 40, None),
        ],
    ),
    settings=POKER_SETTINGS,
    event_buy_in=True,
)
"""The registry's entry."""
