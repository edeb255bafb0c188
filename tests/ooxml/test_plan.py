"""The parts a write adds to a workbook that lacks them, each as the file format requires.

Sources: ECMA-376 Part 2 (Open Packaging Conventions) §10.1.2.2, every part has a content
type, given by an ``<Override PartName="/...">`` when no extension default covers it, and a
part name is listed once; Part 1 §12.3.20 (the workbook's styles part, relationship type
``.../relationships/styles``), §12.3.24 (worksheet), §15.2.12.2 and §22.3 (custom file
properties: ``<property fmtid=... pid=... name=...>`` with ``pid`` at least 2 and unique, its
value a ``vt:lpwstr``).
"""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path

import pytest
from helpers import RALLY_SHEETS, parts, write_book
from lxml import etree

from xlrally.app.stamps import marks
from xlrally.app.unchanged import INPUTS
from xlrally.core.errors import WorkbookError
from xlrally.formats.cells import Cell
from xlrally.ooxml.package import NS_MAIN, NS_REL, Package
from xlrally.ooxml.writer import (
    CUSTOM_CONTENT_TYPE,
    NS_CUSTOM,
    NS_VT,
    STYLES_CONTENT_TYPE,
    WORKSHEET_CONTENT_TYPE,
    Edit,
    plan_sheet,
)

TYPES = "{http://schemas.openxmlformats.org/package/2006/content-types}"
PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
WORKBOOK_RELS = "xl/_rels/workbook.xml.rels"
GRID = [(Cell("Rank"), Cell("Player")), (Cell("1"), Cell("Ann"))]


def rebuild(path: Path, change: dict[str, bytes | None]) -> Path:
    """The package with parts replaced, or left out where the change is None."""
    old = parts(path)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in {**old, **change}.items():
            if data is not None:
                z.writestr(name, data)
    return path


def overrides(data: bytes) -> dict[str, list[str]]:
    """Content types by part name, a list each (so that a part listed twice shows)."""
    found: dict[str, list[str]] = {}
    for o in etree.fromstring(data).iter(f"{TYPES}Override"):
        found.setdefault(o.get("PartName"), []).append(o.get("ContentType"))
    return found


def relationships(data: bytes) -> list[tuple[str, str, str]]:
    return [
        (r.get("Id"), r.get("Type"), r.get("Target"))
        for r in etree.fromstring(data).iter(f"{PKG_REL}Relationship")
    ]


def planned(path: Path, name: str = "Standings", stamp: str | None = None) -> Edit:
    """The edit of a sync's write: the sheet, its fingerprint and (with ``stamp``) the stamp."""
    with Package(path) as package:
        inputs = None if stamp is None else (INPUTS, stamp)
        edit, _, _ = plan_sheet(package, name, GRID, marks=marks, stamp=inputs)
        return edit


def test_a_new_sheet_gets_its_part_entry_relationship_and_content_type(tmp_path: Path) -> None:
    """XlsxWriter's three sheets are sheet1-3.xml with rId1-3: the Standings is sheet4.xml,
    sheetId 4, listed once in [Content_Types].xml as a worksheet."""
    edit = planned(write_book(tmp_path / "league.xlsx", RALLY_SHEETS))
    assert "xl/worksheets/sheet4.xml" in edit.changed
    rels = relationships(edit.changed[WORKBOOK_RELS])
    new = [r for r in rels if r[2] == "worksheets/sheet4.xml"]
    assert new == [(new[0][0], f"{NS_REL}/worksheet", "worksheets/sheet4.xml")]
    assert [r[0] for r in rels].count(new[0][0]) == 1
    assert overrides(edit.changed["[Content_Types].xml"])["/xl/worksheets/sheet4.xml"] == [
        WORKSHEET_CONTENT_TYPE
    ]
    book = etree.fromstring(edit.changed["xl/workbook.xml"])
    sheet = book.find(f"{{{NS_MAIN}}}sheets")[-1]
    assert (sheet.get("name"), sheet.get("sheetId"), sheet.get(f"{{{NS_REL}}}id")) == (
        "Standings",
        "4",
        new[0][0],
    )


def test_a_content_type_already_listed_is_not_listed_twice(tmp_path: Path) -> None:
    """A stale Override for the part name the new sheet takes (left by a program that deleted
    the sheet but not its content type) is kept, not doubled."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    types = parts(path)["[Content_Types].xml"].replace(
        b"</Types>",
        f'<Override PartName="/xl/worksheets/sheet4.xml" ContentType="{WORKSHEET_CONTENT_TYPE}"/>'
        "</Types>".encode(),
    )
    rebuild(path, {"[Content_Types].xml": types})
    edit = planned(path)
    assert "xl/worksheets/sheet4.xml" in edit.changed
    listed = overrides(edit.changed["[Content_Types].xml"])  # changed: custom.xml is added
    assert listed["/xl/worksheets/sheet4.xml"] == [WORKSHEET_CONTENT_TYPE]


def test_a_workbook_without_styles_gets_a_styles_part(tmp_path: Path) -> None:
    """Some generators write no styles part (Excel then uses its defaults). The Standings'
    looks need one: xl/styles.xml, with the workbook's relationship to it and its content type."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    old = parts(path)
    rels = etree.fromstring(old[WORKBOOK_RELS])
    for r in list(rels):
        if r.get("Type") == f"{NS_REL}/styles":
            rels.remove(r)
    types = etree.fromstring(old["[Content_Types].xml"])
    for o in list(types):
        if o.get("PartName") == "/xl/styles.xml":
            types.remove(o)
    rebuild(
        path,
        {
            "xl/styles.xml": None,
            WORKBOOK_RELS: etree.tostring(rels),
            "[Content_Types].xml": etree.tostring(types),
        },
    )
    edit = planned(path)
    styles = etree.fromstring(edit.changed["xl/styles.xml"])
    assert styles.tag == f"{{{NS_MAIN}}}styleSheet"
    assert len(styles.find(f"{{{NS_MAIN}}}cellXfs")) >= 1
    to_styles = [r for r in relationships(edit.changed[WORKBOOK_RELS]) if r[2] == "styles.xml"]
    assert [r[1] for r in to_styles] == [f"{NS_REL}/styles"]
    assert overrides(edit.changed["[Content_Types].xml"])["/xl/styles.xml"] == [STYLES_CONTENT_TYPE]


def custom_properties(edit: Edit) -> list[tuple[str, str, str, str]]:
    """(name, pid, fmtid, text) of each property of the planned docProps/custom.xml, which
    must be a Properties part whose values are vt:lpwstr."""
    root = etree.fromstring(edit.changed["docProps/custom.xml"])
    assert root.tag == f"{{{NS_CUSTOM}}}Properties"
    found = []
    for p in root:
        assert p.tag == f"{{{NS_CUSTOM}}}property"
        (value,) = list(p)
        assert value.tag == f"{{{NS_VT}}}lpwstr"
        found.append((p.get("name"), p.get("pid"), p.get("fmtid"), value.text or ""))
    return found


def test_a_workbook_without_custom_properties_gets_the_part(tmp_path: Path) -> None:
    """The fingerprint, the sheet's listing and the stamp are custom properties; XlsxWriter
    writes no custom.xml, so it is made, with the package's relationship to it and its
    content type."""
    edit = planned(write_book(tmp_path / "league.xlsx", RALLY_SHEETS), stamp="when")
    props = custom_properties(edit)
    assert [name for name, *_ in props] == [
        "xlrally standings",
        "xlrally standings part",
        "xlrally inputs",
    ]
    pids = [int(pid) for _, pid, *_ in props]
    assert min(pids) >= 2
    assert len(set(pids)) == 3
    assert {fmtid for _, _, fmtid, _ in props} == {"{D5CDD505-2E9C-101B-9397-08002B2CF9AE}"}
    sheet = edit.changed["xl/worksheets/sheet4.xml"]
    assert props[1][3] == f"{zlib.crc32(sheet):08x} {len(sheet)}"
    assert props[2][3].endswith(" when")
    to_custom = [r for r in relationships(edit.changed["_rels/.rels"]) if "custom" in r[1]]
    assert [r[1:] for r in to_custom] == [(f"{NS_REL}/custom-properties", "docProps/custom.xml")]
    assert overrides(edit.changed["[Content_Types].xml"])["/docProps/custom.xml"] == [
        CUSTOM_CONTENT_TYPE
    ]


USERS_PROPERTIES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    f'<Properties xmlns="{NS_CUSTOM}" xmlns:v="{NS_VT}">'
    '<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="Club">'
    "<v:lpwstr>Hastings</v:lpwstr></property>"
    '<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="7" name="Season">'
    "<v:lpwstr>2025-26</v:lpwstr></property></Properties>"
)


def with_custom_properties(path: Path, xml: str) -> Path:
    """The workbook with a docProps/custom.xml of its own, as Excel links it."""
    old = parts(path)
    rels = old["_rels/.rels"].replace(
        b"</Relationships>",
        f'<Relationship Id="rId9" Type="{NS_REL}/custom-properties" '
        'Target="docProps/custom.xml"/></Relationships>'.encode(),
    )
    types = old["[Content_Types].xml"].replace(
        b"</Types>",
        f'<Override PartName="/docProps/custom.xml" ContentType="{CUSTOM_CONTENT_TYPE}"/>'
        "</Types>".encode(),
    )
    return rebuild(
        path,
        {"docProps/custom.xml": xml.encode(), "_rels/.rels": rels, "[Content_Types].xml": types},
    )


def test_the_users_own_custom_properties_are_kept_beside_xlralllys(tmp_path: Path) -> None:
    """A user's properties keep their pids and values; xlrally's get pids no other property
    has (above the highest, 7), and are written with the part's own prefix for the value
    types (``v:``, not a second declaration of ``vt``)."""
    path = with_custom_properties(
        write_book(tmp_path / "league.xlsx", RALLY_SHEETS), USERS_PROPERTIES
    )
    edit = planned(path, stamp="when")
    props = custom_properties(edit)
    assert props[:2] == [
        ("Club", "2", "{D5CDD505-2E9C-101B-9397-08002B2CF9AE}", "Hastings"),
        ("Season", "7", "{D5CDD505-2E9C-101B-9397-08002B2CF9AE}", "2025-26"),
    ]
    assert [(name, pid) for name, pid, *_ in props[2:]] == [
        ("xlrally standings", "8"),
        ("xlrally standings part", "9"),
        ("xlrally inputs", "10"),
    ]
    assert b"xmlns:vt" not in edit.changed["docProps/custom.xml"]
    assert "_rels/.rels" not in edit.changed  # the relationship is there already


def test_an_empty_custom_properties_part_gets_pids_from_2(tmp_path: Path) -> None:
    empty = f'<?xml version="1.0" encoding="UTF-8"?>\n<Properties xmlns="{NS_CUSTOM}"/>'
    path = with_custom_properties(write_book(tmp_path / "league.xlsx", RALLY_SHEETS), empty)
    props = custom_properties(planned(path))
    assert [(name, pid) for name, pid, *_ in props] == [
        ("xlrally standings", "2"),
        ("xlrally standings part", "3"),
    ]


def test_a_changed_standings_updates_its_property_in_place(tmp_path: Path) -> None:
    """A second sync of other standings rewrites xlrally's fingerprint where it is, with its
    pid; a property without a pid (some programs omit it) gets 2."""
    fingerprint = (
        '<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" name="xlrally standings">'
        "<v:lpwstr>v3-old</v:lpwstr></property>"
    )
    xml = USERS_PROPERTIES.replace("</Properties>", fingerprint + "</Properties>")
    path = with_custom_properties(write_book(tmp_path / "league.xlsx", RALLY_SHEETS), xml)
    props = custom_properties(planned(path))
    assert [(name, pid) for name, pid, *_ in props] == [
        ("Club", "2"),
        ("Season", "7"),
        ("xlrally standings", "2"),
        ("xlrally standings part", "8"),
    ]
    assert props[2][3].startswith("v4-")
    assert props[2][3] != "v3-old"


def test_a_sheet_of_that_name_that_is_a_chart_is_refused(tmp_path: Path) -> None:
    """A chartsheet called Standings cannot hold the table: the message says to rename it."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    old = parts(path)
    rels = (
        old[WORKBOOK_RELS]
        .replace(b'Target="worksheets/sheet3.xml"', b'Target="chartsheets/sheet1.xml"')
        .replace(b'/worksheet" Target="chartsheets', b'/chartsheet" Target="chartsheets')
    )
    rebuild(path, {WORKBOOK_RELS: rels})
    with Package(path) as package, pytest.raises(WorkbookError) as caught:
        plan_sheet(package, "results", GRID)
    assert str(caught.value) == "the sheet 'Results' is not a worksheet; rename it"


def test_a_workbook_that_lists_no_sheets_is_refused(tmp_path: Path) -> None:
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    book = parts(path)["xl/workbook.xml"]
    start, end = book.index(b"<sheets>"), book.index(b"</sheets>") + len(b"</sheets>")
    rebuild(path, {"xl/workbook.xml": book[:start] + book[end:]})
    with pytest.raises(WorkbookError) as caught, Package(path) as package:
        plan_sheet(package, "Standings", GRID)
    assert str(caught.value) == "xl/workbook.xml: the workbook lists no sheets"
