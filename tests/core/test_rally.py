"""The Rapidplay Rally event score and best-N rule, against the seed's worked examples."""

from __future__ import annotations

import pytest
from conftest import SEED

from xlrally.core.errors import ScoringError
from xlrally.core.systems import rally

CASES = SEED["rally_event_score"]["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_event_score_matches_seed(case: dict[str, float]) -> None:
    """Every worked example in the rally rules gives the published score."""
    score = rally.event_score(case["points"], case["rounds"], case["byes"], case["games"])
    assert score == case["score"]


@pytest.mark.parametrize(("held", "counted"), SEED["rally_events_counted"]["cases"])
def test_events_counted_matches_seed_table(held: int, counted: int) -> None:
    """⌈(min(held, 9) + 1) / 2⌉, so never more than 5."""
    assert rally.events_counted(held) == counted


def test_events_cap_is_a_setting() -> None:
    """A club with cap 11 counts 6 of 11 events (hand-worked: ⌈12 / 2⌉ = 6)."""
    assert rally.events_counted(11, cap=11) == 6


def test_games_default_to_rounds_less_byes() -> None:
    """Seed example 2 without games given: 5 rounds, 1 bye -> 4 games -> 54."""
    assert rally.event_score(points=2, rounds=5, byes=1) == 54


def test_floor_is_exact_where_floats_would_slip() -> None:
    """100 × 1.5 / 3 + 1 = 51 exactly; and 100 × 0.5 / 3 + 1 = 17.67 -> 17 (hand-worked)."""
    assert rally.event_score(1.5, 3, 0, 2) == 52  # 50 + 2
    assert rally.event_score(0.5, 3, 0, 1) == 17


def test_explain_shows_the_formula() -> None:
    """The working as the seed writes it (example 3)."""
    assert rally.score_event(1.5, 6, 1, 4).explain == "100 × 1.5 / (6 − 1) + 4 = 34"
    assert rally.score_event(3, 4).explain == "100 × 3 / 4 + 4 = 79"


@pytest.mark.parametrize(
    ("args", "field", "message"),
    [
        ((1, 4, 4, 0), "byes", "byes (4) must be less than rounds (4)"),
        ((1, 4, 1, 4), "games", "games (4) + byes (1) must not exceed rounds (4)"),
        ((3, 4, 0, 2), "points", "points (3) must not exceed games played (2)"),
        ((1.25, 4, 0, 4), "points", "points must be in half-point steps, not 1.25"),
        ((-1, 4, 0, 4), "points", "points must not be negative (-1)"),
        ((1, 4, -1, 4), "byes", "byes must not be negative (-1)"),
        ((1, 0, 0, 0), "rounds", "rounds must be at least 1, not 0"),
        ((1, 4.5, 0, 4), "rounds", "rounds must be a whole number, not 4.5"),
        (("two", 4, 0, 4), "points", "points must be a number, not 'two'"),
    ],
)
def test_bad_results_name_the_field(args: tuple[object, ...], field: str, message: str) -> None:
    """Each rule broken raises a ScoringError naming the field and the numbers."""
    with pytest.raises(ScoringError) as caught:
        rally.score_event(*args)
    assert caught.value.field == field
    assert str(caught.value) == message
