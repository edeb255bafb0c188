"""The add-in's calls (no LibreOffice needed): answers kept for repeated single values and
ranges computed with the cycle collector paused give what computing every call afresh gives."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlrally.calc import calls
from xlrally.calc.calls import answer, by_distinct_rows, method
from xlrally.calc.catalogue import Function, every_function
from xlrally.calc.convert import from_calc
from xlrally.excel.functions import BY_ROW

FUNCTIONS = every_function()
CALC_VALUES = st.sampled_from([0.0, -0.0, 1.0, 2.0, 3.5, 4.0, 6.0, 10.0, 40.0, "", "x", None])
"""What Calc hands over for one cell: numbers (always floats), texts, void for a left-out
argument; few of them, so that calls repeat as a league's rows do."""


def afresh(function: Function, args: tuple[Any, ...]) -> Any:
    """The call as made before answers were kept: converted, computed, converted back."""
    return answer(function.compute(*map(from_calc, args)))


def calls_of(function: Function) -> st.SearchStrategy[list[tuple[Any, ...]]]:
    width = len(function.arguments)
    return st.lists(st.tuples(*[CALC_VALUES] * width), max_size=30)


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.name)
@given(data=st.data())
def test_kept_answers_are_the_answers(function: Function, data: st.DataObject) -> None:
    """A call whose arguments came before answers what computing it afresh answers."""
    call = method(function)
    for args in data.draw(calls_of(function)):
        assert call(None, *args) == afresh(function, args)


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.name)
def test_minus_zero_is_not_taken_for_zero(function: Function) -> None:
    """-0.0 (== 0.0) gets its own answer: a problem text quotes the value as it came."""
    call = method(function)
    for args in [(0.0,) * len(function.arguments), (-0.0,) * len(function.arguments)]:
        assert call(None, *args) == afresh(function, args)


def test_the_store_is_emptied_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for 2 answers, a third empties the store and every answer stays right."""
    monkeypatch.setattr(calls, "KEPT", 2)
    score = method(next(f for f in FUNCTIONS if f.name == "RALLY_SCORE"))
    rows = [(3.0, 4.0), (2.0, 5.0), (1.0, 4.0), (3.0, 4.0), (2.0, 4.0)]
    assert [score(None, *row)[0][0] for row in rows] == [79.0, 45.0, 29.0, 79.0, 54.0]
    assert score.__closure__ is not None
    kept = next(c.cell_contents for c in score.__closure__ if isinstance(c.cell_contents, dict))
    assert len(kept) <= 2


def test_a_range_call_pauses_the_collector_and_restores_it() -> None:
    """During a range call the collector is off; after it, on again (off if it was off)."""
    seen: list[bool] = []

    def compute(points: Any) -> Any:
        seen.append(gc.isenabled())
        return [[1]]

    call = method(Function("PROBE", compute))
    assert gc.isenabled()
    assert call(None, ((1.0,),)) == ((1.0,),)
    assert seen == [False]
    assert gc.isenabled()
    gc.disable()
    try:
        call(None, ((1.0,),))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_collector_comes_back_when_a_call_fails() -> None:
    """A function that raises in a range call leaves the collector on."""

    def compute(points: Any) -> Any:
        raise ZeroDivisionError

    call = method(Function("PROBE", compute))
    with pytest.raises(ZeroDivisionError):
        call(None, ((1.0,),))
    assert gc.isenabled()


RANGE_CELLS = st.sampled_from([0.0, -0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 10.0, 2.5, ""])
"""What Calc hands over for a range's cell (floats, empty texts), few of them so that rows
repeat; texts such as ``x`` come from :data:`ODD_CELLS`."""
ODD_CELLS = st.sampled_from([0.0, 4.0, "", "x", "3"])


@st.composite
def repeating_call(draw: st.DrawFn, function: Function) -> tuple[Any, ...]:
    """A range call: each argument a column of one height (tables too), a single value or
    void, its rows drawn from a few rows so that most repeat."""
    width = len(function.arguments)
    height = draw(st.integers(min_value=2, max_value=40))
    cells = draw(st.sampled_from([RANGE_CELLS, RANGE_CELLS, ODD_CELLS]))
    kinds = [draw(st.sampled_from(["column", "column", "single", "void"])) for _ in range(width)]
    pool = draw(st.lists(st.tuples(*[cells] * width), min_size=1, max_size=6))
    rows = [draw(st.sampled_from(pool)) for _ in range(height)]
    args: list[Any] = []
    for j, kind in enumerate(kinds):
        if kind == "column":
            args.append(tuple((row[j],) for row in rows))
        elif kind == "single":
            args.append(draw(st.sampled_from([rows[0][j], ((rows[0][j],),)])))
        else:
            args.append(None)
    return tuple(args)


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.name)
@given(data=st.data())
@settings(deadline=None)  # a loaded machine may take longer than the default 200 ms
def test_a_range_call_by_distinct_rows_is_the_call(function: Function, data: st.DataObject) -> None:
    """A range call whose rows repeat (tables given as columns of the same height too, blanks,
    -0.0 beside 0.0, texts) answers what computing every row afresh answers: the distinct rows
    computed once give each row its own answer."""
    call = method(function)
    args = data.draw(repeating_call(function))
    assert call(None, *args) == afresh(function, args)


def test_a_range_of_repeating_rows_is_computed_once_a_distinct_row() -> None:
    """RALLY_SCORE over 1,000 rows of 3 distinct rows hands the function 3 rows, and every row
    its answer; a column of one distinct row is handed over as two (it stays a range)."""
    rally = next(f for f in FUNCTIONS if f.name == "RALLY_SCORE")
    seen: list[int] = []

    def compute(*args: Any) -> Any:
        seen.append(len(args[0]))
        return rally.compute(*args)

    probe = Function("RALLY_SCORE", compute)
    rows = [(3.0, 4.0), (2.0, 5.0), (3.0, 4.0), (1.0, 4.0)] * 250
    points, rounds = (tuple((row[i],) for row in rows) for i in range(2))
    got = by_distinct_rows(probe, (0, 1, 2, 3), (points, rounds, 0.0, ""))
    assert seen == [3]
    assert got == ((79.0,), (45.0,), (79.0,), (29.0,)) * 250
    assert by_distinct_rows(probe, (0, 1), (((3.0,),) * 10, 4.0, None, None)) == ((79.0,),) * 10
    assert seen == [3, 2]


def test_rows_that_do_not_repeat_are_computed_as_they_come() -> None:
    """Rows of which no two are alike, a text among the cells, a column of empty cells only:
    not by distinct rows (None), so that the call is computed as it comes."""
    rally = next(f for f in FUNCTIONS if f.name == "RALLY_SCORE")
    unlike = tuple((float(i),) for i in range(100))
    assert by_distinct_rows(rally, (0, 1), (unlike, ((200.0,),) * 100)) is None
    assert by_distinct_rows(rally, (0, 1), ((("x",),) * 10, 4.0)) is None
    assert by_distinct_rows(rally, (0, 1), ((("",),) * 10, (("",),) * 10)) is None


def test_the_row_arguments_are_the_functions_own() -> None:
    """Each function's arguments taken row by row (BY_ROW) are among its parameters."""
    for compute, names in BY_ROW.items():
        assert set(names) <= {a.name for a in Function("F", compute).arguments}
