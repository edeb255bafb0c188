"""Checked numbers and their words (xlrally.core.numbers): the least each number may be, any
kind of real number, ordinals (issue 18: rules whose breaking no test noticed)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlrally.core.numbers import show


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (1, "1st"),
        (10, "10th"),
        (11, "11th"),
        (20, "20th"),
        (21, "21st"),
        (111, "111th"),
        (112, "112th"),
        (211, "211th"),
        (1001, "1001st"),
    ],
)
def test_ordinals_in_english(n: int, text: str) -> None:
    """11-13 of every hundred take "th" (111th, 211th), other endings in 1, 2, 3 do not."""
    from xlrally.core.numbers import ordinal

    assert ordinal(n) == text


def test_the_least_each_number_may_be() -> None:
    """A placement, a field, rounds and an events cap start at 1; a buy-in is more than 0."""
    from xlrally.core.errors import ScoringError
    from xlrally.core.systems.dippouch import percentile, tournament_value
    from xlrally.core.systems.poker import neau_points
    from xlrally.core.systems.rally import events_counted

    with pytest.raises(ScoringError, match="rank must be at least 1"):
        percentile(0, 10)
    with pytest.raises(ScoringError, match="players must be at least 1"):
        tournament_value(0)
    with pytest.raises(ScoringError, match="rounds must be at least 1"):
        tournament_value(10, rounds=0)
    with pytest.raises(ScoringError, match="events cap must be at least 1"):
        events_counted(3, 0)
    with pytest.raises(ScoringError, match="buy-in must be more than 0"):
        neau_points(10, 0, None, 1)


def test_the_smallest_allowed_numbers_are_allowed() -> None:
    """An events cap of 1 counts ⌈(1 + 1) / 2⌉ = 1 event; a buy-in of 1 (10 players, no
    re-buys, 1st): √(10 × 1 × 1) / 2 = 1.5811; a one-round event of 1 player: 1 / 7 + 2."""
    from xlrally.core.systems.dippouch import tournament_value
    from xlrally.core.systems.poker import neau_points
    from xlrally.core.systems.rally import events_counted

    assert events_counted(5, 1) == 1
    assert neau_points(10, 1, None, 1) == pytest.approx(1.5811, abs=1e-4)
    assert tournament_value(1, rounds=1) == pytest.approx(1 / 7 + 2)


def test_numbers_of_other_kinds_follow_the_same_rules() -> None:
    """The functions take any real number, not only Python's int and float (a library may
    hand over its own kind): a Fraction stands for them here. The same bounds hold: the least
    allowed is allowed, a whole number is whole, and infinity is refused by name."""
    from fractions import Fraction

    from xlrally.core.errors import ScoringError
    from xlrally.core.numbers import real, whole

    assert whole(Fraction(1), "rounds", minimum=1) == 1
    assert whole(Fraction(0), "byes") == 0
    assert real(Fraction(3, 2), "points") == Fraction(3, 2)
    with pytest.raises(ScoringError) as caught:
        whole(Fraction(0), "rounds", minimum=1)
    assert (caught.value.message, caught.value.field) == (
        "rounds must be at least 1, not 0",
        "rounds",
    )
    with pytest.raises(ScoringError) as caught:
        real(float("inf"), "points")
    assert (caught.value.message, caught.value.field) == (
        "points must be a finite number, not inf",
        "points",
    )
    with pytest.raises(ScoringError) as caught:
        real(float("nan"), "total")
    assert caught.value.message == "total must be a finite number, not nan"


def _formatted(value: float, places: int) -> str:
    """The rule of ``show`` written out: the number to its places (correctly rounded), its
    trailing zeros and point stripped, no minus sign on a zero."""
    text = f"{float(value):.{places}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@settings(max_examples=500)
@given(
    value=st.one_of(
        st.floats(allow_nan=False, allow_infinity=False),
        st.integers(-(10**12), 10**12).map(float),
        st.integers(-(2**53), 2**53),
        st.sampled_from([2.675, -0.004, -0.0, 1e20, 0.5, 1.5, 2.5]),
    ),
    places=st.integers(0, 4),
)
def test_show_is_the_number_to_its_places_without_trailing_zeros(value: float, places: int) -> None:
    """Whole numbers (ints and whole floats) take a fast path; every number reads as the rule
    says, whichever path it takes."""
    assert show(value, places) == _formatted(value, places)
