"""Dates as files to import write them (xlrally.formats.written_dates): every form real TRF
files and tables use, and the ones that can be read two ways, which are never guessed.

Sources: TRF26 (lines 042 and 052, "format: YYYY/MM/DD"; line 132 round dates "YY/MM/DD"); the
forms measured in real start dates (the issue: `May 29, 2020`, `Dec 6, 2025`, `6 Dec 2025`,
`28. 07. 2005`, `10.09.13`); Lichess's exporter writes Java's medium date (`Dec 6, 2025`)."""

from __future__ import annotations

import datetime as dt

import pytest

from xlrally.formats.written_dates import AmbiguousDate, read_dates, readings

D = dt.date


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("2025/12/06", D(2025, 12, 6)),  # the standard's form
        ("2025-12-06", D(2025, 12, 6)),  # ISO 8601
        ("2025.12.06", D(2025, 12, 6)),
        ("2013.09.10.", D(2013, 9, 10)),  # year first with a closing dot
        ("06.12.2025", D(2025, 12, 6)),  # dots: day, month, year
        ("6.12.2025", D(2025, 12, 6)),
        ("28. 07. 2005", D(2005, 7, 28)),
        ("10.09.13", D(2013, 9, 10)),  # two-digit year, dots: day first
        ("May 29, 2020", D(2020, 5, 29)),  # month name first (Lichess, US programs)
        ("Dec 6, 2025", D(2025, 12, 6)),
        ("December 6 2025", D(2025, 12, 6)),
        ("Sept 6, 2025", D(2025, 9, 6)),
        ("6 Dec 2025", D(2025, 12, 6)),  # month name after the day
        ("6th December 2025", D(2025, 12, 6)),
        ("6-Dec-25", D(2025, 12, 6)),
        ("06 DEC 2025", D(2025, 12, 6)),
        ("Sat 6 Dec 2025", D(2025, 12, 6)),  # a weekday first
        ("Saturday, December 6, 2025", D(2025, 12, 6)),
        ("24/09/2010", D(2010, 9, 24)),  # 24 cannot be a month: day first
        ("12/31/2025", D(2025, 12, 31)),  # 31 cannot be a month: month first
        ("06/06/2025", D(2025, 6, 6)),  # both ways the same day
    ],
)
def test_each_form_reads_as_the_date_it_writes(text: str, date: dt.date) -> None:
    """One date, whatever the form; day and month decided where only one reading is a date."""
    assert read_dates([text]) == [date]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("06/12/2025", "'06/12/2025' is 6 December 2025 or 12 June 2025"),
        ("06-12-2025", "'06-12-2025' is 6 December 2025 or 12 June 2025"),
        # two digits each: year first (the standard's round dates) or year last
        ("24/12/01", "'24/12/01' is 24 December 2001 or 1 December 2024"),
    ],
)
def test_a_date_with_two_readings_is_never_guessed(text: str, message: str) -> None:
    """Day and month swapped (or the year first) both give a date: refused, naming both."""
    with pytest.raises(AmbiguousDate, match=message):
        read_dates([text])


def test_the_files_other_dates_decide_its_order() -> None:
    """One convention per file: 13/12 can only be day first, so 06/12 is 6 December; a
    month-first file likewise; two-digit dates the same (start before end, within a year)."""
    assert read_dates(["06/12/2025", "13/12/2025"]) == [D(2025, 12, 6), D(2025, 12, 13)]
    assert read_dates(["12/06/2025", "12/13/2025"]) == [D(2025, 12, 6), D(2025, 12, 13)]
    assert read_dates(["24/12/01", "24/12/14"]) == [D(2024, 12, 1), D(2024, 12, 14)]


def test_an_order_that_puts_the_end_before_the_start_or_a_year_after_is_not_the_files() -> None:
    """06/12/2025 to 07/01/2026: day first, 6 December to 7 January (a month); month first,
    12 June 2025 to 1 July 2026 (more than a year): day first. 10/01/2026 to 09/02/2026: day
    first, 10 January to 9 February; month first, 1 October to 2 September (backwards)."""
    assert read_dates(["06/12/2025", "07/01/2026"]) == [D(2025, 12, 6), D(2026, 1, 7)]
    assert read_dates(["10/01/2026", "09/02/2026"]) == [D(2026, 1, 10), D(2026, 2, 9)]


@pytest.mark.parametrize(
    "text", ["Dezember 6 2025", "2025/13/01", "31.02.2025", "soon", "٢٠٢٥/١٢/٠٦"]
)
def test_what_is_no_date_reads_as_none(text: str) -> None:
    """Other languages' month names, impossible dates, words and non-ASCII digits are no date
    (the caller says so and asks for --date)."""
    assert readings(text) is None
    assert read_dates([text]) == [None]


def test_two_digit_years_are_read_as_pythons_percent_y() -> None:
    """00-69 are 2000-2069, 70-99 are 1970-1999."""
    assert read_dates(["01.02.69"]) == [D(2069, 2, 1)]
    assert read_dates(["01.02.70"]) == [D(1970, 2, 1)]
