"""How the reader walks the Settings, Points and Results sheets, and what it says when they
are not as docs/workbook-format.md describes: each rule with the sheet that shows it."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import Sheets, rally_sheets

from xlrally.core.errors import LeagueProblems, XlrallyError
from xlrally.formats.workbook import MemorySheets, read_league, to_share

KNOWN = "rally, absolute, reverse, neau, dippouch, formula"


def rally_with(**sheets: list[list[Any]]) -> MemorySheets:
    book = rally_sheets()
    book.update(sheets)
    return MemorySheets(book)


def test_blank_rows_and_rows_without_a_name_do_not_end_the_settings() -> None:
    """Column A names the setting, column B holds it: a blank row, a row with no name in A,
    and a name without a value are passed over, and the rows after them still count."""
    settings: list[list[Any]] = [
        ["Setting", "Value"],
        [],
        [None, "a note in B"],
        ["League"],
        ["System", "rally"],
        [],
        ["Season", "2025-26"],
    ]
    league = read_league(rally_with(Settings=settings))
    assert (league.settings.system, league.settings.league) == ("rally", "")
    assert league.settings.season == "2025-26"


def test_a_setting_given_twice_counts_where_it_is_first_given() -> None:
    settings = [["System", "rally"], ["League", "First"], ["League", "Second"], ["System", "neau"]]
    league = read_league(rally_with(Settings=settings))
    assert (league.settings.system, league.settings.league) == ("rally", "First")


@pytest.mark.parametrize("settings", [[["League", "Club"]], [["System", None]], [["System"]]])
def test_no_system_is_an_error_that_says_what_to_write(settings: list[list[object]]) -> None:
    with pytest.raises(XlrallyError) as caught:
        read_league(rally_with(Settings=settings))
    assert str(caught.value) == (
        f"Settings: no System setting (column A 'System', column B one of {KNOWN})"
    )


def test_an_unknown_system_is_named_at_its_value_cell() -> None:
    with pytest.raises(XlrallyError) as caught:
        read_league(rally_with(Settings=[["League", "Club"], ["System", "Swiss"]]))
    assert str(caught.value) == f"Settings!B2: unknown system 'Swiss': use one of {KNOWN}"


def test_a_rank_missing_from_the_points_table_scores_0() -> None:
    """docs/workbook-format.md: a rank with no row in the Points sheet scores 0 (and is
    warned about). Ranks 1, 2, 4: the table is 25, 20, 0, 10."""
    sheets: Sheets = {
        "Settings": [["System", "absolute"]],
        "Points": [["Rank", "Points"], [1, 25], [2, 20], [4, 10], [None, None], ["x", 3]],
        "Events": [["Event"], ["W1"]],
        "Results": [["Event", "Player", "Rank"], ["W1", "Ann", 1]],
    }
    with pytest.raises(LeagueProblems) as caught:
        read_league(MemorySheets(sheets))
    assert [str(p) for p in caught.value.problems] == [
        "Points!A6: rank must be a number, not the text 'x'"
    ]
    del sheets["Points"][-1]
    assert read_league(MemorySheets(sheets)).settings.structure.points == (25, 20, 0, 10)


def test_a_workbook_without_results_says_where_results_go() -> None:
    book = rally_sheets()
    del book["Results"]
    with pytest.raises(XlrallyError) as caught:
        read_league(MemorySheets(book))
    assert str(caught.value) == (
        "the workbook has no 'Results' sheet and no sheet named after an event"
    )


STRAYS: Sheets = {
    "Dec 2052": [["Player", "Points"], ["Ann", 1]],
    "Extra results": [["Player", "Points"], ["Ann", 1]],
    "May 2062": [["Notes"], ["bring the clocks"]],
}


def test_results_sheets_that_are_not_read_say_how_to_make_them_read() -> None:
    """A sheet named close to an event ('Dec 2052' for 'Dec 2025') is named with the event; a
    sheet called '... results' with no close event is told to take its event's name. A close
    name without the result columns is someone's notes: no warning."""
    league = read_league(rally_with(**STRAYS))
    assert league.notes == (
        "sheet 'Dec 2052' looks like results (Player and Points columns) but is named after no "
        "event, so it is not read: rename it 'Dec 2025', or add the event to the Events sheet",
        "sheet 'Extra results' looks like results (Player and Points columns) but is named "
        "after no event, so it is not read: name it after its event, or add the event to the "
        "Events sheet",
    )


def test_a_row_shorter_than_the_header_reads_as_blanks() -> None:
    """A sheet read from Excel is a rectangle, but a CSV or a live range trimmed at its last
    value may give short rows: cells past a row's end are blank, never an error of the
    reader. Bo's row stops before Points and Games: a result with no points is 0 points, so
    100 × 0 / 4 + 4 = 4 (seed formula, games = rounds − byes)."""
    results: list[list[Any]] = [
        ["Event", "Player", "Points", "Games"],
        ["Dec 2025", "Ann", 3, 4],
        ["Dec 2025", "Bo"],
        ["Dec 2025", "Cy", 2],
    ]
    league = read_league(rally_with(Results=results))
    assert [(r.player, r.points, r.games) for r in league.results] == [
        ("Ann", 3, 4),
        ("Bo", None, None),
        ("Cy", 2, None),
    ]


@pytest.mark.parametrize(
    ("share", "fraction"),
    [
        ("20%", 0.2),
        (" 20 % ", 0.2),
        (0.2, 0.2),
        (20, 0.2),
        (1, 1.0),
        (2, 0.02),
        (0, 0.0),
        (100, 1.0),
    ],
)
def test_a_share_is_a_fraction_a_percentage_or_a_number_of_percent(
    share: object, fraction: float
) -> None:
    """docs/workbook-format.md: `20%`, 20 or 0.2; a number up to 1 is a fraction (a cell
    formatted as a percentage holds 1 for 100%), above 1 a percentage."""
    assert to_share(share, "share") == pytest.approx(fraction)


@pytest.mark.parametrize("share", [-0.1, 101, "150%", "-5%"])
def test_a_share_outside_0_to_100_percent_is_refused(share: object) -> None:
    with pytest.raises(ValueError, match=r"share must be between 0% and 100%, not "):
        to_share(share, "share")


@pytest.mark.parametrize(
    ("points", "notes"),
    [
        (
            [[2, 20], [3, 15]],
            [
                "Points: no row for rank 1, so that place scores 0 points; add "
                "the row if that is not meant"
            ],
        ),
        ([[1, 25], [2, 20], [3, 20]], []),  # equal points for two places: meant, no warning
        (
            [[1, 25], [2, 20], [3, 21], [4, 22]],
            [
                "Points: rank 3 gets more points than rank 2 "
                "(21 > 20); correct the table if that is not "
                "meant"
            ],
        ),
    ],
)
def test_a_points_table_is_warned_about_only_where_it_may_not_mean_it(
    points: list[list[object]], notes: list[str]
) -> None:
    sheets: Sheets = {
        "Settings": [["System", "absolute"]],
        "Points": [["Rank", "Points"], *points],
        "Events": [["Event"], ["W1"]],
        "Results": [["Event", "Player", "Rank"], ["W1", "Ann", 1]],
    }
    assert list(read_league(MemorySheets(sheets)).notes) == notes


def test_a_column_headed_twice_is_read_from_its_first_heading() -> None:
    """Two Points columns (a copy pasted beside the original): the first is the one read."""
    results: list[list[Any]] = [["Event", "Player", "Points", "Points"], ["Dec 2025", "Ann", 1, 3]]
    league = read_league(rally_with(Results=results))
    assert [(r.player, r.points) for r in league.results] == [("Ann", 1)]


def test_a_row_of_zeros_is_a_row() -> None:
    """A player called 0 (a number typed as a name) who scored 0 is a result, not a blank row;
    a row of empty texts is blank."""
    sheets: Sheets = {
        "Settings": [["System", "rally"]],
        "Events": [["Event", "Rounds"], ["Dec 2025", 4]],
        "Dec 2025": [["Player", "Points"], ["Ann", 2], ["", ""], [0, 0]],
    }
    league = read_league(MemorySheets(sheets))
    assert [(r.player, r.points) for r in league.results] == [("Ann", 2), ("0", 0)]


def test_an_empty_results_sheet_says_which_columns_it_needs() -> None:
    with pytest.raises(XlrallyError) as caught:
        read_league(rally_with(Results=[]))
    assert str(caught.value) == (
        "Results: no header row with the columns Event, Player, Points in the first 20 rows"
    )


def test_an_alias_given_twice_for_one_player_is_one_alias() -> None:
    """Listed twice, in another case the second time, for the same player: no conflict."""
    players: list[list[Any]] = [["Player", "Alias"], ["Bobby", "Bob"], ["BOBBY", "bob"]]
    league = read_league(rally_with(Players=players))
    assert league.aliases == {"Bob": "Bobby"}


def test_a_player_listed_twice_is_in_the_sections_of_both_rows() -> None:
    """docs/workbook-format.md: Section, split at commas and semicolons; a player's rows add up."""
    players: list[list[Any]] = [
        ["Player", "Alias", "Section"],
        ["Ann", None, "U12; Girls"],
        ["José", None, None],
        ["Ann", None, "Girls, County"],
    ]
    league = read_league(rally_with(Players=players))
    assert dict(league.sections) == {"Ann": ("U12", "Girls", "County")}


def test_a_blank_row_in_the_points_table_does_not_end_it() -> None:
    sheets: Sheets = {
        "Settings": [["System", "absolute"]],
        "Points": [["Rank", "Points"], [1, 25], [None, None], [2, 20]],
        "Events": [["Event"], ["W1"]],
        "Results": [["Event", "Player", "Rank"], ["W1", "Ann", 1]],
    }
    assert read_league(MemorySheets(sheets)).settings.structure.points == (25, 20)
