"""Properties that hold for every input (hypothesis)."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.ranking import Score, best_n
from xlrally.core.systems import dippouch, poker, rally

NAMES = ["Al", "Bo", "Cy", "Di", "Ed", "Fay"]


@st.composite
def rally_results(draw: st.DrawFn) -> tuple[tuple[Event, ...], list[Result]]:
    events = tuple(
        Event(f"E{i}", dt.date(2025, 1, i + 1), rounds=4) for i in range(draw(st.integers(1, 6)))
    )
    results = []
    for event in events:
        for name in draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=6)):
            byes = draw(st.integers(0, 3))
            games = draw(st.integers(0, 4 - byes))
            points = draw(st.integers(0, 2 * games)) / 2
            results.append(Result(event.name, name, points=points, games=games, byes=byes))
    return events, results


@given(rally_results(), st.randoms())
@settings(max_examples=60, deadline=None)
def test_row_order_never_changes_standings(
    data: tuple[tuple[Event, ...], list[Result]], rnd: object
) -> None:
    """Shuffling result rows gives the same standings."""
    events, results = data
    shuffled = list(results)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    a = compute_standings(League(Settings("rally"), events, tuple(results)))
    b = compute_standings(League(Settings("rally"), events, tuple(shuffled)))
    assert a.rows == b.rows


@given(rally_results())
@settings(max_examples=60, deadline=None)
def test_best_n_total_never_exceeds_sum_of_scores(
    data: tuple[tuple[Event, ...], list[Result]],
) -> None:
    """A player's total is at most the sum of all their scores."""
    events, results = data
    for row in compute_standings(League(Settings("rally"), events, tuple(results))).rows:
        assert row.total <= sum(s.value for s in row.scores)
        assert len(row.counted) <= rally.events_counted(len(events))


@given(st.lists(st.floats(0, 200, allow_nan=False), max_size=12), st.integers(0, 12))
def test_best_n_is_the_largest_n(values: list[float], n: int) -> None:
    """best_n picks n values and none left out is larger than one picked."""
    chosen = best_n([Score(str(i), v) for i, v in enumerate(values)], n)
    assert len(chosen) == min(n, len(values))
    left = sorted(values, reverse=True)[len(chosen) :]
    assert all(c.value >= x for c in chosen for x in left)


@given(st.integers(1, 12), st.data())
def test_more_points_never_score_less(rounds: int, data: st.DataObject) -> None:
    """Rally: with rounds, byes and games fixed, half a point more never lowers the score."""
    byes = data.draw(st.integers(0, rounds - 1))
    games = data.draw(st.integers(1, rounds - byes))
    points = data.draw(st.integers(0, 2 * games - 1)) / 2
    assert rally.event_score(points + 0.5, rounds, byes, games) >= rally.event_score(
        points, rounds, byes, games
    )


@given(st.integers(1, 200), st.data())
def test_better_finish_never_earns_fewer_points(players: int, data: st.DataObject) -> None:
    """Absolute, reverse and Neau: rank r earns at least as much as rank r + 1."""
    rank = data.draw(st.integers(1, max(1, players - 1)))
    worse = min(rank + 1, players)
    table = tuple(sorted(data.draw(st.lists(st.integers(0, 100), max_size=10)), reverse=True))
    bonus = tuple(sorted(data.draw(st.lists(st.integers(0, 10), max_size=5)), reverse=True))
    structure = poker.PointStructure(
        points=table,
        bonus=bonus,
        participating=data.draw(st.integers(0, 5)),
        multiplier=data.draw(st.sampled_from([0.5, 1, 1.5, 2])),
        player_count_factor=data.draw(st.integers(0, 3)),
        player_count_to_rank=data.draw(st.none() | st.integers(1, 10)),
    )
    assert poker.absolute_points(rank, players, structure) >= poker.absolute_points(
        worse, players, structure
    )
    assert poker.reverse_points(rank, players, structure) >= poker.reverse_points(
        worse, players, structure
    )
    assert poker.neau_points(players, 20, 30, rank) >= poker.neau_points(players, 20, 30, worse)
    assert dippouch.percentile(rank, players) >= dippouch.percentile(worse, players)


@given(
    st.lists(
        st.tuples(
            st.integers(1, 120),
            st.data(),
            st.integers(1, 9),
            st.booleans(),
            st.integers(1995, 2030),
        ),
        min_size=1,
        max_size=30,
    )
)
@settings(max_examples=80, deadline=None)
def test_dippouch_rating_stays_within_0_and_100(
    events: list[tuple[int, st.DataObject, int, bool, int]],
) -> None:
    """Every step moves the rating part of the way towards a percentile in (0, 100)."""
    rating = dippouch.START_RATING
    for players, data, rounds, wc, year in events:
        placement = data.draw(st.integers(1, players))
        value = dippouch.tournament_value(players, rounds, wc, year)
        rating = dippouch.updated_rating(rating, value, dippouch.percentile(placement, players))
        assert 0 <= rating <= 100
