"""A sixth scoring system, from outside xlrally: a Formula One points table, made as a new
system is made (issue 31), as one module and its registry entries, changing nothing else.

Source: the FIA's points for a Grand Prix's top ten since 2010 (Formula One Sporting
Regulations, article 6.4): 25, 18, 15, 12, 10, 8, 6, 4, 2, 1; eleventh and below score 0.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from xlrally.core.errors import ScoringError
from xlrally.core.model import Event, Result, Settings
from xlrally.core.numbers import ordinal
from xlrally.core.ranking import Score
from xlrally.core.systems import PointsSystem, Scorer, register, unregister
from xlrally.core.systems.base import Example
from xlrally.core.systems.poker import check_rank
from xlrally.excel import functions, registry

TABLE = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)


@dataclass(frozen=True)
class Finish:
    """A finish with its working: ``2nd: 18``."""

    place: int
    points: int

    @property
    def explain(self) -> str:
        return f"{ordinal(self.place)}: {self.points}"


def finish(rank: object, players: object) -> Finish:
    """A finish in a field of ``players``, with its points."""
    place, _ = check_rank(rank, players)
    return Finish(place, TABLE[place - 1] if place <= len(TABLE) else 0)


def points_for(rank: object, players: object) -> int:
    """The points of a finish in a field of ``players``."""
    return finish(rank, players).points


@dataclass(frozen=True)
class FormulaOne(PointsSystem):
    """Points by finishing place from the fixed table."""

    def scorer(self, settings: Settings, event: Event, field_size: int) -> Scorer:
        name = event.name

        def score(result: Result) -> Score:
            if result.rank is None:
                raise ScoringError("rank is missing", "rank")
            working = finish(result.rank, field_size)
            return Score(name, working.points, working)

        return score


FORMULA_ONE = FormulaOne(
    "formula1",
    "Formula One points",
    ("player", "rank"),
    ("event", "date", "players", "status"),
    Example(
        settings=[("League", "Toy Grand Prix"), ("Season", "2026")],
        events=[
            {"event": "Melbourne", "date": dt.date(2026, 3, 8)},
            {"event": "Shanghai", "date": dt.date(2026, 3, 22)},
        ],
        results=[
            *(
                {"event": "Melbourne", "player": p, "rank": n}
                for n, p in enumerate(["Ann", "Ben", "Cara", "Dev", "Eli"], start=1)
            ),
            *(
                {"event": "Shanghai", "player": p, "rank": n}
                for n, p in enumerate(["Ben", "Cara", "Ann", "Eli", "Dev"], start=1)
            ),
        ],
    ),
    settings=("Best X",),
)


def formula_one_points(rank: Any, players: Any) -> Any:
    """Formula One points for a finishing place: 25, 18, 15, 12, 10, 8, 6, 4, 2, 1."""
    return functions.cellwise(points_for, ("rank", "players"), rank, players)


def register_all() -> None:
    """Its registry entries: the system, and its Excel function."""
    register(FORMULA_ONE)
    registry.add("FORMULA_ONE_POINTS", formula_one_points)


def unregister_all() -> None:
    unregister(FORMULA_ONE.key)
    registry.remove("FORMULA_ONE_POINTS")
