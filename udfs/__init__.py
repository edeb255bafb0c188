"""Excel functions for league treasurers: thin xlwings UDFs over the xlrally scoring core.

Each function takes single values or ranges. Ranges of one shape are computed cell by cell
(a single value repeats) and the result spills in that shape. A blank row gives a blank result;
a bad row gives a short error text in its own cell, e.g. ``#VALUE! byes (4) must be less than
rounds (4)``, and the other rows still compute. Excel's conventions are taken as they come:
xlwings hands integers over as floats, blanks as None (desktop Excel under xlwings Lite: as
0), currency cells as decimal.Decimal, error cells as their text (``err_to_str``); numbers
stored as text count as numbers; dates arrive as datetimes or serial numbers. See
docs/excel.md.

>>> RALLY_SCORE(3.0, 4.0)
79
>>> RALLY_SCORE([[3.0], [2.0], [None]], [[4.0], [5.0], [None]], [[0.0], [1.0], [None]])
[[79], [54], ['']]
>>> RALLY_SCORE(1.0, 4.0, 4.0)
'#VALUE! byes (4) must be less than rounds (4)'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import xlwings as xw

from xlrally.excel import functions

__all__ = [
    "ABSOLUTE_POINTS",
    "BEST_X_TOTAL",
    "DIPPOUCH_PERCENTILE",
    "DIPPOUCH_RATING",
    "DIPPOUCH_VALUE",
    "FORMULA_POINTS",
    "NEAU_POINTS",
    "PRIZE_SHARE",
    "RALLY_BEST_N",
    "RALLY_SCORE",
    "REVERSE_POINTS",
]

_CATEGORY = "xlrally"
F = TypeVar("F", bound=Callable[..., Any])


def arg(name: str, doc: str, ndim: int | None = 2) -> Callable[[F], F]:
    """An argument as every function here takes it: a 2-D range (or a single value), error
    cells as their text (``err_to_str``: xlwings' default reads ``#N/A`` as a blank), and the
    help text Excel's function wizard shows."""
    if ndim is None:
        return xw.arg(name, err_to_str=True, doc=doc)
    return xw.arg(name, ndim=ndim, err_to_str=True, doc=doc)


@xw.func(category=_CATEGORY)
@arg("points", "Points scored in games played (bye points not included)")
@arg("rounds", "Number of rounds in the event")
@arg("byes", "Byes received (default 0)")
@arg("games", "Games played (default rounds − byes)")
def RALLY_SCORE(points: Any, rounds: Any, byes: Any = None, games: Any = None) -> Any:
    """Rapidplay Rally event score: 100 × points / (rounds − byes) + games, decimals dropped."""
    return functions.rally_score(points, rounds, byes, games)


@xw.func(category=_CATEGORY)
@arg("events_held", "Number of rally events held so far")
@arg("cap", "Most events taken into account (default 9)")
def RALLY_BEST_N(events_held: Any, cap: Any = None) -> Any:
    """How many of each player's best event scores count: ⌈(min(held, cap) + 1) / 2⌉."""
    return functions.rally_best_n(events_held, cap)


@xw.func(category=_CATEGORY)
@arg("scores", "One row per player: their event scores (blanks and text ignored)")
@arg("x", "How many best scores count (default: all)")
def BEST_X_TOTAL(scores: Any, x: Any = None) -> Any:
    """Per row of scores: the sum of its x largest numbers."""
    return functions.best_x_total(scores, x)


@xw.func(category=_CATEGORY)
@arg("players", "Number of players in the event")
@arg("buy_in", "The event's buy-in")
@arg("total_expense", "The player's total expense with re-buys (default buy-in)")
@arg("finish", "Finish position (1 = last player remaining)")
def NEAU_POINTS(players: Any, buy_in: Any, total_expense: Any, finish: Any) -> Any:
    """Neau's formula: √((players × buy-in) × (buy-in / total expense)) / (finish + 1)."""
    return functions.neau_points(players, buy_in, total_expense, finish)


@xw.func(category=_CATEGORY)
@arg("rank", "Finishing rank (1 = last player remaining)")
@arg("points_table", "Points for ranks 1, 2, 3 ... (one range)")
@arg("participating", "Points for every player who attended (default 0)")
@arg("bonus_table", "Bonus points for ranks 1, 2, 3 ... (default none)")
@arg("players", "Players in the event (for player-count points)")
@arg("count_factor", "Player-count points: players × this factor (0 = none)")
@arg("count_to_rank", "Last rank that gets player-count points (default all)")
def ABSOLUTE_POINTS(
    rank: Any,
    points_table: Any,
    participating: Any = None,
    bonus_table: Any = None,
    players: Any = None,
    count_factor: Any = None,
    count_to_rank: Any = None,
) -> Any:
    """Absolute Points: points by rank + participating + bonus + player-count points."""
    return functions.absolute_points(
        rank, points_table, participating, bonus_table, players, count_factor, count_to_rank
    )


@xw.func(category=_CATEGORY)
@arg("rank", "Finishing rank (1 = last player remaining)")
@arg("players", "Number of players in the event")
@arg("multiplier", "Points per place (default 1)")
@arg("participating", "Points for every player who attended (default 0)")
@arg("bonus_table", "Bonus points for ranks 1, 2, 3 ... (default none)")
def REVERSE_POINTS(
    rank: Any,
    players: Any,
    multiplier: Any = None,
    participating: Any = None,
    bonus_table: Any = None,
) -> Any:
    """Relative Reverse Order: (players − rank + 1) × multiplier + participating + bonus."""
    return functions.reverse_points(rank, players, multiplier, participating, bonus_table)


@xw.func(category=_CATEGORY)
@arg("placement", "Final placement (ties share the better place)")
@arg("players", "Number of players in the event")
def DIPPOUCH_PERCENTILE(placement: Any, players: Any) -> Any:
    """Dip Pouch percentile: (players + 0.5 − placement) / players × 100."""
    return functions.dippouch_percentile(placement, players)


@xw.func(category=_CATEGORY)
@arg("players", "Number of players in the event")
@arg("rounds", "Number of rounds (default: more than one)")
@arg("world_championship", "TRUE for a World Championship")
@arg("year", "The event's year or date (default: counts)")
def DIPPOUCH_VALUE(
    players: Any, rounds: Any = None, world_championship: Any = None, year: Any = None
) -> Any:
    """Dip Pouch tournament value: 20 for a WC, else players / 7 + 2 (one round) or / 3.5 + 2."""
    return functions.dippouch_value(players, rounds, world_championship, year)


@xw.func(category=_CATEGORY)
@arg("placements", "The player's placements, event by event in date order")
@arg("players", "Players in each event (one value or one per placement)")
@arg("rounds", "Rounds of each event (default: more than one)")
@arg("world_championship", "TRUE for World Championships (one or per event)")
@arg("years", "Year or date of each event (default: counts)")
@arg("start_rating", ndim=None, doc="Rating before the first of these events (default 40)")
def DIPPOUCH_RATING(
    placements: Any,
    players: Any,
    rounds: Any = None,
    world_championship: Any = None,
    years: Any = None,
    start_rating: Any = None,
) -> Any:
    """Dip Pouch rating after these events, in the order given, from start_rating (40)."""
    return functions.dippouch_rating(
        placements, players, rounds, world_championship, years, start_rating
    )


@xw.func(category=_CATEGORY)
@arg("prizes", "The prizes of places 1, 2, 3 ... (one range)")
@arg("place", "The place won (the first of those shared)")
@arg("sharing", "How many players share it (default 1)")
@arg("unit", "Round down to this (default 0.01; 1 for whole pounds)")
@arg("ties", "How the tied share: equal (default), hort or tie-break", ndim=None)
@arg("order", "This player's place among them by the tie-break (default 1)")
def PRIZE_SHARE(
    prizes: Any,
    place: Any,
    sharing: Any = None,
    unit: Any = None,
    ties: Any = None,
    order: Any = None,
) -> Any:
    """Each tied player's prize: the prizes of the places shared, split, rounded down."""
    return functions.prize_share(prizes, place, sharing, unit, ties, order)


@xw.func(category=_CATEGORY)
@arg("formula", ndim=None, doc="pokerstars, school, depth decay, percentage, or an expression")
@arg("players", "Players in the event (the field size)")
@arg("place", "Finishing place (1 = the winner)")
@arg("buy_in", "The buy-in (for a formula that uses buy-in)")
@arg("rebuys", "Re-buys bought (default 0)")
@arg("knockouts", "Players knocked out (default 0)")
@arg("pot", "The event's prize pool (for a formula that uses pot)")
@arg("cut", ndim=None, doc="Places that score: 15%, 10 or none (default: the preset's)")
@arg("below_cut", ndim=None, doc="Points past the cut (default: the preset's, else 0)")
@arg("shares", "Share of places 1, 2, 3 ... (percentage; one range)")
def FORMULA_POINTS(
    formula: Any,
    players: Any,
    place: Any,
    buy_in: Any = None,
    rebuys: Any = None,
    knockouts: Any = None,
    pot: Any = None,
    cut: Any = None,
    below_cut: Any = None,
    shares: Any = None,
) -> Any:
    """Points by a field-size formula (a preset's or your own), with its cut."""
    return functions.formula_points(
        formula, players, place, buy_in, rebuys, knockouts, pot, cut, below_cut, shares
    )
