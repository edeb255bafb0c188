"""The scoring core: pure Python, the standard library only, no I/O.

Holds the rule books (:mod:`xlrally.core.systems`, one module per system behind a registry),
what every system shares (:mod:`~xlrally.core.ranking`: best-N, ranks, tie-breaks;
:mod:`~xlrally.core.players`: names and aliases; :mod:`~xlrally.core.numbers`: checked numbers),
the league model and its computation (:mod:`~xlrally.core.model`, :mod:`~xlrally.core.league`)
and every error class xlrally raises (:mod:`~xlrally.core.errors`).

May import: the standard library and ``xlrally.core`` itself. Nothing above it.
"""
