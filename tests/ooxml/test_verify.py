"""The last check before a write is committed (``writer.verify``): a planned package that breaks
a rule of the file format is refused, naming the part and the rule, and nothing is written.

The planner never makes such a package; these tests hand ``verify`` one directly, as a bug in
the planner would. Rules, from ECMA-376 Part 1: every part is namespace-well-formed XML
(§8, Namespaces in XML); a relationship's Id is unique in its part (§9.3.2); a sheet's sheetId
and name are unique in the workbook, names compared without case as Excel does (§18.2.19);
every sheet's r:id names a relationship of the workbook (§18.2.19).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import RALLY_SHEETS, write_book

from xlrally.core.errors import WorkbookError
from xlrally.ooxml.package import Package
from xlrally.ooxml.styles import Styles
from xlrally.ooxml.writer import Edit, verify

WORKBOOK = "xl/workbook.xml"
RELS = "xl/_rels/workbook.xml.rels"
SHEET = "xl/worksheets/sheet1.xml"


@pytest.fixture
def edit(tmp_path: Path) -> Edit:
    """An edit of an XlsxWriter workbook of three sheets (ids 1-3, rId1-rId3), nothing changed."""
    package = Package(write_book(tmp_path / "league.xlsx", RALLY_SHEETS))
    assert [s.name for s in package.sheets] == ["Settings", "Events", "Results"]
    return Edit(package)


def refusal(edit: Edit, written: str = "") -> str:
    with pytest.raises(WorkbookError) as caught:
        verify(edit, Styles(None), written)
    return str(caught.value)


def test_an_unchanged_package_passes(edit: Edit) -> None:
    verify(edit, Styles(None), SHEET)


def test_a_relationship_id_used_twice_is_refused(edit: Edit) -> None:
    rels = edit.data(RELS).replace(b'Id="rId2"', b'Id="rId1"')
    edit.set(RELS, rels)
    assert refusal(edit) == f"{RELS}: a relationship id would be used twice"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (b'name="Events"', b'name="settings"'),  # Excel compares sheet names without case
        (b'sheetId="2"', b'sheetId="1"'),
    ],
    ids=["name", "sheetId"],
)
def test_a_sheet_name_or_id_used_twice_is_refused(edit: Edit, old: bytes, new: bytes) -> None:
    edit.set(WORKBOOK, edit.data(WORKBOOK).replace(old, new))
    assert refusal(edit) == f"{WORKBOOK}: a sheet id or name would be used twice"


def test_a_sheet_whose_relationship_is_gone_is_refused(edit: Edit) -> None:
    """The workbook names rId3 for Results; the relationships part no longer has it."""
    rels = edit.data(RELS)
    start = rels.index(b'<Relationship Id="rId3"')
    edit.set(RELS, rels[:start] + rels[rels.index(b"/>", start) + 2 :])
    edit.set(WORKBOOK, edit.data(WORKBOOK).replace(b"<sheets>", b"<sheets >", 1))  # changed
    assert refusal(edit) == f"{WORKBOOK}: sheet 'Results' lost its part"


def test_a_changed_sheet_list_is_checked_against_the_changed_relationships(edit: Edit) -> None:
    """Only the sheet list changed: its new sheet names a relationship that is not there."""
    book = edit.data(WORKBOOK).replace(
        b"</sheets>", b'<sheet name="Standings" sheetId="4" r:id="rId99"/></sheets>'
    )
    edit.set(WORKBOOK, book)
    assert refusal(edit) == f"{WORKBOOK}: sheet 'Standings' lost its part"


@pytest.mark.parametrize("part", [RELS, "[Content_Types].xml", SHEET])
def test_a_part_with_an_unbound_prefix_is_refused(edit: Edit, part: str) -> None:
    data = edit.data(part)
    closing = data.rindex(b"</")
    edit.set(part, data[:closing] + b'<x:odd a="1"/>' + data[closing:])
    message = refusal(edit)
    assert message.startswith(f"{part}: the edited part is not well-formed XML (unbound prefix")


def test_the_cells_of_the_written_sheet_are_not_parsed_again(edit: Edit) -> None:
    """The written sheet's cells are xlrally's own escaped output: only what surrounds them is
    checked. An unbound prefix inside <sheetData> of the written part passes; the same outside
    it, or inside another sheet, is refused."""
    data = edit.data(SHEET)
    assert b"<sheetData>" in data
    inside = data.replace(b"<sheetData>", b'<sheetData><x:row r="1"/>', 1)
    edit.set(SHEET, inside)
    verify(edit, Styles(None), SHEET)
    assert refusal(edit, written="xl/worksheets/sheet2.xml").startswith(f"{SHEET}: ")
    outside = data.replace(b"<sheetData>", b"<x:odd/><sheetData>", 1)
    edit.set(SHEET, outside)
    assert refusal(edit, written=SHEET).startswith(f"{SHEET}: ")


def test_parts_that_are_not_xml_are_not_parsed(edit: Edit) -> None:
    """A picture or a VBA project is binary: only .xml and .rels parts are checked."""
    edit.changed["xl/media/image1.png"] = b"\x89PNG\r\n\x1a\n<x:not-xml"
    edit.changed["xl/vbaProject.bin"] = b"<x:odd/>"
    verify(edit, Styles(None), SHEET)
