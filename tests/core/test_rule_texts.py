"""What the Standings say about how they were made: the rule line, the order of the events,
the money a pot that is a share takes. Each expected text is the documented one
(docs/workbook-format.md and docs/scoring.md), the numbers hand-worked."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from xlrally.core.errors import LeagueProblems
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.prizes import Prize

D = dt.date


def reverse(held: int, listed: int = 3, **settings: Any) -> League:
    """A Relative Reverse Order league of ``listed`` weekly events, the first ``held`` played."""
    events = tuple(Event(f"W{i}", D(2025, 1, i)) for i in range(1, listed + 1))
    results = tuple(
        Result(f"W{i}", name, rank=rank)
        for i in range(1, held + 1)
        for rank, name in enumerate(("Ann", "Bo"), start=1)
    )
    return League(Settings("reverse", **settings), events, results)


@pytest.mark.parametrize(
    ("held", "settings", "rule"),
    [
        (0, {}, "No event has been scored yet"),
        (1, {}, "The one event counts"),
        (2, {}, "All 2 events count"),
        (3, {"best_x": 2}, "Best 2 of 3 events count"),
        (1, {"best_x": 2}, "The one event counts"),
        (2, {"best_x": 5}, "All 2 events count"),
    ],
)
def test_the_rule_line_says_which_events_count(
    held: int, settings: dict[str, Any], rule: str
) -> None:
    assert compute_standings(reverse(held, **settings)).rule == rule


def test_the_dip_pouch_rule_line_says_how_a_rating_moves() -> None:
    """Dip Pouch seed (004): "Each player begins with an initial rating of 40"; each event
    moves the rating towards the percentile by the event's value in per cent."""
    league = League(
        Settings("dippouch"),
        (Event("Cup", D(2025, 1, 1)),),
        (Result("Cup", "Ann", rank=1), Result("Cup", "Bo", rank=2)),
    )
    assert compute_standings(league).rule == (
        "Everyone starts at a Dip Pouch rating of 40; each event moves a rating towards the "
        "percentile by the event's value in %"
    )


def test_events_are_listed_in_date_order_undated_last() -> None:
    """docs/workbook-format.md: "Other systems show events in date order, undated ones last"."""
    events = (
        Event("Bonus night"),
        Event("March", D(2025, 3, 1)),
        Event("January", D(2025, 1, 1)),
    )
    results = tuple(Result(e.name, "Ann", rank=1) for e in events)
    table = compute_standings(League(Settings("reverse"), events, results))
    assert [e.name for e in table.events] == ["January", "March", "Bonus night"]


def test_an_unknown_system_names_the_system_setting() -> None:
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(League(Settings("elo"), (), ()))
    (problem,) = caught.value.problems
    assert problem.field == "system"


def test_a_pot_share_counts_each_players_money_once() -> None:
    """Pot 50% of the money taken. Night 1 (event buy-in 20): Ann paid 45 in all (Total),
    Bo gave his own buy-in 25, Cy paid the event's 20: 90. Night 2 has no buy-in anywhere:
    nobody's money is known, so it adds 0 (not 1 a player). Collected 90, pot 45."""
    league = League(
        Settings("neau", prizes=(Prize(1, share=1.0),), pot_share=0.5),
        (Event("Night 1", D(2026, 1, 8), buy_in=20), Event("Night 2", D(2026, 1, 15), buy_in=5)),
        (
            Result("Night 1", "Ann", rank=1, total=45),
            Result("Night 1", "Bo", rank=2, buy_in=25),
            Result("Night 1", "Cy", rank=3),
        ),
    )
    standings = compute_standings(league)
    assert (standings.collected, standings.pot) == (90, 45)
