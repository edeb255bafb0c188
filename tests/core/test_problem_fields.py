"""Each problem names the field at fault, so that the workbook's message points at that cell
(``Results!B7``, not the row's first cell); and one mistake in a row does not stop the rows after
it from being read and checked.

The expected messages are the ones docs/warnings.md and docs/errors.md list; the numbers are
hand-worked from the rules in the docstrings of ``core/systems/poker.py`` (the Neau seed).
"""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

import pytest

from xlrally.core.errors import LeagueProblems
from xlrally.core.league import compute_standings
from xlrally.core.model import MAX_NAME_LENGTH, Event, League, Result, Settings

D = dt.date


class At(NamedTuple):
    """An origin that names the field itself, so that a test sees which field a message
    points at (a workbook's origin turns the field into its column letter)."""

    sheet: str
    row: int

    def where(self, field: str | None = None) -> str:
        return f"{self.sheet}!{field}@{self.row}"


def found(league: League) -> list[tuple[str | None, str | None, str | None, str]]:
    """(event, player, field, message) of each problem, in the order reported."""
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(league)
    return [(p.event, p.player, p.field, p.message) for p in caught.value.problems]


def rally(*results: Result) -> League:
    events = (Event("E1", D(2025, 1, 1), rounds=4), Event("E2", D(2025, 2, 1), rounds=4))
    return League(Settings("rally"), events, results)


def test_each_result_problem_names_its_field_and_the_rows_after_it_are_still_read() -> None:
    """The same four faulty rows twice over, each after an unknown event: every fault is
    reported, and a fault in a row never hides the faults (or the good rows) after it."""
    long_name = "x" * (MAX_NAME_LENGTH + 1)
    too_long = f"player name is {MAX_NAME_LENGTH + 1} characters long; at most 255"
    results: list[Result] = []
    expected: list[tuple[str | None, str | None, str | None, str]] = []
    for unknown, event, blank, twice in (("E9", "E1", "   ", "bo"), ("E7", "E2", " ", "BO")):
        results += [
            Result(unknown, "Al", points=1),
            Result(event, blank, points=1),
            Result(event, long_name, points=1),
            Result(event, "Bo", points=1),
            Result(event, twice, points=2),
        ]
        expected += [
            (unknown, "Al", "event", f"event {unknown!r} is not in the Events sheet"),
            (event, blank, "player", "player name is missing"),
            (event, long_name, "player", too_long),
            (event, twice, "player", f"'Bo' has two results in {event!r}"),
        ]
    assert found(rally(*results)) == expected


def test_a_name_of_the_longest_length_allowed_is_accepted() -> None:
    """255 characters is within the limit (the limit says "at most 255")."""
    name = "y" * MAX_NAME_LENGTH
    table = compute_standings(rally(Result("E1", name, points=2)))
    assert [(row.player, row.total) for row in table.rows] == [(name, 54)]  # 100 × 2/4 + 4


def neau(event: Event, *results: Result) -> League:
    return League(Settings("neau"), (event,), results)


def test_a_neau_result_without_rank_or_buy_in_names_that_field() -> None:
    """A Neau score needs the finishing rank and the buy-in (the event's, or the result's
    own). One result short of each: each is named at its own field."""
    league = neau(
        Event("Main", D(2025, 1, 1), players=3),
        Result("Main", "Al", rank=1, buy_in=20),
        Result("Main", "Bo", rank=None, buy_in=20),
        Result("Main", "Cy", rank=3),
    )
    problems = found(league)
    assert ("Main", "Bo", "rank", "rank is missing") in problems
    assert (
        "Main",
        "Cy",
        "buy-in",
        "buy-in is missing (give it on the event or the result)",
    ) in problems


def test_one_result_without_buy_in_is_named_two_are_one_event_message() -> None:
    """One mistake, one message: with the event's Buy-in blank, a single result without its
    own is named at its row; two or more are one message at the event's Buy-in cell."""
    one = found(
        neau(
            Event("Main", D(2025, 1, 1), players=3),
            Result("Main", "Al", rank=1, buy_in=20),
            Result("Main", "Bo", rank=2, buy_in=20),
            Result("Main", "Cy", rank=3),
        )
    )
    assert [(e, p, f) for e, p, f, _ in one] == [("Main", "Cy", "buy-in")]
    two = found(
        neau(
            Event("Main", D(2025, 1, 1), players=3),
            Result("Main", "Al", rank=1, buy_in=20, origin=At("Results", 2)),
            Result("Main", "Bo", rank=2, origin=At("Results", 3)),
            Result("Main", "Cy", rank=3, origin=At("Results", 4)),
        )
    )
    assert two == [
        (
            "Main",
            None,
            "buy-in",
            "buy-in is missing: 2 results have no Buy-in of their own (the first at "
            "Results!buy-in@3); give the event's Buy-in here",
        )
    ]


def test_ranks_past_the_results_listed_are_one_message_from_two_on() -> None:
    """Players blank: the field is the results listed. One rank past it is named at its row;
    two are one message at the event's Players cell, naming the highest rank."""
    one = found(
        neau(
            Event("Main", D(2025, 1, 1), buy_in=10),
            Result("Main", "Al", rank=1),
            Result("Main", "Bo", rank=2),
            Result("Main", "Cy", rank=5),
        )
    )
    assert [(p, f) for _, p, f, _ in one] == [("Cy", "rank")]
    assert one[0][3].endswith("(the results listed; give the event's Players if more played)")
    two = found(
        neau(
            Event("Main", D(2025, 1, 1), buy_in=10),
            Result("Main", "Al", rank=1),
            Result("Main", "Bo", rank=4),
            Result("Main", "Cy", rank=6),
        )
    )
    assert two == [
        (
            "Main",
            None,
            "players",
            "players is blank, so the 3 results listed are taken as the whole field, but ranks "
            "go up to 6: give the number of players here",
        )
    ]


def test_a_result_past_the_field_that_fails_for_another_reason_is_named_for_that() -> None:
    """Only a rank past the field is explained by the blank Players. Bo's rank (4) is past the
    3 listed, but Bo's fault is a missing buy-in: it stays at Bo's own row."""
    problems = found(
        neau(
            Event("Main", D(2025, 1, 1)),
            Result("Main", "Al", rank=1, buy_in=10),
            Result("Main", "Bo", rank=4),
            Result("Main", "Cy", rank=5, buy_in=10),
            Result("Main", "Di", rank=6, buy_in=10),
        )
    )
    assert (
        "Main",
        "Bo",
        "buy-in",
        "buy-in is missing (give it on the event or the result)",
    ) in problems
    event_messages = [p for p in problems if p[1] is None]
    assert [f for _, _, f, _ in event_messages] == ["players"]
    assert "ranks go up to 6" in event_messages[0][3]


def event_problems(system: str, event: Event) -> list[tuple[str | None, str]]:
    """(field, message) of each problem with the event's own fields."""
    league = League(Settings(system), (event,), (Result(event.name, "Al", rank=1, points=1),))
    return [(f, m) for e, p, f, m in found(league) if p is None]


def test_each_event_problem_names_its_field() -> None:
    """Each mistake in an event's row points at its own column of the Events sheet."""
    long_name = "e" * (MAX_NAME_LENGTH + 1)
    assert event_problems("rally", Event(long_name, D(2025, 1, 1), rounds=4)) == [
        ("event", f"event name is {MAX_NAME_LENGTH + 1} characters long; at most 255")
    ]
    assert event_problems("neau", Event("Main", D(2025, 1, 1), buy_in=-5))[0][0] == "buy-in"
    assert event_problems("dippouch", Event("Cup", D(2025, 1, 1), weight=2)) == [
        ("weight", "weight is for points systems: give a Dip Pouch event its Value instead")
    ]
    assert event_problems("reverse", Event("Week", D(2025, 1, 1), weight=0)) == [
        ("weight", "weight must be more than 0, not 0")
    ]
    assert event_problems("rally", Event("E1", D(2025, 1, 1), rounds=4, value=5)) == [
        ("value", "value is the Dip Pouch tournament value: for points use a Weight")
    ]
    assert event_problems("dippouch", Event("Cup", D(2025, 1, 1), value=101)) == [
        ("value", "value must be between 0 and 100 (%), not 101")
    ]


def test_rounds_are_not_checked_where_the_system_does_not_use_them() -> None:
    """A poker league's events have no rounds: a stray Rounds of 0 is ignored; the same in a
    rally (rounds required) or a Dip Pouch (rounds optional, at least 1) is an error."""
    table = compute_standings(
        League(
            Settings("reverse"),
            (Event("Week", D(2025, 1, 1), rounds=0),),
            (Result("Week", "Al", rank=1),),
        )
    )
    assert [(row.player, row.total) for row in table.rows] == [("Al", 1)]
    assert event_problems("rally", Event("E1", D(2025, 1, 1), rounds=0)) == [
        ("rounds", "rounds must be at least 1, not 0")
    ]
    assert event_problems("dippouch", Event("Cup", D(2025, 1, 1), rounds=0)) == [
        ("rounds", "rounds must be at least 1, not 0")
    ]


def test_a_field_smaller_than_its_results_is_named_at_players_and_later_events_go_on() -> None:
    """Two events, each with Players smaller than the results listed: each is named at its own
    Players cell (one does not stop the next from being checked)."""
    league = neau(
        Event("W1", D(2025, 1, 1), buy_in=10, players=1, origin=At("Events", 2)),
        Result("W1", "Al", rank=1),
        Result("W1", "Bo", rank=2),
    )
    league = League(
        league.settings,
        (*league.events, Event("W2", D(2025, 1, 8), buy_in=10, players=2, origin=At("Events", 3))),
        (*league.results, *(Result("W2", p, rank=r) for r, p in enumerate("ABC", start=1))),
    )
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(league)
    assert [str(p) for p in caught.value.problems] == [
        "Events!players@2: players (1) is less than the 2 results listed",
        "Events!players@3: players (2) is less than the 3 results listed",
    ]


def test_an_event_listed_twice_does_not_stop_the_events_after_it() -> None:
    """E1 is listed twice (reported once); E2, listed after, is still scored and checked."""
    league = League(
        Settings("rally"),
        (
            Event("E1", D(2025, 1, 1), rounds=4, origin=At("Events", 2)),
            Event("E1", D(2025, 1, 1), rounds=4, origin=At("Events", 3)),
            Event("E2", D(2025, 2, 1), rounds=4),
        ),
        (Result("E1", "Al", points=1), Result("E2", "Al", points=9)),
    )
    assert found(league) == [
        ("E1", None, "event", "event 'E1' is listed twice"),
        ("E2", "Al", "points", "points (9) must not exceed games played (4)"),
    ]
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(league)
    assert str(caught.value.problems[0]) == "Events!event@3: event 'E1' is listed twice"


def test_a_dip_pouch_result_without_a_rank_is_named_at_its_rank() -> None:
    """The other results are ranked, so the event is ranked: the one without is a mistake."""
    league = League(
        Settings("dippouch"),
        (Event("Cup", D(2025, 1, 1)),),
        (Result("Cup", "Al", rank=1), Result("Cup", "Bo", rank=None), Result("Cup", "Cy", rank=2)),
    )
    assert found(league) == [("Cup", "Bo", "rank", "rank is missing")]


def test_problems_read_one_per_line_and_a_files_problems_keep_the_file() -> None:
    """What a command line or a log shows: one problem a line, each after its file."""
    from pathlib import Path

    from xlrally.core.errors import FileProblems, Problem

    problems = LeagueProblems([Problem("a", event="E1"), Problem("b", origin=At("Results", 4))])
    assert str(problems) == "event 'E1': a\nResults!None@4: b"
    path = Path("league.xlsx")
    file = FileProblems.of(path, problems)
    assert file.path == path
    assert str(file) == "league.xlsx: event 'E1': a\nleague.xlsx: Results!None@4: b"


def league_problems(league: League) -> list[str]:
    """Every problem of the league, as the command line shows them."""
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(league)
    return [str(p) for p in caught.value.problems]


def test_one_missing_rank_is_an_error_not_an_unranked_event() -> None:
    """An event is "not ranked" only when no result has a rank yet; one missing is a mistake."""
    results = (
        Result("W1", "Ann", rank=1),
        Result("W1", "Bea", rank=None),
        Result("W1", "Cy", rank=2),
    )
    assert league_problems(League(Settings("reverse"), (Event("W1"),), results)) == [
        "event 'W1', player 'Bea': rank is missing"
    ]


def test_a_faulty_event_is_reported_once_and_not_scored() -> None:
    """Players 'many' is refused on the event; its results are not scored (which would report
    the same field again for every result)."""
    results = (Result("W1", "Ann", rank=1), Result("W1", "Bea", rank=2))
    assert league_problems(
        League(Settings("reverse"), (Event("W1", players="many"),), results)
    ) == ["event 'W1': players must be a number, not 'many'"]
