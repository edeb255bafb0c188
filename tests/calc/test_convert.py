"""Values between Calc and the Excel functions (no LibreOffice needed): whole ranges converted
in one step give what converting cell by cell by the documented rules gives."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from xlrally.calc.convert import from_calc, to_calc

RESULTS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False),
    st.sampled_from(["", "#VALUE! byes (4) must be less than rounds (4)", "x"]),
)
CALC_CELLS = st.one_of(st.floats(allow_nan=False), st.sampled_from(["", "3", "a"]))


def cell_for_calc(value: Any) -> float | str:
    """docs: a blank result is an empty cell (""), a number a float (TRUE is 1), a text as it
    is; anything else its text."""
    if value is None:
        return ""
    if isinstance(value, bool | int | float):
        return float(value)
    return value if isinstance(value, str) else str(value)


@given(st.integers(1, 4).flatmap(lambda w: st.lists(st.lists(RESULTS, min_size=w, max_size=w))))
def test_a_result_range_is_converted_as_each_cell_would_be(rows: list[list[Any]]) -> None:
    """Rows of one length, whatever their cells, come out as rows of Calc's values."""
    assert to_calc(rows) == tuple(tuple(cell_for_calc(v) for v in row) for row in rows)
    for got, row in zip(to_calc(rows), rows, strict=True):
        assert [type(v) for v in got] == [type(cell_for_calc(v)) for v in row]


@given(st.lists(st.lists(RESULTS, max_size=3), max_size=5))
def test_rows_of_different_lengths_are_converted_row_by_row(rows: list[list[Any]]) -> None:
    """A ragged result keeps each row's own length."""
    assert to_calc(rows) == tuple(tuple(cell_for_calc(v) for v in row) for row in rows)


@given(st.integers(1, 3).flatmap(lambda w: st.lists(st.tuples(*[CALC_CELLS] * w), min_size=1)))
def test_a_calc_range_reaches_the_functions_with_blanks_as_none(rows: list[tuple[Any]]) -> None:
    """Calc's rows of cells: an empty cell ("") is None, every other cell as Calc gave it."""
    expected = [[None if v == "" else v for v in row] for row in rows]
    assert [list(row) for row in from_calc(tuple(rows))] == expected
