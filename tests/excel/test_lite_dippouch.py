"""``DIPPOUCH_RATING`` in xlwings Lite, where desktop Excel hands a blank cell to Python as 0
(docs/excel.md; issue 28, finding 3): a 0 that cannot be a value is a blank there, so each
argument's blank reads as in classic Excel, where blanks arrive as None.

Hand-worked from the seed example (xlrally/core/systems/dippouch.py): 8th of 65 in an event of
several rounds: percentile (65 + 0.5 − 8) / 65 × 100 = 88.4615, value 65 / 3.5 + 2 = 20.57,
at most 15. From 55: 55 + 0.15 × 33.4615 = 60.0192. From the start rating 40: 40 + 0.15 ×
48.4615 = 47.2692.
"""

from __future__ import annotations

import pytest

import udfs
from xlrally.excel import arguments

FROM_55 = 60.0192
FROM_40 = 47.2692


@pytest.fixture(params=["classic", "lite"])
def blank(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> float | None:
    """What a blank cell arrives as: None in classic Excel, 0 in desktop Excel under Lite."""
    lite = request.param == "lite"
    monkeypatch.setattr(arguments, "LITE", lite)
    return 0.0 if lite else None


def rating(*arguments: object) -> float:
    value = udfs.DIPPOUCH_RATING(*arguments)
    assert isinstance(value, float), value
    return round(value, 4)


def test_a_blank_row_of_placements_is_an_event_not_played(blank: float | None) -> None:
    """The second row is blank in every column: only the first event moves the rating."""
    got = rating(
        [[8.0], [blank]],
        [[65.0], [blank]],
        [[3.0], [blank]],
        [[blank], [blank]],
        [[2002.0], [blank]],
        55.0,
    )
    assert got == FROM_55


def test_blank_rounds_are_several_rounds_and_a_blank_year_counts(blank: float | None) -> None:
    """Rounds left blank: taken as several (value 15, not 65 / 7 + 2 = 11.29 for one round);
    the year left blank: a year that counts (not 0, before 2001, which would make it worth 0)."""
    assert rating(8.0, 65.0, blank, blank, blank, 55.0) == FROM_55


def test_a_blank_start_rating_is_the_start_rating(blank: float | None) -> None:
    assert rating(8.0, 65.0, 3.0, blank, 2002.0, blank) == FROM_40


def test_nothing_played_and_no_start_rating_is_blank(blank: float | None) -> None:
    """Every cell blank, the start rating's too: a blank result, as for a blank row of every
    other function (desktop Lite once gave 40, the start rating, where classic Excel gives "")."""
    row = [[blank], [blank]]
    assert udfs.DIPPOUCH_RATING(row, row, row, row, row, blank) == ""


def test_nothing_played_from_a_given_start_rating_is_that_rating(blank: float | None) -> None:
    row = [[blank], [blank]]
    assert udfs.DIPPOUCH_RATING(row, row, row, row, row, 55.0) == 55.0
