"""The scoring systems, one object each, behind one registry (like python-chess's variants).

Each :class:`~xlrally.core.systems.base.System` says everything the rest of xlrally needs to
know about a rule book (its columns, checks, scoring, rule text, marks, settings, example
league); the formulas and the system's entry live in one module per rule book:
:mod:`~xlrally.core.systems.rally`, :mod:`~xlrally.core.systems.poker` (Absolute Points,
Relative Reverse Order, Neau's formula), :mod:`~xlrally.core.systems.dippouch`,
:mod:`~xlrally.core.systems.formula` (a field-size formula, a preset's or the league's own).
What they share is in :mod:`~xlrally.core.systems.base`. Everything that offers a choice of
systems (the command line, the template, the docs' tables, the tests) takes it from
:data:`SYSTEMS`, and a new system is one module and one :func:`register` call.

>>> [system.key for system in SYSTEMS.values()]
['rally', 'absolute', 'reverse', 'neau', 'dippouch', 'formula']
>>> lookup("Relative Reverse Order").key, SYSTEMS["dippouch"].total_label
('reverse', 'Rating')
"""

from __future__ import annotations

from xlrally.core.adjustments import Scorer
from xlrally.core.names import norm
from xlrally.core.systems import dippouch, formula, poker, rally
from xlrally.core.systems.base import Example, PointsSystem, System

__all__ = [
    "SYSTEMS",
    "Example",
    "PointsSystem",
    "Scorer",
    "System",
    "dippouch",
    "formula",
    "known",
    "lookup",
    "poker",
    "rally",
    "register",
    "unregister",
]

SYSTEMS: dict[str, System] = {}
"""Every system by key, in the order documented and offered."""

_BY_SPELLING: dict[str, System] = {}


def register(system: System) -> System:
    """Add ``system`` to the registry (after those there); a key or name another system has
    is refused. Returns the system."""
    taken = [s for s in (system.key, system.name) if norm(s) in _BY_SPELLING]
    if taken:
        raise ValueError(f"a system is already called {taken[0]!r}")
    SYSTEMS[system.key] = system
    _BY_SPELLING.update({norm(system.key): system, norm(system.name): system})
    return system


def unregister(key: str) -> None:
    """Remove the system ``key`` from the registry (a test's own system, when it is done)."""
    system = SYSTEMS.pop(key)
    for spelling in (system.key, system.name):
        _BY_SPELLING.pop(norm(spelling), None)


for _system in (
    rally.RALLY,
    poker.ABSOLUTE,
    poker.REVERSE,
    poker.NEAU,
    dippouch.DIPPOUCH,
    formula.FORMULA,
):
    register(_system)


def lookup(name: str) -> System | None:
    """The system a workbook names, by its key or its name (``Neau's formula``; any case,
    spaces and punctuation ignored); None if there is none."""
    return _BY_SPELLING.get(norm(name))


def known(last: str = ", ") -> str:
    """The keys to offer in a message: ``rally, absolute, reverse, neau, dippouch,
    formula``; ``last`` joins the last two (``" or "``)."""
    keys = list(SYSTEMS)
    return ", ".join(keys[:-1]) + last + keys[-1] if len(keys) > 1 else "".join(keys)
