"""The old sheet read with its rows cut out (issue 33's weekly sync) tells the writer what a
parse of the whole sheet tells it: kept settings, selected tab, hidden columns' headings, Excel
tables, formulas; and where cutting is not safe, the whole sheet is parsed."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from xlrally.core.errors import WorkbookError
from xlrally.ooxml.old_sheet import read_old_sheet
from xlrally.ooxml.package import NS_MAIN
from xlrally.ooxml.sheet_xml import (
    hidden_headings,
    kept_elements,
    selected,
    table_parts,
)
from xlrally.ooxml.xmlpart import XmlPart

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def what_the_writer_sees(part: XmlPart, formulas: bool) -> tuple[object, ...]:
    """Everything plan_sheet takes from an old sheet (shared strings shown by their index)."""
    return (
        kept_elements(part),
        hidden_headings(part, lambda index: f"shared {index}"),
        selected(part),
        table_parts(part),
        formulas,
    )


def whole(name: str, data: bytes) -> tuple[object, ...]:
    part = XmlPart(name, data)
    return what_the_writer_sees(part, bool(part.find(NS_MAIN, "f")))


def cut(name: str, data: bytes) -> tuple[object, ...]:
    old = read_old_sheet(name, data, cut_from=0)
    return what_the_writer_sees(old.part, old.formulas)


def worksheets() -> list[tuple[str, bytes]]:
    """Every worksheet part of the corpus's workbooks (a tenth of XlsxWriter's, all others)."""
    found = sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() in {".xlsx", ".xlsm"})
    xlsxwriter = [p for p in found if "xlsxwriter" in p.parts]
    parts = []
    for path in [p for p in found if "xlsxwriter" not in p.parts] + xlsxwriter[::10]:
        try:
            with zipfile.ZipFile(path) as package:
                for info in package.infolist():
                    if info.filename.startswith("xl/worksheets/sheet") and info.file_size < 2**24:
                        parts.append((f"{path.name}:{info.filename}", package.read(info)))
        except (zipfile.BadZipFile, RuntimeError, NotImplementedError, OSError):
            continue  # broken or encrypted on purpose: not this test's subject
    return parts


def test_every_worksheet_of_the_corpus_reads_the_same_cut_or_whole() -> None:
    """Each real worksheet (Excel, LibreOffice, Google Sheets, openpyxl, exceljs ... wrote
    them) gives the writer the same answers with its rows cut out as parsed whole."""
    sheets = worksheets()
    assert len(sheets) > 300
    compared = 0
    for name, data in sheets:
        try:
            expected = whole(name, data)
        except WorkbookError:  # damaged on purpose: the writer refuses it either way
            continue
        assert cut(name, data) == expected, name
        compared += 1
    assert compared > 300


SHEET = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    f'<worksheet xmlns="{NS_MAIN}" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheetPr><tabColor rgb="FF00FF00"/></sheetPr>'
    '<sheetViews><sheetView tabSelected="1" workbookViewId="0"/></sheetViews>'
    '<cols><col min="2" max="2" width="9" hidden="1"/></cols>'
    "<sheetData>{rows}</sheetData>"
    '<pageMargins left="1" right="1" top="1" bottom="1" header="0.5" footer="0.5"/>'
    "<headerFooter><oddHeader>&amp;CMy club</oddHeader></headerFooter>"
    "</worksheet>"
)
ROW_1 = (
    '<row r="1"><c r="A1" t="inlineStr"><is><t>Rank</t></is></c>'
    '<c r="B1" t="inlineStr"><is><t>Secret</t></is></c></row>'
)


def rows(count: int, last: str = "") -> str:
    body = "".join(
        f'<row r="{r}"><c r="A{r}"><v>{r}</v></c><c r="B{r}" t="inlineStr"><is><t>n{r}</t>'
        "</is></c></row>"
        for r in range(2, count)
    )
    return ROW_1 + body + last


@pytest.mark.parametrize(
    ("case", "sheet", "cut_out"),
    [
        ("a big Standings sheet", SHEET.format(rows=rows(5000)), True),
        (
            "a formula in the last row",
            SHEET.format(rows=rows(5000, '<row r="5000"><c r="A5000"><f>A1+1</f></c></row>')),
            True,
        ),
        (
            "a formula element with a prefix bound to the main namespace",
            SHEET.replace("<worksheet ", f'<worksheet xmlns:x="{NS_MAIN}" ').format(
                rows=rows(5000, '<row r="5000"><c r="A5000"><x:f>A1</x:f></c></row>')
            ),
            True,
        ),
        (
            "rich text with a font family (not a formula)",
            SHEET.format(
                rows=rows(
                    5000,
                    (
                        '<row r="5000"><c r="A5000" t="inlineStr"><is><r><rPr><family val="2"/></rPr>'
                        "<t>x</t></r></is></c></row>"
                    ),
                )
            ),
            True,
        ),
        (
            "a comment among the rows",
            SHEET.format(rows=rows(5000, "<!-- <f>x</f> -->")),
            False,
        ),
        (
            "a namespace declared among the rows",
            SHEET.format(
                rows=rows(
                    5000, f'<row r="5000" xmlns:y="{NS_MAIN}"><c r="A5000"><y:f>1</y:f></c></row>'
                )
            ),
            False,
        ),
        ("row 1 missing", SHEET.format(rows=rows(5000).replace(ROW_1, "")), False),
        ("no rows", SHEET.format(rows=""), True),
    ],
)
def test_made_sheets(case: str, sheet: str, cut_out: bool) -> None:
    """Made sheets on each side of what may be cut: the answers are the whole parse's, and
    the rows are cut out only where that is safe."""
    data = sheet.encode()
    assert cut("sheet.xml", data) == whole("sheet.xml", data), case
    old = read_old_sheet("sheet.xml", data, cut_from=0)
    assert (len(old.part.data) < len(data) / 10) == (cut_out and len(data) > 10_000), case
