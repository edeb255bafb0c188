"""Dates as pairing programs and spreadsheets write them in the files xlrally imports.

The TRF standard writes ``YYYY/MM/DD`` (TRF26, lines 042 and 052); real files also have ISO
dates, ``DD.MM.YYYY``, ``DD. MM. YYYY``, ``DD/MM/YYYY``, ``MM/DD/YYYY``, two-digit years and
English month names (Lichess writes ``Dec 6, 2025``). The rule, applied to every form:

* **Unambiguous forms** are read as written: a four-digit year first (``2025/12/06``,
  ``2025-12-06``, ``2025.12.06``); a month name, before or after the day (``Dec 6, 2025``,
  ``6 December 2025``, ``6-Dec-25``); dots (``06.12.2025``, ``28. 07. 2005``, ``10.09.13``),
  which are day, month, year wherever dates are written with dots.
* **Numbers with slashes or dashes and the year last or in two digits** may be day first
  (``06/12/2025``, most of the world), month first (``12/06/2025``, the United States) or, with
  two digits, year first (``25/12/06``, the standard's own form for round dates). A reading is
  kept only if it is a real date; when the dates of one file can still be read more than one
  way, the file's other dates decide (one convention per file; the event cannot end before it
  starts or last more than a year). A date left with two readings is *ambiguous*: never
  guessed, the caller asks for ``--date``.
* Two-digit years are 2000-2069 for 00-69 and 1970-1999 for 70-99 (as Python's ``%y``).
* A weekday before the date (``Sat 6 Dec 2025``) and an ordinal (``6th``) are allowed.

>>> [str(d) for d in read_dates(["06/12/2025", "13/12/2025"])]  # 13 > 12: day first
['2025-12-06', '2025-12-13']
>>> read_dates(["06/12/2025"])
Traceback (most recent call last):
...
xlrally.formats.written_dates.AmbiguousDate: '06/12/2025' is 6 December 2025 or 12 June 2025
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence

MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}
"""English month names and their abbreviations."""

ORDERS = ("dmy", "mdy", "ymd")
"""The ways a date of three numbers can be read."""

LONGEST_EVENT = dt.timedelta(days=366)

_WEEKDAY = re.compile(
    r"^(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\.?,?\s+", re.IGNORECASE
)
_YEAR_FIRST = re.compile(r"^(\d{4})\s*([-/.])\s*(\d{1,2})\s*\2\s*(\d{1,2})\.?$")
_DOTS = re.compile(r"^(\d{1,2})\s*\.\s*(\d{1,2})\s*\.\s*(\d{4}|\d{2})\.?$")
_NUMBERS = re.compile(r"^(\d{1,4})\s*([-/])\s*(\d{1,2})\s*\2\s*(\d{1,4})$")
_DAY_MONTH = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)?\.?[\s-]*([a-z]+)\.?,?[\s-]*(\d{4}|\d{2})$")
_MONTH_DAY = re.compile(r"^([a-z]+)\.?[\s-]*(\d{1,2})(?:st|nd|rd|th)?,?[\s-]+(\d{4}|\d{2})$")


class AmbiguousDate(ValueError):
    """A date that can be read more than one way (day and month swapped, or the year first)."""


def _year(text: str) -> int:
    number = int(text)
    if len(text) == 4:
        return number
    return 2000 + number if number < 70 else 1900 + number


def _make(year: int, month: int, day: int) -> dt.date | None:
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def readings(text: str) -> dict[str, dt.date] | dt.date | None:
    """How ``text`` can be read: one date (a form read as written), the date under each order
    that gives a real one (``{"dmy": ..., "mdy": ...}``), or None for no date at all."""
    text = _WEEKDAY.sub("", " ".join(text.split()).strip().lower())
    if not text.isascii():
        return None
    if match := _YEAR_FIRST.match(text):
        return _make(int(match[1]), int(match[3]), int(match[4]))
    if match := _DOTS.match(text):
        return _make(_year(match[3]), int(match[2]), int(match[1]))
    if match := _DAY_MONTH.match(text):
        named = MONTHS.get(match[2])
        return _make(_year(match[3]), named, int(match[1])) if named else None
    if match := _MONTH_DAY.match(text):
        named = MONTHS.get(match[1])
        return _make(_year(match[3]), named, int(match[2])) if named else None
    if match := _NUMBERS.match(text):
        first, second, third = match[1], match[3], match[4]
        found: dict[str, dt.date] = {}
        if len(first) <= 2 and len(third) in (2, 4):
            for order, day, month in (("dmy", first, second), ("mdy", second, first)):
                if (date := _make(_year(third), int(month), int(day))) is not None:
                    found[order] = date
        year_first = len(first) == 2 and len(third) <= 2
        if year_first and (date := _make(_year(first), int(second), int(third))) is not None:
            found["ymd"] = date
        return found or None
    return None


def _said(date: dt.date) -> str:
    return f"{date.day} {date.strftime('%B')} {date.year}"


def order_reads(reading: dict[str, dt.date] | dt.date | None, order: str) -> bool:
    """Whether a date of numbers has a reading in ``order``."""
    return isinstance(reading, dict) and order in reading


def _in_order(dates: list[dt.date | None]) -> bool:
    known = [d for d in dates if d is not None]
    return known == sorted(known) and (not known or known[-1] - known[0] <= LONGEST_EVENT)


def read_dates(texts: Sequence[str]) -> list[dt.date | None]:
    """The dates of one file, in the order the file gives them (start, end ...; blank or
    unreadable ones None), read by the rule above: one order for all of its dates of numbers,
    chosen among those that read every such date, keep the dates in order and within a year.
    Raises :class:`AmbiguousDate` naming the first date still read more than one way."""
    read = [readings(text) if text.strip() else None for text in texts]
    undecided = [i for i, r in enumerate(read) if isinstance(r, dict)]

    def under(order: str) -> list[dt.date | None]:
        return [r.get(order) if isinstance(r, dict) else r for r in read]

    readable = [o for o in ORDERS if all(order_reads(read[i], o) for i in undecided)]
    fitting = [o for o in readable if _in_order(under(o))] or readable
    choices = {tuple(under(o)) for o in fitting}
    if len(choices) == 1:
        return list(choices.pop())
    if not choices:  # no one order reads them all: each is read alone, where it can be
        for i in undecided:
            options = read[i]
            assert isinstance(options, dict)
            if len(set(options.values())) == 1:
                read[i] = next(iter(options.values()))
        undecided = [i for i, r in enumerate(read) if isinstance(r, dict)]
        if not undecided:
            return [r if isinstance(r, dt.date) else None for r in read]
        first = undecided[0]
    else:
        first = next(i for i in undecided if len({c[i] for c in choices}) > 1)
    options = read[first]
    assert isinstance(options, dict)
    ways = " or ".join(_said(d) for d in dict.fromkeys(options.values()))
    raise AmbiguousDate(f"{texts[first].strip()!r} is {ways}")
