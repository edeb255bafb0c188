"""League point structures against the seed's worked tables."""

from __future__ import annotations

import pytest
from conftest import SEED

from xlrally.core.errors import ScoringError
from xlrally.core.systems import poker

ABSOLUTE = SEED["absolute_points"]
REVERSE = SEED["relative_reverse_order"]
NEAU = SEED["neau_points"]["cases"]

SEED_ABSOLUTE = poker.PointStructure(
    points=tuple(ABSOLUTE["settings"]["points"]),
    bonus=tuple(ABSOLUTE["settings"]["bonus"]),
    participating=ABSOLUTE["settings"]["participating"],
)
SEED_REVERSE = poker.PointStructure(
    bonus=tuple(REVERSE["settings"]["bonus"]),
    participating=REVERSE["settings"]["participating"],
    multiplier=REVERSE["settings"]["multiplier"],
)


@pytest.mark.parametrize(("rank", "points"), ABSOLUTE["by_rank"].items())
def test_absolute_points_match_seed(rank: str, points: float) -> None:
    """25/20/15/10/5 + 5 participating + 3/2/1 bonus: 33, 27, 21, 15, 10, 5, 5."""
    assert poker.absolute_points(int(rank), 7, SEED_ABSOLUTE) == points


def test_player_count_points_only_to_the_chosen_rank() -> None:
    """Seed: 8 players × factor 2 = 16 more points, ranks 1..R only (R = 3 here)."""
    structure = poker.PointStructure(
        points=(25, 20, 15, 10, 5), player_count_factor=2, player_count_to_rank=3
    )
    assert [poker.absolute_points(r, 8, structure) for r in (1, 3, 4, 8)] == [41, 31, 10, 0]


def test_player_count_factor_zero_means_none() -> None:
    """Factor 0 adds nothing whatever the rank limit."""
    structure = poker.PointStructure(points=(25,), player_count_to_rank=3)
    assert poker.absolute_points(1, 8, structure) == 25


def test_player_count_without_rank_limit_goes_to_everyone() -> None:
    """Decision (docs/scoring.md): no rank limit set means every rank gets them."""
    structure = poker.PointStructure(player_count_factor=0.5)
    assert poker.absolute_points(8, 8, structure) == 4


@pytest.mark.parametrize(("rank", "points"), REVERSE["by_rank"].items())
def test_reverse_order_matches_seed(rank: str, points: float) -> None:
    """5 players, ×1.5, 2 participating, 3/2/1 bonus: 12.5, 10, 7.5, 5, 3.5."""
    assert poker.reverse_points(int(rank), REVERSE["settings"]["players"], SEED_REVERSE) == points


@pytest.mark.parametrize("case", NEAU)
def test_neau_matches_formula_cases(case: dict[str, float]) -> None:
    """√((a × b) × (b / c)) / (d + 1), (d + 1) outside the root."""
    points = poker.neau_points(case["a"], case["b"], case["c"], case["d"])
    assert points == pytest.approx(case["points"], abs=5e-8)


def test_neau_total_defaults_to_buy_in() -> None:
    """No re-buys: c = b, so points = √(a × b) / (d + 1) = √200 / 2 (hand-worked 7.0710678)."""
    assert poker.neau_points(10, 20, None, 1) == pytest.approx(200**0.5 / 2)


def test_explanations() -> None:
    """The working reads like the seed's tables."""
    assert poker.score_absolute(1, 7, SEED_ABSOLUTE).explain == (
        "rank 1: 25 + 5 participating + 3 bonus = 33"
    )
    assert poker.score_reverse(5, 5, SEED_REVERSE).explain == (
        "rank 5 of 5: (5 − 5 + 1) × 1.5 + 2 participating = 3.5"
    )
    assert poker.score_neau(10, 20, 40, 1).explain == "√(10 × 20 × 20 / 40) / (1 + 1) = 5"


@pytest.mark.parametrize(
    ("call", "field", "message"),
    [
        (
            lambda: poker.absolute_points(0, 5, SEED_ABSOLUTE),
            "rank",
            "rank must be at least 1, not 0",
        ),
        (
            lambda: poker.reverse_points(6, 5, SEED_REVERSE),
            "rank",
            "rank (6) must be between 1 and players (5)",
        ),
        (
            lambda: poker.neau_points(10, 20, 10, 1),
            "total",
            "total expense (10) must not be below the buy-in (20)",
        ),
        (lambda: poker.neau_points(10, 0, None, 1), "buy-in", "buy-in must be more than 0, not 0"),
        (lambda: poker.neau_points(10, 20, -5, 1), "total", "total must not be negative (-5)"),
    ],
)
def test_bad_input(call: object, field: str, message: str) -> None:
    """Out-of-range ranks and expenses raise a ScoringError naming the field."""
    with pytest.raises(ScoringError) as caught:
        call()  # type: ignore[operator]
    assert (caught.value.field, str(caught.value)) == (field, message)
