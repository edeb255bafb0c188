"""What it takes (issue 34), worked by hand: clinched, possible or gone, and the least score
in the next event that guarantees a goal (and the one below it does not)."""

from __future__ import annotations

import dataclasses
import datetime as dt

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, PointStructure, Result, Settings
from xlrally.core.outlook import Chance, Goal, Outlook, what_it_takes
from xlrally.core.prizes import Prize
from xlrally.core.rules import FormulaRule, KnockoutRule


def outlook(league: League) -> Outlook:
    return what_it_takes(league, compute_standings(league))


def goals(league: League) -> dict[str, list[Goal]]:
    return {p.player: list(p.goals) for p in outlook(league).prospects}


def reverse_league(**changes: object) -> League:
    """Relative Reverse Order, three players, two nights alike: Ann 1st (3 points), Ben 2nd
    (2), Cat 3rd (1): Ann 6, Ben 4, Cat 2. W3 is to come, for 3 players: 3, 2 or 1 point."""
    settings = dataclasses.replace(Settings("reverse"), **changes)  # type: ignore[arg-type]
    nights = (Event("W1", dt.date(2026, 1, 8)), Event("W2", dt.date(2026, 1, 15)))
    results = tuple(
        Result(night.name, player, rank=place)
        for night in nights
        for place, player in enumerate(["Ann", "Ben", "Cat"], start=1)
    )
    w3 = Event("W3", dt.date(2026, 1, 22), players=3, pending=True)
    return League(settings, (*nights, w3), results)


def test_a_leader_needs_any_place_when_a_tie_shares_the_title() -> None:
    """Ben can reach 4 + 3 = 7; Ann playing at all (3rd: 6 + 1 = 7) ties him at worst: a
    shared first is the title. Not playing (6) is not enough, so it is not clinched."""
    found = goals(reverse_league())
    assert found["Ann"] == [Goal(1, Chance.POSSIBLE, 1, at=3)]


def test_the_most_recent_tie_break_makes_the_leader_need_more() -> None:
    """With the most recent event breaking ties, Ann 7 (3rd) against Ben 7 (1st in W3) loses:
    she needs 2nd (8)."""
    found = goals(reverse_league(tie_breaks=("recent",)))
    assert found["Ann"] == [Goal(1, Chance.POSSIBLE, 2, at=2)]


def test_a_chaser_can_win_but_no_result_guarantees_it() -> None:
    """Ben wins W3 (7) and Ann does not play (6): Ben is first. But if Ann plays she is at
    least 7: no score of Ben's guarantees the title. Cat can reach 2 + 3 = 5 < 6: gone."""
    found = goals(reverse_league())
    assert found["Ben"] == [Goal(1, Chance.POSSIBLE)]
    assert found["Cat"] == [Goal(1, Chance.GONE)]


def test_prize_places_are_goals_of_their_own() -> None:
    """Prizes for 1st and 2nd. Ann's top 2: only Ben can pass her (Cat reaches 5, a newcomer
    3): clinched. Ben's top 2: Ann is above and Cat can reach 5 > 4, so not clinched; Ben 3rd
    (5) ties Cat's best (5): 2nd shared, guaranteed. Cat's: possible, never guaranteed (if Cat
    wins, Ben 2nd makes 6)."""
    found = goals(reverse_league(prizes=(Prize(1, 10), Prize(2, 5))))
    assert found["Ann"][1] == Goal(2, Chance.CLINCHED)
    assert found["Ben"][1] == Goal(2, Chance.POSSIBLE, 1, at=3)
    assert found["Cat"][1] == Goal(2, Chance.POSSIBLE)


def test_qualifying_takes_one_more_event() -> None:
    """A minimum of 3 events: everyone has played 2, so any result in W3 qualifies (the least
    score there, 1 point). Ann must qualify to be first: she still needs only 3rd."""
    found = goals(reverse_league(min_events=3))
    assert found["Ann"] == [Goal(1, Chance.POSSIBLE, 1, at=3), Goal(0, Chance.POSSIBLE, 1)]
    assert found["Cat"][1] == Goal(0, Chance.POSSIBLE, 1)


def test_a_minimum_out_of_reach_is_gone() -> None:
    """A minimum of 4 with one event left: nobody can qualify, so every goal is gone."""
    found = goals(reverse_league(min_events=4))
    assert all(g.chance is Chance.GONE for gs in found.values() for g in gs)


def test_with_no_event_left_the_table_is_final() -> None:
    """W3 dropped: the standings are the season's, so Ann has clinched, the others are out."""
    league = reverse_league()
    league = dataclasses.replace(league, events=league.events[:2])
    found = goals(league)
    assert found == {
        "Ann": [Goal(1, Chance.CLINCHED)],
        "Ben": [Goal(1, Chance.GONE)],
        "Cat": [Goal(1, Chance.GONE)],
    }


def rally_league(**changes: object) -> League:
    """Ann 79 (3/4) + 54 (2/4) = 133, Bob 66 (2.5/4) + 54 = 120, best 2 of each."""
    settings = dataclasses.replace(Settings("rally", best_x=2), **changes)  # type: ignore[arg-type]
    events = (
        Event("Dec", dt.date(2025, 12, 6), rounds=4),
        Event("Feb", dt.date(2026, 2, 7), rounds=4),
    )
    results = (
        Result("Dec", "Ann", points=3),
        Result("Feb", "Ann", points=2),
        Result("Dec", "Bob", points=2.5),
        Result("Feb", "Bob", points=2),
    )
    return League(settings, events, results)


def test_events_left_adds_events_not_listed_yet() -> None:
    """Events left 1, nothing listed: one event of up to 9 rounds (0 to 109). Bob can reach
    66 + 109 = 175; Ann needs 79 + s ≥ 175, s ≥ 96: 8 from 8 games of 9 rounds scores
    ⌊800 / 9⌋ + 8 = 96 exactly; the score below it, 95 (4½ from 5 games with 4 byes), is not
    enough."""
    found = outlook(rally_league(events_left=1))
    assert found.coming == ("event 1 to come",)
    assert found.notes == (
        "event 1 to come: no Rounds, so up to 9 rounds are taken (scores 0 to 109)",
    )
    assert [(p.player, p.goals[0]) for p in found.prospects] == [
        ("Ann", Goal(1, Chance.POSSIBLE, 96)),
        ("Bob", Goal(1, Chance.POSSIBLE)),
    ]


def test_events_left_takes_the_listed_events_first() -> None:
    """Two events listed to come (May 5 rounds, Jun 4 rounds) and Events left 1: only May is
    taken, so Bob can reach 66 + 105 = 171 and Ann needs 95 (see the module's example)."""
    league = rally_league(events_left=1)
    more = (
        Event("May", dt.date(2026, 5, 9), rounds=5, pending=True),
        Event("Jun", dt.date(2026, 6, 6), rounds=4, pending=True),
    )
    league = dataclasses.replace(league, events=(*league.events, *more))
    found = outlook(league)
    assert found.coming == ("May",)
    assert found.prospects[0].goals[0] == Goal(1, Chance.POSSIBLE, 95)


def test_a_rating_leader_needs_to_win_the_last_event() -> None:
    """Dip Pouch, one-round events of 4 (value 4 / 7 + 2 = 2.5714%). E1: Ann 1st (percentile
    87.5): 40 + 2.5714% × 47.5 = 41.2214; Ben 2nd (62.5): 40.5786. In E2, Ben 1st would make
    40.5786 + 2.5714% × 46.9214 = 41.7851, more than Ann 2nd makes: 41.2214 + 2.5714% ×
    21.2786 = 41.7686. Ann 1st (42.4115) beats anything Ben (2nd: 41.1423) or a newcomer (2nd:
    40.5786) can do. Ben 1st: Ann's best left, 2nd, is 41.7686 < 41.7851: Ben needs 1st too."""
    events = (
        Event("E1", dt.date(2026, 3, 7), rounds=1, players=4),
        Event("E2", dt.date(2026, 4, 4), rounds=1, players=4, pending=True),
    )
    results = (Result("E1", "Ann", rank=1), Result("E1", "Ben", rank=2))
    found = goals(League(Settings("dippouch"), events, results))
    assert found["Ann"] == [Goal(1, Chance.POSSIBLE, 87.5, at=1)]
    assert found["Ben"] == [Goal(1, Chance.POSSIBLE, 87.5, at=1)]


def test_a_field_taken_from_the_table_is_said() -> None:
    """W3 without Players: a field of the table's 3 players is taken, and the notes say so."""
    league = reverse_league()
    w3 = dataclasses.replace(league.events[2], players=None)
    found = outlook(dataclasses.replace(league, events=(*league.events[:2], w3)))
    assert found.notes == ("W3: no Players, so a field of 3 players (the table's) is taken",)


def test_a_neau_league_without_any_buy_in_is_said_not_worked_out() -> None:
    """Neau's points need the buy-in; none anywhere: the standings say why, nothing else."""
    events = (Event("M1", dt.date(2026, 3, 7)), Event("M2", dt.date(2026, 4, 4), pending=True))
    results = (Result("M1", "Ann", rank=1, buy_in=20), Result("M1", "Ben", rank=2, buy_in=20))
    standings = compute_standings(League(Settings("neau", what_it_takes=True), events, results))
    assert standings.outlook is not None
    assert standings.outlook.prospects == ()
    assert standings.outlook.notes == (
        "What it takes is not worked out: M2: give its Buy-in to work out what it takes",
    )


def test_the_standings_carry_it_only_when_asked() -> None:
    """Without the setting, no outlook; with it, the same as computed alone."""
    assert compute_standings(reverse_league()).outlook is None
    asked = reverse_league(what_it_takes=True)
    assert compute_standings(asked).outlook == outlook(asked)


def test_points_standings_with_absolute_points() -> None:
    """Absolute Points 10 / 6 / 3 and 1 participating; Ann 11 + 11 = 22 (1st twice), Ben 7 +
    7 = 14. One night to come, 3 players: Ben can reach 14 + 11 = 25 > 22. Ann's 3rd (4 more:
    26) or better guarantees it; not playing does not."""
    structure = PointStructure(points=(10, 6, 3), participating=1)
    nights = (Event("W1", dt.date(2026, 1, 8)), Event("W2", dt.date(2026, 1, 15)))
    results = tuple(
        Result(n.name, p, rank=r)
        for n in nights
        for r, p in enumerate(["Ann", "Ben", "Cat"], start=1)
    )
    w3 = Event("W3", dt.date(2026, 1, 22), players=3, pending=True)
    found = goals(League(Settings("absolute", structure=structure), (*nights, w3), results))
    assert found["Ann"] == [Goal(1, Chance.POSSIBLE, 4, at=3)]


def test_points_that_a_place_does_not_decide_are_said_not_worked_out() -> None:
    """Knockout points, or a formula of the pot or of re-buys: a place's points are not known
    in advance, so what it takes says so instead of guessing."""
    league = reverse_league(what_it_takes=True, knockouts=KnockoutRule(points=10))
    found = compute_standings(league).outlook
    assert found is not None
    assert found.notes == (
        "What it takes is not worked out: knockout points to come are not decided by places",
    )
    events = tuple(dataclasses.replace(e, buy_in=20) for e in league.events)
    for formula in ("pot / place", "10 + re-buys", "10 + knockouts"):
        settings = Settings("formula", formula=FormulaRule(formula), what_it_takes=True)
        found = compute_standings(
            dataclasses.replace(league, settings=settings, events=events)
        ).outlook
        assert found is not None
        assert found.notes == (
            "What it takes is not worked out: the points depend on re-buys, knockouts or the "
            "pot, not on the place alone",
        )
