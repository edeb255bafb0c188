"""`xlrally import` of tables as real programs and people save them: rows of the wrong length,
odd line separators, mixed encodings, Excel's UTF-16 "Unicode Text", huge fields, a Dip Pouch
CSV with its Country column, a file name that is not text. Each is read correctly or refused
with one `Error:` line naming the place, and the workbook is left as it was.

Expected points are the Points sheet's (absolute points: rank 1 10, rank 2 7, rank 3 5)."""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import write_book

from xlrally.app.importer import Options, import_file
from xlrally.cli import cli
from xlrally.core.errors import XlrallyError

WEEK = Options(date=dt.date(2026, 1, 8))


def absolute(path: Path, results: list[list[Any]] | None = None) -> Path:
    return write_book(
        path,
        {
            "Settings": [["Setting", "Value"], ["System", "absolute"]],
            "Points": [["Rank", "Points"], [1, 10], [2, 7], [3, 5]],
            "Events": [["Event", "Date"], ["Week 1", dt.date(2026, 1, 1)]],
            "Results": results or [["Event", "Player", "Rank"], ["Week 1", "José Silva", 1]],
        },
    )


def rally(path: Path) -> Path:
    return write_book(
        path,
        {
            "Settings": [["Setting", "Value"], ["System", "rally"]],
            "Events": [["Event", "Date", "Rounds"]],
            "Results": [["Event", "Player", "Points", "Games", "Byes"]],
        },
    )


def totals(path: Path) -> dict[str, float]:
    result = CliRunner().invoke(cli, ["standings", str(path), "-f", "json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return {p["player"]: p["total"] for p in data["standings"]}


def refused(book: Path, source: Path, message: str, options: Options = WEEK) -> None:
    """The import fails with ``message`` and the workbook's bytes are unchanged."""
    before = book.read_bytes()
    with pytest.raises(XlrallyError, match=message):
        import_file(book, source, options)
    assert book.read_bytes() == before


def test_a_short_row_is_refused_not_read_as_blanks(tmp_path: Path) -> None:
    """Finding 9: a row cut short read its missing Byes as blank (0 byes). Now refused."""
    book = rally(tmp_path / "league.xlsx")
    csv = tmp_path / "dec.csv"
    csv.write_text("Player,Points,Games,Byes\nAnn,2,4,1\nBen,3,4\n", encoding="utf-8")
    refused(
        book,
        csv,
        r"dec\.csv line 3: 3 values where the header \(line 1\) has 4: a value is missing",
        Options(rounds=5),
    )


def test_a_value_missing_in_the_middle_is_refused_even_if_the_last_is_not_read(
    tmp_path: Path,
) -> None:
    """`2;3578` under `Place;Name;Chips`: the name is gone and the chips moved into its
    column; which value is missing the row does not say, so it is refused (read as a short
    row lacking only the unread Chips, it would make a player of `3578`)."""
    book = absolute(tmp_path / "league.xlsx")
    csv = tmp_path / "w2.csv"
    csv.write_text("Place;Name;Chips\n1;Ann;900\n2;3578\n", encoding="utf-8")
    refused(book, csv, r"w2\.csv line 3: 2 values where the header \(line 1\) has 3")


def test_a_row_with_a_value_too_many_is_refused(tmp_path: Path) -> None:
    """A comma inside a name, not in quotes: every value after it moves one column."""
    book = absolute(tmp_path / "league.xlsx")
    csv = tmp_path / "w2.csv"
    csv.write_text("Rank,Player\n1,Smith, Ann\n2,Ben\n", encoding="utf-8")
    refused(book, csv, r"w2\.csv line 2: 3 values where the header \(line 1\) has 2")


def test_empty_cells_dropped_at_the_end_are_no_problem(tmp_path: Path) -> None:
    """A table pasted from a web page drops empty cells at the end of a row: fine where that
    column is empty in every row (here `Notes`), and trailing empty separators too."""
    book = absolute(tmp_path / "league.xlsx")
    pasted = tmp_path / "w2.txt"
    pasted.write_text("Rank\tPlayer\tNotes\n1\tAnn\t\n2\tBen\n3\tCat\t\t\n", encoding="utf-8")
    import_file(book, pasted, WEEK)
    assert totals(book) == {"Ann": 10, "José Silva": 10, "Ben": 7, "Cat": 5}


def test_a_line_separator_inside_a_row_is_refused_not_a_new_row(tmp_path: Path) -> None:
    """U+2028 (LINE SEPARATOR, which Python's splitlines splits at) inside a name split the row
    in two (`Ann` then a row `Smith,1`). It is not a row end: refused, naming the line and
    column (inside a word it would make another name of it)."""
    book = absolute(tmp_path / "league.xlsx")
    csv = tmp_path / "w2.csv"
    csv.write_text("Player,Rank\nAnn\u2028Smith,1\nBen,2\n", encoding="utf-8")
    refused(
        book,
        csv,
        r"w2\.csv line 2, column 'Player': a line separator or control character \(U\+2028\)",
    )


def test_a_table_whose_places_look_like_trf_tags_is_a_table(tmp_path: Path) -> None:
    """Places 102 and 122 start lines as TRF tags do (`102 Chief Arbiter`), but with the
    separator after them: a table."""
    book = absolute(tmp_path / "league.xlsx")
    rows = ["Pos;Name"] + [f"{n};P{n}" for n in range(1, 130)]
    csv = tmp_path / "big.csv"
    csv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    outcome = import_file(book, csv, Options(date=dt.date(2026, 1, 8), columns={"Pos": "Rank"}))
    assert outcome.results == 129


@pytest.mark.parametrize("ending", ["\r", "\n", "\r\n"], ids=["CR", "LF", "CRLF"])
def test_every_line_end(tmp_path: Path, ending: str) -> None:
    """A table's rows end at CR (old Mac programs), LF or CRLF."""
    book = absolute(tmp_path / "league.xlsx")
    csv = tmp_path / "w2.csv"
    csv.write_bytes(ending.join(["Player,Rank", "Ann,1", "Ben,2"]).encode() + ending.encode())
    import_file(book, csv, WEEK)
    assert totals(book)["Ben"] == 7


def test_a_file_that_mixes_encodings_is_refused_at_the_byte(tmp_path: Path) -> None:
    """A UTF-8 file with one Windows-1252 byte was decoded as Windows-1252 throughout, so
    `José Silva` became a new player `JosÃ© Silva`. Refused, naming line and column."""
    book = absolute(tmp_path / "league.xlsx")
    csv = tmp_path / "w2.csv"
    csv.write_bytes("Player,Rank\nJosé Silva,1\n".encode() + b"Ren\xe9,2\n")
    refused(book, csv, r"w2\.csv line 3, column 4: byte 0xE9 is not UTF-8, while the rest")


def test_a_windows_1252_file_is_read_as_windows_1252(tmp_path: Path) -> None:
    """Excel's CSV on Windows: `José Silva` in Windows-1252 is the league's José Silva."""
    book = absolute(tmp_path / "league.xlsx")
    csv = tmp_path / "w2.csv"
    csv.write_bytes("Player;Rank\r\nJosé Silva;2\r\nRené;1\r\n".encode("cp1252"))
    outcome = import_file(book, csv, WEEK)
    assert outcome.new_players == ("René",)
    assert totals(book) == {"José Silva": 17, "René": 10}


def test_excels_unicode_text_is_read(tmp_path: Path) -> None:
    """Excel's "Unicode Text" is UTF-16 little endian with a byte order mark, tab-separated,
    CRLF (it was refused with a message full of `\\x00`)."""
    book = absolute(tmp_path / "league.xlsx")
    text = tmp_path / "w2.txt"
    text.write_bytes("\ufeffPlayer\tRank\r\nJosé Silva\t1\r\nZoë\t2\r\n".encode("utf-16-le"))
    import_file(book, text, WEEK)
    assert totals(book) == {"José Silva": 20, "Zoë": 7}


def test_a_huge_field_is_an_error_with_its_line(tmp_path: Path) -> None:
    """A value over Python's CSV field limit (128 KB) was a traceback."""
    book = absolute(tmp_path / "league.xlsx")
    csv = tmp_path / "w2.csv"
    csv.write_text('Player,Rank\nAnn,1\n"' + "x" * 200_000 + '",2\n', encoding="utf-8")
    refused(book, csv, r"w2\.csv line 3: cannot be read as a table \(field larger than")


def test_a_dip_pouch_csv_with_its_country_column(tmp_path: Path) -> None:
    """The Dip Pouch's documented `Country` column always crashed the import (the read-back
    result has no country). Two 3-player... a 2-player event: the rating moves from 40."""
    book = write_book(
        tmp_path / "dip.xlsx",
        {
            "Settings": [["Setting", "Value"], ["System", "dippouch"]],
            "Events": [["Event", "Date"]],
            "Results": [["Event", "Player", "Rank", "Country"]],
        },
    )
    csv = tmp_path / "wdc.csv"
    csv.write_text("Player,Rank,Country\nAnn,1,England\nBen,2,France\n", encoding="utf-8")
    outcome = import_file(book, csv, Options(event="Open 2026", date=dt.date(2026, 3, 1)))
    assert outcome.results == 2
    result = CliRunner().invoke(cli, ["standings", str(book), "-f", "json"])
    rows = json.loads(result.output)["standings"]
    assert {r["player"]: r.get("country") for r in rows} == {"Ann": "England", "Ben": "France"}


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS file names are UTF-8 only")
def test_a_file_name_that_is_not_text_asks_for_event(tmp_path: Path) -> None:
    """A name in another encoding (`Woche-\\xe9.csv` from a Latin-1 system) cannot name the
    event: refused asking for --event (it was a traceback); with --event, imported."""
    book = absolute(tmp_path / "league.xlsx")
    name = os.fsdecode(b"Woche-\xe9.csv")
    csv = tmp_path / name
    csv.write_text("Player,Rank\nAnn,1\n", encoding="utf-8")
    refused(book, csv, "the file's name is not UTF-8 text.*--event NAME")
    import_file(book, csv, Options(event="Week 2", date=dt.date(2026, 1, 8)))
    assert totals(book) == {"José Silva": 10, "Ann": 10}


@pytest.mark.parametrize(
    ("written", "date"),
    [("08.01.2026", "2026-01-08"), ('"Jan 8, 2026"', "2026-01-08"), ("2026-01-08", "2026-01-08")],
)
def test_a_tables_date_column_in_every_form(tmp_path: Path, written: str, date: str) -> None:
    """The Date column is read by the same rule as a TRF's start date."""
    book = absolute(tmp_path / "league.xlsx")
    csv = tmp_path / "w2.csv"
    csv.write_text(f"Player,Rank,Date\nAnn,1,{written}\nBen,2,{written}\n", encoding="utf-8")
    import_file(book, csv, Options(event="Week 2"))
    result = CliRunner().invoke(cli, ["standings", str(book), "-f", "json"])
    events = {e["name"]: e["date"] for e in json.loads(result.output)["events"]}
    assert events["Week 2"] == date


def test_an_ambiguous_date_column_asks_for_date(tmp_path: Path) -> None:
    """01/02/2026 is 1 February or 2 January: never guessed."""
    book = absolute(tmp_path / "league.xlsx")
    csv = tmp_path / "w2.csv"
    csv.write_text("Player,Rank,Date\nAnn,1,01/02/2026\n", encoding="utf-8")
    refused(
        book,
        csv,
        r"w2\.csv line 2: the date '01/02/2026' is 1 February 2026 or 2 January 2026",
        Options(event="Week 2"),
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"Player,Rank\nAnn,1\nBen,2,9\n", "3 values where the header"),
        (b"\xff\xfeP\x00l", "is not UTF-16-LE throughout"),
        (b"Player,Rank\nAnn\x00,1\n", "a NUL byte: this is not a text file"),
    ],
)
def test_each_failure_is_one_error_line_and_changes_nothing(
    tmp_path: Path, content: bytes, message: str
) -> None:
    """As the user sees it: exit 1, one `Error:` line naming the file, the workbook as it was."""
    book = absolute(tmp_path / "league.xlsx")
    before = book.read_bytes()
    source = tmp_path / "bad.csv"
    source.write_bytes(content)
    result = CliRunner().invoke(cli, ["import", str(book), str(source), "--date", "2026-01-08"])
    assert result.exit_code == 1
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    assert message in errors[0]
    assert "Traceback" not in result.output
    assert book.read_bytes() == before
