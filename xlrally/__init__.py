"""xlrally: league, rally and rating standings for people who run them in Excel.

The scoring core is pure Python: one module per rule book and a shared standings module.

* :mod:`xlrally.rally` — the chess Rapidplay Rally (event score, best-N events);
* :mod:`xlrally.poker` — league point structures (Absolute Points, Relative Reverse Order,
  Neau's formula);
* :mod:`xlrally.dippouch` — the Dip Pouch Tournament Rating for Diplomacy;
* :mod:`xlrally.standings` — best-N, ranking, ties and tie-breaks;
* :mod:`xlrally.league` — a whole league in, standings out.

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

from xlrally.dippouch import percentile as dippouch_percentile
from xlrally.dippouch import rating_history, tournament_value, updated_rating
from xlrally.errors import LeagueProblems, Problem, ScoringError, XlrallyError
from xlrally.league import (
    SYSTEMS,
    Event,
    EventStatus,
    League,
    Result,
    Settings,
    Standings,
    compute_standings,
)
from xlrally.poker import PointStructure, absolute_points, neau_points, reverse_points
from xlrally.rally import event_score as rally_score
from xlrally.rally import events_counted
from xlrally.standings import Score, Standing

__version__ = "0.1.0"

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
    "XlrallyError",
    "absolute_points",
    "compute_standings",
    "dippouch_percentile",
    "events_counted",
    "neau_points",
    "rally_score",
    "rating_history",
    "reverse_points",
    "tournament_value",
    "updated_rating",
]
