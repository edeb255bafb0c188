"""The Excel functions' fast paths (issue 33) give what the rule gives: a range of floats is
worked out once per distinct row, and BEST_X_TOTAL over floats checks each x once; neither may
make a row's result depend on the other rows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from xlrally.excel import functions

# Few distinct values, so that rows repeat (and hit the memo), with bad ones among them.
RANKS = st.sampled_from([1.0, 2.0, 3.0, 5.0, 8.0, 0.0, 2.5, None])
FIELDS = st.sampled_from([6.0, 8.0, 12.0, 1.0, None])
MONEY = st.sampled_from([10.0, 20.0, 40.0, 0.0, None])
ROUNDS = st.sampled_from([1.0, 4.0, 5.0, None])

CELLWISE: dict[str, tuple[Callable[..., Any], tuple[st.SearchStrategy[Any], ...]]] = {
    "RALLY_SCORE": (functions.rally_score, (RANKS, ROUNDS, RANKS, RANKS)),
    "RALLY_BEST_N": (functions.rally_best_n, (RANKS, FIELDS)),
    "NEAU_POINTS": (functions.neau_points, (FIELDS, MONEY, MONEY, RANKS)),
    "REVERSE_POINTS": (functions.reverse_points, (RANKS, FIELDS, MONEY, MONEY)),
    "DIPPOUCH_PERCENTILE": (functions.dippouch_percentile, (RANKS, FIELDS)),
    "DIPPOUCH_VALUE": (functions.dippouch_value, (FIELDS, ROUNDS)),
    "PRIZE_SHARE": (
        lambda place, sharing: functions.prize_share([[50.0], [30.0], [20.0]], place, sharing),
        (RANKS, RANKS),
    ),
    "FORMULA_POINTS": (
        lambda players, place, buy_in: functions.formula_points(
            "pokerstars", players, place, buy_in
        ),
        (FIELDS, RANKS, MONEY),
    ),
    "ABSOLUTE_POINTS": (
        lambda rank, players: functions.absolute_points(
            rank, [[25.0], [20.0], [15.0]], 5.0, [[3.0], [2.0]], players, 2.0, 3.0
        ),
        (RANKS, FIELDS),
    ),
}


@st.composite
def columns(draw: st.DrawFn, cells: tuple[st.SearchStrategy[Any], ...]) -> list[list[Any]]:
    """Same-length columns (one per argument), each row drawn from its argument's values."""
    rows = draw(st.integers(min_value=2, max_value=12))
    return [draw(st.lists(values, min_size=rows, max_size=rows)) for values in cells]


@given(st.data())
@settings(max_examples=60, deadline=None)
def test_a_range_gives_each_row_what_the_row_alone_gives(data: st.DataObject) -> None:
    """Every cellwise function over columns of floats, blanks and bad values: row r of the
    range is the function of row r's values, called on them alone (a row blank in every
    range is blank, as docs/excel.md says)."""
    for name, (function, cells) in CELLWISE.items():
        cols = data.draw(columns(cells), label=name)
        spilled = function(*[[[v] for v in column] for column in cols])
        alone = [
            [function(*row) if any(v is not None for v in row) else ""]
            for row in zip(*cols, strict=True)
        ]
        assert spilled == alone, name


SCORES = st.sampled_from([0.0, 10.0, 54.0, 79.0, 79.0, 34.5, None])
COUNTS = st.sampled_from([None, 1.0, 2.0, 3.0, 0.0, 2.5, "#N/A", "two"])


def best_x_by_rule(row: list[Any], x: Any) -> Any:
    """BEST_X_TOTAL as docs/excel.md states it: an error in x is passed on; a row without a
    score is blank; x must be a whole number of at least 1 (blank: every score); else the sum
    of the x largest scores."""
    if x == "#N/A":
        return "#N/A in x"
    numbers = sorted((v for v in row if v is not None), reverse=True)
    if not numbers:
        return ""
    if x is None:
        return sum(numbers)
    if isinstance(x, str):
        return f"#VALUE! x must be a whole number, not {x!r}"
    if x < 1 or not x.is_integer():
        return f"#VALUE! x must be a whole number of at least 1, not {x!r}"
    return sum(numbers[: int(x)])


@given(
    st.integers(min_value=1, max_value=12).flatmap(
        lambda width: st.lists(st.lists(SCORES, min_size=width, max_size=width), min_size=2)
    ),
    st.data(),
)
@settings(max_examples=200, deadline=None)
def test_best_x_total_over_floats_is_the_rule(rows: list[list[Any]], data: st.DataObject) -> None:
    """BEST_X_TOTAL over a grid of floats and blanks, with one x or one x per row."""
    per_row = data.draw(st.booleans())
    if per_row:
        counts = data.draw(st.lists(COUNTS, min_size=len(rows), max_size=len(rows)))
        got = functions.best_x_total(rows, [[c] for c in counts])
    else:
        counts = [data.draw(COUNTS)] * len(rows)
        got = functions.best_x_total(rows, counts[0])
    assert got == [[best_x_by_rule(row, x)] for row, x in zip(rows, counts, strict=True)]
