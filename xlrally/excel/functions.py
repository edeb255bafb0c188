"""What the Excel functions compute: cell-by-cell application over ranges, Excel's conventions
for blanks, numbers and dates, and the core's formulas. :mod:`udfs` registers each one with
xlwings under its Excel name (``RALLY_SCORE`` is :func:`rally_score`).

Each function takes single values or ranges. Ranges of one shape are computed cell by cell
(a single value repeats) and the result has that shape. A blank row gives a blank result;
a bad row gives a short error text in its own cell, e.g. ``#VALUE! byes (4) must be less than
rounds (4)``, and the other rows still compute. Excel's conventions are taken as they come:
xlwings hands integers over as floats, blanks as None (desktop Excel under xlwings Lite: as
0), currency cells as decimal.Decimal, error cells as their text (``err_to_str``); numbers
stored as text count as numbers; dates arrive as datetimes or serial numbers. See
docs/excel.md.

>>> rally_score([[3.0], [2.0]], [[4.0], [5.0]], [[0.0], [1.0]])
[[79], [54]]
"""

from __future__ import annotations

import datetime as dt
import math
import sys
from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from functools import cache, lru_cache, partial
from itertools import chain, count, repeat
from operator import is_not, itemgetter
from typing import Any

from xlrally.core.errors import XlrallyError
from xlrally.core.numbers import real, whole
from xlrally.core.prizes import PRIZE_TIES, prize_split
from xlrally.core.ranking import best_total
from xlrally.core.rules import FormulaRule, cut_of
from xlrally.core.systems import dippouch, poker, rally
from xlrally.core.systems.formula import plan, plan_points
from xlrally.formats.cells import ERROR_TEXTS, blank, to_bool, to_date, to_number

Grid = list[list[Any]]


# ---------------------------------------------------------------- helpers


LITE = sys.platform == "emscripten"
"""Running in xlwings Lite (Pyodide). Only there can a blank cell arrive as 0 (desktop
Office.js does that; the web client and classic Excel hand blanks over as None)."""


def _cell(value: Any) -> Any:
    """One argument cell as the functions take it: a currency cell (decimal.Decimal, pywin32's
    VT_CY on Windows) or a number stored as text (``"3"``, as the sync accepts) is a number."""
    if type(value) is Decimal:
        return float(value)
    if isinstance(value, str) and value.strip() and value not in ERROR_TEXTS:
        try:
            return to_number(value, "")
        except ValueError:
            return value
    return value


def _grid(value: Any) -> Grid:
    """Any argument as a 2-D list of cells (see :func:`_cell`): a value is 1×1, a 1-D list is
    one row."""
    (rows, columns), flat = _cells(value)
    return [flat[r * columns : (r + 1) * columns] for r in range(rows)]


def _cells(value: Any) -> tuple[tuple[int, int], list[Any]]:
    """An argument's shape (rows, columns) and its cells row by row (see :func:`_cell`): a
    value is 1×1, a 1-D list one row."""
    shape, flat, _ = _typed_cells(value)
    return shape, flat


def _typed_cells(value: Any) -> tuple[tuple[int, int], list[Any], frozenset[type]]:
    """:func:`_cells`, and the types of the cells. The cells are looked at one by one only
    when some are neither floats nor blank."""
    if not isinstance(value, list | tuple):
        cell = _cell(value)
        return (1, 1), [cell], frozenset({type(cell)})
    rows = value if value and isinstance(value[0], list | tuple) else [value]
    flat = list(chain.from_iterable(rows))
    kinds = frozenset(map(type, flat))
    if not kinds <= _FLOAT_OR_BLANK:
        flat = [_cell(v) for v in flat]
        kinds = frozenset(map(type, flat))
    return (len(rows), len(rows[0]) if rows else 0), flat, kinds


_FLOAT_OR_BLANK = frozenset({float, type(None)})


def _absent(value: Any) -> bool:
    """An optional argument left out: blank, or 0 where blanks arrive as 0 (:data:`LITE`)."""
    if value is None:
        return True
    if type(value) is str:
        return not value.strip()
    return LITE and value == 0 and not isinstance(value, bool)


def _first_error(cells: Iterable[Any]) -> str | None:
    """The first Excel error value among ``cells``, if any."""
    return next(filter(ERROR_TEXTS.__contains__, cells), None)


def _error(error: object) -> str:
    return f"#VALUE! {error}"


def _in_arguments(error: BaseException, renamed: Mapping[str, str]) -> str:
    """A failure in the words of the function's own arguments: the core names its fields as
    the workbook's columns do (``rank``, ``buy-in``), a function's argument may be called
    otherwise (``finish``, ``buy_in``), and the message must name what the user typed.
    ``renamed`` maps the words a message may start with to the argument.

    >>> _in_arguments(ValueError("rank must be at least 1, not 0"), {"rank": "finish"})
    'finish must be at least 1, not 0'
    """
    text = str(error)
    for words in sorted(renamed, key=len, reverse=True):  # "total expense" before "total"
        if text.startswith(f"{words} "):
            return renamed[words] + text[len(words) :]
    return text


_SAME: Mapping[str, str] = {}
"""No field renamed (:func:`_in_arguments`)."""

_NUMBERS_OR_BLANK = frozenset({float, int, type(None)})
"""Cell types a function is called with straight away (see :func:`_cellwise`)."""

_FAILURES = (XlrallyError, ValueError, TypeError)
"""What a function raises for a bad row: shown in that row's cell, never raised to Excel."""


def _cellwise(
    function: Callable[..., Any],
    names: tuple[str, ...],
    *args: Any,
    renamed: Mapping[str, str] = _SAME,
) -> Any:
    """Apply ``function`` cell by cell over same-shaped ranges (1×1 values repeat).

    A cell whose range inputs are all blank gives "" (single values that repeat down a range do
    not make a row non-blank). In xlwings Lite, where desktop Excel hands blanks over as 0, a
    row whose range inputs are all 0 is blank too, but only when those zeros cannot be scored
    (a required value such as rounds is 0): ``RALLY_SCORE(0, 4, 0)`` is 4 everywhere. In
    classic Excel a 0 is always a value, and a 0 where none is allowed is flagged. A cell
    holding an Excel error gives that error with the argument's name (``#N/A in points``), as
    Excel's own functions pass errors on. ``names`` name the arguments, in order; ``renamed``
    maps a field the core names in a message to the argument it is (:func:`_in_arguments`).

    The lean path: when every cell is a number or a blank and no row can be all blank (one
    range deciding blankness has no blank), each row is handed to ``function`` as it is, and
    only a row that fails goes through the checks above (the same result, found later). When
    the numbers are all floats (as Excel hands them over), a row equal to one before gets that
    row's result: ``function`` must depend on its arguments only (every function here does).
    """
    cells = [_typed_cells(a) for a in args]
    sizes = [shape for shape, _, _ in cells]
    ranged = [i for i, shape in enumerate(sizes) if shape != (1, 1)]
    deciding = ranged or list(range(len(cells)))
    shapes = set(sizes) - {(1, 1)}
    if len(shapes) > 1:
        listed = " and ".join(f"{r}×{c}" for r, c in sorted(shapes))
        return f"#VALUE! ranges must have the same shape ({listed})"
    rows, columns = shapes.pop() if shapes else (1, 1)
    size = rows * columns
    kinds = [k for _, _, k in cells]

    lean = all(k <= _NUMBERS_OR_BLANK for k in kinds) and any(
        type(None) not in kinds[i] for i in deciding
    )
    if not ranged:  # single values: one cell, as the paths below would compute it
        values = tuple(column[0] for _, column, _ in cells)
        if lean:
            try:
                return function(*values)
            except _FAILURES:
                pass
        return _one_cell(function, names, deciding, values, renamed)

    def columns_of() -> list[Iterable[Any]]:  # each argument's cells, a single value repeated
        return [
            column if i in ranged else repeat(column[0], size)
            for i, (_, column, _) in enumerate(cells)
        ]

    flat: list[Any]
    if lean and all(k <= _FLOAT_OR_BLANK for k in kinds):
        # Excel hands every number over as a float, and a league's columns repeat a few
        # values (ranks, field sizes, buy-ins): each distinct row is worked out once, in the
        # order the rows come. (Excel has no negative zero, so the 0.0 and -0.0 that compare
        # equal here never differ.)
        flat = _each_distinct_row(function, names, deciding, columns_of(), renamed)
    elif lean:
        flat = []
        for values in zip(*columns_of(), strict=True):
            try:
                flat.append(function(*values))
            except _FAILURES:
                flat.append(_one_cell(function, names, deciding, values, renamed))
    else:
        flat = [
            _one_cell(function, names, deciding, values, renamed)
            for values in zip(*columns_of(), strict=True)
        ]
    if (rows, columns) == (1, 1):
        return flat[0]
    if columns == 1:
        return list(map(list, zip(flat)))
    return [flat[r * columns : (r + 1) * columns] for r in range(rows)]


def _each_distinct_row(
    function: Callable[..., Any],
    names: tuple[str, ...],
    deciding: list[int],
    columns: list[Iterable[Any]],
    renamed: Mapping[str, str],
) -> list[Any]:
    """Each row's answer, worked out once for each distinct row (:func:`_cellwise`'s path for
    floats): one pass finds each row's first equal row (its index), whose answer every row
    equal to it gets."""
    firsts: dict[tuple[Any, ...], int] = {}
    first_of = list(map(firsts.setdefault, zip(*columns, strict=True), count()))
    answers: dict[int, Any] = {}
    for values, first in firsts.items():
        try:
            answers[first] = function(*values)
        except _FAILURES:
            answers[first] = _one_cell(function, names, deciding, values, renamed)
    if len(first_of) > 1:
        return list(itemgetter(*first_of)(answers))
    return [answers[first] for first in first_of]


def cellwise(
    function: Callable[..., Any],
    names: tuple[str, ...],
    *args: Any,
    renamed: Mapping[str, str] = _SAME,
) -> Any:
    """What every Excel function here is made with (a scoring system's own too): ``function``
    of single values, applied over same-shaped ranges cell by cell with Excel's conventions
    for blanks, errors and bad rows (:func:`_cellwise`)."""
    return _cellwise(function, names, *args, renamed=renamed)


def _one_cell(
    function: Callable[..., Any],
    names: tuple[str, ...],
    deciding: list[int],
    values: tuple[Any, ...],
    renamed: Mapping[str, str],
) -> Any:
    """One cell of :func:`_cellwise` with every check: blank row, error cells, failures."""
    if all(blank(values[i]) for i in deciding):
        return ""
    failed = _first_error(values)
    if failed is not None:
        return f"{failed} in {names[values.index(failed)]}"
    try:
        return function(*values)
    except _FAILURES as error:
        zeros = all(blank(values[i]) or values[i] == 0 for i in deciding)
        return "" if LITE and zeros else _error(_in_arguments(error, renamed))


def _or(value: Any, default: Any) -> Any:
    return default if _absent(value) else value


def _table(value: Any, name: str) -> tuple[float, ...]:
    """A points, bonus or prize table from a range (the argument ``name``): values in order,
    blanks 0, trailing blanks dropped."""
    if blank(value):
        return ()
    cells = [v for row in _grid(value) for v in row]
    while cells and blank(cells[-1]):
        cells.pop()
    table = []
    for v in cells:
        if blank(v):
            table.append(0.0)
        elif isinstance(v, int | float) and not isinstance(v, bool):
            table.append(float(v))
        else:
            raise XlrallyError(f"{name} must hold numbers only, not {v!r}")
    return tuple(table)


def _year(value: Any, name: str = "year") -> int | None:
    """A year from a year number, a date(time), an Excel serial date or ISO text."""
    if _absent(value):
        return None
    if isinstance(value, dt.datetime | dt.date):
        return value.year
    if isinstance(value, int | float) and not isinstance(value, bool):
        if 1000 <= value <= 9999:
            return int(value)
        if 9999 < value < 2958466:
            return to_date(value, name).year  # a serial date, as the workbook reader reads it
    if isinstance(value, str):
        text = value.strip()
        if text[:4].isdigit():
            return int(text[:4])
    raise XlrallyError(f"{name} must be a year or a date, not {value!r}")


def _flag(value: Any) -> bool:
    """TRUE/FALSE, 1/0, yes/no, x; blank is no: the workbook reader's one rule
    (:func:`~xlrally.formats.cells.to_bool`)."""
    return to_bool(value, "world_championship")


# ---------------------------------------------------------------- the rally


def rally_score(points: Any, rounds: Any, byes: Any = None, games: Any = None) -> Any:
    """Rapidplay Rally event score: 100 × points / (rounds − byes) + games, decimals dropped."""
    return _cellwise(
        lambda p, r, b, g: rally.event_score(p, r, _or(b, 0), None if _absent(g) else g),
        ("points", "rounds", "byes", "games"),
        points,
        rounds,
        byes,
        games,
    )


def rally_best_n(events_held: Any, cap: Any = None) -> Any:
    """How many of each player's best event scores count: ⌈(min(held, cap) + 1) / 2⌉."""
    return _cellwise(
        lambda held, c: rally.events_counted(held, _or(c, rally.DEFAULT_EVENTS_CAP)),
        ("events_held", "cap"),
        events_held,
        cap,
        renamed={"events held": "events_held", "events cap": "cap"},
    )


def best_x_total(scores: Any, x: Any = None) -> Any:
    """Per row of scores: the sum of its x largest numbers."""
    rows = _float_rows(scores)
    height = len(rows) if rows is not None else 0
    if rows is None:
        (height, width), cells = _cells(scores)
    counts = _grid(x)
    if len(counts) not in (1, height) or any(len(r) != 1 for r in counts):
        return "#VALUE! x must be one number or one per row of scores"
    if rows is not None:
        out = _best_x_floats(rows, [c[0] for c in counts])
    else:
        out = [_best_x_row(cells[r * width : (r + 1) * width], counts, r) for r in range(height)]
    return out[0][0] if len(out) == 1 else out


def _float_rows(scores: Any) -> list[Any] | None:
    """The rows of ``scores`` when it is rows of one width (at least 1) of floats and blanks
    only (as Excel hands them over), else None: :func:`_cells`' rows, not copied."""
    if not isinstance(scores, list | tuple) or not scores:
        return None
    rows = scores if isinstance(scores[0], list | tuple) else [scores]
    if not set(map(type, rows)) <= _ROW_TYPES or set(map(len, rows)) != {len(rows[0])}:
        return None
    if not rows[0] or not set(map(type, chain.from_iterable(rows))) <= _FLOAT_OR_BLANK:
        return None
    return list(rows)


_ROW_TYPES = frozenset({list, tuple})


def _best_x_row(row: list[Any], counts: Grid, index: int) -> list[Any]:
    """One row of :func:`best_x_total` with every check (any cells)."""
    numbers = [float(v) for v in row if isinstance(v, int | float) and not isinstance(v, bool)]
    count = counts[0][0] if len(counts) == 1 else counts[index][0]
    failed = _first_error([*row, count])
    if failed:
        return [f"{failed} in {'scores' if failed in row else 'x'}"]
    if not numbers:
        return [""]
    try:
        n = None if _absent(count) else _whole_count(count)
        return [best_total(numbers, n)]
    except XlrallyError as error:
        return [_error(error)]


def _best_x_floats(rows: list[Any], counts: list[Any]) -> Grid:
    """:func:`best_x_total` when every score is a float or blank (as Excel hands them over):
    no error can be among the scores, so each distinct x is checked once (the same results
    as :func:`_best_x_row`), and a row's numbers are its cells that are not blank."""
    checked: dict[Any, tuple[str | None, int | None, str | None]] = {}

    def check(x: Any) -> tuple[str | None, int | None, str | None]:
        key = (type(x), x)
        if key not in checked:
            failed = _first_error([x])
            error = n = None
            if failed is None:
                try:
                    n = None if _absent(x) else _whole_count(x)
                except XlrallyError as problem:
                    error = _error(problem)
            checked[key] = (failed and f"{failed} in x", n, error)
        return checked[key]

    out: Grid = []
    if len(counts) == 1:  # one x for every row (the common case): checked once
        failed, n, error = check(counts[0])
        if failed:
            return [[failed] for _ in rows]
        for row in rows:
            numbers = list(filter(_NOT_BLANK, row))
            out.append([error or best_total(numbers, n)] if numbers else [""])
        return out
    for row, x in zip(rows, counts, strict=True):
        failed, n, error = check(x)
        if failed:
            out.append([failed])
            continue
        numbers = list(filter(_NOT_BLANK, row))
        if not numbers:
            out.append([""])
        elif error:
            out.append([error])
        else:
            out.append([best_total(numbers, n)])
    return out


_NOT_BLANK = partial(is_not, None)
"""A cell that is not blank (among floats and blanks: a number)."""


def _whole_count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise XlrallyError(f"x must be a whole number, not {value!r}")
    if value < 1 or not float(value).is_integer():
        raise XlrallyError(f"x must be a whole number of at least 1, not {value!r}")
    return int(value)


# ---------------------------------------------------------------- poker leagues


def neau_points(players: Any, buy_in: Any, total_expense: Any, finish: Any) -> Any:
    """Neau's formula: √((players × buy-in) × (buy-in / total expense)) / (finish + 1)."""
    return _cellwise(
        lambda a, b, c, d: poker.neau_points(a, b, None if _absent(c) else c, d),
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
        points, bonus = _table(points_table, "points_table"), _table(bonus_table, "bonus_table")
    except XlrallyError as error:
        return _error(error)

    @cache  # one structure per distinct setting, however many rows share it
    def structure_for(part: Any, factor: Any, to_rank: Any) -> poker.PointStructure:
        return poker.PointStructure(
            points=points,
            bonus=bonus,
            participating=real(_or(part, 0), "participating"),
            player_count_factor=real(_or(factor, 0), "count_factor"),
            player_count_to_rank=None
            if _absent(to_rank)
            else whole(to_rank, "count_to_rank", minimum=1),
        )

    def one(r: Any, part: Any, n: Any, factor: Any, to_rank: Any) -> float:
        structure = structure_for(part, factor, to_rank)
        if _absent(n):
            if structure.player_count_factor:
                raise XlrallyError("players is needed for player-count points")
            n = r
        return poker.absolute_points(r, n, structure)

    names = ("rank", "participating", "players", "count_factor", "count_to_rank")
    return _cellwise(one, names, rank, participating, players, count_factor, count_to_rank)


def reverse_points(
    rank: Any,
    players: Any,
    multiplier: Any = None,
    participating: Any = None,
    bonus_table: Any = None,
) -> Any:
    """Relative Reverse Order: (players − rank + 1) × multiplier + participating + bonus."""
    try:
        bonus = _table(bonus_table, "bonus_table")
    except XlrallyError as error:
        return _error(error)

    @cache  # one structure per distinct setting, however many rows share it
    def structure_for(times: Any, part: Any) -> poker.PointStructure:
        return poker.PointStructure(
            bonus=bonus,
            participating=real(_or(part, 0), "participating"),
            multiplier=real(_or(times, 1), "multiplier"),
        )

    def one(r: Any, n: Any, times: Any, part: Any) -> float:
        return poker.reverse_points(r, n, structure_for(times, part))

    names = ("rank", "players", "multiplier", "participating")
    return _cellwise(one, names, rank, players, multiplier, participating)


# ---------------------------------------------------------------- Dip Pouch


def dippouch_percentile(placement: Any, players: Any) -> Any:
    """Dip Pouch percentile: (players + 0.5 − placement) / players × 100."""
    return _cellwise(
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
    return _cellwise(
        lambda n, r, wc, y: dippouch.tournament_value(
            n, None if _absent(r) else r, _flag(wc), _year(y)
        ),
        ("players", "rounds", "world_championship", "year"),
        players,
        rounds,
        world_championship,
        year,
    )


def _per_event(cells: list[Any], count: int, name: str) -> list[Any]:
    if len(cells) == 1:
        return cells * count
    if len(cells) != count:
        raise XlrallyError(f"{name} must be one value or one per placement ({count})")
    return cells


def dippouch_rating(
    placements: Any,
    players: Any,
    rounds: Any = None,
    world_championship: Any = None,
    years: Any = None,
    start_rating: Any = None,
) -> Any:
    """Dip Pouch rating after these events, in the order given, from start_rating (40)."""
    arguments = {
        "placements": placements,
        "players": players,
        "rounds": rounds,
        "world_championship": world_championship,
        "years": years,
        "start_rating": start_rating,
    }
    cells = {name: _cells(argument)[1] for name, argument in arguments.items()}
    for name, column in cells.items():
        failed = _first_error(column)
        if failed:
            return f"{failed} in {name}"
    places = cells["placements"]
    count = len(places)
    try:
        sizes = _per_event(cells["players"], count, "players")
        round_counts = _per_event(cells["rounds"], count, "rounds")
        champs = _per_event(cells["world_championship"], count, "world_championship")
        when = _per_event(cells["years"], count, "years")
        rating = float(real(_or(start_rating, dippouch.START_RATING), "start_rating"))
    except (XlrallyError, ValueError, TypeError) as error:
        return _error(error)

    @lru_cache(maxsize=None, typed=True)  # a league's events share a few sizes and formats
    def value_of(size: Any, rounds: Any, champ: Any, year: Any) -> float:
        held = None if _absent(rounds) else rounds
        return dippouch.tournament_value(size, held, _flag(champ), _year(year, "years"))

    played = False
    for index, place in enumerate(places):
        if _absent(place):
            continue
        try:
            value = value_of(sizes[index], round_counts[index], champs[index], when[index])
            rating = dippouch.updated_rating(
                rating, value, dippouch.percentile(place, sizes[index])
            )
        except (XlrallyError, ValueError, TypeError) as error:
            named = _in_arguments(error, {"rank": "placements"})
            return _error(f"event {index + 1}: {named}")
        played = True
    return rating if played else ("" if _absent(start_rating) else rating)


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
        table = _table(prizes, "prizes")
        rule = _ties(ties)
    except XlrallyError as error:
        return _error(error)

    def one(first: Any, k: Any, step: Any, position: Any) -> float:
        start = whole(first, "place", minimum=1)
        count = 1 if _absent(k) else whole(k, "sharing", minimum=1)
        at = 1 if _absent(position) else whole(position, "order", minimum=1)
        return prize_split(table, start, count, float(real(_or(step, 0.01), "unit")), rule, at)

    return _cellwise(one, ("place", "sharing", "unit", "order"), place, sharing, unit, order)


def _ties(value: Any) -> str:
    """How tied players share (PRIZE_SHARE's ``ties``): one cell, ``equal`` when blank."""
    while isinstance(value, list | tuple) and len(value) == 1:
        value = value[0]
    if isinstance(value, list | tuple):
        raise XlrallyError("ties must be one cell: equal, hort or tie-break")
    if _absent(value):
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
        failed = _first_error([value])
        if failed is not None:
            return f"{failed} in {name}"
    try:
        text = "" if blank(formula) else str(formula)
        rule = FormulaRule(
            text,
            None if _absent(cut) else cut_of(cut),
            None if _absent(below_cut) else float(real(below_cut, "below_cut")),
        )
        the_plan = plan(rule)  # a bad formula is one message, not one per row
        structure = poker.PointStructure(shares=_table(shares, "shares"))
    except (XlrallyError, ValueError) as error:
        return _error(error)

    def one(n: Any, k: Any, b: Any, r: Any, kos: Any, money: Any) -> float:
        return plan_points(
            the_plan,
            n,
            k,
            None if _absent(b) else b,
            None if _absent(r) else r,
            None if _absent(kos) else kos,
            None if _absent(money) else money,
            structure,
        )

    names = ("players", "place", "buy_in", "rebuys", "knockouts", "pot")
    return _cellwise(
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
