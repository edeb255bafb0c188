"""The functions Calc gets: the Excel functions' own list (:mod:`xlrally.excel.registry`),
their names, their arguments and the code that computes them, so that both programs compute
alike.

Each Excel function ``RALLY_SCORE`` is :func:`xlrally.excel.functions.rally_score`; its
arguments are that function's parameters, in order (those without a default are required).

>>> [(a.name, a.required) for a in function("RALLY_SCORE").arguments]
[('points', True), ('rounds', True), ('byes', False), ('games', False)]
"""

from __future__ import annotations

from xlrally.excel.registry import FUNCTIONS, Argument, Function

__all__ = ["NAMES", "Argument", "Function", "every_function", "function"]

NAMES = tuple(FUNCTIONS)
"""The Excel functions, in the order the Function Wizard lists them (the names of ``udfs``)."""


def function(name: str) -> Function:
    """The function called ``name`` in Excel and Calc."""
    return FUNCTIONS[name]


def every_function() -> list[Function]:
    return list(FUNCTIONS.values())
