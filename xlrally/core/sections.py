"""Sections of a league: grading bands (U1600), juniors, divisions. Each is a table of its own
from the same results: the players in it, ranked among themselves (the league's rule for which
scores count, its tie-breaks and its qualifying minimum stay as they are).
"""

from __future__ import annotations

import dataclasses

from xlrally.core.names import norm
from xlrally.core.ranking import Entry, rank_with_minimum
from xlrally.core.standings import Standings


def section_names(standings: Standings) -> list[str]:
    """The sections named, in the order they first appear down the standings."""
    names: dict[str, str] = {}
    for row in standings.rows:
        for name in standings.sections.get(row.player, ()):
            names.setdefault(norm(name), name)
    return list(names.values())


def of_section(standings: Standings, section: str) -> Standings:
    """The standings of the players in ``section`` (any case), ranked among themselves.

    >>> from xlrally.core.league import compute_standings
    >>> from xlrally.core.model import Event, League, Result, Settings
    >>> week = (Event("W1"),)
    >>> results = tuple(Result("W1", p, rank=n) for n, p in enumerate("ABC", start=1))
    >>> league = League(Settings("reverse"), week, results, sections={"B": ("U12",), "C": ("U12",)})
    >>> [(r.rank, r.player, r.total) for r in of_section(compute_standings(league), "u12").rows]
    [(1, 'B', 2), (2, 'C', 1)]
    """
    wanted = norm(section)
    rows = [
        row
        for row in standings.rows
        if any(norm(name) == wanted for name in standings.sections.get(row.player, ()))
    ]
    name = next(
        (n for r in rows for n in standings.sections[r.player] if norm(n) == wanted), section
    )
    settings = standings.settings
    entries = [Entry(r.player, r.total, r.scores, r.counted) for r in rows]
    ranked = rank_with_minimum(
        entries,
        settings.min_events,
        settings.below_minimum == "unranked",
        settings.tie_breaks,
        standings.held,
    )
    return dataclasses.replace(standings, rows=ranked, section=name)
