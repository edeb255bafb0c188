"""Whole leagues through compute_standings: each system, statuses, identity and validation."""

from __future__ import annotations

import datetime as dt

import pytest

from xlrally.core.errors import LeagueProblems
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.systems.poker import PointStructure

D = dt.date


def problems(league: League) -> list[str]:
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(league)
    return [str(p) for p in caught.value.problems]


def rally_league(*results: Result, events: int = 5, **settings: object) -> League:
    return League(
        Settings("rally", **settings),  # type: ignore[arg-type]
        tuple(Event(f"E{i}", D(2025, i, 1), rounds=4) for i in range(1, events + 1)),
        results,
    )


def test_rally_best_n_of_held_events() -> None:
    """5 events held -> best 3 count. Al: 104, 79, 54(E3 4 rounds: 100×2/4+4), 29, 6.

    Hand-worked: E1 4/4 = 104, E2 3/4 = 79, E3 2/4 = 54, E4 1/4 = 29, E5 0/4 + 4 = 4.
    Best 3: 104 + 79 + 54 = 237.
    """
    results = [Result(f"E{i}", "Al", points=p) for i, p in enumerate((4, 3, 2, 1, 0), start=1)]
    table = compute_standings(rally_league(*results))
    row = table.rows[0]
    assert table.rule == "Best 3 of 5 events count"
    assert row.total == 237
    assert row.counted == {"E1", "E2", "E3"}
    assert row.score("E5").value == 4  # type: ignore[union-attr]


def test_rally_results_alike_but_for_byes_games_or_a_true_score_apart() -> None:
    """One 4-round event, 2 points each (seed formula, hand-worked):
    no byes 100 × 2 / 4 + 4 = 54; one bye 100 × 2 / 3 + 3 = 69.67 → 69;
    one bye and 2 games 100 × 2 / 3 + 2 = 68.67 → 68. A TRUE in Byes is not 1 bye: refused,
    whether or not a 1 came before it (a score worked out once per event must not stand in)."""
    results = (
        Result("E1", "Al", points=2),
        Result("E1", "Bo", points=2, byes=1),
        Result("E1", "Cy", points=2, byes=1, games=2),
        Result("E1", "Di", points=2, byes=True),
        Result("E1", "Ed", points=2.0),
    )
    assert problems(rally_league(*results, events=1)) == [
        "event 'E1', player 'Di': byes must be a number, not True"
    ]
    table = compute_standings(rally_league(*results[:3], results[4], events=1))
    assert {row.player: row.total for row in table.rows} == {"Al": 54, "Bo": 69, "Cy": 68, "Ed": 54}


def test_rally_events_without_results_are_not_held() -> None:
    """Only 2 of 5 listed events have results: held 2 -> both count."""
    table = compute_standings(
        rally_league(Result("E1", "Al", points=1), Result("E2", "Al", points=2))
    )
    assert table.held == ("E1", "E2")
    assert [e.status for e in table.events] == [
        "ranked",
        "ranked",
        "no results",
        "no results",
        "no results",
    ]
    assert table.counted_per_player == 2


def test_best_x_setting_overrides() -> None:
    """Best X = 1: only the best score counts."""
    table = compute_standings(
        rally_league(Result("E1", "Al", points=1), Result("E2", "Al", points=2), best_x=1)
    )
    assert table.rows[0].total == 54
    assert table.rule == "Best 1 of 2 events count"


def test_pending_event_gives_nothing() -> None:
    """RubyChip: no points until the event is ranked; a pending event is not held."""
    league = League(
        Settings("reverse"),
        (Event("Week 1"), Event("Week 2", pending=True)),
        (
            Result("Week 1", "Al", rank=1),
            Result("Week 1", "Bo", rank=2),
            Result("Week 2", "Bo", rank=1),
        ),
    )
    table = compute_standings(league)
    assert [(r.player, r.total, r.events) for r in table.rows] == [("Al", 2, 1), ("Bo", 1, 1)]
    assert [e.status for e in table.events] == ["ranked", "pending"]


def test_event_without_ranks_is_not_yet_ranked() -> None:
    """Results entered but no ranks: the event is 'not ranked', with a warning."""
    league = League(
        Settings("absolute", structure=PointStructure(points=(10, 5))),
        (Event("Week 1"),),
        (Result("Week 1", "Al"), Result("Week 1", "Bo")),
    )
    table = compute_standings(league)
    assert table.rows == ()
    assert table.events[0].status == "not ranked"
    assert "no ranks yet" in table.warnings[0]


def test_changing_structure_recomputes_all_events() -> None:
    """The same results under two structures: points follow the structure."""
    events = (Event("W1"), Event("W2"))
    results = (Result("W1", "Al", rank=1), Result("W2", "Al", rank=2), Result("W2", "Bo", rank=1))
    first = compute_standings(
        League(Settings("absolute", structure=PointStructure((10, 5))), events, results)
    )
    second = compute_standings(
        League(Settings("absolute", structure=PointStructure((20, 1))), events, results)
    )
    assert [r.total for r in first.rows] == [15, 10]  # Al 10 + 5, Bo 10
    assert [r.total for r in second.rows] == [21, 20]  # Al 20 + 1, Bo 20


def test_neau_uses_event_buy_in_and_field_size() -> None:
    """Players 10 on the event, 2 listed; total blank = buy-in: √(10×20)/(1+1) = 7.0710678."""
    league = League(
        Settings("neau"),
        (Event("Main", buy_in=20, players=10),),
        (Result("Main", "Al", rank=1), Result("Main", "Bo", rank=10, total=40)),
    )
    table = compute_standings(league)
    assert table.rows[0].total == pytest.approx(7.0710678, abs=1e-7)
    # Bo: √(10 × 20 × 20/40) / 11 = 10 / 11
    assert table.rows[1].total == pytest.approx(10 / 11)


def test_dippouch_standings_and_history() -> None:
    """Stratagem 2002 style: ties at 2 share the percentile; pre-2001 event counts for nothing.

    Hand-worked for Al: 1999 event (value 0) leaves 40; 2002 1st of 4, 5 rounds:
    percentile (4.5 − 1) / 4 × 100 = 87.5, value 4 / 3.5 + 2 = 3.142857:
    40 + 0.03142857 × 47.5 = 41.492857.
    """
    league = League(
        Settings("dippouch"),
        (Event("Old", D(1999, 5, 1), rounds=3), Event("New", D(2002, 1, 5), rounds=5)),
        (
            Result("Old", "Al", rank=1),
            Result("Old", "Bo", rank=2),
            Result("New", "Al", rank=1),
            Result("New", "Bo", rank=2),
            Result("New", "Cy", rank=2),
            Result("New", "Di", rank=4),
        ),
    )
    table = compute_standings(league)
    al = table.rows[0]
    assert al.player == "Al"
    assert al.total == pytest.approx(41.492857, abs=1e-6)
    assert al.counted == {"New"}
    bo, cy = table.rows[1], table.rows[2]
    assert (bo.rank_label, cy.rank_label) == ("2=", "2=")
    assert [s.event for s in table.history["Al"]] == ["Old", "New"]
    as_of = compute_standings(league, as_of=D(2000, 1, 1))
    assert as_of.rows[0].total == 40


def test_names_match_after_trim_and_case_and_aliases() -> None:
    """' al ' and 'AL' are Al; 'Alan' is Al by alias; all three events add up."""
    league = League(
        Settings("reverse"),
        (Event("W1"), Event("W2"), Event("W3")),
        (Result("W1", "Al", rank=1), Result("W2", " al ", rank=1), Result("W3", "Alan", rank=1)),
        aliases={"Alan": "Al"},
    )
    table = compute_standings(league)
    assert [(r.player, r.total, r.events) for r in table.rows] == [("Al", 3, 3)]


def test_likely_duplicates_are_warned_not_merged() -> None:
    """J Smith and John Smith stay two players, with a warning."""
    league = League(
        Settings("reverse"),
        (Event("W1"),),
        (Result("W1", "J Smith", rank=1), Result("W1", "John Smith", rank=2)),
    )
    table = compute_standings(league)
    assert len(table.rows) == 2
    assert table.warnings == (
        "'J Smith' (1 result, first in W1) and 'John Smith' (1 result, first in W1) look like "
        "the same player: if they are one player, add an alias in the Players sheet; if two, "
        "list both names there",
    )


def typo_league(*listed: str) -> League:
    """Issue 13's league: Oliver Grant plays three weeks, then is typed 'Oliver Gran' once;
    Owen Hughes plays two weeks, then is typed 'Owen Hughs'; Ann Lee is a different player."""
    weeks = (Event("W1"), Event("W2"), Event("W3"), Event("W4"))
    entered = [
        ("W1", ["Oliver Grant", "Owen Hughes", "Ann Lee"]),
        ("W2", ["Owen Hughes", "Oliver Grant", "Ann Lee"]),
        ("W3", ["Oliver Grant", "Ann Lee", "Owen Hughs"]),
        ("W4", ["Oliver Gran", "Ann Lee"]),
    ]
    results = tuple(
        Result(week, name, rank=place)
        for week, names in entered
        for place, name in enumerate(names, start=1)
    )
    return League(Settings("reverse"), weeks, results, players=listed)


def test_one_letter_typos_are_warned_where_they_were_made() -> None:
    """The typo is named with the event it first appears in; nothing is merged."""
    table = compute_standings(typo_league())
    assert len(table.rows) == 5
    assert table.warnings == (
        "'Oliver Grant' (3 results, first in W1) and 'Oliver Gran' (1 result, first in W4) "
        "differ by one letter: if they are one player, add an alias in the Players sheet; if "
        "two, list both names there",
        "'Owen Hughes' (2 results, first in W1) and 'Owen Hughs' (1 result, first in W3) "
        "differ by one letter: if they are one player, add an alias in the Players sheet; if "
        "two, list both names there",
    )


def test_two_names_listed_as_players_are_not_a_typo() -> None:
    table = compute_standings(typo_league("Owen Hughes", "Owen Hughs"))
    assert [w.split(" (")[0] for w in table.warnings] == ["'Oliver Grant'"]


def test_every_problem_is_reported_at_once() -> None:
    """Several mistakes in one league come back together, each naming event and player."""
    league = League(
        Settings("rally"),
        (Event("E1", rounds=4), Event("E1", rounds=4), Event("E2")),
        (
            Result("E1", "Al", points=1, byes=4),
            Result("E1", "Bo", points=5),
            Result("E1", "bo", points=1),
            Result("E9", "Cy", points=1),
        ),
    )
    assert problems(league) == [
        "event 'E1': event 'E1' is listed twice",
        "event 'E2': rounds is missing: a rally event needs its number of rounds",
        "event 'E1', player 'bo': 'Bo' has two results in 'E1'",
        "event 'E9', player 'Cy': event 'E9' is not in the Events sheet",
        "event 'E1', player 'Al': byes (4) must be less than rounds (4)",
        "event 'E1', player 'Bo': points (5) must not exceed games played (4)",
    ]


@pytest.mark.parametrize(
    ("system", "ranks", "players", "message"),
    [
        ("reverse", (1, 2, 4), None, "rank (4) must be between 1 and players (3) (the results"),
        ("dippouch", (1, 2, 2, 3), None, "rank 3 cannot follow 2 players tied at 2"),
        ("dippouch", (1, 3, 3), None, "ranks skip place 2"),
        ("neau", (1, 5), 4, "rank (5) must be between 1 and players (4)"),
    ],
)
def test_rank_rules(system: str, ranks: tuple[int, ...], players: int | None, message: str) -> None:
    """Ranks must not skip without a tie; ties share the better place (1, 2, 2, 4)."""
    league = League(
        Settings(system),
        (Event("E", D(2010, 1, 1), buy_in=10, players=players),),
        tuple(Result("E", f"P{i}", rank=r) for i, r in enumerate(ranks)),
    )
    found = problems(league)
    assert len(found) == 1
    assert message in found[0]


SEED_ABSOLUTE = PointStructure(points=(25, 20, 15, 10, 5), participating=5, bonus=(3, 2, 1))
"""RubyChip's Absolute Points example: ranks 1-7 score 33, 27, 21, 15, 10, 5, 5."""


def chop(how: str, ranks: tuple[int, ...]) -> League:
    return League(
        Settings("absolute", structure=SEED_ABSOLUTE, shared_places=how),
        (Event("E"),),
        tuple(Result("E", f"P{i}", rank=r) for i, r in enumerate(ranks, start=1)),
    )


def test_a_chop_scores_the_average_of_the_shared_places() -> None:
    """Issue 13: P2 and P3 chop 2nd-3rd: each gets (27 + 21) / 2 = 24; the working says so."""
    table = compute_standings(chop("average", (1, 2, 2, 4)))
    assert [(r.player, r.total) for r in table.rows] == [
        ("P1", 33),
        ("P2", 24),
        ("P3", 24),
        ("P4", 15),
    ]
    working = table.rows[1].scores[0].explain
    assert working.startswith("2nd-3rd shared by 2: average of 27 (2nd) and 21 (3rd) = 24")


def test_a_chop_may_score_the_better_place_or_be_refused() -> None:
    better = compute_standings(chop("better", (1, 2, 2, 4)))
    assert [r.total for r in better.rows] == [33, 27, 27, 15]
    assert problems(chop("refuse", (1, 2, 2, 4))) == [
        "event 'E', player 'P3': rank 2 is given twice (P2 and P3); Absolute Points needs "
        "distinct ranks here (Settings: Shared places is refuse)"
    ]


def test_gaps_allowed_when_field_size_given() -> None:
    """Players 8 with only ranks 1, 4 listed (others not in the league): no problem."""
    league = League(
        Settings("reverse"),
        (Event("E", players=8),),
        (Result("E", "A", rank=1), Result("E", "B", rank=4)),
    )
    assert [r.total for r in compute_standings(league).rows] == [8, 5]


def test_field_size_smaller_than_results_is_an_error() -> None:
    """Players 1 but two results listed."""
    league = League(
        Settings("reverse"),
        (Event("E", players=1),),
        (Result("E", "A", rank=1), Result("E", "B", rank=2)),
    )
    assert problems(league) == ["event 'E': players (1) is less than the 2 results listed"]


def test_unknown_system() -> None:
    """A system not in the list is refused with the list."""
    assert problems(League(Settings("elo"), (), ())) == [
        "unknown system 'elo': use one of rally, absolute, reverse, neau, dippouch, formula"
    ]


def test_long_names_are_refused() -> None:
    """A 40,000-character player name is pasted data, not a name."""
    league = League(Settings("reverse"), (Event("E"),), (Result("E", "x" * 40_000, rank=1),))
    assert problems(league) == [
        "event 'E', player '"
        + "x" * 40_000
        + "': player name is 40000 characters long; at most 255"
    ]


def test_a_players_own_buy_in_beats_the_events() -> None:
    """Neau, 2 players, event buy-in 20; Ann paid 40 (her own Buy-in), no re-buys, 1st:
    √(2 × 40 × 40 / 40) / 2 = √80 / 2 = 4.4721 (with the event's 20 it would be √40 / 2 =
    3.1623). Bea, 2nd at 20: √(2 × 20 × 20 / 20) / 3 = 2.1082."""
    results = (Result("N1", "Ann", rank=1, buy_in=40), Result("N1", "Bea", rank=2))
    standings = compute_standings(League(Settings("neau"), (Event("N1", buy_in=20),), results))
    totals = {row.player: row.total for row in standings.rows}
    assert totals == pytest.approx({"Ann": 80**0.5 / 2, "Bea": 40**0.5 / 3})


def tie(
    scores_a: list[float], scores_b: list[float], tie_break: str, best: int | None
) -> list[str]:
    """Ann and Bea in a rally of three 4-round events (W1-W3, their points in order); the
    standings as rank labels."""
    events = tuple(Event(f"W{n}", D(2026, 1, n), rounds=4) for n in range(1, 4))
    results = []
    for player, scores in (("Ann", scores_a), ("Bea", scores_b)):
        for n, points in enumerate(scores, start=1):
            results.append(Result(f"W{n}", player, points=points))
    settings = Settings("rally", best_x=best, tie_breaks=(tie_break,))
    league = League(
        settings, tuple(Event(e.name, e.date, rounds=4) for e in events), tuple(results)
    )
    return [f"{r.rank_label} {r.player}" for r in compute_standings(league).rows]


def test_countback_compares_the_counted_scores_only() -> None:
    """Best 2 count. Ann 4, 2, 0.5 points → 104, 54, 16 (⌊100 × p / 4⌋ + 4); Bea 4, 2, 1.5 →
    104, 54, 41. Both count 104 + 54 = 158; the counted scores are the same, so countback
    cannot part them (over all scores, Bea's dropped 41 would put her first)."""
    assert tie([4, 2, 0.5], [4, 2, 1.5], "countback", 2) == ["1= Ann", "1= Bea"]


def test_more_events_counts_events_played_not_counted() -> None:
    """Best 1 counts. Ann 104 and 4 (0 points) in 2 events; Bea 104 in 1. Both total 104;
    Ann played more events, so she is first."""
    assert tie([4, 0], [4], "events", 1) == ["1 Ann", "2 Bea"]


def test_between_equal_scores_the_earlier_event_counts() -> None:
    """Best 1 counts, Ann scores 79 in both events. "Zeta" was held first (1 January),
    "Alpha" later: Zeta's is the one counted, whatever the names' order."""
    events = (Event("Alpha", D(2026, 2, 1), rounds=4), Event("Zeta", D(2026, 1, 1), rounds=4))
    results = (Result("Alpha", "Ann", points=3), Result("Zeta", "Ann", points=3))
    [row] = compute_standings(League(Settings("rally", best_x=1), events, results)).rows
    assert row.counted == {"Zeta"}
