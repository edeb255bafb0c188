"""xlrally: league, rally and rating standings for people who run them in Excel.

The package is in layers, each a folder that imports only those below it (see
docs/architecture.md): ``core`` (pure scoring: ``core.systems`` holds one module per rule book
behind a registry), ``formats`` (cells and text), ``ooxml`` (the workbook file), ``excel``
(inside Excel), ``app`` (sync, batch) and ``cli``. This module is the public API: the scoring
core's values and formulas, and the command line's verbs on workbook files
(:mod:`xlrally.api`: ``read_standings``, ``sync``, ``import_results``, ``check``,
``publish``, ``new_league``, ``as_json`` ..., imported when first used, so that
``import xlrally`` stays as light as the core):

>>> from xlrally import rally_score, neau_points
>>> rally_score(points=3, rounds=4)
79
>>> round(neau_points(players=10, buy_in=20, total_expense=20, finish=1), 4)
7.0711
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

from typing import TYPE_CHECKING, Any

from xlrally.core.errors import FileProblems, LeagueProblems, Problem, ScoringError, XlrallyError
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
from xlrally.core.version import __version__ as __version__

if TYPE_CHECKING:
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

_VERBS = frozenset(
    (
        "as_csv",
        "as_json",
        "as_page",
        "as_text",
        "check",
        "import_results",
        "new_league",
        "publish",
        "read_standings",
        "sync",
        "sync_all",
    )
)
"""The verbs on workbook files, from :mod:`xlrally.api` (imported on first use)."""


def __getattr__(name: str) -> Any:
    """The verbs of :data:`_VERBS`, imported from :mod:`xlrally.api` when first asked for."""
    if name in _VERBS:
        from xlrally import api

        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'xlrally' has no attribute {name!r}")


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
