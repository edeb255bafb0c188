"""The Excel functions, by their Excel names: one list, from which the xlwings functions
(:mod:`udfs`), LibreOffice Calc's (:mod:`xlrally.calc`) and the tests take their names, their
arguments and the code that computes them. A scoring system adds its own with :func:`add`.

Each function ``RALLY_SCORE`` is computed by a function of :mod:`xlrally.excel.functions`
(:func:`~xlrally.excel.functions.rally_score`): its arguments are that function's parameters,
in order (those without a default are required), its summary the first line of its docstring.

>>> FUNCTIONS["RALLY_SCORE"].compute(3.0, 4.0)
79
>>> [(a.name, a.required) for a in FUNCTIONS["RALLY_SCORE"].arguments]
[('points', True), ('rounds', True), ('byes', False), ('games', False)]
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xlrally.excel import functions

__all__ = ["FUNCTIONS", "Argument", "Function", "add", "remove"]


@dataclass(frozen=True)
class Argument:
    """One argument of an Excel function."""

    name: str
    required: bool


@dataclass(frozen=True)
class Function:
    """One Excel function: its name in Excel (and Calc) and what computes it."""

    name: str
    compute: Callable[..., Any]

    @property
    def arguments(self) -> tuple[Argument, ...]:
        """The computing function's parameters, in order."""
        parameters = inspect.signature(self.compute).parameters.values()
        return tuple(Argument(p.name, p.default is inspect.Parameter.empty) for p in parameters)

    @property
    def summary(self) -> str:
        """What it computes, in one line (the first line of its docstring)."""
        return (inspect.getdoc(self.compute) or "").partition("\n")[0]


FUNCTIONS: dict[str, Function] = {}
"""Every Excel function by its name, in the order the Function Wizard lists them."""

_NAME = re.compile(r"[A-Z][A-Z0-9_]*")


def add(name: str, compute: Callable[..., Any]) -> Function:
    """Add the Excel function ``name`` (capitals, digits and ``_``, as Excel's own names),
    computed by ``compute``; a name taken is refused. Returns it."""
    if not _NAME.fullmatch(name):
        raise ValueError(f"an Excel function's name is capitals, digits and _, not {name!r}")
    if name in FUNCTIONS:
        raise ValueError(f"an Excel function is already called {name!r}")
    FUNCTIONS[name] = Function(name, compute)
    return FUNCTIONS[name]


def remove(name: str) -> None:
    """Remove the Excel function ``name`` (a test's own system's, when it is done)."""
    del FUNCTIONS[name]


for _compute in (
    functions.rally_score,
    functions.rally_best_n,
    functions.best_x_total,
    functions.neau_points,
    functions.absolute_points,
    functions.reverse_points,
    functions.dippouch_percentile,
    functions.dippouch_value,
    functions.dippouch_rating,
    functions.prize_share,
    functions.formula_points,
):
    add(_compute.__name__.upper(), _compute)
