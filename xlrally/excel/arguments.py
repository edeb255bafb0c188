"""Excel's arguments as the Excel functions take them (:mod:`~xlrally.excel.functions`), and
:func:`cellwise`, what each function is made with: a function of single values applied over
same-shaped ranges cell by cell.

Excel's conventions are taken as they come: xlwings hands integers over as floats, blanks as
None (desktop Excel under xlwings Lite: as 0), currency cells as decimal.Decimal, error cells as
their text (``err_to_str``); numbers stored as text count as numbers; dates arrive as datetimes
or serial numbers. A blank row gives a blank result; a bad row gives a short error text in its
own cell, e.g. ``#VALUE! byes (4) must be less than rounds (4)``, and the other rows still
compute. See docs/excel.md.

>>> cellwise(lambda a, b: a + b, ("a", "b"), [[1.0], [2.0], [None]], 10.0)
[[11.0], [12.0], ['']]
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from itertools import chain, count, repeat
from operator import itemgetter
from typing import Any

from xlrally.core.errors import XlrallyError
from xlrally.formats.cells import ERROR_TEXTS, blank, to_bool, to_date, to_number

__all__ = [
    "FLOAT_OR_BLANK",
    "LITE",
    "Grid",
    "absent",
    "argument_cell",
    "as_grid",
    "cellwise",
    "first_error",
    "in_arguments",
    "number_table",
    "or_default",
    "shape_and_cells",
    "value_error",
    "year_of",
    "yes_no",
]

Grid = list[list[Any]]


LITE = sys.platform == "emscripten"
"""Running in xlwings Lite (Pyodide). Only there can a blank cell arrive as 0 (desktop
Office.js does that; the web client and classic Excel hand blanks over as None)."""


def argument_cell(value: Any) -> Any:
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


def as_grid(value: Any) -> Grid:
    """Any argument as a 2-D list of cells (see :func:`argument_cell`): a value is 1×1, a 1-D
    list is one row."""
    (rows, columns), flat = shape_and_cells(value)
    return [flat[r * columns : (r + 1) * columns] for r in range(rows)]


def shape_and_cells(value: Any) -> tuple[tuple[int, int], list[Any]]:
    """An argument's shape (rows, columns) and its cells row by row (see :func:`argument_cell`): a
    value is 1×1, a 1-D list one row."""
    shape, flat, _ = _typed_cells(value)
    return shape, flat


def _typed_cells(value: Any) -> tuple[tuple[int, int], list[Any], frozenset[type]]:
    """:func:`shape_and_cells`, and the types of the cells. The cells are looked at one by one only
    when some are neither floats nor blank."""
    if not isinstance(value, list | tuple):
        cell = argument_cell(value)
        return (1, 1), [cell], frozenset({type(cell)})
    rows = value if value and isinstance(value[0], list | tuple) else [value]
    flat = list(chain.from_iterable(rows))
    kinds = frozenset(map(type, flat))
    if not kinds <= FLOAT_OR_BLANK:
        flat = [argument_cell(v) for v in flat]
        kinds = frozenset(map(type, flat))
    return (len(rows), len(rows[0]) if rows else 0), flat, kinds


FLOAT_OR_BLANK = frozenset({float, type(None)})


def absent(value: Any) -> bool:
    """An optional argument left out: blank, or 0 where blanks arrive as 0 (:data:`LITE`)."""
    if value is None:
        return True
    if type(value) is str:
        return not value.strip()
    return LITE and value == 0 and not isinstance(value, bool)


def first_error(cells: Iterable[Any]) -> str | None:
    """The first Excel error value among ``cells``, if any."""
    return next(filter(ERROR_TEXTS.__contains__, cells), None)


def value_error(error: object) -> str:
    return f"#VALUE! {error}"


def in_arguments(error: BaseException, renamed: Mapping[str, str]) -> str:
    """A failure in the words of the function's own arguments: the core names its fields as
    the workbook's columns do (``rank``, ``buy-in``), a function's argument may be called
    otherwise (``finish``, ``buy_in``), and the message must name what the user typed.
    ``renamed`` maps the words a message may start with to the argument.

    >>> in_arguments(ValueError("rank must be at least 1, not 0"), {"rank": "finish"})
    'finish must be at least 1, not 0'
    """
    text = str(error)
    for words in sorted(renamed, key=len, reverse=True):  # "total expense" before "total"
        if text.startswith(f"{words} "):
            return renamed[words] + text[len(words) :]
    return text


_SAME: Mapping[str, str] = {}
"""No field renamed (:func:`in_arguments`)."""

_NUMBERS_OR_BLANK = frozenset({float, int, type(None)})
"""Cell types a function is called with straight away (see :func:`cellwise`)."""

_FAILURES = (XlrallyError, ValueError, TypeError)
"""What a function raises for a bad row: shown in that row's cell, never raised to Excel."""


def cellwise(
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
    maps a field the core names in a message to the argument it is (:func:`in_arguments`).

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
    if lean and all(k <= FLOAT_OR_BLANK for k in kinds):
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


def first_equal_rows(
    rows: Iterable[tuple[Any, ...]],
) -> tuple[dict[tuple[Any, ...], int], list[int]]:
    """Each distinct row with the index where it first comes, and for every row the index of
    its first equal row, in one pass (``dict.setdefault`` with a counter): the answers of the
    distinct rows are then handed out by that index.

    >>> first_equal_rows([(3.0,), (2.0,), (3.0,)])
    ({(3.0,): 0, (2.0,): 1}, [0, 1, 0])
    """
    firsts: dict[tuple[Any, ...], int] = {}
    return firsts, list(map(firsts.setdefault, rows, count()))


def _each_distinct_row(
    function: Callable[..., Any],
    names: tuple[str, ...],
    deciding: list[int],
    columns: list[Iterable[Any]],
    renamed: Mapping[str, str],
) -> list[Any]:
    """Each row's answer, worked out once for each distinct row (:func:`cellwise`'s path for
    floats): one pass finds each row's first equal row (its index), whose answer every row
    equal to it gets."""
    firsts, first_of = first_equal_rows(zip(*columns, strict=True))
    answers: dict[int, Any] = {}
    for values, first in firsts.items():
        try:
            answers[first] = function(*values)
        except _FAILURES:
            answers[first] = _one_cell(function, names, deciding, values, renamed)
    if len(first_of) > 1:
        return list(itemgetter(*first_of)(answers))
    return [answers[first] for first in first_of]


def _one_cell(
    function: Callable[..., Any],
    names: tuple[str, ...],
    deciding: list[int],
    values: tuple[Any, ...],
    renamed: Mapping[str, str],
) -> Any:
    """One cell of :func:`cellwise` with every check: blank row, error cells, failures."""
    if all(blank(values[i]) for i in deciding):
        return ""
    failed = first_error(values)
    if failed is not None:
        return f"{failed} in {names[values.index(failed)]}"
    try:
        return function(*values)
    except _FAILURES as error:
        zeros = all(blank(values[i]) or values[i] == 0 for i in deciding)
        return "" if LITE and zeros else value_error(in_arguments(error, renamed))


def or_default(value: Any, default: Any) -> Any:
    return default if absent(value) else value


def number_table(value: Any, name: str) -> tuple[float, ...]:
    """A points, bonus or prize table from a range (the argument ``name``): values in order,
    blanks 0, trailing blanks dropped."""
    if blank(value):
        return ()
    cells = [v for row in as_grid(value) for v in row]
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


def year_of(value: Any, name: str = "year") -> int | None:
    """A year from a year number, a date(time), an Excel serial date or ISO text."""
    if absent(value):
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


def yes_no(value: Any) -> bool:
    """TRUE/FALSE, 1/0, yes/no, x; blank is no: the workbook reader's one rule
    (:func:`~xlrally.formats.cells.to_bool`)."""
    return to_bool(value, "world_championship")
