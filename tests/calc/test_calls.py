"""The add-in's calls (no LibreOffice needed): answers kept for repeated single values and
ranges computed with the cycle collector paused give what computing every call afresh gives."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlrally.calc import calls
from xlrally.calc.calls import answer, method
from xlrally.calc.catalogue import Function, every_function
from xlrally.calc.convert import from_calc

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
