"""Excel functions for league treasurers: thin xlwings UDFs over the xlrally scoring core.

Each function takes single values or ranges. Ranges of one shape are computed cell by cell
(a single value repeats) and the result spills in that shape. A blank row gives a blank result;
a bad row gives a short error text in its own cell, e.g. ``#VALUE! byes (4) must be less than
rounds (4)``, and the other rows still compute. Excel's conventions are taken as they come:
classic xlwings hands integers over as floats and blanks as None; xlwings Lite (Office.js)
hands blanks as 0; dates arrive as datetimes or serial numbers. See docs/excel.md.

>>> RALLY_SCORE(3.0, 4.0)
79
>>> RALLY_SCORE([[3.0], [2.0], [None]], [[4.0], [5.0], [None]], [[0.0], [1.0], [None]])
[[79], [54], ['']]
>>> RALLY_SCORE(1.0, 4.0, 4.0)
'#VALUE! byes (4) must be less than rounds (4)'
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from functools import cache
from typing import Any

import xlwings as xw

from xlrally import dippouch, poker, rally
from xlrally.errors import XlrallyError
from xlrally.numeric import whole
from xlrally.standings import best_total

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

Grid = list[list[Any]]
_EXCEL_EPOCH = dt.date(1899, 12, 30)
_CATEGORY = "xlrally"


# ---------------------------------------------------------------- helpers


def _grid(value: Any) -> Grid:
    """Any argument as a 2-D list: a value is 1×1, a 1-D list is one row."""
    if isinstance(value, list | tuple):
        if value and isinstance(value[0], list | tuple):
            return [list(row) for row in value]
        return [list(value)]
    return [[value]]


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _error(error: object) -> str:
    return f"#VALUE! {error}"


def _cellwise(function: Callable[..., Any], *args: Any) -> Any:
    """Apply ``function`` cell by cell over same-shaped ranges (1×1 values repeat).

    A cell whose range inputs are all blank gives "" (single values that repeat down a range do
    not make a row non-blank). xlwings Lite sends blanks as 0, so a cell whose two or more range
    inputs are all 0 is blank too; a single 0 (0 points) is a value.
    """
    grids = [_grid(a) for a in args]
    ranged = [i for i, g in enumerate(grids) if (len(g), len(g[0]) if g else 0) != (1, 1)]
    deciding = ranged or list(range(len(grids)))
    shapes = {(len(g), len(g[0]) if g else 0) for g in grids} - {(1, 1)}
    if len(shapes) > 1:
        listed = " and ".join(f"{r}×{c}" for r, c in sorted(shapes))
        return f"#VALUE! ranges must have the same shape ({listed})"
    rows, columns = shapes.pop() if shapes else (1, 1)
    out: Grid = []
    for r in range(rows):
        line = []
        for c in range(columns):
            values = [g[0][0] if len(g) == 1 and len(g[0]) == 1 else g[r][c] for g in grids]
            if all(_blank(values[i]) for i in deciding) or (
                len(deciding) > 1 and all(_blank(values[i]) or values[i] == 0 for i in deciding)
            ):
                line.append("")
                continue
            try:
                line.append(function(*values))
            except (XlrallyError, ValueError, TypeError) as error:
                line.append(_error(error))
        out.append(line)
    return out[0][0] if (rows, columns) == (1, 1) else out


def _or(value: Any, default: Any) -> Any:
    return default if _blank(value) else value


def _table(value: Any) -> tuple[float, ...]:
    """A points or bonus table from a range: values in order, blanks 0, trailing blanks dropped."""
    if _blank(value):
        return ()
    cells = [v for row in _grid(value) for v in row]
    while cells and _blank(cells[-1]):
        cells.pop()
    table = []
    for v in cells:
        if _blank(v):
            table.append(0.0)
        elif isinstance(v, int | float) and not isinstance(v, bool):
            table.append(float(v))
        else:
            raise XlrallyError(f"points tables hold numbers, not {v!r}")
    return tuple(table)


def _year(value: Any) -> int | None:
    """A year from a year number, a date(time), an Excel serial date or ISO text."""
    if _blank(value) or value == 0:
        return None
    if isinstance(value, dt.datetime | dt.date):
        return value.year
    if isinstance(value, int | float) and not isinstance(value, bool):
        if 1000 <= value <= 9999:
            return int(value)
        if 9999 < value < 2958466:
            return (_EXCEL_EPOCH + dt.timedelta(days=int(value))).year
    if isinstance(value, str):
        text = value.strip()
        if text[:4].isdigit():
            return int(text[:4])
    raise XlrallyError(f"year must be a year or a date, not {value!r}")


def _flag(value: Any) -> bool:
    """TRUE/FALSE, 1/0, yes/no; blank is no."""
    if _blank(value):
        return False
    if isinstance(value, str):
        text = value.strip().casefold()
        if text in {"yes", "y", "true", "x", "wc"}:
            return True
        if text in {"no", "n", "false"}:
            return False
        raise XlrallyError(f"world_championship must be yes or no, not {value!r}")
    return bool(value)


# ---------------------------------------------------------------- the rally


@xw.func(category=_CATEGORY)
@xw.arg("points", ndim=2, doc="Points scored in games played (bye points not included)")
@xw.arg("rounds", ndim=2, doc="Number of rounds in the event")
@xw.arg("byes", ndim=2, doc="Byes received (default 0)")
@xw.arg("games", ndim=2, doc="Games played (default rounds − byes)")
def RALLY_SCORE(points: Any, rounds: Any, byes: Any = None, games: Any = None) -> Any:
    """Rapidplay Rally event score: 100 × points / (rounds − byes) + games, decimals dropped."""
    return _cellwise(
        lambda p, r, b, g: rally.event_score(p, r, _or(b, 0), None if _blank(g) else g),
        points,
        rounds,
        byes,
        games,
    )


@xw.func(category=_CATEGORY)
@xw.arg("events_held", ndim=2, doc="Number of rally events held so far")
@xw.arg("cap", ndim=2, doc="Most events taken into account (default 9)")
def RALLY_BEST_N(events_held: Any, cap: Any = None) -> Any:
    """How many of each player's best event scores count: ⌈(min(held, cap) + 1) / 2⌉."""
    return _cellwise(
        lambda held, c: rally.events_counted(held, _or(c, rally.DEFAULT_EVENTS_CAP) or 9),
        events_held,
        cap,
    )


@xw.func(category=_CATEGORY)
@xw.arg("scores", ndim=2, doc="One row per player: their event scores (blanks and text ignored)")
@xw.arg("x", ndim=2, doc="How many best scores count (default: all)")
@xw.ret(expand="table")
def BEST_X_TOTAL(scores: Any, x: Any = None) -> Any:
    """Per row of scores: the sum of its x largest numbers."""
    rows = _grid(scores)
    counts = _grid(x)
    if len(counts) not in (1, len(rows)) or any(len(r) != 1 for r in counts):
        return "#VALUE! x must be one number or one per row of scores"
    out: Grid = []
    for index, row in enumerate(rows):
        numbers = [float(v) for v in row if isinstance(v, int | float) and not isinstance(v, bool)]
        count = counts[0][0] if len(counts) == 1 else counts[index][0]
        if not numbers:
            out.append([""])
            continue
        try:
            n = None if _blank(count) or count == 0 else _whole_count(count)
            out.append([best_total(numbers, n)])
        except XlrallyError as error:
            out.append([_error(error)])
    return out[0][0] if len(out) == 1 else out


def _whole_count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise XlrallyError(f"x must be a whole number, not {value!r}")
    if value < 1 or not float(value).is_integer():
        raise XlrallyError(f"x must be a whole number of at least 1, not {value!r}")
    return int(value)


# ---------------------------------------------------------------- poker leagues


@xw.func(category=_CATEGORY)
@xw.arg("players", ndim=2, doc="Number of players in the event")
@xw.arg("buy_in", ndim=2, doc="The event's buy-in")
@xw.arg("total_expense", ndim=2, doc="The player's total expense with re-buys (default buy-in)")
@xw.arg("finish", ndim=2, doc="Finish position (1 = last player remaining)")
def NEAU_POINTS(players: Any, buy_in: Any, total_expense: Any, finish: Any) -> Any:
    """Neau's formula: √((players × buy-in) × (buy-in / total expense)) / (finish + 1)."""
    return _cellwise(
        lambda a, b, c, d: poker.neau_points(a, b, None if _blank(c) or c == 0 else c, d),
        players,
        buy_in,
        total_expense,
        finish,
    )


@xw.func(category=_CATEGORY)
@xw.arg("rank", ndim=2, doc="Finishing rank (1 = last player remaining)")
@xw.arg("points_table", ndim=2, doc="Points for ranks 1, 2, 3 ... (one range)")
@xw.arg("participating", ndim=2, doc="Points for every player who attended (default 0)")
@xw.arg("bonus_table", ndim=2, doc="Bonus points for ranks 1, 2, 3 ... (default none)")
@xw.arg("players", ndim=2, doc="Players in the event (for player-count points)")
@xw.arg("count_factor", ndim=2, doc="Player-count points: players × this factor (0 = none)")
@xw.arg("count_to_rank", ndim=2, doc="Last rank that gets player-count points (default all)")
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
    try:
        points, bonus = _table(points_table), _table(bonus_table)
    except XlrallyError as error:
        return _error(error)

    @cache  # one structure per distinct setting, however many rows share it
    def structure_for(part: Any, factor: Any, to_rank: Any) -> poker.PointStructure:
        return poker.PointStructure(
            points=points,
            bonus=bonus,
            participating=_or(part, 0),
            player_count_factor=_or(factor, 0),
            player_count_to_rank=None
            if _blank(to_rank) or to_rank == 0
            else whole(to_rank, "count_to_rank", minimum=1),
        )

    def one(r: Any, part: Any, n: Any, factor: Any, to_rank: Any) -> float:
        structure = structure_for(part, factor, to_rank)
        if _blank(n) or n == 0:
            if structure.player_count_factor:
                raise XlrallyError("players is needed for player-count points")
            n = r
        return poker.absolute_points(r, n, structure)

    return _cellwise(one, rank, participating, players, count_factor, count_to_rank)


@xw.func(category=_CATEGORY)
@xw.arg("rank", ndim=2, doc="Finishing rank (1 = last player remaining)")
@xw.arg("players", ndim=2, doc="Number of players in the event")
@xw.arg("multiplier", ndim=2, doc="Points per place (default 1)")
@xw.arg("participating", ndim=2, doc="Points for every player who attended (default 0)")
@xw.arg("bonus_table", ndim=2, doc="Bonus points for ranks 1, 2, 3 ... (default none)")
def REVERSE_POINTS(
    rank: Any,
    players: Any,
    multiplier: Any = None,
    participating: Any = None,
    bonus_table: Any = None,
) -> Any:
    """Relative Reverse Order: (players − rank + 1) × multiplier + participating + bonus."""
    try:
        bonus = _table(bonus_table)
    except XlrallyError as error:
        return _error(error)

    @cache  # one structure per distinct setting, however many rows share it
    def structure_for(times: Any, part: Any) -> poker.PointStructure:
        return poker.PointStructure(
            bonus=bonus, participating=_or(part, 0), multiplier=_or(times, 1)
        )

    def one(r: Any, n: Any, times: Any, part: Any) -> float:
        return poker.reverse_points(r, n, structure_for(times, part))

    return _cellwise(one, rank, players, multiplier, participating)


# ---------------------------------------------------------------- Dip Pouch


@xw.func(category=_CATEGORY)
@xw.arg("placement", ndim=2, doc="Final placement (ties share the better place)")
@xw.arg("players", ndim=2, doc="Number of players in the event")
def DIPPOUCH_PERCENTILE(placement: Any, players: Any) -> Any:
    """Dip Pouch percentile: (players + 0.5 − placement) / players × 100."""
    return _cellwise(dippouch.percentile, placement, players)


@xw.func(category=_CATEGORY)
@xw.arg("players", ndim=2, doc="Number of players in the event")
@xw.arg("rounds", ndim=2, doc="Number of rounds (default: more than one)")
@xw.arg("world_championship", ndim=2, doc="TRUE for a World Championship")
@xw.arg("year", ndim=2, doc="The event's year or date (default: counts)")
def DIPPOUCH_VALUE(
    players: Any, rounds: Any = None, world_championship: Any = None, year: Any = None
) -> Any:
    """Dip Pouch tournament value: 20 for a WC, else players / 7 + 2 (one round) or / 3.5 + 2."""
    return _cellwise(
        lambda n, r, wc, y: dippouch.tournament_value(
            n, None if _blank(r) or r == 0 else r, _flag(wc), _year(y)
        ),
        players,
        rounds,
        world_championship,
        year,
    )


def _per_event(value: Any, count: int, name: str) -> list[Any]:
    cells = [v for row in _grid(value) for v in row]
    if len(cells) == 1:
        return cells * count
    if len(cells) != count:
        raise XlrallyError(f"{name} must be one value or one per placement ({count})")
    return cells


@xw.func(category=_CATEGORY)
@xw.arg("placements", ndim=2, doc="The player's placements, event by event in date order")
@xw.arg("players", ndim=2, doc="Players in each event (one value or one per placement)")
@xw.arg("rounds", ndim=2, doc="Rounds of each event (default: more than one)")
@xw.arg("world_championship", ndim=2, doc="TRUE for World Championships (one or per event)")
@xw.arg("years", ndim=2, doc="Year or date of each event (default: counts)")
@xw.arg("start_rating", doc="Rating before the first of these events (default 40)")
def DIPPOUCH_RATING(
    placements: Any,
    players: Any,
    rounds: Any = None,
    world_championship: Any = None,
    years: Any = None,
    start_rating: Any = None,
) -> Any:
    """Dip Pouch rating after these events, in the order given, from start_rating (40)."""
    places = [v for row in _grid(placements) for v in row]
    count = len(places)
    try:
        sizes = _per_event(players, count, "players")
        round_counts = _per_event(rounds, count, "rounds")
        champs = _per_event(world_championship, count, "world_championship")
        when = _per_event(years, count, "years")
        rating = float(_or(start_rating, dippouch.START_RATING))
    except (XlrallyError, ValueError, TypeError) as error:
        return _error(error)
    played = False
    for index, place in enumerate(places):
        if _blank(place) or place == 0:
            continue
        try:
            value = dippouch.tournament_value(
                sizes[index],
                None
                if _blank(round_counts[index]) or round_counts[index] == 0
                else round_counts[index],
                _flag(champs[index]),
                _year(when[index]),
            )
            rating = dippouch.updated_rating(
                rating, value, dippouch.percentile(place, sizes[index])
            )
        except (XlrallyError, ValueError, TypeError) as error:
            return _error(f"event {index + 1}: {error}")
        played = True
    return rating if played else ("" if _blank(start_rating) else rating)
