"""Knockout points (xlrally.core.knockouts): per knockout, bounties, weights, the checks.

Every expected number is worked by hand, with the working beside it. The point structure is
the seed's Absolute Points (25/20/15/10/5, 5 participating, bonus 3/2/1): ranks 1 to 7 score
33, 27, 21, 15, 10, 5, 5.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlrally.core.errors import LeagueProblems
from xlrally.core.knockouts import KnockedOut
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, PointStructure, Result, Settings
from xlrally.core.rules import KnockoutRule

SEED = PointStructure(points=(25, 20, 15, 10, 5), bonus=(3, 2, 1), participating=5)


def league(
    rule: KnockoutRule, final_weight: object = 2, aliases: dict[str, str] | None = None
) -> League:
    """Week 1: Ann wins and knocks out four (Gus, Fay, Cara, Ben), Ben one (Eli), Cara one
    (Dev). Week 2, a double-points final of three: Ben wins, knocking out Ann (the leader
    after week 1) and Cara."""
    week1 = [
        Result("Week 1", "Ann", rank=1),
        Result("Week 1", "Ben", rank=2, knocked_out_by="Ann"),
        Result("Week 1", "Cara", rank=3, knocked_out_by="Ann"),
        Result("Week 1", "Dev", rank=4, knocked_out_by="Cara"),
        Result("Week 1", "Eli", rank=5, knocked_out_by="Ben"),
        Result("Week 1", "Fay", rank=6, knocked_out_by="Ann"),
        Result("Week 1", "Gus", rank=7, knocked_out_by="Ann"),
    ]
    week2 = [
        Result("Week 2", "Ben", rank=1),
        Result("Week 2", "Ann", rank=2, knocked_out_by="Ben"),
        Result("Week 2", "Cara", rank=3, knocked_out_by="Ben"),
    ]
    events = (Event("Week 1"), Event("Week 2", weight=final_weight))
    return League(
        Settings("absolute", structure=SEED, knockouts=rule),
        events,
        tuple(week1 + week2),
        aliases=aliases or {},
    )


def totals(table_league: League) -> dict[str, float]:
    return {row.player: row.total for row in compute_standings(table_league).rows}


def score(table_league: League, player: str, event: str) -> tuple[float, str]:
    row = next(r for r in compute_standings(table_league).rows if r.player == player)
    found = row.score(event)
    assert found is not None
    return found.value, found.explain


def test_points_per_knockout_and_a_bounty_on_the_leader() -> None:
    """10 a knockout, 10 more for the leader; the final's weight leaves them single.

    Week 1: Ann 33 + 4 KOs × 10 = 73, Ben 27 + 10 = 37, Cara 21 + 10 = 31 (no leader yet).
    Week 2 × 2: Ben 33 × 2 = 66 + 2 KOs × 10 + 10 for Ann, the leader = 96; Ann 27 × 2 = 54;
    Cara 21 × 2 = 42. Totals: Ben 37 + 96 = 133, Ann 73 + 54 = 127, Cara 31 + 42 = 73.
    """
    rule = KnockoutRule(points=10, bounty=10, bounties=("leader",))
    table = compute_standings(league(rule))
    assert [(r.rank, r.player, r.total) for r in table.rows[:3]] == [
        (1, "Ben", 133),
        (2, "Ann", 127),
        (3, "Cara", 73),
    ]
    assert score(league(rule), "Ann", "Week 1") == (
        73,
        "rank 1: 25 + 5 participating + 3 bonus = 33 + 4 KOs × 10 = 73",
    )
    assert score(league(rule), "Ben", "Week 2") == (
        96,
        "rank 1: 25 + 5 participating + 3 bonus = 33, × 2 (event weight) = 66 + 2 KOs × 10 "
        "+ 1 bounty × 10 (Ann, the leader) = 96",
    )
    assert score(league(rule), "Dev", "Week 1") == (15, "rank 4: 10 + 5 participating = 15")


def test_knockouts_weighted_doubles_them_too() -> None:
    """With Knockouts weighted: Ben's final (33 + 20 + 10) × 2 = 126."""
    rule = KnockoutRule(points=10, bounty=10, weighted=True)
    assert score(league(rule), "Ben", "Week 2") == (
        126,
        "rank 1: 25 + 5 participating + 3 bonus = 33 + 2 KOs × 10 + 1 bounty × 10 (Ann, the "
        "leader) = 63, × 2 (event weight) = 126",
    )


def test_the_leader_is_the_leader_as_the_table_stood() -> None:
    """Without knockout points in week 1 the leader is still Ann (33 > 27); a bounty only,
    200 points: Ben's final 66 + 200 = 266."""
    rule = KnockoutRule(bounty=200)
    assert score(league(rule), "Ben", "Week 2")[0] == 266
    assert score(league(rule), "Ann", "Week 1")[0] == 33  # no leader before the first event


def test_a_bounty_on_last_events_winner() -> None:
    """``last winner``: Ann won week 1, so Ben collects it in week 2: 66 + 5 = 71."""
    rule = KnockoutRule(bounty=5, bounties=("last winner",))
    assert score(league(rule), "Ben", "Week 2") == (
        71,
        "rank 1: 25 + 5 participating + 3 bonus = 33, × 2 (event weight) = 66 + 1 bounty × 5 "
        "(Ann, last event's winner) = 71",
    )


def test_a_bounty_on_named_players_follows_aliases() -> None:
    """A bounty on ``Cara Jones``, whose results say Cara (an alias): Ann collects it in week
    1 (33 + 5 = 38) and Ben in week 2 (66 + 5 = 71); a player named who never played is no
    error."""
    rule = KnockoutRule(bounty=5, bounties=("Cara Jones", "Zed"))
    named = league(rule, aliases={"Cara": "Cara Jones"})
    assert score(named, "Ann", "Week 1") == (
        38,
        "rank 1: 25 + 5 participating + 3 bonus = 33 + 1 bounty × 5 (Cara, a bounty) = 38",
    )
    assert score(named, "Ben", "Week 2")[0] == 71


def test_tied_leaders_each_carry_a_bounty() -> None:
    """Week 1 a shared win (1, 1: (33 + 27) / 2 = 30 each): both lead; Cy knocks out both in
    week 2 and collects two bounties: 33 + 2 × 10 = 53."""
    results = (
        Result("W1", "Ann", rank=1),
        Result("W1", "Ben", rank=1),
        Result("W2", "Cy", rank=1),
        Result("W2", "Ann", rank=2, knocked_out_by="Cy"),
        Result("W2", "Ben", rank=3, knocked_out_by="Cy"),
    )
    rule = KnockoutRule(bounty=10)
    table = League(
        Settings("absolute", structure=SEED, knockouts=rule), (Event("W1"), Event("W2")), results
    )
    assert score(table, "Cy", "W2") == (
        53,
        "rank 1: 25 + 5 participating + 3 bonus = 33 + 2 bounties × 10 (Ann, the leader; Ben, "
        "the leader) = 53",
    )


def test_the_tie_break_decides_who_leads() -> None:
    """Ann 33 + 27 and Ben 27 + 33 tie on 60 after W2; with the most recent event as the
    tie-break Ben leads (33 in W2 to Ann's 27), so only Cy, who knocks Ben out in W3, collects
    the bounty: 33 + 10 = 43, and Dee, who knocks Ann out, scores her 2nd place's 27. With no
    tie-break both lead and Dee collects too: 27 + 10 = 37."""
    results = (
        Result("W1", "Ann", rank=1),
        Result("W1", "Ben", rank=2),
        Result("W2", "Ben", rank=1),
        Result("W2", "Ann", rank=2),
        Result("W3", "Cy", rank=1),
        Result("W3", "Dee", rank=2),
        Result("W3", "Ann", rank=3, knocked_out_by="Dee"),
        Result("W3", "Ben", rank=4, knocked_out_by="Cy"),
    )
    events = (Event("W1"), Event("W2"), Event("W3"))
    rule = KnockoutRule(bounty=10)
    settings_ = Settings("absolute", structure=SEED, knockouts=rule, tie_breaks=("recent",))
    by_recent = League(settings_, events, results)
    assert score(by_recent, "Cy", "W3")[0] == 43
    assert score(by_recent, "Dee", "W3")[0] == 27
    tied = League(dataclasses.replace(settings_, tie_breaks=()), events, results)
    assert score(tied, "Cy", "W3")[0] == 43
    assert score(tied, "Dee", "W3")[0] == 37


def test_a_knockouts_count_without_names() -> None:
    """The Knockouts cell alone: 3 knockouts at 10 is 30 more (Neau's formula: √(10 × 20 × 20
    / 20) / 2 = 7.07 + 30 = 37.07)."""
    results = (Result("W1", "Ann", rank=1, knockouts=3), Result("W1", "Ben", rank=2))
    table = League(
        Settings("neau", knockouts=KnockoutRule(points=10)),
        (Event("W1", buy_in=20, players=10),),
        results,
    )
    value, working = score(table, "Ann", "W1")
    assert value == pytest.approx(37.0710678)
    assert working == "√(10 × 20 × 20 / 20) / (1 + 1) = 7.07 + 3 KOs × 10 = 37.07"


def test_a_count_may_exceed_the_names_but_not_fall_short() -> None:
    """A count of 2 with one player naming Ann is fine (someone not listed); with two naming
    her a count of 1 is refused at the Knockouts cell."""
    rule = KnockoutRule(points=10)
    fine = (
        Result("W1", "Ann", rank=1, knockouts=2),
        Result("W1", "Ben", rank=2, knocked_out_by="Ann"),
    )
    table = League(Settings("reverse", knockouts=rule), (Event("W1", players=3),), fine)
    assert score(table, "Ann", "W1")[0] == 3 + 20  # (3 − 1 + 1) + 2 KOs × 10
    short = (
        Result("W1", "Ann", rank=1, knockouts=1),
        Result("W1", "Ben", rank=2, knocked_out_by="Ann"),
        Result("W1", "Cy", rank=3, knocked_out_by="ann"),
    )
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(League(Settings("reverse", knockouts=rule), (Event("W1"),), short))
    [problem] = caught.value.problems
    assert (problem.player, problem.field, problem.message) == (
        "Ann",
        "knockouts",
        "knockouts (1) is less than the 2 results that name Ann in Knocked out by",
    )


def test_who_knocked_a_player_out_must_have_played() -> None:
    """A name in Knocked out by that is no player of the event, or the player themselves, is a
    problem at that cell; a bad count is one at its own."""
    results = (
        Result("W1", "Ann", rank=1, knockouts=-1),
        Result("W1", "Ben", rank=2, knocked_out_by="Bem"),
        Result("W1", "Cy", rank=3, knocked_out_by="Cy"),
    )
    rule = KnockoutRule(points=10)
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(League(Settings("reverse", knockouts=rule), (Event("W1"),), results))
    assert [(p.player, p.field, p.message) for p in caught.value.problems] == [
        (
            "Ben",
            "knocked out by",
            "'Bem' has no result in 'W1': whoever knocked a player out must be listed in the event",
        ),
        ("Cy", "knocked out by", "Cy cannot knock themselves out"),
        ("Ann", "knockouts", "knockouts must not be negative (-1)"),
    ]


def test_knockout_points_are_for_poker_finishes() -> None:
    """A rally league with Knockout points is refused, naming the setting."""
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(
            League(
                Settings("rally", knockouts=KnockoutRule(points=10)), (Event("E", rounds=4),), ()
            )
        )
    [problem] = caught.value.problems
    assert (problem.field, problem.message) == (
        "knockout points",
        "knockout points are for poker leagues' finishes, not the Rapidplay Rally",
    )


def test_a_league_without_knockout_points_ignores_the_columns() -> None:
    """Knockouts entered but no Knockout points: the scores are the seed's, working and all."""
    plain = league(KnockoutRule(), final_weight=None)
    assert score(plain, "Ann", "Week 1") == (33, "rank 1: 25 + 5 participating + 3 bonus = 33")
    assert totals(plain)["Ben"] == 27 + 33


def test_a_league_without_knockout_points_does_not_check_knocked_out_by() -> None:
    """With nothing counting them, a name in Knocked out by that is no player of the event
    blocks nothing: the column is not read (docs/workbook-format.md, Results)."""
    results = (Result("W1", "Ann", rank=1), Result("W1", "Ben", rank=2, knocked_out_by="Bem"))
    table = compute_standings(League(Settings("reverse"), (Event("W1"),), results))
    assert [(r.player, r.total) for r in table.rows] == [("Ann", 2), ("Ben", 1)]


POKER = st.sampled_from(["absolute", "reverse"])


@st.composite
def knockout_leagues(draw: st.DrawFn) -> tuple[League, str, int]:
    """A league of up to 4 events of up to 6 players, with knockout names drawn among the
    players who finished better; and one result to add a knockout to."""
    names = ["Al", "Bo", "Cy", "Di", "Ed", "Fy"]
    results = []
    events = []
    for number in range(draw(st.integers(1, 4))):
        event = f"E{number}"
        events.append(Event(event))
        field = draw(st.permutations(names))[: draw(st.integers(2, 6))]
        for place, player in enumerate(field, start=1):
            hitman = (
                draw(st.one_of(st.none(), st.sampled_from(field[: place - 1])))
                if place > 1
                else None
            )
            results.append(Result(event, player, rank=place, knocked_out_by=hitman))
    rule = KnockoutRule(
        points=draw(st.sampled_from([0, 1, 10])),
        bounty=draw(st.sampled_from([0, 5])),
        bounties=draw(st.sampled_from([("Al",), ("Bo", "Cy"), ()])) or ("Di",),
    )
    settings_ = Settings(
        draw(POKER), structure=SEED, knockouts=rule, best_x=draw(st.sampled_from([None, 2]))
    )
    return (
        League(settings_, tuple(events), tuple(results)),
        draw(st.sampled_from(names)),
        draw(st.integers(0, len(results) - 1)),
    )


def _with_one_more(table: League, index: int) -> League:
    """The league with one more knockout in the result at ``index`` (its count is its names
    plus one)."""
    results = list(table.results)
    target = results[index]
    named = sum(
        1
        for r in results
        if r.event == target.event
        and r.knocked_out_by is not None
        and r.knocked_out_by == target.player
    )
    results[index] = target._replace(knockouts=named + 1)
    return dataclasses.replace(table, results=tuple(results))


@given(knockout_leagues())
@settings(max_examples=80, deadline=None)
def test_a_knockout_never_lowers_a_total(drawn: tuple[League, str, int]) -> None:
    """One knockout more (points per knockout, bounties on named players) never lowers the
    total of the player who made it, nor their score in that event."""
    table, _, index = drawn
    player = table.results[index].player
    event = table.results[index].event
    before = compute_standings(table)
    after = compute_standings(_with_one_more(table, index))
    row_before = next(r for r in before.rows if r.player == player)
    row_after = next(r for r in after.rows if r.player == player)
    assert row_after.total >= row_before.total
    score_before, score_after = row_before.score(event), row_after.score(event)
    assert score_before is not None
    assert score_after is not None
    assert score_after.value >= score_before.value
    assert score_after.value - score_before.value == table.settings.knockouts.points


@given(knockout_leagues())
@settings(max_examples=60, deadline=None)
def test_a_knockout_never_lowers_the_event_score_with_a_leader_bounty(
    drawn: tuple[League, str, int],
) -> None:
    """With a bounty on the leader, one knockout more still never lowers the score of the
    event it was made in (who leads later may change, so a season total may move either way:
    the property holds event by event)."""
    table, _, index = drawn
    rule = dataclasses.replace(table.settings.knockouts, bounty=10, bounties=("leader",))
    table = dataclasses.replace(table, settings=dataclasses.replace(table.settings, knockouts=rule))
    player, event = table.results[index].player, table.results[index].event
    before = next(r for r in compute_standings(table).rows if r.player == player).score(event)
    after = next(
        r for r in compute_standings(_with_one_more(table, index)).rows if r.player == player
    ).score(event)
    assert before is not None
    assert after is not None
    assert after.value >= before.value


@st.composite
def leader_leagues(draw: st.DrawFn) -> League:
    """Up to 5 events of up to 6 players, everyone but the winner knocked out by a better
    finisher, with a bounty on the leader, and a drawn Best X, tie-break chain and minimum."""
    names = ["Al", "Bo", "Cy", "Di", "Ed", "Fy"]
    events, results = [], []
    for number in range(draw(st.integers(2, 5))):
        event = f"E{number}"
        events.append(Event(event))
        field = draw(st.permutations(names))[: draw(st.integers(2, 6))]
        for place, player in enumerate(field, start=1):
            hitman = draw(st.sampled_from(field[: place - 1])) if place > 1 else None
            results.append(Result(event, player, rank=place, knocked_out_by=hitman))
    rule = KnockoutRule(points=draw(st.sampled_from([0, 3])), bounty=7, bounties=("leader",))
    chain = draw(st.sampled_from([(), ("countback",), ("recent", "events"), ("best",)]))
    settings_ = Settings(
        draw(POKER),
        structure=SEED,
        knockouts=rule,
        best_x=draw(st.sampled_from([None, 1, 2])),
        tie_breaks=chain,
        min_events=draw(st.sampled_from([0, 2])),
        below_minimum=draw(st.sampled_from(["ranked after", "unranked"])),
    )
    return League(settings_, tuple(events), tuple(results))


@given(leader_leagues())
@settings(max_examples=80, deadline=None)
def test_the_bounty_goes_to_whoever_knocks_out_the_leader_of_the_table_as_it_stood(
    table: League,
) -> None:
    """Oracle: the leaders before event k are the first row(s) of the standings computed from
    the events before k alone (their rule, minimum and tie-breaks); in event k exactly the
    results knocking out one of them collect a bounty, naming that leader."""
    full = compute_standings(table)
    for k, event in enumerate(table.events[1:], start=1):
        before = dataclasses.replace(
            table,
            events=table.events[:k],
            results=tuple(
                r for r in table.results if r.event in {e.name for e in table.events[:k]}
            ),
        )
        leaders = {r.player for r in compute_standings(before).rows if r.rank == 1 and r.ranked}
        expected = {
            (r.knocked_out_by, r.player)
            for r in table.results
            if r.event == event.name and r.player in leaders and r.knocked_out_by
        }
        collected = set()
        for row in full.rows:
            found = row.score(event.name)
            if found is not None and isinstance(found.working, KnockedOut):
                for bounty in found.working.bounties:  # "Ann, the leader"
                    victim, why = bounty.split(", ", 1)
                    assert why == "the leader"
                    collected.add((row.player, victim))
        assert collected == expected
