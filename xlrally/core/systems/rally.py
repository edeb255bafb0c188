"""The Rapidplay Rally: a chess club's event score and best-N events rule.

Source: the club's "Rapidplay Rally Standings – 2025-26" rules (seed ``000_01be6e86aadc4c8d``)::

    score = 100 × points / (rounds − byes) + games played     (decimal part discarded at the end)
    events that count = ⌈(min(events held, 9) + 1) / 2⌉        (so at most 5)

* ``points`` are the points scored in games played; bye points are not part of them.
* Rounds missed by joining late or leaving early stay in the divisor: only byes leave it.
  (Seed example 3: bye in round 5, left before round 6, 1.5 points: 100 × 1.5 / 5 + 4 = 34.)
* The score is computed exactly in whole numbers (points are half-point steps, so
  100 × points / (rounds − byes) = 100 × half_points // (2 × (rounds − byes))) and floored
  once, so floating point can never move it: 100 × 2 / 3 + 3 = 69.67 gives 69.

>>> event_score(points=3, rounds=4)
79
>>> event_score(points=2, rounds=5, byes=1)
54
>>> events_counted(14)
5
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from functools import cached_property, lru_cache

from xlrally.core.adjustments import Scorer
from xlrally.core.errors import ScoringError
from xlrally.core.model import DEFAULT_EVENTS_CAP, Event, Result, Settings
from xlrally.core.numbers import non_negative, show, whole
from xlrally.core.ranking import Score
from xlrally.core.systems.base import Example, PointsSystem

__all__ = [
    "DEFAULT_EVENTS_CAP",
    "RALLY",
    "Rally",
    "checked_score",
    "event_score",
    "events_counted",
    "score_event",
]


@dataclass(frozen=True)
class RallyScore:
    """One player's score in one event, with the numbers it came from."""

    points: float
    rounds: int
    byes: int
    games: int
    score: int

    @cached_property
    def explain(self) -> str:
        """The working, e.g. ``100 × 2 / (5 − 1) + 4 = 54``."""
        divisor = f"({self.rounds} − {self.byes})" if self.byes else str(self.rounds)
        return f"100 × {show(self.points)} / {divisor} + {self.games} = {self.score}"


def checked_score(
    points: object, rounds: object, byes: object = 0, games: object = None
) -> tuple[float, int, int, int, int]:
    """One result checked and scored, as plain values: (points, rounds, byes, games, score).
    What :func:`score_event` (the score with its working) and :func:`event_score` (the score
    alone, as the Excel function ``RALLY_SCORE`` gives it) both compute.

    Source: the club's "Rapidplay Rally Standings – 2025-26" rules (seed
    ``000_01be6e86aadc4c8d``)::

        score = ⌊100 × points / (rounds − byes) + games played⌋

    computed exactly in whole numbers: 100 × half_points // (2 × (rounds − byes)) + games.
    ``games`` defaults to ``rounds − byes`` (the player played every round they were paired
    in). Raises :class:`ScoringError` naming the field at fault.

    >>> checked_score(2, 5, byes=1)
    (2.0, 5, 1, 4, 54)
    """
    n_rounds = whole(rounds, "rounds", minimum=1)
    n_byes = whole(0 if byes is None else byes, "byes")
    if n_byes >= n_rounds:
        raise ScoringError(f"byes ({n_byes}) must be less than rounds ({n_rounds})", "byes")
    n_games = n_rounds - n_byes if games is None else whole(games, "games")
    if n_games + n_byes > n_rounds:
        raise ScoringError(
            f"games ({n_games}) + byes ({n_byes}) must not exceed rounds ({n_rounds})", "games"
        )
    scored = non_negative(points, "points")
    half_points = scored * 2
    if not float(half_points).is_integer():
        raise ScoringError(f"points must be in half-point steps, not {show(scored, 4)}", "points")
    if scored > n_games:
        raise ScoringError(
            f"points ({show(scored)}) must not exceed games played ({n_games})", "points"
        )
    score = 100 * int(half_points) // (2 * (n_rounds - n_byes)) + n_games
    return float(scored), n_rounds, n_byes, n_games, score


@lru_cache(maxsize=4096, typed=True)
def score_event(
    points: object, rounds: object, byes: object = 0, games: object = None
) -> RallyScore:
    """Check one result and return its score with the working (:func:`checked_score`).

    Raises :class:`ScoringError` naming the field at fault. Results are cached: a season has
    few distinct (points, rounds, byes, games) combinations and the score is a pure function.

    >>> score_event(1.5, 6, byes=1, games=4).explain
    '100 × 1.5 / (6 − 1) + 4 = 34'
    """
    return RallyScore(*checked_score(points, rounds, byes, games))


def event_score(points: object, rounds: object, byes: object = 0, games: object = None) -> int:
    """The event score: ⌊100 × points / (rounds − byes) + games⌋ (see :func:`checked_score`),
    without the working (no :class:`RallyScore` made).

    >>> event_score(points=1, rounds=4, games=1)  # withdrew after a round-1 win
    26
    """
    return checked_score(points, rounds, byes, games)[4]


def events_counted(events_held: object, cap: object = DEFAULT_EVENTS_CAP) -> int:
    """How many of each player's best event scores count: ⌈(min(held, cap) + 1) / 2⌉.

    >>> [events_counted(n) for n in range(1, 11)]
    [1, 2, 2, 3, 3, 4, 4, 5, 5, 5]
    """
    held = whole(events_held, "events held")
    limit = whole(cap, "events cap", minimum=1)
    return math.ceil((min(held, limit) + 1) / 2)


def _d(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


# Seed: Rapidplay Rally examples 1-3 (Bobby 3/4; José bye, 2 from 4 games in 5 rounds;
# Mikhail bye in round 5, left before round 6, 1.5 points) and the two events of 2025-26.
EXAMPLE = Example(
    settings=[("League", "Rapidplay Rally"), ("Season", "2025-26"), ("Events cap", 9)],
    events=[
        {"event": "Dec 2025", "date": _d("2025-12-06"), "rounds": 4},
        {"event": "Feb 2026", "date": _d("2026-02-07"), "rounds": 6},
        {"event": "May 2026", "date": _d("2026-05-09"), "rounds": 5},
    ],
    results=[
        {"event": "Dec 2025", "player": "Bobby", "points": 3, "games": 4, "byes": 0},
        {"event": "Dec 2025", "player": "José", "points": 2.5, "games": 4, "byes": 0},
        {"event": "Dec 2025", "player": "Mikhail", "points": 1, "games": 4, "byes": 0},
        {"event": "Feb 2026", "player": "Mikhail", "points": 1.5, "games": 4, "byes": 1},
        {"event": "Feb 2026", "player": "Bobby", "points": 4, "games": 6, "byes": 0},
        {"event": "May 2026", "player": "José", "points": 2, "games": 4, "byes": 1},
        {"event": "May 2026", "player": "Bobby", "points": 1, "games": 1, "byes": 0},
    ],
    # Sections (grading bands, juniors): each gets its own table, ranked within it.
    players=[("Mikhail", "", "U1600"), ("José", "", "U1600, Junior")],
)


@dataclass(frozen=True)
class Rally(PointsSystem):
    """The rally as a system: :func:`score_event` for each result, best
    :func:`events_counted` events unless the league sets Best X."""

    def scorer(self, settings: Settings, event: Event, field_size: int) -> Scorer:
        """The rally scorer of one event. A rally's scores take few values (points go by halves
        up to the rounds played), so each is worked out once per event and shared: scores are
        immutable, and a 200-player event scores a dozen different results, not 200."""
        name, rounds = event.name, event.rounds
        known: dict[tuple[object, ...], Score] = {}

        def score(result: Result) -> Score:
            points, byes, games = result.points, result.byes, result.games
            # typed, as score_event's own cache: TRUE is not 1 here (it is refused)
            key = (points, byes, games, type(points), type(byes), type(games))
            found = known.get(key)
            if found is None:
                working = score_event(points, rounds, byes, games)
                found = known[key] = Score(name, working.score, working)
            return found

        return score

    def default_counted(self, held: int, events_cap: int) -> int | None:
        return events_counted(held, events_cap)


RALLY = Rally(
    "rally",
    "Rapidplay Rally",
    ("player", "points", "games", "byes"),
    ("event", "date", "rounds", "status"),
    EXAMPLE,
    settings=(
        "Best X",
        "Events cap",
        "Pot",
        "Currency unit",
        "Requested byes",
        "Forfeit wins",
        "Lichess H",
    ),
    ranked=False,
    rounds="required",
    needs_rounds="a rally event needs its number of rounds",
    from_trf_rounds=True,
)
"""The registry's entry (:mod:`xlrally.core.systems`)."""
