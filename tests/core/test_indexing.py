"""What was entered, indexed (``xlrally.core.entered.index_results``): a big league's results
are indexed in a few passes at C speed where nothing is wrong (issue 33), one by one where
something is, each problem at its cell. The oracle is the one-by-one indexing, which the rest
of the suite checks against the rules (tests/core/test_names.py, test_shown_names.py): both
ways give the same index and the same problems for any results."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlrally.core import entered as entered_module
from xlrally.core.checks import Collector
from xlrally.core.entered import Entered, index_results
from xlrally.core.model import Event, League, Result, Settings

EVENTS = ("Week 1", "Week 2", "week 2 ", "Week 3")
"""Listed: Week 1 and Week 2 (also spelt "week 2 "); Week 3 is not in the Events sheet."""
NAMES = ("Ann Lee", "ann lee", "Ann  Lee ", "Lee, Ann", "Bob Ray", "Bo", "", "  ", "x" * 256)
"""Spellings of one player, an alias, and names refused: blank, and one past 255 characters."""


def _index(league: League) -> tuple[Entered, list[str]]:
    problems = Collector()
    events = {"week 1": Event("Week 1"), "week 2": Event("Week 2")}
    found = index_results(league, events, problems)
    return found, [str(p) for p in problems.problems]


@settings(max_examples=300, deadline=None)
@given(
    draws=st.lists(st.tuples(st.sampled_from(EVENTS), st.sampled_from(NAMES)), max_size=12),
    surname_first=st.booleans(),
    alias=st.booleans(),
)
def test_indexed_at_once_or_one_by_one_the_same(
    draws: list[tuple[str, str]], surname_first: bool, alias: bool
) -> None:
    league = League(
        Settings("rally", comma_names="surname first" if surname_first else "as written"),
        (),
        tuple(Result(event, name, points=1) for event, name in draws),
        aliases={"Bo": "Bob Ray"} if alias else {},
    )
    at_once = _index(league)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(entered_module, "_indexed_at_once", lambda *_: False)
        one_by_one = _index(league)
    assert at_once[1] == one_by_one[1]
    assert at_once[0].by_event == one_by_one[0].by_event
    assert at_once[0].display == one_by_one[0].display


def test_a_plain_league_is_indexed_at_once() -> None:
    """The usual league (nothing wrong) takes the fast way: each result under its event and
    its player's key, in the order entered, each name shown as first written."""
    results = (
        Result("Week 1", "Ann Lee", points=1),
        Result("Week 1", "Bob Ray", points=2),
        Result("week 2 ", "ann lee", points=3),
    )
    league = League(Settings("rally"), (), results)
    calls = []
    indexed = entered_module._indexed_at_once

    def recorded(*args: object) -> bool:
        calls.append(indexed(*args))  # type: ignore[arg-type]
        return calls[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(entered_module, "_indexed_at_once", recorded)
        found, problems = _index(league)
    assert (calls, problems) == ([True], [])
    assert found.by_event == {
        "week 1": [("ann lee", results[0]), ("bob ray", results[1])],
        "week 2": [("ann lee", results[2])],
    }
    assert found.display == {"ann lee": "Ann Lee", "bob ray": "Bob Ray"}
