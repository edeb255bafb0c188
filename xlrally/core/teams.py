"""Team and club standings: a table of teams beside the players' own, from the same scores.

A player's team is the Players sheet's ``Team`` (or ``Club``) column; ``Team best N`` sets how
many count, and ``Team scores`` how:

    players     team total = the sum of its N best players' totals (their standings totals)
    each event  team total = Σ over the events of the team's N best scores in that event

* ``players`` follows the Bristol Chess Grand Prix: "a team prize will be awarded based upon
  the scores of the highest five scores made by a player from any club", and a pairing
  program's "best N players of that team".
* ``each event`` follows the Buffalo Bicycling Club's series: "The top three riders of each
  team will have their points totaled after each race for their team classification".
* A team with fewer than N players (or scores in an event) counts those it has; a player of no
  team is in no team's table. Team names match as player names do (case and spaces ignored).

**Ties** are broken by countback: the team whose best counted score is higher is ahead, then
the next best, and so on (the team with more scores counted wins when all else is equal);
teams still level share the rank (``2=``) and are listed by name. (The Giro d'Italia separates
level teams by their best riders' places instead; xlrally's totals are points, and countback
over them is the rule the leagues' own tie-break already uses.)

>>> from xlrally.core.ranking import Score, Standing
>>> rows = [Standing(1, False, "Ann", 50, (Score("W1", 50),)),
...         Standing(2, False, "Ben", 40, (Score("W1", 40),)),
...         Standing(3, False, "Cy", 30, (Score("W1", 30),))]
>>> table = team_standings(rows, {"Ann": "Rooks", "Ben": "Pawns", "Cy": "Rooks"}, 2, "players")
>>> [(t.rank_label, t.team, t.total, t.explain) for t in table]
[('1', 'Rooks', 80, 'Ann 50 + Cy 30 = 80'), ('2', 'Pawns', 40, 'Ben 40 = 40')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from xlrally.core.names import norm
from xlrally.core.numbers import show
from xlrally.core.ranking import Standing

__all__ = ["TeamPart", "TeamStanding", "team_rule", "team_standings"]

_PLACES = 9
"""Totals and scores are compared rounded to 9 decimal places (as the players' are)."""


@dataclass(frozen=True)
class TeamPart:
    """One score counted for a team: a player's total, or their score in ``event``."""

    player: str
    value: float
    event: str | None = None


@dataclass(frozen=True)
class TeamStanding:
    """One row of the team table. ``decided_by``: ``countback`` when the row is level on
    total with the one above but behind on countback, ``tied`` when nothing separated them."""

    rank: int
    tied: bool
    team: str
    total: float
    counted: tuple[TeamPart, ...]
    """The scores counted, best first (``each event``: event by event, best first in each)."""
    players: tuple[str, ...]
    """Every player of the team in the standings, in standings order."""
    decided_by: str | None = None

    @property
    def rank_label(self) -> str:
        """``"2"``, or ``"2="`` for a shared rank."""
        return f"{self.rank}=" if self.tied else str(self.rank)

    @property
    def explain(self) -> str:
        """The working: ``Ann 50 + Cy 30 = 80``, or by event ``W1: Ann 50 + Cy 30; W2: Cy 20
        = 100``."""
        if not self.counted:
            return "no scores = 0"
        if self.counted[0].event is None:
            sums = " + ".join(f"{p.player} {show(p.value)}" for p in self.counted)
            return f"{sums} = {show(self.total)}"
        by_event: dict[str, list[TeamPart]] = {}
        for part in self.counted:
            by_event.setdefault(part.event or "", []).append(part)
        events = "; ".join(
            f"{event}: " + " + ".join(f"{p.player} {show(p.value)}" for p in parts)
            for event, parts in by_event.items()
        )
        return f"{events} = {show(self.total)}"


def team_rule(best: int, scores: str) -> str:
    """The team table's rule in words.

    >>> team_rule(2, "players")
    "Teams: each team's best 2 players' totals count"
    >>> team_rule(1, "each event")
    "Teams: each team's best score in each event counts"
    """
    if scores == "each event":
        if best == 1:
            return "Teams: each team's best score in each event counts"
        return f"Teams: each team's best {best} scores in each event count"
    if best == 1:
        return "Teams: each team's best player's total counts"
    return f"Teams: each team's best {best} players' totals count"


def _best(parts: list[TeamPart], n: int) -> list[TeamPart]:
    # sorted() is stable: between equal scores the player listed first (higher) counts
    return sorted(parts, key=lambda p: -p.value)[:n]


def team_standings(
    rows: Sequence[Standing],
    teams: Mapping[str, str],
    best: int,
    scores: str,
    events: Sequence[str] = (),
) -> tuple[TeamStanding, ...]:
    """The team table: each team of ``teams`` (player shown -> team) with its ``best``
    counted, ``scores`` ``players`` or ``each event`` (``events``: the events held, in order).
    """
    members: dict[str, list[Standing]] = {}
    names: dict[str, str] = {}
    for row in rows:
        team = teams.get(row.player, "").strip()
        if not team:
            continue
        names.setdefault(norm(team), " ".join(team.split()))
        members.setdefault(norm(team), []).append(row)
    order = {event: i for i, event in enumerate(events)}
    built = []
    for k, players in members.items():
        if scores == "each event":
            by_event: dict[str, list[TeamPart]] = {}
            for row in players:
                for s in row.scores:
                    by_event.setdefault(s.event, []).append(TeamPart(row.player, s.value, s.event))
            ordered = sorted(by_event, key=lambda e: order.get(e, len(order)))
            counted = [p for event in ordered for p in _best(by_event[event], best)]
        else:
            counted = _best([TeamPart(row.player, row.total) for row in players], best)
        total = sum(p.value for p in counted)
        built.append((names[k], total, tuple(counted), tuple(r.player for r in players)))
    return _ranked(built)


def _ranked(
    built: list[tuple[str, float, tuple[TeamPart, ...], tuple[str, ...]]],
) -> tuple[TeamStanding, ...]:
    def full_key(
        item: tuple[str, float, tuple[TeamPart, ...], tuple[str, ...]],
    ) -> tuple[float, tuple[float, ...]]:
        countback = tuple(sorted((round(p.value, _PLACES) for p in item[2]), reverse=True))
        return (round(item[1], _PLACES), countback)

    ordered = sorted(built, key=lambda item: (item[0].casefold(), item[0]))
    ordered.sort(key=full_key, reverse=True)
    keys = [full_key(item) for item in ordered]
    table: list[TeamStanding] = []
    for index, (team, total, counted, players) in enumerate(ordered):
        key = keys[index]
        above = keys[index - 1] if index else None
        below = keys[index + 1] if index + 1 < len(keys) else None
        tied = key in (above, below)
        if above is None or above[0] != key[0]:
            decided_by = None
        else:
            decided_by = "tied" if above == key else "countback"
        rank = table[-1].rank if above == key else index + 1
        table.append(TeamStanding(rank, tied, team, total, counted, players, decided_by))
    return tuple(table)
