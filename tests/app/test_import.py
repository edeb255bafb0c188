"""`xlrally import`: events from TRF files and tables into the league workbook.

Expected scores are worked by hand from the seeds (rally: 100 × points from games played /
(rounds − byes) + games played, decimals dropped; absolute points: the Points sheet's row for
the rank); workbooks are built with XlsxWriter, never by the code under test."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import xlsxwriter
from click.testing import CliRunner
from helpers import parts, trf_player, write_book

from xlrally.app.importer import Options, import_file
from xlrally.app.newbook import xlwings_vba_project
from xlrally.app.sync import sync_file
from xlrally.cli import cli
from xlrally.core.errors import XlrallyError

DATA = Path(__file__).parent.parent / "data" / "trf"
EMPTY_RALLY = {
    "Settings": [["Setting", "Value"], ["System", "rally"], ["League", "Club Rally"]],
    "Events": [["Event", "Date", "Rounds"]],
    "Results": [["Event", "Player", "Points", "Games", "Byes"]],
}


def trf(path: Path, name: str, day: str, rounds: int, players: list[str]) -> Path:
    path.write_text("\n".join([f"012 {name}", f"042 {day}", f"XXR {rounds}", *players]) + "\n")
    return path


def seed_events(folder: Path) -> list[Path]:
    """The rally seed's three worked examples, each as the TRF file of its event (opponents
    made up; only the codes of the player in question matter)."""
    return [
        # Example 1: a four round event; Bobby plays all four rounds and scores three points.
        trf(
            folder / "dec.trf",
            "Dec 2025",
            "2025/12/06",
            4,
            [
                trf_player(1, "Fischer, Bobby", 1, ["2 w 1", "2 b 1", "2 w 0", "2 b 1"], 3),
                trf_player(2, "Tal, Misha", 2, ["1 b 0", "1 w 0", "1 b 1", "1 w 0"], 1),
            ],
        ),
        # Example 3: six rounds; Mikhail has a bye in round five and leaves before round six,
        # 1.5 from the first four rounds: 100 × 1.5 / 5 + 4 = 34.
        trf(
            folder / "feb.trf",
            "Feb 2026",
            "2026/02/07",
            6,
            [
                trf_player(
                    1, "Botvinnik, Mikhail", 1, ["2 w =", "2 b 1", "2 w 0", "2 b 0", "U", ""], 2.5
                ),
                trf_player(
                    2, "Tal, Misha", 2, ["1 b =", "1 w 0", "1 b 1", "1 w 1", "", "3 w 1"], 3.5
                ),
                # a late entry: only round six
                trf_player(3, "Smyslov, Vasily", 3, ["", "", "", "", "", "2 b 0"], 0),
            ],
        ),
        # Example 2: five rounds; José is given a bye in round three and scores two points in
        # the four games he plays: 100 × 2 / 4 + 4 = 54.
        trf(
            folder / "may.trf",
            "May 2026",
            "2026/05/09",
            5,
            [
                trf_player(1, "Capablanca, José", 1, ["2 w 1", "2 b 0", "U", "2 w 1", "2 b 0"], 3),
                trf_player(2, "Tal, Misha", 2, ["1 b 0", "1 w 1", "U", "1 b 0", "1 w 1"], 3),
            ],
        ),
    ]


def by_hand(path: Path) -> Path:
    """The same three events typed by hand (names as a club writes them)."""
    return write_book(
        path,
        {
            **EMPTY_RALLY,
            "Events": [
                ["Event", "Date", "Rounds"],
                ["Dec 2025", dt.date(2025, 12, 6), 4],
                ["Feb 2026", dt.date(2026, 2, 7), 6],
                ["May 2026", dt.date(2026, 5, 9), 5],
            ],
            "Results": [
                ["Event", "Player", "Points", "Games", "Byes"],
                ["Dec 2025", "Bobby Fischer", 3, 4, 0],
                ["Dec 2025", "Misha Tal", 1, 4, 0],
                ["Feb 2026", "Mikhail Botvinnik", 1.5, 4, 1],
                ["Feb 2026", "Misha Tal", 3.5, 5, 0],
                ["Feb 2026", "Vasily Smyslov", 0, 1, 0],
                ["May 2026", "José Capablanca", 2, 4, 1],
                ["May 2026", "Misha Tal", 2, 4, 1],
            ],
        },
    )


def standings_json(path: Path) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["standings", str(path), "-f", "json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def totals(path: Path) -> dict[str, float]:
    return {p["player"]: p["total"] for p in standings_json(path)["standings"]}


def test_a_league_built_by_importing_equals_the_league_typed_by_hand(tmp_path: Path) -> None:
    imported = write_book(tmp_path / "imported.xlsx", EMPTY_RALLY)
    for event in seed_events(tmp_path):
        outcome = import_file(imported, event)
        assert outcome.changed
        assert outcome.sync is not None
        assert outcome.sync.ok, outcome.sync.problems
    typed = by_hand(tmp_path / "typed.xlsx")
    assert standings_json(imported)["standings"] == standings_json(typed)["standings"]
    # 3 events held -> (3 + 1) / 2 = 2 count. Bobby 79 (example 1), Mikhail 34 (example 3),
    # José 54 (example 2). Misha: Dec 100 × 1 / 4 + 4 = 29; Feb 3.5 from five games, round 5
    # missed and still in the divisor: 100 × 3.5 / 6 + 5 = 63; May 100 × 2 / 4 + 4 = 54; best
    # two 63 + 54 = 117. Vasily, late for five rounds: 100 × 0 / 6 + 1 = 1.
    assert totals(imported) == {
        "Misha Tal": 117,
        "Bobby Fischer": 79,
        "José Capablanca": 54,
        "Mikhail Botvinnik": 34,
        "Vasily Smyslov": 1,
    }


def test_importing_the_same_file_twice_changes_nothing(tmp_path: Path) -> None:
    league = write_book(tmp_path / "league.xlsx", EMPTY_RALLY)
    event = seed_events(tmp_path)[0]
    import_file(league, event)
    before = league.read_bytes()
    again = import_file(league, event)
    assert not again.changed
    assert "already in the workbook" in again.notes[0]
    assert league.read_bytes() == before


def test_other_results_for_the_event_need_replace(tmp_path: Path) -> None:
    league = write_book(tmp_path / "league.xlsx", EMPTY_RALLY)
    dec = seed_events(tmp_path)[0]
    import_file(league, dec)
    corrected = tmp_path / "dec2.csv"  # fewer results than the event has (a TRF has two)
    corrected.write_text("Player,Points,Games,Byes\nBobby Fischer,4,4,0\n", encoding="utf-8")
    dec_2025 = Options(event="Dec 2025", rounds=4)
    before = league.read_bytes()
    with pytest.raises(
        XlrallyError,
        match=r"'Dec 2025' already has 2 results \(Results rows 2-3\); import with --replace",
    ):
        import_file(league, corrected, dec_2025)
    assert league.read_bytes() == before
    import_file(league, corrected, Options(event="Dec 2025", rounds=4, replace=True))
    # Bobby now 4 / 4: 100 + 4 = 104; Misha's row of the old results is emptied
    assert totals(league) == {"Bobby Fischer": 104}
    results = openpyxl.load_workbook(league)["Results"]
    rows = [[c.value for c in row] for row in results.iter_rows(min_row=2)]
    assert [row for row in rows if any(v is not None for v in row)] == [
        ["Dec 2025", "Bobby Fischer", 4, 4, 0]
    ]


def test_the_javafo_sample_scores_each_kind_of_round(tmp_path: Path) -> None:
    """A real file (tests/data/trf/README.md): 4 of its 9 rounds played, so --rounds 4."""
    league = write_book(tmp_path / "league.xlsx", EMPTY_RALLY)
    with pytest.raises(XlrallyError, match="results for 4 of the event's 9 rounds"):
        import_file(league, DATA / "javafo_sample2.trf")
    outcome = import_file(league, DATA / "javafo_sample2.trf", Options(rounds=4))
    assert outcome.event == "XX Open Internacional de Gros"
    assert outcome.results == 51
    assert "Moreno Romero Ernesto played no game: not imported" in outcome.notes  # Z Z Z Z
    scores = totals(league)
    # Bello Castano Diego: + 0 H 1: the forfeit win and the half-point bye are byes, one point
    # from two games: 100 × 1 / (4 - 2) + 2 = 52.
    assert scores["Bello Castano Diego"] == 52
    # Mirzoev Azer: four wins: 100 × 4 / 4 + 4 = 104.
    assert scores["Mirzoev Azer"] == 104
    # Gorrochategui Torres, Eugenio (written with a comma): 1 1 1 = -> 3.5 / 4 -> 87.5 + 4 = 91
    assert scores["Eugenio Gorrochategui Torres"] == 91
    # Ladron De Guevara: 1 1 0 and a forfeit lost: still in the divisor, 100 × 2 / 4 + 3 = 53
    assert scores["Ladron De Guevara Galar Fco J"] == 53
    events = openpyxl.load_workbook(league)["Events"]
    assert [c.value for c in events[2]] == [
        "XX Open Internacional de Gros",
        dt.datetime(2010, 9, 24),
        4,
    ]


def test_settings_choose_how_requested_byes_and_forfeits_count(tmp_path: Path) -> None:
    sheets = {
        **EMPTY_RALLY,
        "Settings": [
            *EMPTY_RALLY["Settings"],
            ["Requested byes", "absence"],
            ["Forfeit wins", "game"],
        ],
    }
    league = write_book(tmp_path / "league.xlsx", sheets)
    import_file(league, DATA / "javafo_sample2.trf", Options(rounds=4))
    # Bello: + counts as a game won, H stays in the divisor: 2 points from 3 games, no byes:
    # 100 × 2 / 4 + 3 = 53.
    assert totals(league)["Bello Castano Diego"] == 53


def test_names_meet_the_leagues_players_and_aliases(tmp_path: Path) -> None:
    sheets = {
        **EMPTY_RALLY,
        "Events": [["Event", "Date", "Rounds"], ["Nov 2025", dt.date(2025, 11, 1), 1]],
        "Results": [
            ["Event", "Player", "Points", "Games", "Byes"],
            ["Nov 2025", "Ann Smith", 1, 1, 0],
            ["Nov 2025", "Robert Jones", 0, 1, 0],
            ["Nov 2025", "Oliver Grant", 0, 1, 0],
        ],
        "Players": [["Player", "Alias"], ["Robert Jones", "Bob Jones"]],
    }
    league = write_book(tmp_path / "league.xlsx", sheets)
    event = trf(
        tmp_path / "dec.trf",
        "Dec 2025",
        "2025/12/06",
        1,
        [
            trf_player(1, "Smith, Ann", 1, ["2 w 1"], 1),  # known, written Lastname, Firstname
            trf_player(2, "Jones, Bob", 2, ["1 b 0"], 0),  # an alias of Robert Jones
            trf_player(3, "Gran, Oliver", 3, ["4 w 1"], 1),  # one letter from Oliver Grant
            trf_player(4, "Hughes, Owen", 4, ["3 b 0"], 0),  # new
        ],
    )
    outcome = import_file(league, event)
    assert outcome.new_players == ("Oliver Gran", "Owen Hughes")
    assert any("'Oliver Gran' looks like 'Oliver Grant' (1 result)" in n for n in outcome.notes)
    results = openpyxl.load_workbook(league)["Results"]
    assert [r[1].value for r in results.iter_rows(min_row=5)] == [
        "Ann Smith",
        "Robert Jones",
        "Oliver Gran",
        "Owen Hughes",
    ]


def absolute_league(path: Path) -> Path:
    return write_book(
        path,
        {
            "Settings": [["Setting", "Value"], ["System", "absolute"]],
            "Points": [["Rank", "Points"], [1, 10], [2, 7], [3, 5]],
            "Events": [["Event", "Date"]],
            "Results": [["Event", "Player", "Rank"]],
        },
    )


def test_a_csv_from_a_poker_timer_with_its_own_headers(tmp_path: Path) -> None:
    league = absolute_league(tmp_path / "league.xlsx")
    csv = tmp_path / "week1.csv"
    csv.write_text("Pos;Name;Chips\n1;Ann;9000\n2;=Bob;0\n3;007;0\n", encoding="utf-8")
    outcome = import_file(league, csv, Options(date=dt.date(2026, 1, 8), columns={"Pos": "Rank"}))
    assert outcome.event == "week1"
    assert "column 'Chips' is not read" in outcome.notes
    # the Points sheet: 1st 10, 2nd 7, 3rd 5
    assert totals(league) == {"Ann": 10, "=Bob": 7, "007": 5}
    results = openpyxl.load_workbook(league)["Results"]
    # names that look like a formula or a number stay text
    assert [(r[1].value, r[1].data_type) for r in results.iter_rows(min_row=2)] == [
        ("Ann", "s"),
        ("=Bob", "s"),
        ("007", "s"),
    ]


def test_a_table_pasted_from_a_web_page(tmp_path: Path) -> None:
    league = absolute_league(tmp_path / "league.xlsx")
    pasted = "Place\tPlayer\n1\tCat\n2\tDan\n"
    result = CliRunner().invoke(
        cli, ["import", str(league), "-", "--event", "Week 2", "--date", "2026-01-15"], input=pasted
    )
    assert result.exit_code == 0, result.output
    assert "imported 2 results of 'Week 2'" in result.output
    assert "New players: Cat, Dan" in result.output
    assert totals(league) == {"Cat": 10, "Dan": 7}


def test_a_bad_value_names_its_line_and_column_and_nothing_is_written(tmp_path: Path) -> None:
    league = absolute_league(tmp_path / "league.xlsx")
    before = league.read_bytes()
    csv = tmp_path / "week1.csv"
    csv.write_text("Rank,Player\n1,Ann\nsecond,Bob\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", str(league), str(csv)])
    assert result.exit_code == 1
    assert re.search(
        r"week1\.csv line 3, column 'Rank': rank must be a number, not the text 'second'",
        result.output,
    )
    assert league.read_bytes() == before


def test_a_ranked_system_takes_the_final_ranking_from_a_trf(tmp_path: Path) -> None:
    league = absolute_league(tmp_path / "league.xlsx")
    event = trf(
        tmp_path / "blitz.trf",
        "Blitz",
        "2026/01/22",
        2,
        [
            trf_player(1, "Smith, Ann", 2, ["2 w 0", "3 b 1"], 1),
            trf_player(2, "Jones, Ben", 1, ["1 b 1", "U"], 2),
            trf_player(3, "Lee, Cat", 3, ["U", "1 w 0"], 1),
        ],
    )
    import_file(league, event)
    assert totals(league) == {"Ben Jones": 10, "Ann Smith": 7, "Cat Lee": 5}


def lossless_book(path: Path) -> Path:
    """A macro workbook as a treasurer's grows: a button and VBA, a chart, Results as an Excel
    table with data validation and conditional formatting, Events' dates formatted."""
    book = xlsxwriter.Workbook(str(path))
    book.add_vba_project(io.BytesIO(xlwings_vba_project()), is_stream=True)
    book.set_vba_name("ThisWorkbook")
    date = book.add_format({"num_format": "d mmm yyyy"})
    settings = book.add_worksheet("Settings")
    settings.set_vba_name()
    settings.write_row(0, 0, ["Setting", "Value"])
    settings.write_row(1, 0, ["System", "rally"])
    settings.insert_button("D2", {"macro": "SampleCall", "caption": "Refresh standings"})
    events = book.add_worksheet("Events")
    events.set_vba_name()
    events.write_row(0, 0, ["Event", "Date", "Rounds"])
    events.write_string(1, 0, "Nov 2025")
    events.write_datetime(1, 1, dt.datetime(2025, 11, 1), date)
    events.write_number(1, 2, 1)
    results = book.add_worksheet("Results")
    results.set_vba_name()
    results.add_table(
        "A1:E3",
        {
            "name": "ResultsTable",
            "columns": [{"header": h} for h in ("Event", "Player", "Points", "Games", "Byes")],
            "data": [["Nov 2025", "Ann Smith", 1, 1, 0], ["Nov 2025", "Misha Tal", 0, 1, 0]],
        },
    )
    results.data_validation(
        "C2:C3", {"validate": "decimal", "criteria": "between", "minimum": 0, "maximum": 20}
    )
    results.conditional_format(
        "C2:C3",
        {"type": "cell", "criteria": ">=", "value": 1, "format": book.add_format({"bold": True})},
    )
    summary = book.add_worksheet("Summary")
    summary.set_vba_name()
    chart = book.add_chart({"type": "column"})
    chart.add_series({"values": "=Results!$C$2:$C$3"})
    summary.insert_chart("B2", chart)
    book.close()
    return path


def test_every_other_part_is_kept_and_the_table_covers_the_new_rows(tmp_path: Path) -> None:
    league = lossless_book(tmp_path / "league.xlsm")
    assert sync_file(league).result == "written"
    before = parts(league)
    import_file(league, seed_events(tmp_path)[0])
    after = parts(league)
    changed = {n for n in before if before[n] != after.get(n)}
    assert set(after) == set(before)
    assert changed == {
        "xl/worksheets/sheet2.xml",  # Events: the new event's row
        "xl/worksheets/sheet3.xml",  # Results: the new rows
        "xl/tables/table1.xml",  # the table's range
        "xl/worksheets/sheet5.xml",  # the Standings, synced
        "docProps/custom.xml",  # the Standings' fingerprint
        "xl/workbook.xml",  # the Standings' print area: one more event column
    }
    table = after["xl/tables/table1.xml"].decode()
    assert 'ref="A1:E5"' in table
    assert '<autoFilter ref="A1:E5"/>' in table
    sheet = after["xl/worksheets/sheet3.xml"].decode()
    assert (
        '<dataValidation type="decimal" allowBlank="1" showInputMessage="1" showErrorMessage="1" sqref="C2:C5">'
        in sheet
    )
    assert '<conditionalFormatting sqref="C2:C5">' in sheet
    assert '<dimension ref="A1:E5"/>' in sheet
    # the new event's date takes the look of the date above it
    events = openpyxl.load_workbook(league)["Events"]
    assert (events["B3"].value, events["B3"].number_format) == (
        dt.datetime(2025, 12, 6),
        "d mmm yyyy",
    )
    assert totals(league)["Bobby Fischer"] == 79


def test_a_workbook_with_a_sheet_per_event_gets_a_sheet_for_the_new_one(tmp_path: Path) -> None:
    league = write_book(
        tmp_path / "league.xlsx",
        {
            "Settings": EMPTY_RALLY["Settings"],
            "Events": [["Event", "Date", "Rounds"], ["Nov 2025", dt.date(2025, 11, 1), 1]],
            "Nov 2025": [["Player", "Points", "Games"], ["Bobby Fischer", 1, 1]],
        },
    )
    import_file(league, seed_events(tmp_path)[0])
    book = openpyxl.load_workbook(league)
    assert book.sheetnames[:4] == ["Settings", "Events", "Nov 2025", "Dec 2025"]
    assert [[c.value for c in row] for row in book["Dec 2025"].iter_rows()] == [
        ["Player", "Points", "Games", "Byes"],
        ["Bobby Fischer", 3, 4, 0],
        ["Misha Tal", 1, 4, 0],
    ]
    # two events held: (2 + 1) / 2 rounded up = 2 count; Bobby 100 × 1 / 1 + 1 = 101 and 79
    assert totals(league) == {"Bobby Fischer": 180, "Misha Tal": 29}


def test_results_the_league_cannot_score_are_not_written(tmp_path: Path) -> None:
    league = write_book(tmp_path / "league.xlsx", EMPTY_RALLY)
    before = league.read_bytes()
    csv = tmp_path / "dec.csv"
    csv.write_text("Player,Points,Games\nAnn,5,4\n", encoding="utf-8")  # 5 points from 4 games
    with pytest.raises(XlrallyError, match="with the imported results the league has problems"):
        import_file(league, csv, Options(rounds=4))
    assert league.read_bytes() == before
    assert not list(tmp_path.glob(".~*"))  # no staged file left behind


@pytest.mark.parametrize(
    ("settings", "table", "message"),
    [
        ([["System", "dippouch"]], "Player,Rank\nAnn,1\n", "rates events in date order"),
        ([["System", "rally"]], "Player,Points,Games\nAnn,1,1\n", "needs the rounds"),
        ([["System", "neau"]], "Player,Rank\nAnn,1\n", "needs the buy-in"),
    ],
)
def test_what_the_system_needs_of_the_event_is_asked_for_first(
    tmp_path: Path, settings: list[list[str]], table: str, message: str
) -> None:
    league = write_book(
        tmp_path / "league.xlsx",
        {
            "Settings": [["Setting", "Value"], *settings],
            "Events": [["Event", "Date", "Rounds", "Buy-in"]],
            "Results": [["Event", "Player", "Points", "Games", "Byes", "Rank", "Buy-in"]],
        },
    )
    before = league.read_bytes()
    csv = tmp_path / "e.csv"
    csv.write_text(table, encoding="utf-8")
    with pytest.raises(XlrallyError, match=message):
        import_file(league, csv)
    assert league.read_bytes() == before


def test_a_trf_with_a_bad_code_changes_nothing(tmp_path: Path) -> None:
    league = write_book(tmp_path / "league.xlsx", EMPTY_RALLY)
    before = league.read_bytes()
    bad = trf(tmp_path / "bad.trf", "Dec", "2025/12/06", 1, [trf_player(1, "A, B", 1, ["2 w Q"])])
    result = CliRunner().invoke(cli, ["import", str(league), str(bad)])
    assert result.exit_code == 1
    assert "bad.trf line 4, column 99: 'Q' is not a TRF result code" in result.output
    assert league.read_bytes() == before


def test_libreoffice_reads_the_imported_cells(tmp_path: Path) -> None:
    """A real spreadsheet program opens the workbook after an import and reads the new rows:
    names as text (an inline string), numbers as numbers, the event's date as a date in the
    look of the date above (LibreOffice converts each sheet to CSV)."""
    from test_libreoffice import convert, read_csv

    league = lossless_book(tmp_path / "league.xlsm")
    import_file(league, seed_events(tmp_path)[0])
    out = tmp_path / "csv"
    convert([league], out)
    assert read_csv(out / "league-Results.csv") == [
        ["Event", "Player", "Points", "Games", "Byes"],
        ["Nov 2025", "Ann Smith", "1", "1", "0"],
        ["Nov 2025", "Misha Tal", "0", "1", "0"],
        ["Dec 2025", "Bobby Fischer", "3", "4", "0"],
        ["Dec 2025", "Misha Tal", "1", "4", "0"],
    ]
    # a date: LibreOffice writes dates in its own (en-US) form here, not as the cell shows it
    assert read_csv(out / "league-Events.csv")[1:] == [
        ["Nov 2025", "11/01/2025", "1"],
        ["Dec 2025", "12/06/2025", "4"],
    ]


def test_a_read_only_workbook_is_refused_before_anything_is_read(tmp_path: Path) -> None:
    """As for a sync (mode bits, not a permission error: tests run as root here and in CI)."""
    league = write_book(tmp_path / "league.xlsx", EMPTY_RALLY)
    league.chmod(0o444)
    before = league.read_bytes()
    with pytest.raises(XlrallyError, match="the workbook is read-only"):
        import_file(league, seed_events(tmp_path)[0])
    assert league.read_bytes() == before
    assert oct(league.stat().st_mode & 0o777) == "0o444"
