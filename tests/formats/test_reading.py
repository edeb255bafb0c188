"""Reading leagues from workbooks: layouts, names, values, and problems with their cells."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from helpers import RALLY_SHEETS, Sheets, rally_sheets, write_book

from xlrally.app.sync import read_standings
from xlrally.core.errors import FileProblems, LeagueProblems, XlrallyError
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.players import key
from xlrally.formats.workbook import MemorySheets, read_league


def totals(path_or_sheets: Path | MemorySheets) -> list[tuple[str, str, float]]:
    if isinstance(path_or_sheets, MemorySheets):
        table = compute_standings(read_league(path_or_sheets))
    else:
        table = read_standings(path_or_sheets)
    return [(r.rank_label, r.player, r.total) for r in table.rows]


def test_results_sheet_layout(tmp_path: Path) -> None:
    """One Results sheet with an Event column (hand-worked totals in helpers.RALLY_SHEETS)."""
    path = write_book(tmp_path / "rally.xlsx", RALLY_SHEETS)
    assert totals(path) == [("1", "Bobby", 100), ("2", "José", 54)]


def test_sheet_per_event_layout(tmp_path: Path) -> None:
    """The same results on one sheet per event, named as the event, give the same standings."""
    sheets = {
        "Settings": RALLY_SHEETS["Settings"],
        "Events": RALLY_SHEETS["Events"],
        "Dec 2025": [["Player", "Points", "Games"], ["Bobby", 3, 4]],
        "May 2026": [["Player", "Points", "Games", "Byes"], ["José", 2, 4, 1], ["Bobby", 1, 1, 0]],
    }
    path = write_book(tmp_path / "per-event.xlsx", sheets)
    assert totals(path) == [("1", "Bobby", 100), ("2", "José", 54)]


def test_names_are_matched_loosely(tmp_path: Path) -> None:
    """Sheet and column names ignore case, spaces and punctuation; the header may be lower down;
    extra columns and sheets are left alone."""
    sheets: Sheets = {
        " settings ": [["SYSTEM", "Rally"]],
        "EVENTS": [["A list of events"], [], ["event ", "ROUNDS", "Notes"], ["Dec 2025", 4, "x"]],
        "results": [
            ["Player name", "Event", "points", "games played", "Club"],
            ["Bobby", "dec 2025", 3, 4, "A"],
        ],
        "Notes": [["anything"]],
    }
    path = write_book(tmp_path / "loose.xlsx", sheets)
    assert totals(path) == [("1", "Bobby", 79)]


def test_aliases_from_players_sheet(tmp_path: Path) -> None:
    """'Bob' is an alias of Bobby, so both results belong to one player."""
    sheets = dict(RALLY_SHEETS)
    sheets["Results"] = [
        ["Event", "Player", "Points", "Games"],
        ["Dec 2025", "Bobby", 3, 4],
        ["May 2026", "Bob", 1, 1],
    ]
    sheets["Players"] = [["Player", "Alias"], ["Bobby", "Bob"]]
    path = write_book(tmp_path / "alias.xlsx", sheets)
    assert totals(path) == [("1", "Bobby", 100)]


def test_numeric_text_is_accepted() -> None:
    """Numbers stored as text ('3') are read as numbers."""
    sheets = MemorySheets(
        {
            "Settings": [["System", "rally"]],
            "Events": [["Event", "Rounds"], ["E", "4"]],
            "Results": [["Event", "Player", "Points", "Games"], ["E", "Al", " 3 ", "4"]],
        }
    )
    assert totals(sheets) == [("1", "Al", 79)]


def test_text_numbers_with_commas() -> None:
    """'1,000' is a thousand; '1,5' (a decimal comma) is refused rather than read as 15."""
    from xlrally.formats.cells import to_number

    assert to_number("1,000", "points") == 1000
    with pytest.raises(ValueError, match="points must be a number, not the text '1,5'"):
        to_number("1,5", "points")


def test_settings_are_read() -> None:
    """Point structure, Best X and tie-break settings reach the core."""
    sheets = MemorySheets(
        {
            "Settings": [
                ["System", "Absolute Points"],
                ["Participating", 5],
                ["Best X", 1],
                ["Player count factor", 2],
                ["Player count to rank", 1],
                ["Tie break", "countback"],
            ],
            "Points": [["Rank", "Points", "Bonus"], [1, 25, 3], [2, 20, None]],
            "Events": [["Event"], ["W1"], ["W2"]],
            "Results": [
                ["Event", "Player", "Rank"],
                ["W1", "A", 1],
                ["W1", "B", 2],
                ["W2", "B", 1],
                ["W2", "A", 2],
            ],
        }
    )
    league = read_league(sheets)
    assert league.settings.system == "absolute"
    assert league.settings.best_x == 1
    assert league.settings.structure.points == (25, 20)
    assert league.settings.structure.bonus == (3,)  # ranks past the table get 0
    assert league.settings.tie_breaks == ("countback",)
    # Each player's best: rank 1 = 25 + 5 + 3 + 2 × 2 (2 players, factor 2, rank <= 1) = 37
    assert totals(sheets) == [("1=", "A", 37), ("1=", "B", 37)]


def test_problems_name_their_cells() -> None:
    """Text in a number column, a bad date and a core rule break are all reported with cells."""
    sheets = MemorySheets(
        {
            "Settings": [["System", "rally"]],
            "Events": [
                ["Event", "Date", "Rounds"],
                ["E1", "next week", 4],
                ["E2", dt.date(2026, 1, 1), 4],
            ],
            "Results": [
                ["Event", "Player", "Points", "Games", "Byes"],
                ["E1", "Al", "three", 4, 0],
                ["E2", "Bo", 1, 4, 4],
            ],
        }
    )
    with pytest.raises(LeagueProblems) as caught:
        read_league(sheets)
    assert [str(p) for p in caught.value.problems] == [
        "Events!B2: date must be a date (e.g. 2025-12-06), not 'next week'",
        "Results!C2: points must be a number, not the text 'three'",
        "Results!E3: byes (4) must be less than rounds (4)",
    ]


def test_missing_sheet_and_system() -> None:
    """A workbook without Settings or with an unknown system says so."""
    with pytest.raises(XlrallyError, match="the workbook has no 'Settings' sheet"):
        read_league(MemorySheets({"Events": [["Event"]]}))
    with pytest.raises(XlrallyError, match=r"Settings!B1: unknown system 'elo': use one of rally"):
        read_league(MemorySheets({"Settings": [["System", "elo"]]}))


def test_missing_columns() -> None:
    """A Results sheet without the required columns names them."""
    sheets = MemorySheets(
        {
            "Settings": [["System", "reverse"]],
            "Events": [["Event"], ["W1"]],
            "Results": [["Event", "Player", "Score"]],
        }
    )
    with pytest.raises(XlrallyError) as caught:
        read_league(sheets)
    assert (
        str(caught.value)
        == "Results!A1: no Rank column (the headers are 'Event', 'Player', 'Score')"
    )
    sheets.sheets["Results"] = [["Notes"], ["Event", "Player", "Finishing pos."]]
    with pytest.raises(XlrallyError) as caught:
        read_league(sheets)
    assert str(caught.value) == (
        "Results!A2: no Rank column (the headers are 'Event', 'Player', 'Finishing pos.'); if "
        "'Finishing pos.' is it, rename it 'Rank'"
    )
    sheets.sheets["Results"] = [["Foo", "Bar"]]
    with pytest.raises(XlrallyError, match="Results: no header row with the columns Event, Player"):
        read_league(sheets)


def test_an_unknown_header_is_named_with_the_closest_match() -> None:
    """Issue 13: 'No. of rounds' was reported as 'Events!A2: rounds is missing' on each event."""
    sheets = rally_sheets()
    sheets["Events"] = [["Event", "Date", "No. of rounds"], *(r[:3] for r in sheets["Events"][1:])]
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(read_league(MemorySheets(sheets)))
    assert [str(p) for p in caught.value.problems] == [
        "Events!A1: no Rounds column (the headers are 'Event', 'Date', 'No. of rounds'); if "
        "'No. of rounds' is it, rename it 'Rounds'"
    ]


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    """Problems read from a file carry its path."""
    sheets = dict(RALLY_SHEETS)
    sheets["Results"] = [["Event", "Player", "Points"], ["Dec 2025", "Al", 9]]
    path = write_book(tmp_path / "bad.xlsx", sheets)
    with pytest.raises(FileProblems) as caught:
        read_standings(path)
    assert str(caught.value) == f"{path}: Results!C2: points (9) must not exceed games played (4)"


def test_currency_cells_from_excel_are_numbers() -> None:
    """Through xlwings on Windows a currency-formatted cell is a decimal.Decimal; the refresh
    reads it as the number it shows (hand-worked: seed example 1, 100 × 3 / 4 + 4 = 79)."""
    sheets = MemorySheets(
        {
            "Settings": [["System", "rally"]],
            "Events": [["Event", "Rounds"], ["E", Decimal("4")]],
            "Results": [["Event", "Player", "Points", "Games"], ["E", "Al", Decimal("3.0"), 4.0]],
        }
    )
    assert totals(sheets) == [("1", "Al", 79)]


@pytest.mark.parametrize("blank", [None, "", "   "])
def test_a_blank_number_is_missing_not_none(blank: object) -> None:
    """A blank points cell (however the reader hands it over) is reported as missing."""
    sheets = rally_sheets()
    sheets["Results"][1][2] = blank
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(read_league(MemorySheets(sheets)))
    assert [str(p) for p in caught.value.problems] == ["Results!C2: points is missing"]


def with_players(rows: list[list[object]]) -> MemorySheets:
    sheets = rally_sheets()
    sheets["Players"] = [["Player", "Alias"], *rows]
    return MemorySheets(sheets)


def test_an_alias_given_for_two_players_names_both_cells() -> None:
    """Issue 13: 'Tom K' listed for Tom Kowalski and Karen Wu would give Tom's result to Karen."""
    book = with_players([["Tom Kowalski", "Tom K"], ["Karen Wu", "Tom K"]])
    with pytest.raises(LeagueProblems) as caught:
        read_league(book)
    assert [str(p) for p in caught.value.problems] == [
        "Players!B3: alias 'Tom K' is given for two players: 'Tom Kowalski' (Players!B2) and "
        "'Karen Wu'; keep one"
    ]


def test_an_alias_that_is_another_players_name_or_a_chain_is_refused() -> None:
    book = with_players(
        [["Karen Wu", ""], ["Tom Kowalski", "Karen Wu"], ["Bobby", "Bob"], ["Robert", "Bobby"]]
    )
    with pytest.raises(LeagueProblems) as caught:
        read_league(book)
    assert [str(p) for p in caught.value.problems] == [
        "Players!B3: alias 'Karen Wu' is also a player listed at Players!A2: one name cannot "
        "be two players",
        "Players!B5: alias 'Bobby' is also a player listed at Players!A4: one name cannot be "
        "two players",  # a chain: Robert's alias Bobby has an alias of his own
    ]


def test_the_reader_and_the_core_agree_on_who_is_one_player() -> None:
    """Issue 31: the reader refused the alias 'J.Smith' because 'J Smith' is listed, while the
    core (players.key) takes them for two players. Both go by the core's key now: 'J.Smith'
    may be John Smith's alias; 'j  SMITH' is J Smith's own name, so it may not be."""
    league = read_league(with_players([["J Smith", ""], ["John Smith", "J.Smith"]]))
    assert league.aliases == {"J.Smith": "John Smith"}
    assert key("J.Smith") != key("J Smith") == key("j  SMITH")
    with pytest.raises(LeagueProblems) as caught:
        read_league(with_players([["J Smith", ""], ["John Smith", "j  SMITH"]]))
    assert [str(p) for p in caught.value.problems] == [
        "Players!B3: alias 'j  SMITH' is also a player listed at Players!A2: one name cannot "
        "be two players"
    ]


def test_players_listed_without_alias_are_known_players() -> None:
    league = read_league(with_players([["José", ""], ["Bobby", "Bob"]]))
    assert league.players == ("José", "Bobby")
    assert league.aliases == {"Bob": "Bobby"}


def test_one_blank_event_cell_is_one_message_at_that_cell() -> None:
    """Issue 13: a blank Buy-in on a Neau event gave one error per result row; the fix is one
    cell, the event's Buy-in. Likewise a blank Players on a Dip Pouch event whose ranks run
    past the results listed."""
    neau: Sheets = {
        "Settings": [["Setting", "Value"], ["System", "neau"]],
        "Events": [["Event", "Date", "Buy-in"], ["March", dt.date(2026, 3, 7), None]],
        "Results": [["Event", "Player", "Rank"], *(["March", f"P{n}", n] for n in range(1, 8))],
    }
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(read_league(MemorySheets(neau)))
    assert [str(p) for p in caught.value.problems] == [
        "Events!C2: buy-in is missing: 7 results have no Buy-in of their own (the first at "
        "Results!A2); give the event's Buy-in here"
    ]
    dip: Sheets = {
        "Settings": [["Setting", "Value"], ["System", "dippouch"]],
        "Events": [["Event", "Date", "Players"], ["Con", dt.date(2002, 1, 5), None]],
        "Results": [["Event", "Player", "Rank"], *(["Con", f"P{n}", 3 * n] for n in range(1, 5))],
    }
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(read_league(MemorySheets(dip)))
    assert [str(p) for p in caught.value.problems] == [
        "Events!C2: players is blank, so the 4 results listed are taken as the whole field, but "
        "ranks go up to 12: give the number of players here"
    ]


def test_sheets_that_are_not_read_but_look_as_if_they_should_be_are_named() -> None:
    """Issue 13: 'Jul 2026 results' was silently ignored; a renamed old Standings stayed
    stale. Unrelated sheets are not even opened."""

    opened: list[str] = []

    class Counting(MemorySheets):
        def values(self, name: str) -> list[list[Any]]:
            opened.append(name)
            return super().values(name)

    sheets = rally_sheets()
    sheets["May 2026 results"] = [["Player", "Points", "Games"], ["Ann", 2, 5]]
    sheets["Standings 2025"] = [["Rank", "Player", "Total", "Events"], [1, "Bobby", 100, 2]]
    sheets["Notes"] = [["Player", "Points"]]
    book = Counting(sheets)
    league = read_league(book)
    assert league.notes == (
        "sheet 'May 2026 results' looks like results (Player and Points columns) but is named "
        "after no event, so it is not read: rename it 'May 2026', or add the event to the "
        "Events sheet",
        "sheet 'Standings 2025' looks like standings written earlier; sync writes only "
        "'Standings' and never updates this one: delete it if it is stale",
    )
    assert "Notes" not in opened
    assert compute_standings(league).warnings[:2] == league.notes


def test_a_points_table_with_a_gap_or_rising_points_is_warned_once() -> None:
    """Issue 13: rank 4 deleted from the Points sheet scored 4th place 0 with no word."""
    sheets: Sheets = {
        "Settings": [["Setting", "Value"], ["System", "absolute"]],
        "Points": [["Rank", "Points"], [1, 25], [2, 20], [3, 15], [5, 5], [6, 8]],
        "Events": [["Event"], ["W1"]],
        "Results": [["Event", "Player", "Rank"], ["W1", "Ann", 1]],
    }
    league = read_league(MemorySheets(sheets))
    assert league.notes == (
        "Points: no row for rank 4, so that place scores 0 points; add the row if that is not "
        "meant",
        "Points: rank 6 gets more points than rank 5 (8 > 5); correct the table if that is not "
        "meant",
    )


def test_csv_guards_formula_like_names_but_not_numbers() -> None:
    """Names starting '=' or '-' get the apostrophe; the numbers beside them never do.
    Reverse order, 3 players: 1st scores 3, 3rd scores 1 (hand-worked)."""
    from xlrally.formats.report import as_csv

    league = League(
        Settings("reverse"),
        (Event("W1", players=3),),
        (Result("W1", "=HYPERLINK(1)", rank=1), Result("W1", "-Bo", rank=3)),
    )
    rows = as_csv(compute_standings(league)).splitlines()
    assert rows[1] == "1,,'=HYPERLINK(1),3,1,3,"
    assert rows[2] == "2,,'-Bo,1,1,1,"


def test_columns_are_as_wide_as_the_numbers_shown() -> None:
    """Issue 14: Neau points like 26.59528955418021 are shown as 26.60; the column was sized
    for 17 digits, so one event column fitted on a printed page."""
    from xlrally.formats.cells import column_widths
    from xlrally.formats.grid import standings_grid

    league = League(
        Settings("neau"),
        (Event("March", buy_in=20),),
        tuple(Result("March", f"P{n}", rank=n, total=20) for n in range(1, 11)),
    )
    grid = standings_grid(compute_standings(league))
    widths = dict(zip([c.value for c in grid[0]], column_widths(grid), strict=False))
    # Neau's seed formula: 1st of 10 at 20 scores √(10 × 20 × 20 / 20) / 2 = 7.07 (shown "7.07",
    # 4 characters, not 17): every column is the minimum 6 + 2.
    assert widths["March"] == widths["Total"] == 8.0


def test_the_country_given_in_the_results_is_shown_with_the_player() -> None:
    """Issue 14: Dip Pouch results carry a Country (the WDD pages show it); it was read and
    shown nowhere. The last one given counts, through aliases too."""
    from xlrally.formats.report import as_json, as_table

    sheets: Sheets = {
        "Settings": [["Setting", "Value"], ["System", "dippouch"]],
        "Events": [["Event", "Date", "Players"], ["Con", dt.date(2002, 1, 5), 7]],
        "Results": [
            ["Event", "Player", "Rank", "Country"],
            ["Con", "Steve Mills", 1, "Canada"],
            ["Con", "G. Boucher", 2, "France"],
            ["Con", "Ann", 3, None],
        ],
        "Players": [["Player", "Alias"], ["Garth Boucher", "G. Boucher"]],
    }
    table = compute_standings(read_league(MemorySheets(sheets)))
    assert {r["player"]: r["country"] for r in as_json(table)["standings"]} == {
        "Steve Mills": "Canada",
        "Garth Boucher": "France",
        "Ann": None,
    }
    assert as_table(table).splitlines()[0].split()[:3] == ["Rank", "Player", "Country"]


def test_choice_settings_are_read_as_written() -> None:
    """'dd/mm/yyyy' and 'dd.mm.yyyy' are two formats; case and spaces do not matter."""
    sheets = rally_sheets()
    sheets["Settings"] = [*sheets["Settings"], ["Date format", " DD.MM.YYYY "]]
    assert read_league(MemorySheets(sheets)).settings.date_format == "dd.mm.yyyy"
    sheets["Settings"][-1] = ["Date format", "dd/mm/yy"]
    with pytest.raises(LeagueProblems) as caught:
        read_league(MemorySheets(sheets))
    assert str(caught.value.problems[0]).endswith(
        "Date format must be yyyy-mm-dd, dd/mm/yyyy, mm/dd/yyyy, dd.mm.yyyy or d mmm yyyy, "
        "not 'dd/mm/yy'"
    )


def test_a_misspelt_setting_is_warned_about_not_silently_left_out(tmp_path: Path) -> None:
    """`Tie-breaks` is not the setting `Tie break`: the row is not read, and a league scored
    without its tie-breaks looks right, so a row one slip from a setting is warned about. Rows
    like no setting (the heading, a note) are left alone."""
    settings = [*RALLY_SHEETS["Settings"], ["Tie-breaks", "countback"], ["Notes", "by Ann"]]
    path = write_book(tmp_path / "league.xlsx", {**RALLY_SHEETS, "Settings": settings})
    assert [w for w in read_standings(path).warnings if "setting" in w] == [
        "Settings!A4: 'Tie-breaks' is not a setting, so it is not read: did you mean 'Tie break'?"
    ]
