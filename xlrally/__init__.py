"""xlrally: league, rally and rating standings for people who run them in Excel.

The package is in layers, each a folder that imports only those below it (see
docs/architecture.md): ``core`` (pure scoring: ``core.systems`` holds one module per rule book
behind a registry), ``formats`` (cells and text), ``ooxml`` (the workbook file), ``excel``
(inside Excel), ``app`` (sync, batch) and ``cli``. This module is the public API: the scoring
core's values and formulas, and the command line's verbs on workbook files
(:mod:`xlrally.api`: ``read_standings``, ``sync``, ``import_results``, ``check``,
``publish``, ``new_league``, ``as_json`` ...). Every name is imported from its module when
first used (a module ``__getattr__``), so that ``import xlrally``, ``xlrally --help`` and the
command line's look at an unchanged file load only the code they use (issue 33):

>>> from xlrally import rally_score, neau_points
>>> rally_score(points=3, rounds=4)
79
>>> round(neau_points(players=10, buy_in=20, total_expense=20, finish=1), 4)
7.0711
>>> from xlrally import Event, League, Result, Settings, compute_standings
>>> league = League(Settings("reverse"), (Event("Week 1"),),
...                 (Result("Week 1", "Ann", rank=1), Result("Week 1", "Ben", rank=2)))
>>> [(row.rank_label, row.player, row.total) for row in compute_standings(league).rows]
[('1', 'Ann', 2), ('2', 'Ben', 1)]
>>> import xlrally
>>> xlrally.as_json(compute_standings(league))["standings"][0]["player"]
'Ann'

Names follow the Excel functions' where there is one (``rally_score`` is ``RALLY_SCORE``,
``dippouch_value`` is ``DIPPOUCH_VALUE``); the older names stay (``events_counted``,
``tournament_value``, ``updated_rating``, ``rating_history``). ``Standings`` is a league's
table; each of its rows is a ``Standing``.
"""

from __future__ import annotations

import importlib

from xlrally.core.version import __version__ as __version__

TYPE_CHECKING = False
"""typing's flag without importing typing, which would add 2 ms to every start of the command
line (mypy takes a constant of this name as ``typing.TYPE_CHECKING``)."""

if TYPE_CHECKING:
    from typing import Any

    from xlrally.api import (
        as_csv,
        as_json,
        as_page,
        as_text,
        check,
        import_results,
        new_league,
        publish,
        read_standings,
        sync,
        sync_all,
    )
    from xlrally.core.errors import (
        FileProblems,
        LeagueProblems,
        Problem,
        ScoringError,
        XlrallyError,
    )
    from xlrally.core.league import check_league, compute_standings
    from xlrally.core.model import (
        Event,
        EventStatus,
        League,
        PointStructure,
        Result,
        Settings,
        Status,
    )
    from xlrally.core.prizes import Payout, Prize
    from xlrally.core.ranking import Score, Standing
    from xlrally.core.standings import Standings
    from xlrally.core.systems import SYSTEMS, System, dippouch, poker, rally, register
    from xlrally.core.systems.dippouch import percentile as dippouch_percentile
    from xlrally.core.systems.dippouch import rating_history, tournament_value, updated_rating
    from xlrally.core.systems.dippouch import rating_history as dippouch_rating_history
    from xlrally.core.systems.dippouch import tournament_value as dippouch_value
    from xlrally.core.systems.dippouch import updated_rating as dippouch_updated_rating
    from xlrally.core.systems.poker import absolute_points, neau_points, reverse_points
    from xlrally.core.systems.rally import event_score as rally_score
    from xlrally.core.systems.rally import events_counted
    from xlrally.core.systems.rally import events_counted as rally_best_n


_LAZY: dict[str, tuple[str, str]] = {
    "Event": ("xlrally.core.model", "Event"),
    "EventStatus": ("xlrally.core.model", "EventStatus"),
    "FileProblems": ("xlrally.core.errors", "FileProblems"),
    "League": ("xlrally.core.model", "League"),
    "LeagueProblems": ("xlrally.core.errors", "LeagueProblems"),
    "Payout": ("xlrally.core.prizes", "Payout"),
    "PointStructure": ("xlrally.core.model", "PointStructure"),
    "Prize": ("xlrally.core.prizes", "Prize"),
    "Problem": ("xlrally.core.errors", "Problem"),
    "Result": ("xlrally.core.model", "Result"),
    "SYSTEMS": ("xlrally.core.systems", "SYSTEMS"),
    "Score": ("xlrally.core.ranking", "Score"),
    "ScoringError": ("xlrally.core.errors", "ScoringError"),
    "Settings": ("xlrally.core.model", "Settings"),
    "Standing": ("xlrally.core.ranking", "Standing"),
    "Standings": ("xlrally.core.standings", "Standings"),
    "Status": ("xlrally.core.model", "Status"),
    "System": ("xlrally.core.systems", "System"),
    "XlrallyError": ("xlrally.core.errors", "XlrallyError"),
    "absolute_points": ("xlrally.core.systems.poker", "absolute_points"),
    "as_csv": ("xlrally.api", "as_csv"),
    "as_json": ("xlrally.api", "as_json"),
    "as_page": ("xlrally.api", "as_page"),
    "as_text": ("xlrally.api", "as_text"),
    "check": ("xlrally.api", "check"),
    "check_league": ("xlrally.core.league", "check_league"),
    "compute_standings": ("xlrally.core.league", "compute_standings"),
    "dippouch": ("xlrally.core.systems", "dippouch"),
    "dippouch_percentile": ("xlrally.core.systems.dippouch", "percentile"),
    "dippouch_rating_history": ("xlrally.core.systems.dippouch", "rating_history"),
    "dippouch_updated_rating": ("xlrally.core.systems.dippouch", "updated_rating"),
    "dippouch_value": ("xlrally.core.systems.dippouch", "tournament_value"),
    "events_counted": ("xlrally.core.systems.rally", "events_counted"),
    "import_results": ("xlrally.api", "import_results"),
    "neau_points": ("xlrally.core.systems.poker", "neau_points"),
    "new_league": ("xlrally.api", "new_league"),
    "poker": ("xlrally.core.systems", "poker"),
    "publish": ("xlrally.api", "publish"),
    "rally": ("xlrally.core.systems", "rally"),
    "rally_best_n": ("xlrally.core.systems.rally", "events_counted"),
    "rally_score": ("xlrally.core.systems.rally", "event_score"),
    "rating_history": ("xlrally.core.systems.dippouch", "rating_history"),
    "read_standings": ("xlrally.api", "read_standings"),
    "register": ("xlrally.core.systems", "register"),
    "reverse_points": ("xlrally.core.systems.poker", "reverse_points"),
    "sync": ("xlrally.api", "sync"),
    "sync_all": ("xlrally.api", "sync_all"),
    "tournament_value": ("xlrally.core.systems.dippouch", "tournament_value"),
    "updated_rating": ("xlrally.core.systems.dippouch", "updated_rating"),
}
"""Each public name: the module it is imported from when first used, and its name there."""


def __getattr__(name: str) -> Any:
    """A name of :data:`_LAZY`, imported from its module when first asked for (and kept)."""
    if name in _LAZY:
        module, attribute = _LAZY[name]
        value = getattr(importlib.import_module(module), attribute)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'xlrally' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "SYSTEMS",
    "Event",
    "EventStatus",
    "FileProblems",
    "League",
    "LeagueProblems",
    "Payout",
    "PointStructure",
    "Prize",
    "Problem",
    "Result",
    "Score",
    "ScoringError",
    "Settings",
    "Standing",
    "Standings",
    "Status",
    "System",
    "XlrallyError",
    "absolute_points",
    "as_csv",
    "as_json",
    "as_page",
    "as_text",
    "check",
    "check_league",
    "compute_standings",
    "dippouch",
    "dippouch_percentile",
    "dippouch_rating_history",
    "dippouch_updated_rating",
    "dippouch_value",
    "events_counted",
    "import_results",
    "neau_points",
    "new_league",
    "poker",
    "publish",
    "rally",
    "rally_best_n",
    "rally_score",
    "rating_history",
    "read_standings",
    "register",
    "reverse_points",
    "sync",
    "sync_all",
    "tournament_value",
    "updated_rating",
]
