"""How single cells are read and shown, case by case against Excel's own rules.

Sources: Excel's date system (serial 1 is 1900-01-01, serial 60 the 29 February 1900 that
Excel counts but never was, 61 is 1900-03-01, 2958465 is 9999-12-31, the last day Excel
knows); a sheet name in a reference is quoted when it is not a plain name, with a quote inside
doubled (``'Ann''s'!A1``); an Excel cell holds 32,767 characters. Found by mutation testing
(issue 18): the boundaries below could move unnoticed.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlrally.formats.cells import (
    DATE_1904,
    Cell,
    Look,
    column_widths,
    quote_sheet,
    short,
    show_date,
    shown_length,
    text_of,
    to_bool,
    to_date,
    to_number,
)


@pytest.mark.parametrize(
    ("name", "quoted"),
    [
        ("Results", "Results"),
        ("W_1.final", "W_1.final"),
        ("Jan 2026", "'Jan 2026'"),
        ("Ann's", "'Ann''s'"),
        ("2026", "'2026'"),
    ],
)
def test_a_sheet_name_is_quoted_as_excel_quotes_it(name: str, quoted: str) -> None:
    assert quote_sheet(name) == quoted


@pytest.mark.parametrize(
    ("serial", "day"),
    [
        (1, dt.date(1900, 1, 1)),
        (59, dt.date(1900, 2, 28)),
        (61, dt.date(1900, 3, 1)),
        (45292, dt.date(2024, 1, 1)),
        (45292.75, dt.date(2024, 1, 1)),  # a time of day is left out
        (2958465, dt.date(9999, 12, 31)),
        ("2025-12-06", dt.date(2025, 12, 6)),
        (" 2025-12-06T10:00:00 ", dt.date(2025, 12, 6)),
        (dt.datetime(2025, 12, 6, 10, 0), dt.date(2025, 12, 6)),
    ],
)
def test_dates_as_excel_counts_them(serial: object, day: dt.date) -> None:
    assert to_date(serial) == day


def test_the_1904_date_system_has_no_missing_day() -> None:
    """Mac workbooks of old count from 1904-01-01, and 1904 had its 29 February: serial 60
    is 60 days on, 1 March."""
    assert to_date(60, epoch=DATE_1904) == dt.date(1904, 3, 1)
    assert to_date(1, epoch=DATE_1904) == dt.date(1904, 1, 2)


@pytest.mark.parametrize("value", [0, 60, 2958466, -3, True, "6 Dec", "2025-13-01"])
def test_what_is_not_a_date(value: object) -> None:
    with pytest.raises(ValueError, match="date"):
        to_date(value)


@pytest.mark.parametrize(
    ("value", "meaning"),
    [("yes", True), ("X", True), (1.0, True), (True, True), ("no", False), (None, False)],
)
def test_yes_and_no(value: object, meaning: bool) -> None:
    assert to_bool(value, "pending") is meaning


@pytest.mark.parametrize("value", [0.0, 0])
def test_a_zero_is_no(value: object) -> None:
    assert to_bool(value, "pending") is False


@pytest.mark.parametrize("value", [2.0, "maybe"])
def test_neither_yes_nor_no(value: object) -> None:
    with pytest.raises(ValueError, match="pending must be yes or no"):
        to_bool(value, "pending")


def test_a_long_text_is_cut_to_its_limit_with_an_ellipsis() -> None:
    assert short("x" * 40) == "x" * 40
    assert short("x" * 41) == "x" * 39 + "…"
    assert len(short("y" * 100, 10)) == 10


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (3.0, "3"),
        (3.5, "3.5"),
        (7, "7"),
        (" Ann ", "Ann"),
        (None, ""),
        (dt.date(2026, 1, 8), "2026-01-08"),
        (dt.datetime(2026, 1, 8, 10, 30), "2026-01-08"),
    ],
)
def test_a_cell_as_text(value: object, text: str) -> None:
    assert text_of(value) == text


@pytest.mark.parametrize(
    ("cell", "length"),
    [
        (Cell(26.5, Look(number_format="0.00")), 5),  # 26.50
        (Cell(-3, Look(number_format="0.00;-0.00")), 5),  # the first section decides: -3.00
        (Cell(21, Look(number_format="(0)")), 4),  # (21)
        (Cell(2, Look(number_format='0"="')), 2),  # 2=, a shared rank
        (Cell(True, Look(number_format="0")), 4),  # TRUE is shown as text
        (Cell("Bobby", Look(number_format="0.00")), 5),
        (Cell(1234.5678), 9),  # General: as it is
    ],
)
def test_a_number_is_as_wide_as_its_format_shows_it(cell: Cell, length: int) -> None:
    assert shown_length(cell) == length


def test_column_widths_follow_the_widest_shown_value_of_the_first_500_rows() -> None:
    """Width = longest value + 2, at least 8 (for 6 characters) and at most 60; note lines
    (rows narrower than the table) and rows after the 500th do not count."""
    grid = [
        (Cell("Rank"), Cell("Player"), Cell(None)),
        *[(Cell(1), Cell("A" * 20), Cell(None)) for _ in range(499)],
        (Cell(1), Cell("B" * 70), Cell("x" * 30)),  # row 501: not looked at
        (Cell("a note far wider than any column of the table, and not a column at all"),),
    ]
    assert column_widths(grid) == [8.0, 22.0, 8.0]
    assert column_widths([(Cell("x" * 100),)]) == [60.0]
    assert column_widths([]) == []


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (True, "points must be a number, not True"),
        (float("inf"), "points must be a number, not inf"),
        ("inf", "points must be a number, not 'inf'"),
        (Decimal("NaN"), "points must be a number, not 'NaN'"),
        ("1,5", "points must be a number, not the text '1,5'"),
        (dt.date(2025, 1, 1), "points must be a number, not '2025-01-01'"),
    ],
)
def test_what_is_not_a_number_is_named_with_its_value(value: Any, message: str) -> None:
    """TRUE is not 1; infinity and NaN are not numbers a league can use; a decimal comma is
    not taken for thousands; a date in a number column is named as the date it is."""
    with pytest.raises(ValueError, match=r"^points must be a number") as caught:
        to_number(value, "points")
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("value", "number"),
    [("1.5", 1.5), (" 2 ", 2), ("1,250.5", 1250.5), (Decimal("20.00"), 20), (3.0, 3)],
)
def test_numbers_keep_their_fraction_and_whole_ones_are_whole(value: Any, number: float) -> None:
    result = to_number(value, "points")
    assert result == number
    assert type(result) is type(number)


@pytest.mark.parametrize(
    ("pattern", "shown"),
    [
        ("yyyy-mm-dd", "2026-03-07"),
        ("dd.mm.yyyy", "07.03.2026"),
        ("dd/mm/yyyy", "07/03/2026"),
        ("d mmm yyyy", "7 Mar 2026"),
    ],
)
def test_a_date_and_time_is_shown_as_its_date(pattern: str, shown: str) -> None:
    """A date cell read back may carry a time (00:00, or a time typed with it): left out."""
    assert show_date(dt.datetime(2026, 3, 7, 18, 30), pattern) == shown
    assert show_date(dt.date(2026, 3, 7), pattern) == shown
    assert show_date(dt.date(2026, 3, 7)) == "2026-03-07"


@pytest.mark.parametrize(
    "spelling", ["yes", "Yes.", "x", "WC", "1", 1.0, True, "no", " ", None, 0.0, "N", 2.0, "maybe"]
)
def test_yes_or_no_is_one_rule_for_the_reader_and_the_excel_functions(spelling: object) -> None:
    """Issue 31: the Excel functions had a yes/no rule of their own (2 was yes there and an
    error in the workbook, ``Yes.`` the other way round); both read it as to_bool does."""
    from xlrally.excel import functions

    expected: object
    try:
        expected = pytest.approx(20.0 if to_bool(spelling, "wc") else 31 / 3.5 + 2)
    except ValueError:
        expected = f"#VALUE! world_championship must be yes or no, not {str(spelling)!r}"
    assert functions.dippouch_value(31.0, 5.0, spelling, 2002.0) == expected


@pytest.mark.parametrize(
    ("serial", "day"),
    [
        (45292, dt.date(2024, 1, 1)),  # Excel shows 45292 as 1 January 2024
        (1, dt.date(1900, 1, 1)),
        (59, dt.date(1900, 2, 28)),
        (61, dt.date(1900, 3, 1)),  # after Lotus's phantom 29 February 1900 (serial 60)
    ],
)
def test_excel_serial_dates_are_the_calendar_dates_excel_shows(serial: int, day: dt.date) -> None:
    assert to_date(float(serial)) == day


def test_the_1904_date_system() -> None:
    """In a 1904-system workbook serial 0 is 1 January 1904, and 43830 is 1 January 2024
    (45292 − 1,462 days)."""
    assert to_date(43830.0, epoch=DATE_1904) == dt.date(2024, 1, 1)


@pytest.mark.parametrize("text", ["x", "X", "yes", "Y", "TRUE", "1"])
def test_yes_marks(text: str) -> None:
    """A World Championship column may be marked with x, yes, y, TRUE or 1."""
    assert to_bool(text, "world championship") is True


NUMBER_FORMATS = ["0", "0.00", "(0)", "(0.00)", '0"="', '0" (needs 2 more)"', ""]


CELLS = st.builds(
    Cell,
    st.one_of(
        st.none(),
        st.integers(-(10**20), 10**20),
        st.floats(allow_nan=True, allow_infinity=True),
        st.booleans(),
        st.text(max_size=12),
    ),
    st.builds(Look, number_format=st.sampled_from(NUMBER_FORMATS)),
)


def width_by_definition(cells: list[Cell]) -> float:
    """The width rule as its docstring says, each cell measured."""
    longest = max((shown_length(c) for c in cells if c.value is not None), default=6)
    return float(min(max(longest, 6) + 2, 60))


@given(st.lists(st.tuples(CELLS, CELLS, CELLS), max_size=30))
def test_each_column_is_as_wide_as_its_longest_shown_cell(grid: list[tuple[Cell, ...]]) -> None:
    """The width rule measured cell by cell, on cells of every kind (numbers of every size
    and sign, -0.0, infinities, NaN, yes/no, text) under the formats xlrally writes, several
    in one column."""
    expected = [width_by_definition([row[i] for row in grid]) for i in range(3)] if grid else []
    assert column_widths(grid) == expected


@pytest.mark.parametrize(
    ("values", "number_format", "width"),
    [
        ([float("nan"), 123456.5], "0.00", 11.0),  # "123456.50", 9 characters
        ([float("inf"), -1234567.25, 3], "0.00", 13.0),  # "-1234567.25", 11
        ([-0.001, 5], "(0.00)", 9.0),  # "(-0.00)", 7: a negative's sign kept
        ([999999.996, 7], "0.00", 12.0),  # "1000000.00", 10: rounding adds a digit
        ([True, 12345678], "0", 10.0),  # "12345678", 8; TRUE shows as "True", 4
    ],
)
def test_a_column_of_numbers_is_as_wide_as_its_widest_number(
    values: list[float], number_format: str, width: float
) -> None:
    look = Look(number_format=number_format)
    assert column_widths([(Cell(v, look),) for v in values]) == [width]
