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
  When the function's row arguments (:data:`~xlrally.excel.functions.BY_ROW`) are columns
  whose rows repeat, each distinct row is converted and computed once and its answer handed to
  every row like it (:func:`by_distinct_rows`).

>>> from xlrally.calc.catalogue import function
>>> score = method(function("RALLY_SCORE"))
>>> score(None, 3.0, 4.0, None, None), score(None, ((3.0,), (2.0,)), ((4.0,), (5.0,)), 0.0, "")
(((79.0,),), ((79.0,), (45.0,)))
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from operator import itemgetter
from typing import Any

from xlrally.calc.catalogue import Function
from xlrally.calc.convert import from_calc, to_calc
from xlrally.excel.arguments import first_equal_rows
from xlrally.excel.functions import BY_ROW

KEPT = 4096
"""How many single-value answers a function keeps (a few hundred cover a season's rows)."""

SAMPLE = 1000
"""How many rows of a range are looked at first for repeats (:func:`by_distinct_rows`)."""


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


def _plain(cell: Any) -> bool:
    """A cell as the Excel function's float path takes it: a number or an empty cell."""
    return type(cell) is float or cell == "" or cell is None


def by_distinct_rows(function: Function, rows: Sequence[int], args: tuple[Any, ...]) -> Any:
    """The answer of a call whose row arguments (at ``rows``) are columns of repeating rows,
    each distinct row computed once; None where that does not apply (the call is then computed
    as it comes).

    It applies only where the Excel function would itself work each distinct row out once and
    hand its answer to the rows equal to it (:func:`~xlrally.excel.arguments.cellwise`'s path
    for floats): every row argument one value or a column of the same height, every cell a
    number or empty, and a column without an empty cell; and only when at least half the rows
    repeat one before, among the first :data:`SAMPLE` and among all (otherwise finding them
    costs more than it saves). The distinct rows are
    handed over as columns of their own, in the order they first come (two at least, so that a
    column stays a range), beside the other arguments unchanged; rows equal under ``==`` are
    the ones the function itself takes as equal (Calc hands numbers over as floats only).

    >>> from xlrally.calc.catalogue import function
    >>> column = ((3.0,), (2.0,), (3.0,), (3.0,))
    >>> by_distinct_rows(function("RALLY_SCORE"), (0, 1), (column, 4.0, None, None))
    ((79.0,), (54.0,), (79.0,), (79.0,))
    """
    columns = [i for i in rows if i < len(args) and type(args[i]) is tuple and len(args[i]) > 1]
    if not columns:
        return None
    height = len(args[columns[0]])
    if any(len(args[i]) != height for i in columns):
        return None
    sample = zip(*[args[i][:SAMPLE] for i in columns], strict=True)
    if 2 * len(set(sample)) > min(height, SAMPLE):
        return None  # rows that do not repeat: the whole column is not looked through
    distinct, firsts = first_equal_rows(zip(*[args[i] for i in columns], strict=True))
    if 2 * len(distinct) > height:
        return None
    for i in rows:
        if i >= len(args) or i in columns:
            continue
        single = args[i]
        if type(single) is tuple:  # a range of one cell
            if len(single) != 1 or len(single[0]) != 1:
                return None
            single = single[0][0]
        if not _plain(single):
            return None
    full = [True] * len(columns)  # the columns without an empty cell so far
    for key in distinct:
        for j, cell in enumerate(key):
            if len(cell) != 1 or not _plain(cell[0]):
                return None
            if type(cell[0]) is not float:
                full[j] = False
    if not any(full):
        return None
    keys = list(distinct)
    handed = keys if len(keys) > 1 else keys * 2
    reduced = list(args)
    for j, i in enumerate(columns):
        reduced[i] = tuple(key[j] for key in handed)
    result = answer(function.compute(*map(from_calc, reduced)))
    if len(result) != len(handed):  # one answer for the whole call (a bad table)
        return result
    answers = dict(zip(distinct.values(), result, strict=False))
    return itemgetter(*firsts)(answers)


def method(function: Function) -> Callable[..., Any]:
    """The add-in's method for ``function``: ``method(self, *arguments)`` as pyuno calls it."""
    known: dict[str, Any] = {}
    by_row = set(BY_ROW.get(function.compute, ()))
    rows = [i for i, argument in enumerate(function.arguments) if argument.name in by_row]

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
            found = by_distinct_rows(function, rows, args) if rows else None
            if found is None:
                found = answer(function.compute(*map(from_calc, args)))
            return found

    call.__name__ = function.name
    call.__doc__ = function.compute.__doc__
    return call
