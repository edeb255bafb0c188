"""A Standings grid as Excel takes it when written in one go: one rectangular block of values
(text marked as text) and, for each look, the ranges it applies to.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xlrally.formats.cells import Look, Row, column_letter

FORMULA_STARTS = ("=", "+", "-", "@")
"""Excel takes an assigned text starting with one of these as a formula."""


def excel_values(grid: Sequence[Row]) -> list[list[Any]]:
    """The grid as one rectangular block of values to assign to a range.

    Excel parses text written into a cell as if it were typed (xlwings issues #1635, #36):
    ``Dec 2025`` would become a date, ``007`` the number 7, ``TRUE`` a boolean, ``=1+1`` a
    formula. So every text gets a leading apostrophe, Excel's mark for "this is text" (it is
    not part of the value). Missing cells are None.
    """
    width = max((len(row) for row in grid), default=0)
    block = []
    for row in grid:
        values: list[Any] = [
            "'" + cell.value if isinstance(cell.value, str) else cell.value for cell in row
        ]
        block.append(values + [None] * (width - len(values)))
    return block


def looks_by_range(grid: Sequence[Row]) -> dict[Look, list[str]]:
    """For each look but the plain one, the A1 addresses it applies to, runs merged per column."""
    addresses: dict[Look, list[str]] = {}
    for col in range(max((len(r) for r in grid), default=0)):
        letter = column_letter(col)
        run_start = run_look = None
        for number in range(1, len(grid) + 2):
            row = grid[number - 1] if number <= len(grid) else ()
            look = row[col].look if col < len(row) and row[col].value is not None else None
            if look != run_look:
                if run_look is not None and run_look != Look() and run_start is not None:
                    end = number - 1
                    cell = f"{letter}{run_start}" + (f":{letter}{end}" if end > run_start else "")
                    addresses.setdefault(run_look, []).append(cell)
                run_start, run_look = number, look
    return addresses
