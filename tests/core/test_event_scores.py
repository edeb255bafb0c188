"""A poker league's events scored at once (``PointsSystem.event_scores``: issue 33's fast path)
give what scoring each result on its own gives, or nothing and leave the event to be scored
result by result: the oracle here is the per-result scorer (tests/core/test_poker.py checks
it against the seed's worked numbers), and the whole league's standings are compared both
ways, problems and all."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlrally.core.errors import LeagueProblems, ScoringError
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, PointStructure, Result, Settings
from xlrally.core.ranking import Score
from xlrally.core.systems import SYSTEMS, poker
from xlrally.core.systems.base import PointsSystem

POKER = ("neau", "absolute", "reverse")
STRUCTURE = PointStructure(
    points=(25, 20, 15.5), bonus=(3, 2), participating=5, player_count_factor=0.5, multiplier=1.5
)
STRUCTURES = st.builds(
    PointStructure,
    points=st.lists(st.sampled_from([25, 20, 15.5, 10, 0]), max_size=4).map(tuple),
    bonus=st.lists(st.sampled_from([3, 2, 1.5]), max_size=3).map(tuple),
    participating=st.sampled_from([0, 5, 2.5]),
    multiplier=st.sampled_from([1, 1.5, 2]),
    player_count_factor=st.sampled_from([0, 0.5, 2]),
    player_count_to_rank=st.sampled_from([None, 0, 1, 3, 10]),
)
"""A league's point structure: tables shorter and longer than the fields, player-count points
for everyone, for the first few or for none."""

# Cells as sheets hand them over: ranks as floats (3.0), sometimes ints; now and then a cell a
# rule refuses (blank, text, a fraction, zero, a shared or out-of-field place, infinity).
RANKS = st.one_of(
    st.integers(1, 9).map(float),
    st.integers(1, 9),
    st.sampled_from([None, "2", 2.5, 0.0, -1.0, True, float("inf")]),
)
MONEY = st.one_of(
    st.none(),
    st.sampled_from([10, 20.0, 25, 0.5, 100.0]),
    st.sampled_from([0, -5, "20", float("nan"), True]),
)


@st.composite
def draws(draw: st.DrawFn) -> list[tuple[object, object, object]]:
    """An event's results: half the time places 1..n in some order (as a sheet holds them:
    floats, or now and then ints), else anything from the cells above."""
    if draw(st.booleans()):
        size = draw(st.integers(1, 9))
        places = draw(st.permutations([float(p) for p in range(1, size + 1)]))
        ranks: list[object] = [int(p) if draw(st.booleans()) and p > 4 else p for p in places]
        return [(rank, draw(MONEY), draw(MONEY)) for rank in ranks]
    return draw(st.lists(st.tuples(RANKS, MONEY, MONEY), min_size=1, max_size=9))


def _results(event: str, draws: Sequence[tuple[object, object, object]]) -> list[Result]:
    return [
        Result(event, f"Player {i}", rank=rank, buy_in=buy_in, total=total)
        for i, (rank, buy_in, total) in enumerate(draws)
    ]


def one_by_one(
    system: PointsSystem,
    event: Event,
    results: Sequence[Result],
    size: int,
    structure: PointStructure = STRUCTURE,
) -> list[Score] | str:
    """Each result scored by the system's own scorer, or the first refusal's message."""
    score = system.scorer(Settings(system.key, structure=structure), event, size)
    try:
        return [score(result) for result in results]
    except ScoringError as error:
        return error.message


@settings(max_examples=400, deadline=None)
@given(
    key=st.sampled_from(POKER),
    draws=draws(),
    event_buy_in=MONEY,
    extra=st.integers(0, 3),
    structure=STRUCTURES,
)
def test_an_event_scored_at_once_is_scored_as_each_result_alone(
    key: str,
    draws: list[tuple[object, object, object]],
    event_buy_in: object,
    extra: int,
    structure: PointStructure,
) -> None:
    system = SYSTEMS[key]
    assert isinstance(system, PointsSystem)
    event = Event("Week 1", buy_in=event_buy_in)
    results = _results("Week 1", draws)
    size = len(results) + extra  # Players given: more than those listed
    at_once = system.event_scores(Settings(key, structure=structure), event, results, size)
    if at_once is None:
        return  # scored result by result: the league test below covers that way
    alone = one_by_one(system, event, results, size, structure)
    assert isinstance(alone, list)  # each alone scores too
    assert at_once == alone
    assert [s.explain for s in at_once] == [s.explain for s in alone]


def test_the_usual_event_is_scored_at_once() -> None:
    """Sheets hold ranks as 1.0, 2.0 ...: the fast path is taken for a plain event. By hand:
    √(3 × 20 × 20 / 20) = √60 = 7.746, / 3 = 2.58 and / 4 = 1.94; √(3 × 20 × 20 / 40) = √30 =
    5.477, / 2 = 2.74."""
    results = _results("Week 1", [(2.0, None, None), (1.0, None, 40.0), (3.0, 20, None)])
    neau = SYSTEMS["neau"]
    assert isinstance(neau, PointsSystem)
    scores = neau.event_scores(Settings("neau"), Event("Week 1", buy_in=20.0), results, 3)
    assert scores is not None
    assert [s.explain for s in scores] == [
        "√(3 × 20 × 20 / 20) / (2 + 1) = 2.58",
        "√(3 × 20 × 20 / 40) / (1 + 1) = 2.74",
        "√(3 × 20 × 20 / 20) / (3 + 1) = 1.94",
    ]


@pytest.mark.parametrize("key", POKER)
@settings(max_examples=60, deadline=None)
@given(
    events=st.lists(
        st.tuples(MONEY, draws()),
        min_size=1,
        max_size=4,
    )
)
def test_a_league_has_the_same_standings_and_problems_either_way(
    key: str,
    events: list[tuple[object, list[tuple[object, object, object]]]],
) -> None:
    league = League(
        Settings(key, structure=STRUCTURE),
        tuple(Event(f"Week {i}", buy_in=buy_in) for i, (buy_in, _) in enumerate(events)),
        tuple(r for i, (_, draws) in enumerate(events) for r in _results(f"Week {i}", draws)),
    )
    fast = _outcome(league)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(type(SYSTEMS[key]), "event_scores", lambda *_: None)
        assert _outcome(league) == fast


def _outcome(league: League) -> object:
    try:
        return compute_standings(league)
    except LeagueProblems as problems:
        return [str(p) for p in problems.problems]


@pytest.mark.parametrize("key", ["absolute", "reverse"])
def test_every_finish_of_a_rank_table_at_once(key: str) -> None:
    """Every structure of a small grid (tables shorter and longer than the field, player-count
    points for everyone, the first 1 or 3, or none), every field of 1 to 9 players in some
    order: each finish at once is the finish scored alone."""
    finishes = poker.absolute_finishes if key == "absolute" else poker.reverse_finishes
    alone = poker.score_absolute if key == "absolute" else poker.score_reverse
    for points, bonus, factor, limit, multiplier in itertools.product(
        [(), (25,), (25, 20, 15.5, 10)],
        [(), (3, 2), (3, 2, 1.5)],
        [0, 0.5, 2],
        [None, 0, 1, 3, 10],
        [1, 1.5],
    ):
        structure = PointStructure(points, bonus, 5, multiplier, factor, limit)
        for size in range(1, 10):
            ranks = [*range(size, 0, -2), *range(size - 1, 0, -2)]
            assert finishes(ranks, size, structure) == [alone(r, size, structure) for r in ranks]
