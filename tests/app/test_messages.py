"""Files xlrally cannot sync get a message that says what the file is and what to do, and the
file is left as it was; files it can read are read as the program that saved them meant."""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from helpers import RALLY_SHEETS, rewrite, write_book

from xlrally.app.isolate import Died
from xlrally.app.sync import explain_failure, read_standings, sync_file
from xlrally.core.errors import WorkbookError
from xlrally.ooxml.package import Package
from xlrally.ooxml.reader import FileSheets

RESULTS_PART = "xl/worksheets/sheet3.xml"  # Settings, Events, Results in RALLY_SHEETS order


def problems_of(path: Path) -> list[str]:
    """The sync's problem lines, after checking that the file was left byte-identical."""
    before = path.read_bytes()
    outcome = sync_file(path)
    assert not outcome.ok
    assert path.read_bytes() == before
    return [line.removeprefix(f"{path}: ") for line in outcome.problems]


def test_a_binary_workbook_is_named_as_such(tmp_path: Path) -> None:
    """An .xlsb package (its workbook part is xl/workbook.bin, as Excel saves it)."""
    path = rewrite(
        tmp_path / "league.xlsb",
        {
            "[Content_Types].xml": b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
            "_rels/.rels": (
                b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
                b'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
                b'officeDocument/2006/relationships/officeDocument" Target="xl/workbook.bin"/>'
                b"</Relationships>"
            ),
            "xl/workbook.bin": b"\x83\x01\x00",
        },
        keep=False,
    )
    [message] = problems_of(path)
    assert message.startswith("this is a binary workbook (.xlsb), which xlrally cannot read")
    assert "Save As" in message


def test_an_opendocument_spreadsheet_is_named_as_such(tmp_path: Path) -> None:
    """The first part of every .ods is ``mimetype`` (OpenDocument 1.2, part 3, 3.3)."""
    path = rewrite(
        tmp_path / "league.ods",
        {
            "mimetype": b"application/vnd.oasis.opendocument.spreadsheet",
            "content.xml": b"<office:document-content/>",
        },
        keep=False,
    )
    [message] = problems_of(path)
    assert message.startswith("this is an OpenDocument spreadsheet (.ods)")


def test_a_csv_file_is_named_as_such(tmp_path: Path) -> None:
    path = tmp_path / "results.csv"
    path.write_text("Event,Player,Points\nDec 2025,Bobby,3\n")
    [message] = problems_of(path)
    assert message.startswith("this is a text file (.csv), not a workbook")


def test_an_xlsx_named_otherwise_is_read_by_its_content(tmp_path: Path) -> None:
    """python-calamine picks its reader by suffix; xlrally looks at the content."""
    path = write_book(tmp_path / "league.xlsb", RALLY_SHEETS)
    assert [(r.player, r.total) for r in read_standings(path).rows] == [
        ("Bobby", 100),  # RALLY_SHEETS: hand-worked in tests/helpers.py
        ("José", 54),
    ]


def test_strict_open_xml_is_named_as_such(tmp_path: Path) -> None:
    """Excel's "Strict Open XML Spreadsheet" uses the ISO 29500 strict namespaces."""
    path = write_book(tmp_path / "strict.xlsx", RALLY_SHEETS)
    with zipfile.ZipFile(path) as z:
        parts = {name: z.read(name) for name in z.namelist()}
    strict = {
        name: data.replace(
            b"http://schemas.openxmlformats.org/spreadsheetml/2006/main",
            b"http://purl.oclc.org/ooxml/spreadsheetml/main",
        ).replace(
            b"http://schemas.openxmlformats.org/officeDocument/2006/relationships",
            b"http://purl.oclc.org/ooxml/officeDocument/relationships",
        )
        for name, data in parts.items()
    }
    [message] = problems_of(rewrite(path, strict))
    assert message.startswith("the workbook is saved as Strict Open XML, which xlrally cannot")
    assert "not 'Strict Open XML Spreadsheet'" in message


def test_formulas_never_calculated_are_refused_with_the_cell(tmp_path: Path) -> None:
    """openpyxl saves formulas with no calculated value: the points would read as blanks."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    book = openpyxl.load_workbook(path)
    book["Results"]["C2"] = "=1+2"
    book.save(path)
    [message] = problems_of(path)
    assert message == (
        "Results!C2: this formula has no calculated value (the file was last saved by a "
        "program that does not calculate formulas); open and save it in Excel or LibreOffice "
        "first, then sync again"
    )


def results_with_formula(path: Path, value: float) -> Path:
    """Seed example 1's Bobby scoring 3 by a formula, saved with ``value`` as its result (as
    XlsxWriter does; it also asks Excel to recalculate on opening: fullCalcOnLoad)."""
    book = xlsxwriter.Workbook(str(path))
    date = book.add_format({"num_format": "yyyy-mm-dd"})
    for name, rows in RALLY_SHEETS.items():
        sheet = book.add_worksheet(name)
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                if isinstance(cell, dt.date):
                    sheet.write_datetime(r, c, dt.datetime.combine(cell, dt.time()), date)
                elif cell is not None:
                    sheet.write(r, c, cell)
    book.get_worksheet_by_name("Results").write_formula("C2", "=1+2", None, value)
    book.close()
    return path


def test_formulas_all_saved_as_zero_in_a_book_to_recalculate_are_refused(tmp_path: Path) -> None:
    [message] = problems_of(results_with_formula(tmp_path / "zeros.xlsx", 0))
    assert message.startswith("Results: every formula here shows 0 and the file asks to be")


def test_formulas_with_calculated_values_are_read(tmp_path: Path) -> None:
    path = results_with_formula(tmp_path / "calculated.xlsx", 3)
    assert [(r.player, r.total) for r in read_standings(path).rows] == [
        ("Bobby", 100),
        ("José", 54),
    ]


def test_a_1904_workbook_reads_dates_typed_as_numbers(tmp_path: Path) -> None:
    """Microsoft: the 1904 date system counts 1,462 days fewer than the 1900 system for the
    same date ("Date systems in Excel"). Dec 2025's date typed as a plain number there."""
    serial_1900 = (dt.date(2025, 12, 6) - dt.date(1899, 12, 30)).days
    book = xlsxwriter.Workbook(str(tmp_path / "mac.xlsx"), {"date_1904": True})
    for name, rows in RALLY_SHEETS.items():
        sheet = book.add_worksheet(name)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if value == dt.date(2025, 12, 6):
                    sheet.write_number(r, c, serial_1900 - 1462)  # a plain number, no format
                elif isinstance(value, dt.date):
                    sheet.write_string(r, c, value.isoformat())
                elif value is not None:
                    sheet.write(r, c, value)
    book.close()
    dates = {e.name: e.date for e in read_standings(tmp_path / "mac.xlsx").events}
    assert dates == {"Dec 2025": dt.date(2025, 12, 6), "May 2026": dt.date(2026, 5, 9)}


def test_a_legal_sheet_of_a_million_rows_is_no_zip_bomb(tmp_path: Path) -> None:
    """1,048,575 rows of one formatted empty cell (a user formats a whole column; the row and
    cell references are optional, ECMA-376 Part 1, 18.3.1.73 and 18.3.1.4) compress far beyond
    the 200:1 once taken as a zip bomb; only absolute sizes are limits."""
    path = write_book(tmp_path / "long.xlsx", RALLY_SHEETS)
    with zipfile.ZipFile(path) as z:
        sheet = z.read(RESULTS_PART)
    rows = b'<row><c s="1"/></row>' * (1_048_575 - 4)
    long_sheet = sheet.replace(b"</sheetData>", rows + b"</sheetData>")
    rewrite(path, {RESULTS_PART: long_sheet})
    with zipfile.ZipFile(path) as z:
        info = z.getinfo(RESULTS_PART)
    assert info.file_size / info.compress_size > 200
    with Package(path) as package:
        assert [s.name for s in package.sheets] == ["Settings", "Events", "Results"]


def test_a_file_saved_over_while_read_is_not_called_damaged(tmp_path: Path) -> None:
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    other = write_book(tmp_path / "other.xlsx", {**RALLY_SHEETS, "Notes": [["x"] * 20] * 200})
    with FileSheets(path) as book:
        path.write_bytes(other.read_bytes())  # saved in place, as some programs do
        with pytest.raises(WorkbookError) as caught:
            book.values("Results")
    assert str(caught.value).startswith("the file changed while xlrally was reading it")


def test_a_killed_sync_does_not_blame_the_file(tmp_path: Path) -> None:
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    [killed] = explain_failure(path, Died("was stopped by signal SIGKILL", "SIGKILL")).problems
    assert killed == (
        f"{path}: `xlrally sync` was stopped by SIGKILL on this file (from outside, or the "
        "system ran out of memory); nothing was written: run it again"
    )
    [crashed] = explain_failure(path, Died("was stopped by signal SIGSEGV", "SIGSEGV")).problems
    assert "the workbook reader was stopped by signal SIGSEGV on this file" in crashed
    interrupted = explain_failure(path, Died("was interrupted", "SIGINT"))
    assert (interrupted.result, interrupted.problems) == ("interrupted", ())


def test_a_cell_holding_an_error_is_named_not_read_as_blank(tmp_path: Path) -> None:
    """The value reader sees #N/A as an empty cell: Bobby's row would score as blank."""
    path = results_with_formula(tmp_path / "error.xlsx", 3)
    with zipfile.ZipFile(path) as z:
        sheet = z.read(RESULTS_PART)
    cell = b'<c r="C2"><f>1+2</f><v>3</v></c>'
    assert cell in sheet  # XlsxWriter's formula cell with its saved value
    error = b'<c r="C2" t="e"><f>VLOOKUP(B2,Points!A:B,2,FALSE)</f><v>#N/A</v></c>'
    rewrite(path, {RESULTS_PART: sheet.replace(cell, error)})
    [message] = problems_of(path)
    assert message == (
        "Results!C2: the cell holds the error #N/A: correct the formula behind it (or wrap it "
        "in IFERROR), then sync again"
    )
