"""A written sheet's values as readers of the file see them: the digest the writer makes of the
texts it writes equals the digest of the sheet as python-calamine (xlrally's reader) and
openpyxl read it back, whatever the values; and each cell reads back as the text it was
written as (15 significant digits: issue 32)."""

from __future__ import annotations

import math
from pathlib import Path

import openpyxl
from helpers import RALLY_SHEETS, write_book
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xlrally.formats.cells import Cell, Look, Row
from xlrally.ooxml.package import Package
from xlrally.ooxml.reader import FileSheets
from xlrally.ooxml.sheet_values import cell_text, kept_text, values_digest
from xlrally.ooxml.sheet_xml import SheetXml, sheet_xml
from xlrally.ooxml.styles import Styles
from xlrally.ooxml.writer import plan_sheet, stage, verify

BOLD = Look(bold=True, number_format="0.00")
GREYED = Look(italic=True, grey=True, number_format="(0.00)")

NUMBERS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300),
    st.floats(min_value=-1e16, max_value=1e16, allow_nan=False),
    st.sampled_from([0.1 + 0.2, -0.0, 1e15, -1e15, 999999999999999.0, 1e15 + 0.5, 2.675]),
    st.integers(min_value=-(10**15), max_value=10**15),
)
TEXTS = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=12
) | st.sampled_from(["3", "46.565879604193", " ", "<b>&amp;", "_x0041_", "√(10 × 20)"])
VALUES = st.one_of(st.none(), NUMBERS, TEXTS)
CELLS = st.builds(Cell, VALUES, st.sampled_from([Look(), BOLD, GREYED]))
GRIDS = st.lists(st.lists(CELLS, max_size=6).map(tuple), min_size=1, max_size=6)


def written(tmp_path: Path, grid: list[Row]) -> tuple[Path, str]:
    """A workbook with the grid written as its sheet Standings, and the digest the writer made
    of the values it wrote."""
    path = write_book(tmp_path / "book.xlsx", RALLY_SHEETS)
    digests: list[str] = []

    def kept(sheet: SheetXml) -> dict[str, str]:
        digests.append(sheet.values)
        return {}

    with Package(path) as package:
        edit, styles, part = plan_sheet(package, "Standings", grid, marks=kept)
        staged = stage(path, edit, lambda: verify(edit, styles, written=part))
    assert staged is not None
    staged.commit()
    return path, digests[0]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(grid=GRIDS)
def test_the_digest_written_is_the_digest_read_back(tmp_path: Path, grid: list[Row]) -> None:
    path, digest = written(tmp_path, grid)
    with FileSheets(path) as sheets:
        calamine = sheets.values("Standings")
    assert values_digest(calamine) == digest
    book = openpyxl.load_workbook(path, read_only=True)
    opened = [list(row) for row in book["Standings"].iter_rows(values_only=True)]
    book.close()
    # openpyxl leaves Excel's escapes of an inline string as written (it reads "_x0007_" for
    # the bell character that python-calamine and Excel read), so not with those texts
    if not any("_x" in str(cell.value) for row in grid for cell in row):
        assert values_digest(opened) == digest


@settings(max_examples=300, deadline=None)
@given(value=NUMBERS)
def test_a_number_is_written_as_the_text_it_reads_back_as(value: float) -> None:
    """Any reader parses the text written to the same double, whose text is the one written:
    at most 15 significant digits keep (a 15-digit decimal survives a trip through a double)."""
    text = kept_text(value)
    assert kept_text(float(text)) == text
    assert cell_text(float(text)) == text
    if isinstance(value, float) and not value.is_integer():
        assert math.isclose(float(text), value, rel_tol=1e-14)


def test_numbers_are_seen_to_the_digits_spreadsheet_programs_keep() -> None:
    """Issue 32: written 46.565879604193036; LibreOffice saves 46.5658796041930, openpyxl
    46.56587960419304: one number to every reader. A text that looks like a number is not it."""
    assert cell_text(46.565879604193036) == "46.565879604193"
    assert cell_text(46.5658796041930) == cell_text(46.56587960419304) == "46.565879604193"
    assert cell_text(46.5658796041931) == "46.5658796041931"
    assert cell_text(3) == cell_text(3.0) == cell_text(-0.0 + 3) == "3"
    assert cell_text("3") == "'3"
    assert cell_text(None) is cell_text("") is None


def test_the_writer_writes_each_number_as_its_kept_text() -> None:
    """The sheet's own ``<v>`` texts are the ones digested (the fast path for numbers within
    1e15 and the general one agree, -0.0 written as 0)."""
    values = [0.1 + 0.2, -0.0, 1e15, 1e15 - 1, 123456789012345.6, 2.5, 7, 1e20, 1e-7]
    grid = [tuple(Cell(v) for v in values)]
    xml = sheet_xml(grid, Styles(None), {}, False)
    data = xml.data.decode()
    assert [data.split("<v>")[i + 1].split("</v>")[0] for i in range(len(values))] == [
        kept_text(v) for v in values
    ]
    assert xml.values == values_digest([values])
