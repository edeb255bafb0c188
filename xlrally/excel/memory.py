"""The in-memory backend of the refresh: a workbook of plain lists that takes assigned values
as Excel does (the tests run the refresh through it, and the file backend is checked against
it), with its model of how Excel parses text written into a cell.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from xlrally.excel.blocks import FORMULA_STARTS, excel_values, looks_by_range
from xlrally.formats.cells import Look, Row, Value, column_letter, norm
from xlrally.formats.grid import SHEET_NAME
from xlrally.formats.workbook import MemorySheets
from xlrally.formats.written_dates import MONTHS


@dataclass
class MemoryBook(MemorySheets):
    """An in-memory workbook that takes assigned values as Excel does, for tests.

    Assigned text is parsed as if typed (:func:`as_typed`) unless it starts with an apostrophe;
    ``formulas`` records cells Excel would have taken as formulas; ``looks`` the formats set.
    """

    formulas: dict[tuple[str, str], str] = field(default_factory=dict)
    looks: dict[tuple[str, str], Look] = field(default_factory=dict)

    def assign(self, sheet: str, block: list[list[Any]]) -> None:
        """Assign a block of values at A1, as ``range.value = block`` does in Excel."""
        rows: list[list[Value]] = []
        for r, values in enumerate(block, start=1):
            row: list[Value] = []
            for c, assigned in enumerate(values):
                value = assigned
                if isinstance(value, str) and value.startswith("'"):
                    value = value[1:]
                elif isinstance(value, str):
                    value = as_typed(value)
                    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
                        self.formulas[(sheet, f"{column_letter(c)}{r}")] = value
                        value = None  # a formula's value is not known here
                row.append(value)
            rows.append(row)
        self.sheets[sheet] = rows

    def write_standings(self, grid: Sequence[Row]) -> None:
        name = next((n for n in self.sheets if norm(n) == norm(SHEET_NAME)), SHEET_NAME)
        self.formulas = {k: v for k, v in self.formulas.items() if k[0] != name}
        self.assign(name, excel_values(grid))
        self.looks = {k: v for k, v in self.looks.items() if k[0] != name}
        for look, cells in looks_by_range(grid).items():
            for cell in cells:
                self.looks[(name, cell)] = look


_NUMBER = re.compile(r"[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][+-]?\d+)?%?")

_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")

_US_DATE = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")

_WORD_DATE = re.compile(r"(?:(\d{1,2})[ -])?([A-Za-z]{3,9})\.?[ -](?:(\d{1,2}),? )?(\d{4})")


def as_typed(text: str) -> Value:
    """What Excel (English, United States) makes of ``text`` typed into a General cell: the
    test double's model of Excel's entry parsing, which also applies to values written through
    COM (xlwings issues #1635, #36).

    From Microsoft's support pages "Stop automatically changing numbers to dates" (``Dec
    2025`` and ``12/6/2025`` become dates), "Keeping leading zeros and large numbers" (``007``
    becomes 7) and "Format numbers as text" (a leading apostrophe keeps text as typed):
    numbers with thousands separators, exponents or a percent sign; TRUE and FALSE in any
    case; dates as ISO, month/day/year, or with a month name and a year (day 1 when no day is
    given). Anything else stays text.

    >>> as_typed("007"), as_typed("12%"), as_typed("true"), as_typed("Dec 2025")
    (7, 0.12, True, datetime.datetime(2025, 12, 1, 0, 0))
    >>> as_typed("Jul 2026 results")
    'Jul 2026 results'
    """
    stripped = text.strip()
    if stripped.upper() in {"TRUE", "FALSE"}:
        return stripped.upper() == "TRUE"
    if stripped and any(ch.isdigit() for ch in stripped) and _NUMBER.fullmatch(stripped):
        number = float(stripped.rstrip("%").replace(",", "")) / (
            100 if stripped.endswith("%") else 1
        )
        return int(number) if number.is_integer() and "%" not in stripped else number
    date = _typed_date(stripped)
    return date if date is not None else text


def _typed_date(text: str) -> dt.datetime | None:
    year = month = day = None
    if match := _ISO_DATE.fullmatch(text):
        year, month, day = (int(g) for g in match.groups())
    elif match := _US_DATE.fullmatch(text):
        month, day, year = (int(g) for g in match.groups())
    elif (match := _WORD_DATE.fullmatch(text)) and match.group(2).lower() in MONTHS:
        month = MONTHS[match.group(2).lower()]
        day = int(match.group(1) or match.group(3) or 1)
        year = int(match.group(4))
    if year is None or month is None or day is None:
        return None
    try:
        return dt.datetime(year, month, day)
    except ValueError:
        return None
