"""What the Excel functions compute: the core's formulas over Excel's arguments
(:mod:`~xlrally.excel.arguments`: its conventions for blanks, numbers and dates, and
:func:`~xlrally.excel.arguments.cellwise`, cell by cell over ranges). :mod:`udfs` registers
each one with xlwings under its Excel name (``RALLY_SCORE`` is :func:`rally_score`);
BEST_X_TOTAL and DIPPOUCH_RATING, of whole ranges, are :mod:`~xlrally.excel.whole_ranges`'.

Each function takes single values or ranges. Ranges of one shape are computed cell by cell
(a single value repeats) and the result has that shape. A blank row gives a blank result;
a bad row gives a short error text in its own cell, e.g. ``#VALUE! byes (4) must be less than
rounds (4)``, and the other rows still compute. See docs/excel.md.

>>> rally_score([[3.0], [2.0]], [[4.0], [5.0]], [[0.0], [1.0]])
[[79], [54]]
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from xlrally.core.errors import XlrallyError
from xlrally.core.numbers import real, whole
from xlrally.core.prizes import PRIZE_TIES, prize_split
from xlrally.core.rules import FormulaRule, cut_of
from xlrally.core.systems import dippouch, poker, rally
from xlrally.core.systems.formula import plan, plan_points
from xlrally.excel.arguments import (
    absent,
    cellwise,
    first_error,
    number_table,
    or_default,
    value_error,
    year_of,
    yes_no,
)
from xlrally.excel.whole_ranges import best_x_total, dippouch_rating
from xlrally.formats.cells import blank

__all__ = [
    "BY_ROW",
    "absolute_points",
    "best_x_total",
    "cellwise",
    "dippouch_percentile",
    "dippouch_rating",
    "dippouch_value",
    "formula_points",
    "neau_points",
    "prize_share",
    "rally_best_n",
    "rally_score",
    "reverse_points",
]


# ---------------------------------------------------------------- the rally


def rally_score(points: Any, rounds: Any, byes: Any = None, games: Any = None) -> Any:
    """Rapidplay Rally event score: 100 × points / (rounds − byes) + games, decimals dropped."""
    return cellwise(
        lambda p, r, b, g: rally.event_score(p, r, or_default(b, 0), None if absent(g) else g),
        ("points", "rounds", "byes", "games"),
        points,
        rounds,
        byes,
        games,
    )


def rally_best_n(events_held: Any, cap: Any = None) -> Any:
    """How many of each player's best event scores count: ⌈(min(held, cap) + 1) / 2⌉."""
    return cellwise(
        lambda held, c: rally.events_counted(held, or_default(c, rally.DEFAULT_EVENTS_CAP)),
        ("events_held", "cap"),
        events_held,
        cap,
        renamed={"events held": "events_held", "events cap": "cap"},
    )


# ---------------------------------------------------------------- poker leagues


def neau_points(players: Any, buy_in: Any, total_expense: Any, finish: Any) -> Any:
    """Neau's formula: √((players × buy-in) × (buy-in / total expense)) / (finish + 1)."""
    return cellwise(
        lambda a, b, c, d: poker.neau_points(a, b, None if absent(c) else c, d),
        ("players", "buy_in", "total_expense", "finish"),
        players,
        buy_in,
        total_expense,
        finish,
        renamed={
            "buy-in": "buy_in",
            "total expense": "total_expense",
            "total": "total_expense",
            "rank": "finish",
        },
    )


def absolute_points(
    rank: Any,
    points_table: Any,
    participating: Any = None,
    bonus_table: Any = None,
    players: Any = None,
    count_factor: Any = None,
    count_to_rank: Any = None,
) -> Any:
    """Absolute Points: points by rank + participating + bonus + player-count points."""
    try:
        points, bonus = (
            number_table(points_table, "points_table"),
            number_table(bonus_table, "bonus_table"),
        )
    except XlrallyError as error:
        return value_error(error)

    @cache  # one structure per distinct setting, however many rows share it
    def structure_for(part: Any, factor: Any, to_rank: Any) -> poker.PointStructure:
        return poker.PointStructure(
            points=points,
            bonus=bonus,
            participating=real(or_default(part, 0), "participating"),
            player_count_factor=real(or_default(factor, 0), "count_factor"),
            player_count_to_rank=None
            if absent(to_rank)
            else whole(to_rank, "count_to_rank", minimum=1),
        )

    def one(r: Any, part: Any, n: Any, factor: Any, to_rank: Any) -> float:
        structure = structure_for(part, factor, to_rank)
        if absent(n):
            if structure.player_count_factor:
                raise XlrallyError("players is needed for player-count points")
            n = r
        return poker.absolute_points(r, n, structure)

    names = ("rank", "participating", "players", "count_factor", "count_to_rank")
    return cellwise(one, names, rank, participating, players, count_factor, count_to_rank)


def reverse_points(
    rank: Any,
    players: Any,
    multiplier: Any = None,
    participating: Any = None,
    bonus_table: Any = None,
) -> Any:
    """Relative Reverse Order: (players − rank + 1) × multiplier + participating + bonus."""
    try:
        bonus = number_table(bonus_table, "bonus_table")
    except XlrallyError as error:
        return value_error(error)

    @cache  # one structure per distinct setting, however many rows share it
    def structure_for(times: Any, part: Any) -> poker.PointStructure:
        return poker.PointStructure(
            bonus=bonus,
            participating=real(or_default(part, 0), "participating"),
            multiplier=real(or_default(times, 1), "multiplier"),
        )

    def one(r: Any, n: Any, times: Any, part: Any) -> float:
        return poker.reverse_points(r, n, structure_for(times, part))

    names = ("rank", "players", "multiplier", "participating")
    return cellwise(one, names, rank, players, multiplier, participating)


# ---------------------------------------------------------------- Dip Pouch


def dippouch_percentile(placement: Any, players: Any) -> Any:
    """Dip Pouch percentile: (players + 0.5 − placement) / players × 100."""
    return cellwise(
        dippouch.percentile,
        ("placement", "players"),
        placement,
        players,
        renamed={"rank": "placement"},
    )


def dippouch_value(
    players: Any, rounds: Any = None, world_championship: Any = None, year: Any = None
) -> Any:
    """Dip Pouch tournament value: 20 for a WC, else players / 7 + 2 (one round) or / 3.5 + 2."""
    return cellwise(
        lambda n, r, wc, y: dippouch.tournament_value(
            n, None if absent(r) else r, yes_no(wc), year_of(y)
        ),
        ("players", "rounds", "world_championship", "year"),
        players,
        rounds,
        world_championship,
        year,
    )


# ---------------------------------------------------------------- prize money


def prize_share(
    prizes: Any,
    place: Any,
    sharing: Any = None,
    unit: Any = None,
    ties: Any = None,
    order: Any = None,
) -> Any:
    """Each player's prize when ``sharing`` players (default 1) are level at ``place``: the
    prizes of the places they cover, split as ``ties`` says (``equal``, the default; ``hort``:
    half shared equally, half by the tie-break; ``tie-break``: the player's own place's), for
    the player ``order``-th of them by the tie-break (default 1), rounded down to ``unit``
    (default 0.01): what the standings pay (:mod:`xlrally.core.prizes`).

    >>> prize_share([[50.0], [30.0], [20.01]], 2.0, 2.0)  # (30 + 20.01) / 2, to the cent
    25.0
    >>> prize_share([[100.0], [80.0]], 1.0, 2.0, None, "Hort", 2.0)  # 180 / 2 / 2 + 80 / 2
    85.0
    """
    try:
        table = number_table(prizes, "prizes")
        rule = _ties(ties)
    except XlrallyError as error:
        return value_error(error)

    def one(first: Any, k: Any, step: Any, position: Any) -> float:
        start = whole(first, "place", minimum=1)
        count = 1 if absent(k) else whole(k, "sharing", minimum=1)
        at = 1 if absent(position) else whole(position, "order", minimum=1)
        return prize_split(
            table, start, count, float(real(or_default(step, 0.01), "unit")), rule, at
        )

    return cellwise(one, ("place", "sharing", "unit", "order"), place, sharing, unit, order)


def _ties(value: Any) -> str:
    """How tied players share (PRIZE_SHARE's ``ties``): one cell, ``equal`` when blank."""
    while isinstance(value, list | tuple) and len(value) == 1:
        value = value[0]
    if isinstance(value, list | tuple):
        raise XlrallyError("ties must be one cell: equal, hort or tie-break")
    if absent(value):
        return "equal"
    chosen = " ".join(str(value).split()).casefold()
    if chosen not in PRIZE_TIES:
        raise XlrallyError(f"ties must be equal, hort or tie-break, not {value!r}")
    return chosen


# ---------------------------------------------------------------- field-size formulas


def formula_points(
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
    """Points by a formula of the field (a preset: ``pokerstars``, ``school``, ``depth
    decay``, ``percentage``; or the league's own expression), with its cut.

    >>> formula_points("pokerstars", [[150.0], [150.0]], [[3.0], [23.0]], 20.0)
    [[163.09], [0.0]]
    >>> formula_points("10 * sqrt(players) / sqrt(plac)", 16.0, 4.0)  # doctest: +ELLIPSIS
    "#VALUE! formula column 27: unknown name 'plac' (did you mean 'place'?): ..."
    """
    for value, name in ((formula, "formula"), (cut, "cut"), (below_cut, "below_cut")):
        if isinstance(value, list | tuple):
            return f"#VALUE! {name} must be one cell"
        failed = first_error([value])
        if failed is not None:
            return f"{failed} in {name}"
    try:
        text = "" if blank(formula) else str(formula)
        rule = FormulaRule(
            text,
            None if absent(cut) else cut_of(cut),
            None if absent(below_cut) else float(real(below_cut, "below_cut")),
        )
        the_plan = plan(rule)  # a bad formula is one message, not one per row
        structure = poker.PointStructure(shares=number_table(shares, "shares"))
    except (XlrallyError, ValueError) as error:
        return value_error(error)

    def one(n: Any, k: Any, b: Any, r: Any, kos: Any, money: Any) -> float:
        return plan_points(
            the_plan,
            n,
            k,
            None if absent(b) else b,
            None if absent(r) else r,
            None if absent(kos) else kos,
            None if absent(money) else money,
            structure,
        )

    names = ("players", "place", "buy_in", "rebuys", "knockouts", "pot")
    return cellwise(
        one,
        names,
        players,
        place,
        buy_in,
        rebuys,
        knockouts,
        pot,
        renamed={"buy-in": "buy_in", "re-buys": "rebuys", "rank": "place"},
    )


BY_ROW: dict[Callable[..., Any], tuple[str, ...]] = {
    rally_score: ("points", "rounds", "byes", "games"),
    rally_best_n: ("events_held", "cap"),
    neau_points: ("players", "buy_in", "total_expense", "finish"),
    absolute_points: ("rank", "participating", "players", "count_factor", "count_to_rank"),
    reverse_points: ("rank", "players", "multiplier", "participating"),
    dippouch_percentile: ("placement", "players"),
    dippouch_value: ("players", "rounds", "world_championship", "year"),
    prize_share: ("place", "sharing", "unit", "order"),
    formula_points: ("players", "place", "buy_in", "rebuys", "knockouts", "pot"),
}
"""The functions made with :func:`_cellwise`, and their arguments that it applies row by row
(the others, a table or a formula, are taken whole): a row's answer depends on that row's
values alone, and a problem of the whole call (a bad table) on none of them. So a call may be
computed once per distinct row (:mod:`xlrally.calc.calls`)."""
