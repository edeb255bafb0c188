"""The Excel functions of a whole range rather than of each cell on its own: BEST_X_TOTAL (the
best x of each row of scores) and DIPPOUCH_RATING (the rating after a history of events, in
order). :mod:`~xlrally.excel.functions` has them with the others.

>>> best_x_total([[54.0, 79.0, None, 34.0]], 2.0), round(dippouch_rating(1.0, 7.0), 2)
(133.0, 42.11)
"""

from __future__ import annotations

import math
from functools import lru_cache, partial
from itertools import chain
from operator import is_not
from typing import Any

from xlrally.core.errors import XlrallyError
from xlrally.core.numbers import real
from xlrally.core.ranking import best_total
from xlrally.core.systems import dippouch
from xlrally.excel.arguments import (
    FLOAT_OR_BLANK,
    Grid,
    absent,
    as_grid,
    first_error,
    in_arguments,
    or_default,
    shape_and_cells,
    value_error,
    year_of,
    yes_no,
)

__all__ = ["best_x_total", "dippouch_rating"]


# ---------------------------------------------------------------- best x of each row


def best_x_total(scores: Any, x: Any = None) -> Any:
    """Per row of scores: the sum of its x largest numbers."""
    rows = _float_rows(scores)
    height = len(rows) if rows is not None else 0
    if rows is None:
        (height, width), cells = shape_and_cells(scores)
    counts = as_grid(x)
    if len(counts) not in (1, height) or any(len(r) != 1 for r in counts):
        return "#VALUE! x must be one number or one per row of scores"
    if rows is not None:
        out = _best_x_floats(rows, [c[0] for c in counts])
    else:
        out = [_best_x_row(cells[r * width : (r + 1) * width], counts, r) for r in range(height)]
    return out[0][0] if len(out) == 1 else out


def _float_rows(scores: Any) -> list[Any] | None:
    """The rows of ``scores`` when it is rows of one width (at least 1) of floats and blanks
    only (as Excel hands them over), else None: :func:`shape_and_cells`' rows, not copied."""
    if not isinstance(scores, list | tuple) or not scores:
        return None
    rows = scores if isinstance(scores[0], list | tuple) else [scores]
    if not set(map(type, rows)) <= _ROW_TYPES or set(map(len, rows)) != {len(rows[0])}:
        return None
    if not rows[0] or not set(map(type, chain.from_iterable(rows))) <= FLOAT_OR_BLANK:
        return None
    return list(rows)


_ROW_TYPES = frozenset({list, tuple})


def _best_x_row(row: list[Any], counts: Grid, index: int) -> list[Any]:
    """One row of :func:`best_x_total` with every check (any cells)."""
    numbers = [float(v) for v in row if isinstance(v, int | float) and not isinstance(v, bool)]
    count = counts[0][0] if len(counts) == 1 else counts[index][0]
    failed = first_error([*row, count])
    if failed:
        return [f"{failed} in {'scores' if failed in row else 'x'}"]
    if not numbers:
        return [""]
    try:
        n = None if absent(count) else _whole_count(count)
        return [best_total(numbers, n)]
    except XlrallyError as error:
        return [value_error(error)]


def _best_x_floats(rows: list[Any], counts: list[Any]) -> Grid:
    """:func:`best_x_total` when every score is a float or blank (as Excel hands them over):
    no error can be among the scores, so each distinct x is checked once (the same results
    as :func:`_best_x_row`), and a row's numbers are its cells that are not blank."""
    checked: dict[Any, tuple[str | None, int | None, str | None]] = {}

    def check(x: Any) -> tuple[str | None, int | None, str | None]:
        key = (type(x), x)
        if key not in checked:
            failed = first_error([x])
            error = n = None
            if failed is None:
                try:
                    n = None if absent(x) else _whole_count(x)
                except XlrallyError as problem:
                    error = value_error(problem)
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


# ---------------------------------------------------------------- a Dip Pouch history


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
    cells = {name: shape_and_cells(argument)[1] for name, argument in arguments.items()}
    for name, column in cells.items():
        failed = first_error(column)
        if failed:
            return f"{failed} in {name}"
    places = cells["placements"]
    count = len(places)
    try:
        sizes = _per_event(cells["players"], count, "players")
        round_counts = _per_event(cells["rounds"], count, "rounds")
        champs = _per_event(cells["world_championship"], count, "world_championship")
        when = _per_event(cells["years"], count, "years")
        rating = float(real(or_default(start_rating, dippouch.START_RATING), "start_rating"))
    except (XlrallyError, ValueError, TypeError) as error:
        return value_error(error)

    @lru_cache(maxsize=None, typed=True)  # a league's events share a few sizes and formats
    def value_of(size: Any, rounds: Any, champ: Any, year: Any) -> float:
        held = None if absent(rounds) else rounds
        return dippouch.tournament_value(size, held, yes_no(champ), year_of(year, "years"))

    played = False
    for index, place in enumerate(places):
        if absent(place):
            continue
        try:
            value = value_of(sizes[index], round_counts[index], champs[index], when[index])
            rating = dippouch.updated_rating(
                rating, value, dippouch.percentile(place, sizes[index])
            )
        except (XlrallyError, ValueError, TypeError) as error:
            named = in_arguments(error, {"rank": "placements"})
            return value_error(f"event {index + 1}: {named}")
        played = True
    return rating if played else ("" if absent(start_rating) else rating)
