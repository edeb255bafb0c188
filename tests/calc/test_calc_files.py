"""One workbook for both programs: an ``.xlsx`` whose formulas another program wrote (here
XlsxWriter, as Excel writes them) computes in Calc with the extension, and what Calc writes
keeps values that Excel shows."""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl
import xlsxwriter
from office import Office, calc, oxt  # noqa: F401 (fixtures: real LibreOffice for the session)
from python_calamine import CalamineWorkbook


def typed_elsewhere(path: Path) -> Path:
    """Excel's spelling: ``=RALLY_SCORE(C2,4)`` (XlsxWriter saves 0 as the value, as a program
    that cannot compute it does), an ``_xludf.`` name and an array formula."""
    book = xlsxwriter.Workbook(path)
    sheet = book.add_worksheet("Rally")
    sheet.write_row(0, 0, ["Player", "Rounds", "Points", "Score"])
    sheet.write_row(1, 0, ["Bobby", 4, 3])
    sheet.write_formula(1, 3, "=RALLY_SCORE(C2,4)", None, 0)
    sheet.write_row(2, 0, ["José", 5, 2])
    sheet.write_formula(2, 3, "=_xludf.RALLY_SCORE(C3,B3,1,4)", None, 0)
    sheet.write_column(4, 1, [4, 5])
    sheet.write_column(4, 2, [3, 2])
    sheet.write_array_formula(4, 3, 5, 3, "{=RALLY_SCORE(C5:C6,B5:B6)}")
    sheet.write_string(7, 0, "=RALLY_SCORE(3,4) is text, not a formula")
    book.close()
    return path


def test_an_xlsx_typed_in_excel_computes_in_calc(calc: Office, tmp_path: Path) -> None:
    """The seed's Bobby (3 of 4: 79) and José (2 of 5 with a bye, 4 games: 54), and 2 of 5
    without a bye (100 × 2 / 5 + 5 = 45) in an array formula; the document opens unmodified
    and a text that looks like a formula stays text."""
    path = typed_elsewhere(tmp_path / "typed.xlsx")
    doc = calc("open", str(path))
    try:
        opened_modified = calc("modified", doc)
        calc("calculate", doc)
        scores = calc("values", doc, "Rally", "D2:D6")
        text = calc("values", doc, "Rally", "A8")
    finally:
        calc("close", doc)
    assert not opened_modified
    assert [row[0] for row in scores] == [79.0, 54.0, "", 79.0, 45.0]
    assert text == [["=RALLY_SCORE(3,4) is text, not a formula"]]


def test_what_calc_saves_keeps_values_excel_shows(calc: Office, tmp_path: Path) -> None:
    """A formula typed in Calc, saved as .xlsx and .ods: each file holds the computed value
    (what Excel, and any reader, shows); Calc reads its own .xlsx back and computes again."""
    doc = calc("new")
    try:
        calc("put", doc, "Sheet1", [[3, 4, "=RALLY_SCORE(A1;B1)", "=NEAU_POINTS(10;20;40;1)"]])
        calc("calculate", doc)
        calc("store", doc, str(tmp_path / "calc.xlsx"), "Calc MS Excel 2007 XML")
        calc("store", doc, str(tmp_path / "calc.ods"), "calc8")
    finally:
        calc("close", doc)
    saved = openpyxl.load_workbook(tmp_path / "calc.xlsx", data_only=True).active
    assert [saved["C1"].value, saved["D1"].value] == [79, 5]
    formulas = openpyxl.load_workbook(tmp_path / "calc.xlsx").active
    assert formulas["C1"].value == "=ORG.XLRALLY.CALC.FUNCTIONS.RALLY_SCORE(A1,B1)"  # Calc's name
    assert CalamineWorkbook.from_path(str(tmp_path / "calc.ods")).get_sheet_by_index(0).to_python()[
        0
    ][2:] == [79.0, 5.0]
    with zipfile.ZipFile(tmp_path / "calc.ods") as z:
        assert (
            "of:=ORG.XLRALLY.CALC.FUNCTIONS.RALLY_SCORE([.A1];[.B1])"
            in z.read("content.xml").decode()
        )
    doc = calc("open", str(tmp_path / "calc.xlsx"))
    try:
        calc("set_cell", doc, "Sheet1", "A1", 2)
        calc("set_cell", doc, "Sheet1", "B1", 5)
        calc("calculate", doc)
        assert calc("values", doc, "Sheet1", "C1") == [[45.0]]
    finally:
        calc("close", doc)
