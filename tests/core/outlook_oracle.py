"""A brute-force oracle for what it takes (issue 34): every outcome of the remaining events,
each scored by :func:`~xlrally.core.league.compute_standings` as a finished season.

It shares no code with :mod:`xlrally.core.outlook`: it enumerates outcomes the way the docs
describe them (docs/scoring.md, "What it takes") and reads each player's final rank from the
standings the league would then have. In each remaining event every player of the table and
each newcomer (``New 1``, ``New 2``...) either does not play or gets a result the rule allows:

* the rally: every (points, games, byes) the event's rounds allow; results scoring alike are
  one outcome (the standings see only scores);
* a ranked system: a distinct place in a field of the event's Players, else of as many players
  as the table has.

Small leagues only: the outcomes multiply (a few thousand at most in the tests).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result
from xlrally.core.numbers import whole
from xlrally.core.systems import SYSTEMS
from xlrally.core.systems.rally import event_score

Options = list[dict[str, Result]]
"""One remaining event's outcomes: who plays, with which result (absent players are not in it)."""


@dataclass(frozen=True)
class Answer:
    """What the oracle finds for one player and one goal (place, or 0 for qualifying)."""

    chance: str
    needs: float | None


def rally_results(event: str, player: str, rounds: int) -> dict[float, Result]:
    """Every result of a rally event of ``rounds`` rounds, one per score."""
    found: dict[float, Result] = {}
    for byes in range(rounds):
        for games in range(rounds - byes + 1):
            for halves in range(2 * games + 1):
                points = halves / 2
                score = event_score(points, rounds, byes, games)
                found.setdefault(
                    score, Result(event, player, points=points, games=games, byes=byes)
                )
    return found


def event_options(event: Event, players: Sequence[str], field: int, system: str) -> Options:
    """Every outcome of one remaining event."""
    if not SYSTEMS[system].ranked:
        per_player = [
            [None, *rally_results(event.name, p, whole(event.rounds, "rounds")).values()]
            for p in players
        ]
        return [
            {r.player: r for r in choice if r is not None}
            for choice in itertools.product(*per_player)
        ]
    outcomes: Options = []
    for count in range(min(len(players), field) + 1):
        for who in itertools.combinations(players, count):
            for places in itertools.permutations(range(1, field + 1), count):
                outcomes.append(
                    {p: Result(event.name, p, rank=r) for p, r in zip(who, places, strict=True)}
                )
    return outcomes


def outcomes(league: League, newcomers: int) -> Iterator[tuple[League, dict[str, Result]]]:
    """Every finished season: the league with each remaining event held and its results, and
    the first remaining event's results by player."""
    standings = compute_standings(league)
    table = [row.player for row in standings.rows]
    players = table + [f"New {i + 1}" for i in range(newcomers)]
    remaining = [e.name for e in standings.events if not e.held]
    events = {e.name: e for e in league.events}
    system = league.settings.system
    held_events = []
    per_event = []
    for name in remaining:
        event = events[name]
        field = whole(event.players, "players") if event.players is not None else max(len(table), 1)
        ranked = SYSTEMS[system].ranked
        held = dataclasses.replace(event, pending=False, players=field if ranked else event.players)
        held_events.append(held)
        per_event.append(event_options(held, players, field, system))
    kept = [e for e in league.events if e.name not in remaining]
    base = dataclasses.replace(league, events=(*kept, *held_events))
    base_results = tuple(r for r in league.results if r.event not in remaining)
    for choice in itertools.product(*per_event):
        results = base_results + tuple(r for outcome in choice for r in outcome.values())
        yield dataclasses.replace(base, results=results), (choice[0] if choice else {})


def oracle(league: League, places: Sequence[int], newcomers: int) -> dict[str, dict[int, Answer]]:
    """For each player of the table: each place's (and, with a minimum, qualifying's) chance
    and the least score in the next event from which on every score guarantees it."""
    standings = compute_standings(league)
    table = [row.player for row in standings.rows]
    goals = [*places, *([0] if league.settings.min_events else [])]
    reached: dict[tuple[str, int], list[bool]] = {(p, g): [] for p in table for g in goals}
    by_score: dict[tuple[str, int, float], list[bool]] = {}
    for finished, first in outcomes(league, newcomers):
        final = compute_standings(finished)
        rows = {row.player: row for row in final.rows}
        for player in table:
            row = rows[player]
            score = next(
                (
                    s.value
                    for s in row.scores
                    if first.get(player) and s.event == first[player].event
                ),
                None,
            )
            for goal in goals:
                done = row.needs == 0 and (goal == 0 or row.rank <= goal)
                reached[player, goal].append(done)
                if score is not None:
                    by_score.setdefault((player, goal, score), []).append(done)
    answers: dict[str, dict[int, Answer]] = {}
    for player in table:
        answers[player] = {}
        for goal in goals:
            seen = reached[player, goal]
            if all(seen):
                answers[player][goal] = Answer("clinched", None)
                continue
            if not any(seen):
                answers[player][goal] = Answer("gone", None)
                continue
            scores = sorted(s for (p, g, s) in by_score if p == player and g == goal)
            needs = None
            for score in reversed(scores):  # from the top down, while each score guarantees
                if all(by_score[player, goal, score]):
                    needs = score
                else:
                    break
            answers[player][goal] = Answer("possible", needs)
    return answers
