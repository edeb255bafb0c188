"""Team standings (xlrally.core.teams): best N players, best N in each event, the tie rule.

Leagues are Relative Reverse Order (players − rank + 1, multiplier 1, nothing else), so each
score is worked by hand at a glance.
"""

from __future__ import annotations

import heapq

from hypothesis import given, settings
from hypothesis import strategies as st

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.ranking import Score, Standing
from xlrally.core.rules import TeamRule
from xlrally.core.teams import team_standings


def ranked(event: str, players: list[str]) -> list[Result]:
    return [Result(event, p, rank=i + 1) for i, p in enumerate(players)]


# W1 (5 players): Ann 5, Ben 4, Cy 3, Di 2, Ed 1. W2: Ben 5, Cy 4, Di 3, Ann 2, Ed 1.
# Totals: Ben 9, Ann 7, Cy 7, Di 5, Ed 2.
RESULTS = (
    *ranked("W1", ["Ann", "Ben", "Cy", "Di", "Ed"]),
    *ranked("W2", ["Ben", "Cy", "Di", "Annie", "Ed"]),  # Annie: an alias of Ann
)
TEAMS = {"Ann": "Rooks", "Cy": "rooks ", "Ed": "Rooks", "Ben": "Knights", "Di": "Knights"}


def league(best: int | None, scores: str = "players") -> League:
    return League(
        Settings("reverse", teams=TeamRule(best, scores)),
        (Event("W1"), Event("W2")),
        RESULTS,
        aliases={"Annie": "Ann"},
        teams=TEAMS,
    )


def test_best_two_players_of_each_team() -> None:
    """Knights: Ben 9 + Di 5 = 14; Rooks: Ann 7 + Cy 7 = 14, Ed's 2 dropped. Level on total,
    Knights' countback (9, 5) beats Rooks' (7, 7): Knights 1st, Rooks 2nd by countback. Team
    names match in any case and spacing ("rooks ")."""
    table = compute_standings(league(2)).teams
    assert [(t.rank_label, t.team, t.total, t.decided_by, t.explain) for t in table] == [
        ("1", "Knights", 14, None, "Ben 9 + Di 5 = 14"),
        ("2", "Rooks", 14, "countback", "Ann 7 + Cy 7 = 14"),
    ]
    assert table[1].players == ("Ann", "Cy", "Ed")


def test_best_one_in_each_event_and_a_shared_place() -> None:
    """Each event's best one: Rooks W1 Ann 5 + W2 Cy 4 = 9; Knights W1 Ben 4 + W2 Ben 5 = 9.
    Countback (5, 4) against (5, 4): level, so they share 1st, listed by name."""
    table = compute_standings(league(1, "each event")).teams
    assert [(t.rank_label, t.team, t.total, t.decided_by, t.explain) for t in table] == [
        ("1=", "Knights", 9, None, "W1: Ben 4; W2: Ben 5 = 9"),
        ("1=", "Rooks", 9, "tied", "W1: Ann 5; W2: Cy 4 = 9"),
    ]


def test_best_three_in_each_event_counts_what_a_team_has() -> None:
    """Best 3 in each event: Rooks W1 5 + 3 + 1, W2 4 + 2 + 1 = 16; Knights (two players)
    W1 4 + 2, W2 5 + 3 = 14."""
    table = compute_standings(league(3, "each event")).teams
    assert [(t.team, t.total) for t in table] == [("Rooks", 16), ("Knights", 14)]
    assert table[0].explain == "W1: Ann 5 + Cy 3 + Ed 1; W2: Cy 4 + Ann 2 + Ed 1 = 16"


def test_no_team_table_without_team_best_n() -> None:
    """Teams given but no Team best N: no team table (the standings are as they were)."""
    assert compute_standings(league(None)).teams == ()


def row(player: str, *values: float) -> Standing:
    scores = tuple(Score(f"E{i}", v) for i, v in enumerate(values))
    return Standing(0, False, player, sum(values), scores)


def test_countback_compares_the_counted_scores_from_the_best_down() -> None:
    """All on 10: A's (6, 4) beats B's (5, 5); C's single 10 beats both; D's (5, 5, 0) beats
    B's (5, 5): more scores counted wins when all else is level."""
    rows = [row("a1", 6), row("a2", 4), row("b1", 5), row("b2", 5), row("c1", 10)]
    rows += [row("d1", 5), row("d2", 5), row("d3", 0)]
    teams = {"a1": "A", "a2": "A", "b1": "B", "b2": "B", "c1": "C"}
    teams |= {"d1": "D", "d2": "D", "d3": "D"}
    table = team_standings(rows, teams, 3, "players")
    assert [(t.rank, t.team, t.total, t.decided_by) for t in table] == [
        (1, "C", 10, None),
        (2, "A", 10, "countback"),
        (3, "D", 10, "countback"),
        (4, "B", 10, "countback"),
    ]


NAMES = ["Al", "Bo", "Cy", "Di", "Ed", "Fy", "Gu"]


@st.composite
def team_leagues(draw: st.DrawFn) -> League:
    results = []
    events = []
    for number in range(draw(st.integers(1, 4))):
        events.append(Event(f"E{number}"))
        field = draw(st.permutations(NAMES))[: draw(st.integers(1, 7))]
        results.extend(ranked(f"E{number}", list(field)))
    teams = {name: draw(st.sampled_from(["X", "Y", "Z", ""])) for name in NAMES}
    rule = TeamRule(draw(st.integers(1, 4)), draw(st.sampled_from(["players", "each event"])))
    best_x = draw(st.sampled_from([None, 1, 2]))
    return League(
        Settings("reverse", best_x=best_x, teams=rule), tuple(events), tuple(results), teams=teams
    )


@given(team_leagues())
@settings(max_examples=80, deadline=None)
def test_a_teams_total_is_the_sum_of_its_best_n(table_league: League) -> None:
    """Best N players: the sum of the N highest of its players' totals; best N in each event:
    the sum over the events of the N highest of its players' scores there. Every team with a
    player in the standings is listed once, and the table is in order of total."""
    standings = compute_standings(table_league)
    rule = table_league.settings.teams
    assert rule.best_n is not None
    members: dict[str, list[Standing]] = {}
    for r in standings.rows:
        if table_league.teams[r.player]:
            members.setdefault(table_league.teams[r.player], []).append(r)
    assert sorted(t.team for t in standings.teams) == sorted(members)
    for team in standings.teams:
        rows = members[team.team]
        if rule.scores == "players":
            expected = sum(heapq.nlargest(rule.best_n, (r.total for r in rows)))
        else:
            expected = sum(
                sum(
                    heapq.nlargest(
                        rule.best_n, (s.value for r in rows for s in r.scores if s.event == event)
                    )
                )
                for event in standings.held
            )
        assert team.total == expected
        assert team.total == sum(p.value for p in team.counted)
    totals = [t.total for t in standings.teams]
    assert totals == sorted(totals, reverse=True)
