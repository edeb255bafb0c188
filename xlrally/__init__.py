"""xlrally: league, rally and rating standings for people who run them in Excel.

The package is in layers, each a folder that imports only those below it (see
docs/architecture.md): ``core`` (pure scoring: ``core.systems`` holds one module per rule book
behind a registry), ``formats`` (cells and text), ``ooxml`` (the workbook file), ``excel``
(inside Excel), ``app`` (sync, batch) and ``cli``. This module is the public API:

>>> from xlrally import rally_score, neau_points
>>> rally_score(points=3, rounds=4)
79
>>> round(neau_points(players=10, buy_in=20, total_expense=20, finish=1), 4)
7.0711
>>> league = League(Settings("reverse"), (Event("Week 1"),),
...                 (Result("Week 1", "Ann", rank=1), Result("Week 1", "Ben", rank=2)))
>>> [(row.rank_label, row.player, row.total) for row in compute_standings(league).rows]
[('1', 'Ann', 2), ('2', 'Ben', 1)]
"""

from xlrally.core.errors import LeagueProblems, Problem, ScoringError, XlrallyError
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, EventStatus, League, Result, Settings, Status
from xlrally.core.ranking import Score, Standing
from xlrally.core.standings import Standings
from xlrally.core.systems import SYSTEMS, System, dippouch, poker, rally
from xlrally.core.systems.dippouch import percentile as dippouch_percentile
from xlrally.core.systems.dippouch import rating_history, tournament_value, updated_rating
from xlrally.core.systems.poker import PointStructure, absolute_points, neau_points, reverse_points
from xlrally.core.systems.rally import event_score as rally_score
from xlrally.core.systems.rally import events_counted
from xlrally.core.version import __version__ as __version__

__all__ = [
    "SYSTEMS",
    "Event",
    "EventStatus",
    "League",
    "LeagueProblems",
    "PointStructure",
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
    "compute_standings",
    "dippouch",
    "dippouch_percentile",
    "events_counted",
    "neau_points",
    "poker",
    "rally",
    "rally_score",
    "rating_history",
    "reverse_points",
    "tournament_value",
    "updated_rating",
]
