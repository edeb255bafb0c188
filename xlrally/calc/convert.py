"""Values between Calc's add-in calls and the Excel functions' conventions.

Calc hands an add-in ``any`` argument over as a number (always a float), a text, a range as
rows of cells (a tuple of tuples), or void (None) when it is left out; an empty cell in a range
arrives as an empty text (LibreOffice's ``ScUnoAddInCall`` fills a mixed array so). The Excel
functions take blanks as None, as xlwings hands them over, and give back numbers, texts and
rows of them; Calc takes a float, a text or rows of them.

>>> from_calc(((3.0, ""), ("x", 1.0)))
[[3.0, None], ['x', 1.0]]
>>> to_calc([[79, ""], [54.5, "#VALUE! byes (4) must be less than rounds (4)"]])
((79.0, ''), (54.5, '#VALUE! byes (4) must be less than rounds (4)'))
"""

from __future__ import annotations

from typing import Any


def _cell_in(value: Any) -> Any:
    return None if value == "" else value


def from_calc(value: Any) -> Any:
    """An argument as the Excel functions take it: a range as a list of rows, blanks None."""
    if isinstance(value, tuple):
        return [
            [_cell_in(v) for v in row] if isinstance(row, tuple) else _cell_in(row) for row in value
        ]
    return _cell_in(value)


def _cell_out(value: Any) -> float | str:
    if value is None:
        return ""
    if isinstance(value, bool | int):
        return float(value)
    if isinstance(value, float | str):
        return value
    return str(value)


def to_calc(result: Any) -> Any:
    """A result as Calc takes it: a float or a text, or rows of them (tuples)."""
    if isinstance(result, list | tuple):
        rows = [row if isinstance(row, list | tuple) else [row] for row in result]
        return tuple(tuple(_cell_out(v) for v in row) for row in rows)
    return _cell_out(result)
