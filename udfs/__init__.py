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

from typing import Any

import xlwings as xw

from xlrally.excel import functions

__all__ = [
    "ABSOLUTE_POINTS",
    "BEST_X_TOTAL",
    "DIPPOUCH_PERCENTILE",
    "DIPPOUCH_RATING",
    "DIPPOUCH_VALUE",
    "NEAU_POINTS",
    "RALLY_BEST_N",
    "RALLY_SCORE",
    "REVERSE_POINTS",
]

_CATEGORY = "xlrally"


@xw.func(category=_CATEGORY)
@xw.arg(
    "points", ndim=2, err_to_str=True, doc="Points scored in games played (bye points not included)"
)
@xw.arg("rounds", ndim=2, err_to_str=True, doc="Number of rounds in the event")
@xw.arg("byes", ndim=2, err_to_str=True, doc="Byes received (default 0)")
@xw.arg("games", ndim=2, err_to_str=True, doc="Games played (default rounds − byes)")
def RALLY_SCORE(points: Any, rounds: Any, byes: Any = None, games: Any = None) -> Any:
    """Rapidplay Rally event score: 100 × points / (rounds − byes) + games, decimals dropped."""
    return functions.rally_score(points, rounds, byes, games)


@xw.func(category=_CATEGORY)
@xw.arg("events_held", ndim=2, err_to_str=True, doc="Number of rally events held so far")
@xw.arg("cap", ndim=2, err_to_str=True, doc="Most events taken into account (default 9)")
def RALLY_BEST_N(events_held: Any, cap: Any = None) -> Any:
    """How many of each player's best event scores count: ⌈(min(held, cap) + 1) / 2⌉."""
    return functions.rally_best_n(events_held, cap)


@xw.func(category=_CATEGORY)
@xw.arg(
    "scores",
    ndim=2,
    err_to_str=True,
    doc="One row per player: their event scores (blanks and text ignored)",
)
@xw.arg("x", ndim=2, err_to_str=True, doc="How many best scores count (default: all)")
def BEST_X_TOTAL(scores: Any, x: Any = None) -> Any:
    """Per row of scores: the sum of its x largest numbers."""
    return functions.best_x_total(scores, x)


@xw.func(category=_CATEGORY)
@xw.arg("players", ndim=2, err_to_str=True, doc="Number of players in the event")
@xw.arg("buy_in", ndim=2, err_to_str=True, doc="The event's buy-in")
@xw.arg(
    "total_expense",
    ndim=2,
    err_to_str=True,
    doc="The player's total expense with re-buys (default buy-in)",
)
@xw.arg("finish", ndim=2, err_to_str=True, doc="Finish position (1 = last player remaining)")
def NEAU_POINTS(players: Any, buy_in: Any, total_expense: Any, finish: Any) -> Any:
    """Neau's formula: √((players × buy-in) × (buy-in / total expense)) / (finish + 1)."""
    return functions.neau_points(players, buy_in, total_expense, finish)


@xw.func(category=_CATEGORY)
@xw.arg("rank", ndim=2, err_to_str=True, doc="Finishing rank (1 = last player remaining)")
@xw.arg("points_table", ndim=2, err_to_str=True, doc="Points for ranks 1, 2, 3 ... (one range)")
@xw.arg(
    "participating", ndim=2, err_to_str=True, doc="Points for every player who attended (default 0)"
)
@xw.arg(
    "bonus_table", ndim=2, err_to_str=True, doc="Bonus points for ranks 1, 2, 3 ... (default none)"
)
@xw.arg("players", ndim=2, err_to_str=True, doc="Players in the event (for player-count points)")
@xw.arg(
    "count_factor",
    ndim=2,
    err_to_str=True,
    doc="Player-count points: players × this factor (0 = none)",
)
@xw.arg(
    "count_to_rank",
    ndim=2,
    err_to_str=True,
    doc="Last rank that gets player-count points (default all)",
)
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
@xw.arg("rank", ndim=2, err_to_str=True, doc="Finishing rank (1 = last player remaining)")
@xw.arg("players", ndim=2, err_to_str=True, doc="Number of players in the event")
@xw.arg("multiplier", ndim=2, err_to_str=True, doc="Points per place (default 1)")
@xw.arg(
    "participating", ndim=2, err_to_str=True, doc="Points for every player who attended (default 0)"
)
@xw.arg(
    "bonus_table", ndim=2, err_to_str=True, doc="Bonus points for ranks 1, 2, 3 ... (default none)"
)
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
@xw.arg("placement", ndim=2, err_to_str=True, doc="Final placement (ties share the better place)")
@xw.arg("players", ndim=2, err_to_str=True, doc="Number of players in the event")
def DIPPOUCH_PERCENTILE(placement: Any, players: Any) -> Any:
    """Dip Pouch percentile: (players + 0.5 − placement) / players × 100."""
    return functions.dippouch_percentile(placement, players)


@xw.func(category=_CATEGORY)
@xw.arg("players", ndim=2, err_to_str=True, doc="Number of players in the event")
@xw.arg("rounds", ndim=2, err_to_str=True, doc="Number of rounds (default: more than one)")
@xw.arg("world_championship", ndim=2, err_to_str=True, doc="TRUE for a World Championship")
@xw.arg("year", ndim=2, err_to_str=True, doc="The event's year or date (default: counts)")
def DIPPOUCH_VALUE(
    players: Any, rounds: Any = None, world_championship: Any = None, year: Any = None
) -> Any:
    """Dip Pouch tournament value: 20 for a WC, else players / 7 + 2 (one round) or / 3.5 + 2."""
    return functions.dippouch_value(players, rounds, world_championship, year)


@xw.func(category=_CATEGORY)
@xw.arg(
    "placements",
    ndim=2,
    err_to_str=True,
    doc="The player's placements, event by event in date order",
)
@xw.arg(
    "players", ndim=2, err_to_str=True, doc="Players in each event (one value or one per placement)"
)
@xw.arg("rounds", ndim=2, err_to_str=True, doc="Rounds of each event (default: more than one)")
@xw.arg(
    "world_championship",
    ndim=2,
    err_to_str=True,
    doc="TRUE for World Championships (one or per event)",
)
@xw.arg("years", ndim=2, err_to_str=True, doc="Year or date of each event (default: counts)")
@xw.arg("start_rating", err_to_str=True, doc="Rating before the first of these events (default 40)")
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
