"""One add-in call: Calc's arguments in, the Excel function's answer out, as fast as the
bridge allows (the add-in's methods, :mod:`~xlrally.calc.components`, are made here).

Two kinds of call, each with its own fast path (measured in ``benchmarks/bench_calc.py``):

* **One value each** (a formula a row, ``=RALLY_SCORE(A2;B2;C2;D2)``): Calc calls the method
  once a cell. The Excel functions are pure (the same arguments always give the same answer),
  and a league's rows repeat the same few arguments (points in halves, a handful of rounds and
  byes), so an answer once computed is kept, keyed by the arguments' ``repr`` (which tells
  apart what ``==`` does not: ``-0.0`` from ``0.0``, ``1`` from ``1.0``, and a problem text
  quotes the value as typed), and handed back for the next row that has them. The store holds
  at most :data:`KEPT` answers (emptied when full).
* **Ranges** (one array formula, ``{=RALLY_SCORE(A2:A10001;…)}``): converted whole
  (:mod:`~xlrally.calc.convert`), computed with Python's cycle collector paused: the answers
  are thousands of new rows, which would set off collections that walk every object
  LibreOffice's Python holds (none of these rows can form a cycle; they are freed as usual).

>>> from xlrally.calc.catalogue import function
>>> score = method(function("RALLY_SCORE"))
>>> score(None, 3.0, 4.0, None, None), score(None, ((3.0,), (2.0,)), ((4.0,), (5.0,)), 0.0, "")
(((79.0,),), ((79.0,), (45.0,)))
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from xlrally.calc.catalogue import Function
from xlrally.calc.convert import from_calc, to_calc

KEPT = 4096
"""How many single-value answers a function keeps (a few hundred cover a season's rows)."""


def answer(result: Any) -> Any:
    """An Excel function's result as the add-in returns it: rows of Calc's values (one row of
    one value for a single result), which pyuno converts to the method's type
    (``sequence<sequence<any>>``). Wrapped as ``uno.Any("[][]any", rows)`` a single result
    reached Calc empty (tried in LibreOffice 7.4)."""
    rows = to_calc(result)
    return rows if isinstance(rows, tuple) else ((rows,),)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off meanwhile (left off if it was off already)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def method(function: Function) -> Callable[..., Any]:
    """The add-in's method for ``function``: ``method(self, *arguments)`` as pyuno calls it."""
    known: dict[str, Any] = {}

    def call(_self: Any, *args: Any) -> Any:
        if tuple not in map(type, args):  # one value each
            key = repr(args)
            found = known.get(key)
            if found is None:
                if len(known) >= KEPT:
                    known.clear()
                found = known[key] = answer(function.compute(*map(from_calc, args)))
            return found
        with collector_paused():
            return answer(function.compute(*map(from_calc, args)))

    call.__name__ = function.name
    call.__doc__ = function.compute.__doc__
    return call
