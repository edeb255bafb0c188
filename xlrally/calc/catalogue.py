"""The functions Calc gets: the Excel functions' names, their arguments and the code that
computes them, taken from :mod:`xlrally.excel.functions` so that both programs compute alike.

Each Excel function ``RALLY_SCORE`` is :func:`xlrally.excel.functions.rally_score`; its
arguments are that function's parameters, in order (those without a default are required).

>>> [(a.name, a.required) for a in function("RALLY_SCORE").arguments]
[('points', True), ('rounds', True), ('byes', False), ('games', False)]
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xlrally.excel import functions

NAMES = (
    "RALLY_SCORE",
    "RALLY_BEST_N",
    "BEST_X_TOTAL",
    "NEAU_POINTS",
    "ABSOLUTE_POINTS",
    "REVERSE_POINTS",
    "DIPPOUCH_PERCENTILE",
    "DIPPOUCH_VALUE",
    "DIPPOUCH_RATING",
    "PRIZE_SHARE",
    "FORMULA_POINTS",
)
"""The Excel functions, in the order the Function Wizard lists them (the names of ``udfs``)."""


@dataclass(frozen=True)
class Argument:
    name: str
    required: bool


@dataclass(frozen=True)
class Function:
    """One function: its name in both programs, what computes it, its arguments."""

    name: str
    compute: Callable[..., Any]
    arguments: tuple[Argument, ...]


def function(name: str) -> Function:
    """The function called ``name`` in Excel and Calc."""
    compute = getattr(functions, name.lower())
    parameters = inspect.signature(compute).parameters.values()
    arguments = tuple(Argument(p.name, p.default is inspect.Parameter.empty) for p in parameters)
    return Function(name, compute, arguments)


def every_function() -> list[Function]:
    return [function(name) for name in NAMES]
