"""What it takes against the brute-force oracle (tests/core/outlook_oracle.py): for small
leagues of every system, every player's every goal (the title, the prize places, qualifying)
and the least score in the next event are exactly what enumerating every outcome gives.

The leagues are drawn by hypothesis, small enough for the oracle (a few thousand outcomes,
each a compute_standings of the finished season).
"""

from __future__ import annotations

import datetime as dt
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from outlook_oracle import Answer, event_options, oracle, outcomes

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, PointStructure, Result, Settings
from xlrally.core.numbers import whole
from xlrally.core.outlook import Chance, what_it_takes
from xlrally.core.prizes import Prize
from xlrally.core.rules import FormulaRule

NAMES = ["Ann", "Bob", "Cat"]
LIMIT = 2500
"""The most outcomes a drawn league may have (each is a compute_standings)."""
EXAMPLES = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)


def answers(league: League) -> dict[str, dict[int, Answer]]:
    """What xlrally says, in the oracle's shape."""
    outlook = what_it_takes(league, compute_standings(league))
    return {
        p.player: {g.place: Answer(str(g.chance), g.needs) for g in p.goals}
        for p in outlook.prospects
    }


def places_of(league: League) -> list[int]:
    return sorted({1, *(p.place for p in league.settings.prizes)})


def count(league: League, newcomers: int) -> int:
    """How many outcomes the oracle will enumerate."""
    standings = compute_standings(league)
    table = [row.player for row in standings.rows]
    players = table + [f"New {i}" for i in range(newcomers)]
    total = 1
    for status in standings.events:
        if status.held:
            continue
        event = next(e for e in league.events if e.name == status.name)
        field = whole(event.players, "players") if event.players is not None else max(len(table), 1)
        total *= len(event_options(event, players, field, league.settings.system))
    return total


def describe(league: League) -> str:
    """The league in short, for a failure's message."""
    s = league.settings
    lines = [
        f"{s.system} best_x={s.best_x} ties={s.tie_breaks} min={s.min_events} "
        f"{s.below_minimum} prizes={[p.place for p in s.prizes]} {s.structure}"
    ]
    for e in league.events:
        lines.append(
            f"  {e.name} {e.date} rounds={e.rounds} players={e.players} buy_in={e.buy_in} "
            f"weight={e.weight} pending={e.pending}"
        )
    for r in league.results:
        lines.append(
            f"    {r.event} {r.player} pts={r.points} g={r.games} b={r.byes} rank={r.rank} total={r.total}"
        )
    return "\n".join(lines)


def agree(league: League) -> None:
    places = places_of(league)
    found = answers(league)
    expected = oracle(league, places, newcomers=max(places))
    assert found.keys() == expected.keys()
    for player, goals in expected.items():
        for goal, answer in goals.items():
            mine = found[player][goal]
            same = mine.chance == answer.chance and (
                mine.needs is None
                if answer.needs is None
                else mine.needs is not None and math.isclose(mine.needs, answer.needs)
            )
            if not same:
                raise AssertionError(f"{player} {goal}: {mine} != {answer}\n{describe(league)}")


def common_settings(draw: st.DrawFn, system: str, **more: object) -> Settings:
    tie_breaks = draw(
        st.lists(
            st.sampled_from(["countback", "recent", "events", "best"]), unique=True, max_size=2
        )
    )
    prizes = draw(st.sampled_from([(), (Prize(1, 10),), (Prize(1, 10), Prize(2, 5))]))
    return Settings(
        system,
        best_x=draw(st.sampled_from([None, 1, 2])),
        tie_breaks=tuple(tie_breaks),
        min_events=draw(st.sampled_from([0, 0, 1, 2, 3])),
        below_minimum=draw(st.sampled_from(["ranked after", "unranked"])),
        prizes=prizes,
        **more,  # type: ignore[arg-type]
    )


def day(n: int) -> dt.date:
    return dt.date(2026, 1, 1) + dt.timedelta(days=7 * n)


@st.composite
def rally_leagues(draw: st.DrawFn) -> League:
    settings_ = common_settings(draw, "rally")
    held = draw(st.integers(1, 3))
    coming = draw(st.integers(1, 2))
    events = []
    results = []
    for i in range(held):
        rounds = draw(st.integers(1, 4))
        events.append(
            Event(f"E{i}", day(i), rounds=rounds, weight=draw(st.sampled_from([None, None, 2])))
        )
        for name in draw(st.lists(st.sampled_from(NAMES), unique=True, min_size=1)):
            byes = draw(st.integers(0, rounds - 1))
            games = draw(st.integers(0, rounds - byes))
            points = draw(st.integers(0, 2 * games)) / 2
            results.append(Result(f"E{i}", name, points=points, games=games, byes=byes))
    for j in range(coming):
        events.append(
            Event(
                f"C{j}", day(held + j), rounds=draw(st.integers(1, 2)), pending=draw(st.booleans())
            )
        )
    return League(settings_, tuple(events), tuple(results))


@st.composite
def ranked_leagues(draw: st.DrawFn, system: str) -> League:
    structure = PointStructure(
        points=tuple(draw(st.lists(st.sampled_from([0, 3, 5, 10, 15]), min_size=1, max_size=3))),
        bonus=tuple(draw(st.lists(st.sampled_from([0, 1, 2]), max_size=2))),
        participating=draw(st.sampled_from([0, 1])),
        multiplier=draw(st.sampled_from([1, 1.5])),
        player_count_factor=draw(st.sampled_from([0, 0, 1])),
    )
    more: dict[str, object] = {"structure": structure}
    if system == "formula":
        more["formula"] = FormulaRule(
            draw(st.sampled_from(["school", "pokerstars", "depth decay"]))
        )
    settings_ = common_settings(draw, system, **more)
    held = draw(st.integers(1, 3))
    coming = draw(st.integers(1, 2))
    events = []
    results = []
    for i in range(held):
        players = draw(st.lists(st.sampled_from(NAMES), unique=True, min_size=1))
        field = len(players) + draw(st.integers(0, 1))
        ranks = draw(st.permutations(range(1, field + 1)))
        events.append(
            Event(
                f"E{i}", day(i), players=field, buy_in=20, rounds=draw(st.sampled_from([None, 1]))
            )
        )
        for name, rank in zip(players, ranks, strict=False):
            total = draw(st.sampled_from([None, None, 40])) if system == "neau" else None
            results.append(Result(f"E{i}", name, rank=rank, total=total))
    for j in range(coming):
        events.append(
            Event(
                f"C{j}",
                day(held + j),
                players=draw(st.sampled_from([None, 2, 3])),
                buy_in=draw(st.sampled_from([10, 20])),
                weight=None if system == "dippouch" else draw(st.sampled_from([None, None, 2])),
                pending=True,
            )
        )
    return League(settings_, tuple(events), tuple(results))


def small(league: League) -> bool:
    return count(league, max(places_of(league))) <= LIMIT


@given(rally_leagues().filter(small))
@EXAMPLES
def test_the_rally_agrees_with_every_outcome(league: League) -> None:
    """Rally: every goal and least score of every player, as every outcome says."""
    agree(league)


@given(ranked_leagues("reverse").filter(small))
@EXAMPLES
def test_relative_reverse_order_agrees_with_every_outcome(league: League) -> None:
    """Relative Reverse Order: places shared out; as every outcome says."""
    agree(league)


@given(ranked_leagues("absolute").filter(small))
@EXAMPLES
def test_absolute_points_agree_with_every_outcome(league: League) -> None:
    """Absolute Points (tables that may not fall place by place, player-count points)."""
    agree(league)


@given(ranked_leagues("neau").filter(small))
@EXAMPLES
def test_neau_agrees_with_every_outcome(league: League) -> None:
    """Neau's formula (no re-buys to come, the event's buy-in)."""
    agree(league)


@given(ranked_leagues("formula").filter(small))
@EXAMPLES
def test_the_formula_presets_agree_with_every_outcome(league: League) -> None:
    """The field-size formula system's presets (a place's points from the field and the
    buy-in; PokerStars' top 15% only), drawn by ranked_leagues."""
    agree(league)


@given(ranked_leagues("dippouch").filter(small))
@EXAMPLES
def test_dip_pouch_agrees_with_every_outcome(league: League) -> None:
    """Dip Pouch: a rating can fall by playing, so a player's worst is playing last."""
    agree(league)


def test_the_oracle_counts_the_outcomes_it_enumerates() -> None:
    """The oracle's outcomes of one reverse event with 2 players and a field of 2: nobody
    plays (1), one of them at 1st or 2nd (4), both in either order (2): 7."""
    league = League(
        Settings("reverse"),
        (Event("W1", day(0)), Event("W2", day(1), players=2, pending=True)),
        (Result("W1", "Ann", rank=1), Result("W1", "Bob", rank=2)),
    )
    assert sum(1 for _ in outcomes(league, newcomers=0)) == 7


@given(
    st.one_of(
        rally_leagues(),
        ranked_leagues("reverse"),
        ranked_leagues("absolute"),
        ranked_leagues("dippouch"),
    ).filter(small)
)
@EXAMPLES
def test_clinched_goals_hold_and_the_least_score_is_the_least(league: League) -> None:
    """In every outcome: a clinched goal is reached; a gone one is not; a score of at least
    `needs` in the next event reaches the goal; and the next score below `needs` that the
    player can get misses it in some outcome."""
    found = what_it_takes(league, compute_standings(league))
    places = places_of(league)
    first = found.next_event
    below: dict[tuple[str, int], float] = {}
    seen: dict[tuple[str, int], bool] = {}
    scores: dict[str, set[float]] = {}
    results = []
    for finished, _ in outcomes(league, newcomers=max(places)):
        rows = {row.player: row for row in compute_standings(finished).rows}
        results.append(rows)
        for player, row in rows.items():
            score = row.score(first) if first else None
            if score is not None:
                scores.setdefault(player, set()).add(score.value)
    for prospect in found.prospects:
        for goal in prospect.goals:
            if goal.needs is not None:
                lower = [s for s in scores.get(prospect.player, ()) if s < goal.needs]
                if lower:
                    below[prospect.player, goal.place] = max(lower)
    for rows in results:
        for prospect in found.prospects:
            row = rows[prospect.player]
            score = row.score(first) if first else None
            for goal in prospect.goals:
                reached = row.needs == 0 and (goal.place == 0 or row.rank <= goal.place)
                if goal.chance is Chance.CLINCHED:
                    assert reached, (prospect.player, goal)
                if goal.chance is Chance.GONE:
                    assert not reached, (prospect.player, goal)
                if goal.needs is not None and score is not None:
                    if score.value >= goal.needs - 1e-9:
                        assert reached, (prospect.player, goal, score.value)
                    if below.get((prospect.player, goal.place)) == score.value and not reached:
                        seen[prospect.player, goal.place] = True
    for missing in below:
        assert seen.get(missing), ("the score below needs guarantees too", missing)
