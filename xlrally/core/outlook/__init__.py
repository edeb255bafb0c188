"""What it takes: for each player, whether the title, each prize place and qualifying under a
minimum are clinched, still possible or gone, and the least score in the next event that
guarantees each whatever the others do (issue 34).

**What can still happen.** The remaining events are the league's events not scored yet
(pending, without results or ranks, or dated after the as-of date), in date order; the
``Events left`` setting says how many more will be held instead (the listed ones first, then
events not listed yet). Every remaining event is held by the end. In each, every player of the
table, and any number of newcomers, either does not play or gets a result the rule allows:

* the rally: any result of the event's rounds (points in half points up to the games played,
  games and byes within the rounds; an event without Rounds is taken as up to 9 rounds, so a
  score of 0 to 109), scored by the rally's formula and the event's weight;
* a ranked system (absolute, reverse, Neau, Dip Pouch): a distinct place in a field of the
  event's Players, else of as many players as the table has (no shared places); its points
  by the league's structure and the event's weight (Neau: the event's buy-in, else the last
  scored event's, and no re-buys, which only lower a player's points), or for Dip Pouch the
  place's percentile and the event's tournament value.

**The goals.** Place *k* (the title is place 1; the others are the Prizes sheet's places of
the league's table) is reached when fewer than *k* players finish above the player in the
standings' own order (total, then the tie-break chain), the player having qualified: a place
shared by a tie counts. Qualifying is playing the league's minimum of events. A goal is
*clinched* when it is reached whatever happens, *gone* when nothing reaches it, else
*possible*; for a possible goal, *needs* is the least score in the next event such that it and
every higher score guarantee the goal whatever everyone else does, the player included, in
every event after it (None when no score in the next event does).

**How.** Each player's final order key is a function of their results to come (a
:class:`~.tracks.PointsTrack` or :class:`~.tracks.RatingTrack`); it never falls when a score
rises. In the rally players do not interact, so the worst case for a player is to play no more
while everyone else scores the most, and the best case the reverse: two sorted lists answer
every goal, and the least score is a binary search. In a ranked system places are shared out: a
player's best and worst cases are found by matching players to places (exact for one event
left), else by a search over the few players who could pass (or be passed), bounded by what the
places can give and by players who dominate others; the search is exact and runs only where the
bounds leave the answer open. ``tests/core/test_outlook_oracle.py`` checks every answer against
a brute-force enumeration of every outcome through
:func:`~xlrally.core.league.compute_standings`.

One module per job: :mod:`~.goals` (what it answers: each player's goals and their chances;
what it reads of the standings), :mod:`~.coming` (the remaining events as the model sees
them), :mod:`~.tracks` (each player's final order key for any results to come),
:mod:`~.independent` (the rally's solver), and the ranked systems' solver in three:
:mod:`~.shares` (the places, and each player alone), :mod:`~.ranked` (the worst and best
cases) and :mod:`~.search` (the exhaustive search over groups). Here: :func:`what_it_takes`
puts them together.

>>> from xlrally.core.league import compute_standings
>>> from xlrally.core.model import Event, League, Result, Settings
>>> events = (Event("Dec", rounds=4), Event("Feb", rounds=4), Event("May", rounds=5, pending=True))
>>> league = League(Settings("rally", best_x=2), events, (
...     Result("Dec", "Ann", points=3), Result("Feb", "Ann", points=2),     # 79 + 54 = 133
...     Result("Dec", "Bob", points=2.5), Result("Feb", "Bob", points=2)))  # 66 + 54 = 120
>>> outlook = what_it_takes(league, compute_standings(league))
>>> [(p.player, str(p.goals[0].chance), p.goals[0].needs) for p in outlook.prospects]
[('Ann', 'possible', 95), ('Bob', 'possible', None)]

Bob can reach 66 + 105 = 171 in May, so Ann needs 79 + s ≥ 171; the least May score of 92 or
more is 95 (4½ from 5 games), and the one below it, 91 (3½ from 4 and a bye), is not enough.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from xlrally.core.errors import ScoringError
from xlrally.core.model import League, Settings
from xlrally.core.outlook.coming import DEFAULT_ROUNDS, Coming, remaining
from xlrally.core.outlook.goals import Chance, Goal, Outlook, Prospect, Table
from xlrally.core.outlook.independent import Independent
from xlrally.core.outlook.ranked import Ranked
from xlrally.core.outlook.search import SEARCH_STEPS
from xlrally.core.outlook.tracks import NOBODY, Key, New, PointsTrack, RatingTrack, Track
from xlrally.core.ranking import order_key

__all__ = [
    "DEFAULT_ROUNDS",
    "NOBODY",
    "SEARCH_STEPS",
    "Chance",
    "Coming",
    "Goal",
    "Key",
    "New",
    "Outlook",
    "PointsTrack",
    "Prospect",
    "RatingTrack",
    "Table",
    "Track",
    "outlook_of",
    "what_it_takes",
]


def outlook_of(league: League, standings: Table) -> Outlook:
    """:func:`what_it_takes`, or, when the league gives too little to work it out, an outlook
    with no prospects and a note saying why."""
    try:
        return what_it_takes(league, standings)
    except ScoringError as error:
        note = f"What it takes is not worked out: {error.message}"
        return Outlook((), (), standings.settings.min_events, (), (note,))


def what_it_takes(league: League, standings: Table) -> Outlook:
    """What the remaining events can change for each player of ``standings`` (the league's
    table; see the module docstring). Raises :class:`ScoringError` when the league gives too
    little to work it out (a Neau league with no buy-in at all, points below 0)."""
    settings = standings.settings
    coming, notes, order = remaining(league, standings)
    places = tuple(sorted({1, *(p.place for p in settings.prizes if not p.section)}))
    minimum = settings.min_events
    key_of = order_key(settings.tie_breaks, order)
    system = standings.scoring
    tracks: list[Track]
    if system.rated:
        position = {name: i for i, name in enumerate(order)}
        tracks = [
            RatingTrack(
                row.player,
                [
                    (position[s.event], s.event, line.value, s.value)  # type: ignore[attr-defined]
                    for s, line in zip(row.scores, standings.history[row.player], strict=True)
                ],
                coming,
                minimum,
                key_of,
            )
            for row in standings.rows
        ]
        newcomer: Track = RatingTrack("", [], coming, minimum, key_of)
    else:
        held = len(standings.held) + len(coming)
        counted = system.counted_per_player(held, settings.best_x, settings.events_cap)
        tracks = [
            PointsTrack(row.player, row.scores, coming, counted, minimum, key_of)
            for row in standings.rows
        ]
        newcomer = PointsTrack("", (), coming, counted, minimum, key_of)
    if any(v < 0 for c in coming for v in c.values) or any(
        s.value < 0 for row in standings.rows for s in row.scores
    ):
        raise ScoringError("what it takes is worked out for scores of 0 or more only")
    if coming and not coming[0].ranked:
        solver: _Solver = Independent(tracks, coming, newcomer)
    else:
        solver = Ranked(tracks, coming, newcomer, rated=system.rated, shuffles=_shuffles(settings))
    prospects = []
    for index, track in enumerate(tracks):
        goals = [solver.goal(index, k) for k in places]
        if minimum:
            goals.append(_qualifying(track, coming, minimum))
        prospects.append(Prospect(track.player, tuple(goals)))
    return Outlook(tuple(c.name for c in coming), places, minimum, tuple(prospects), tuple(notes))


def _shuffles(settings: Settings) -> bool:
    """Whether a points player's key depends on which event gave which score (the ``recent``
    tie-break), not only on the scores."""
    return "recent" in settings.tie_breaks


def _qualifying(track: Track, coming: Sequence[Coming], minimum: int) -> Goal:
    if track.played >= minimum:
        return Goal(0, Chance.CLINCHED)
    if track.played + len(coming) < minimum:
        return Goal(0, Chance.GONE)
    if track.played + 1 == minimum:  # any result in the next event
        return Goal(0, Chance.POSSIBLE, min(coming[0].values))
    return Goal(0, Chance.POSSIBLE)


class _Solver(Protocol):
    def goal(self, index: int, place: int) -> Goal: ...
