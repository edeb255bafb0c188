"""Every setting and every Events column a workbook may give reaches the league as written.

The names are the ones docs/workbook.md documents for the Settings sheet and the Events sheet;
each value below is chosen to differ from its default, so that a setting read under the wrong
name (and so left at its default) shows.
"""

from __future__ import annotations

import datetime as dt

import pytest
from helpers import Sheets

from xlrally.core.errors import LeagueProblems, XlrallyError
from xlrally.formats.workbook import MemorySheets, read_league

D = dt.date

POKER: Sheets = {
    "Settings": [
        ["Setting", "Value"],
        ["System", "Absolute Points"],
        ["League", "Thursday Hold'em"],
        ["Season", "2025-26"],
        ["Best X", 3],
        ["Events cap", 7],
        ["Participating", 5],
        ["Multiplier", 2],
        ["Player count factor", 0.5],
        ["Player count to rank", 4],
        ["Tie break", "countback"],
        ["Shared places", "better"],
        ["Date format", "d mmm yyyy"],
        ["Minimum events", 2],
        ["Below minimum", "unranked"],
        ["Pot", 300],
        ["Pot share", "20%"],
        ["Currency unit", 5],
        ["Requested byes", "absence"],
        ["Forfeit wins", "game"],
    ],
    "Points": [["Rank", "Points"], [1, 10], [2, 6], [3, 3]],
    "Events": [
        ["Event", "Date", "Players", "Weight", "Season", "Status"],
        ["W1", D(2025, 10, 2), 3, 2, "2025-26", "ranked"],
        ["W2", D(2025, 10, 9), None, None, "2025-26", "pending"],
    ],
    "Results": [["Event", "Player", "Rank"], ["W1", "Ann", 1], ["W1", "Bo", 2]],
}


def test_every_setting_is_read_under_its_documented_name() -> None:
    settings = read_league(MemorySheets(POKER)).settings
    assert (settings.system, settings.league, settings.season) == (
        "absolute",
        "Thursday Hold'em",
        "2025-26",
    )
    assert (settings.best_x, settings.events_cap) == (3, 7)
    structure = settings.structure
    assert structure.points == (10, 6, 3)
    assert (structure.participating, structure.multiplier) == (5, 2)
    assert (structure.player_count_factor, structure.player_count_to_rank) == (0.5, 4)
    assert settings.tie_breaks == ("countback",)
    assert (settings.shared_places, settings.date_format) == ("better", "d mmm yyyy")
    assert (settings.min_events, settings.below_minimum) == (2, "unranked")
    assert (settings.pot, settings.pot_share, settings.currency_unit) == (300, 0.2, 5)


def test_every_events_column_is_read_under_its_documented_name() -> None:
    events = read_league(MemorySheets(POKER)).events
    assert [(e.name, e.date, e.players, e.weight, e.season, e.pending) for e in events] == [
        ("W1", D(2025, 10, 2), 3, 2, "2025-26", False),
        ("W2", D(2025, 10, 9), None, None, "2025-26", True),
    ]


def test_the_dip_pouch_events_columns_are_read() -> None:
    """Rounds, World Championship (any yes: ``yes``, ``x``, ``TRUE``) and Value."""
    sheets: Sheets = {
        "Settings": [["System", "Dip Pouch Tournament Rating"]],
        "Events": [
            ["Event", "Date", "Rounds", "World Championship", "Value"],
            ["WDC 2024", D(2024, 8, 1), 3, "yes", None],
            ["Cup", D(2024, 9, 1), 2, None, 12.5],
            ["WDC 2025", D(2025, 8, 1), 3, "x", None],
        ],
        "Results": [["Event", "Player", "Rank"], ["Cup", "Ann", 1], ["Cup", "Bo", 2]],
    }
    events = read_league(MemorySheets(sheets)).events
    assert [(e.name, e.rounds, e.world_championship, e.value) for e in events] == [
        ("WDC 2024", 3, True, None),
        ("Cup", 2, False, 12.5),
        ("WDC 2025", 3, True, None),
    ]


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (["Requested byes", "skip"], "Requested byes must be bye or absence, not 'skip'"),
        (["Forfeit wins", "win"], "Forfeit wins must be bye or game, not 'win'"),
        (["Events cap", "many"], "Events cap must be a number"),
        (["Player count to rank", "all"], "Player count to rank must be a number"),
        (["Currency unit", 0], "Currency unit must be more than 0, not 0"),
        (["Pot", "lots"], "Pot must be a number"),
        (
            ["Tie break", "coin toss"],
            "unknown tie break 'coin toss': use countback, recent, events, best",
        ),
        (["Minimum events", 1.5], "Minimum events must be a whole number of at least 1, not 1.5"),
    ],
)
def test_a_bad_setting_is_named_at_its_cell(row: list[object], message: str) -> None:
    sheets: Sheets = {
        "Settings": [["System", "rally"], row],
        "Events": [["Event", "Rounds"], ["E1", 4]],
        "Results": [["Event", "Player", "Points"], ["E1", "Ann", 1]],
    }
    with pytest.raises(LeagueProblems) as caught:
        read_league(MemorySheets(sheets))
    (problem,) = caught.value.problems
    assert str(problem).startswith(f"Settings!B2: {message}")


def test_an_events_status_other_than_ranked_or_pending_is_named_at_its_cell() -> None:
    sheets: Sheets = {
        "Settings": [["System", "rally"]],
        "Events": [["Event", "Rounds", "Status"], ["E1", 4, "Ranked"], ["E2", 4, "done"]],
        "Results": [["Event", "Player", "Points"], ["E1", "Ann", 1]],
    }
    with pytest.raises(LeagueProblems) as caught:
        read_league(MemorySheets(sheets))
    assert [str(p).split(":")[0] for p in caught.value.problems] == ["Events!C3"]


def test_an_event_row_without_a_name_is_named_at_its_event_cell() -> None:
    sheets: Sheets = {
        "Settings": [["System", "rally"]],
        "Events": [["Rounds", "Event"], [4, "E1"], [4, None], [4, "E2"]],
        "Results": [["Event", "Player", "Points"], ["E1", "Ann", 1]],
    }
    with pytest.raises(LeagueProblems) as caught:
        read_league(MemorySheets(sheets))
    assert [str(p) for p in caught.value.problems] == ["Events!B3: event name is missing"]


@pytest.mark.parametrize(
    ("written", "key"),
    [
        ("Rapidplay Rally", "rally"),
        ("ABSOLUTE POINTS", "absolute"),
        ("relative reverse order", "reverse"),
        ("Neau's Formula", "neau"),
        ("Neaus formula", "neau"),
        ("Dip-Pouch Tournament Rating", "dippouch"),
        ("DipPouch", "dippouch"),
    ],
)
def test_a_system_may_be_named_by_its_key_or_its_name(written: str, key: str) -> None:
    """docs/workbook-format.md: the key or the name the Standings show; case, spaces and
    punctuation do not matter."""
    sheets: Sheets = {
        "Settings": [["System", written]],
        "Events": [["Event", "Date", "Rounds", "Buy-in"], ["E1", D(2025, 1, 1), 4, 10]],
        "Results": [["Event", "Player", "Points", "Rank"], ["E1", "Ann", 1, 1]],
        "Points": [["Rank", "Points"], [1, 10]],
    }
    assert read_league(MemorySheets(sheets)).settings.system == key


def test_every_prizes_column_is_read_and_every_bad_row_named() -> None:
    """docs/workbook-format.md, the Prizes sheet: Place, Amount or Share (of the pot),
    Section. A share keeps its section as an amount does; each bad row is named at its cell,
    and the rows after it are still read."""
    sheets: Sheets = {
        **{k: v for k, v in POKER.items() if k != "Prizes"},
        "Prizes": [
            ["Place", "Amount", "Share", "Section"],
            [1, 50, None, None],
            ["first", 10, None, None],
            [1, None, "20%", "Ladies"],
            [2, 5, "10%", None],
            [2, None, "150%", None],
            [3, 20, None, "Juniors"],
        ],
    }
    with pytest.raises(LeagueProblems) as caught:
        read_league(MemorySheets(sheets))
    assert [str(p) for p in caught.value.problems] == [
        "Prizes!A3: place must be a number, not the text 'first'",
        "Prizes!B5: give the place an Amount or a Share of the pot",
        "Prizes!C6: share must be between 0% and 100%, not '150%'",
    ]
    for row in (2, 4, 5):  # the bad rows, out
        sheets["Prizes"][row] = []
    prizes = read_league(MemorySheets(sheets)).settings.prizes
    assert [(p.place, p.amount, p.share, p.section) for p in prizes] == [
        (1, 50, None, ""),
        (1, None, 0.2, "Ladies"),
        (3, 20, None, "Juniors"),
    ]


def test_a_choice_left_blank_is_its_first() -> None:
    """A choice setting with its value blank takes the documented default, the first choice
    (Shared places: average; Below minimum: ranked after; Date format: yyyy-mm-dd)."""
    sheets: Sheets = {
        **POKER,
        "Settings": [
            ["System", "absolute"],
            ["Shared places", None],
            ["Below minimum", ""],
            ["Date format", None],
        ],
    }
    settings = read_league(MemorySheets(sheets)).settings
    assert (settings.shared_places, settings.below_minimum, settings.date_format) == (
        "average",
        "ranked after",
        "yyyy-mm-dd",
    )


def test_a_currency_unit_below_1_is_a_unit() -> None:
    """Prizes rounded to 50p: a Currency unit of 0.5 is allowed (only 0 or less is not)."""
    sheets: Sheets = {**POKER, "Settings": [["System", "absolute"], ["Currency unit", 0.5]]}
    assert read_league(MemorySheets(sheets)).settings.currency_unit == 0.5


def test_a_dip_pouch_events_sheet_needs_its_date_column() -> None:
    """Dip Pouch rates events in date order: an Events sheet without a Date column is named."""
    sheets: Sheets = {
        "Settings": [["System", "dippouch"]],
        "Events": [["Event", "Rounds"], ["Cup", 2]],
        "Results": [["Event", "Player", "Rank"], ["Cup", "Ann", 1]],
    }
    with pytest.raises(XlrallyError) as caught:
        read_league(MemorySheets(sheets))
    assert str(caught.value).startswith("Events!A1: no Date column")
