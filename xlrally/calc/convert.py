"""Values between Calc's add-in calls and the Excel functions' conventions.

Calc hands an add-in ``any`` argument over as a number (always a float), a text, a range as
rows of cells (a tuple of tuples), or void (None) when it is left out; an empty cell in a range
arrives as an empty text (LibreOffice's ``ScUnoAddInCall`` fills a mixed array so). The Excel
functions take blanks as None, as xlwings hands them over, and give back numbers, texts and
rows of them; Calc takes a float, a text or rows of them.

A range is converted whole where it can be (one without an empty cell is handed on as Calc gave
it; results of numbers and texts alone are given back in one step): ranges of 10,000 rows are
the common case, and one Python call per cell would cost more than the functions themselves.

>>> from_calc(((3.0, ""), ("x", 1.0)))
[[3.0, None], ['x', 1.0]]
>>> from_calc(((3.0,), (4.0,)))
((3.0,), (4.0,))
>>> to_calc([[79, ""], [54.5, "#VALUE! byes (4) must be less than rounds (4)"]])
((79.0, ''), (54.5, '#VALUE! byes (4) must be less than rounds (4)'))
>>> to_calc([[79], [54]]), to_calc(None), to_calc(True)
(((79.0,), (54.0,)), '', 1.0)
"""

from __future__ import annotations

from itertools import chain
from typing import Any

_NUMBERS = frozenset({int, float})
_CALC_READY = frozenset({float, str})


def from_calc(value: Any) -> Any:
    """An argument as the Excel functions take it: a range as rows (tuples as Calc gave them
    when no cell is empty, lists otherwise), blanks None."""
    if type(value) is not tuple:
        return None if value == "" else value
    if value and type(value[0]) is not tuple:  # one row
        value = (value,)
    if "" not in chain.from_iterable(value):
        return value
    return [[None if v == "" else v for v in row] if "" in row else list(row) for row in value]


def _cell_out(value: Any) -> float | str:
    if value is None:
        return ""
    if isinstance(value, bool | int):
        return float(value)
    if isinstance(value, float | str):
        return value
    return str(value)


def _row_out(row: Any) -> tuple[float | str, ...]:
    if not isinstance(row, list | tuple):
        return (_cell_out(row),)
    return tuple(map(_cell_out, row))


def to_calc(result: Any) -> Any:
    """A result as Calc takes it: a float or a text, or rows of them (tuples). Rows of one
    length holding only numbers, or only floats and texts, are converted in one step."""
    if not isinstance(result, list | tuple):
        return _cell_out(result)
    if result and all(type(row) is list for row in result):
        width = len(result[0])
        if width and set(map(len, result)) == {width}:
            cells = list(chain.from_iterable(result))
            kinds = set(map(type, cells))
            if kinds <= _NUMBERS and not kinds <= _CALC_READY:
                cells = list(map(float, cells))
            if kinds <= _NUMBERS or kinds <= _CALC_READY:
                return tuple(zip(*[iter(cells)] * width, strict=True))
    return tuple(map(_row_out, result))
