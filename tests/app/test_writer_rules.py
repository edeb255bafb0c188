"""Issue 18: rules of the file format the writer must keep, each of which a deliberate mistake
broke without any test noticing: sheet names compare without case in Excel, sheet ids and
relationship ids must be unique, the sync must not change a file's mode.

Sources: ECMA-376 Part 1, §18.2.19 (sheet: sheetId unique), §9.2 (a relationship's Id unique
in its part); Excel refuses two sheets whose names differ only in case.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import zipfile
from pathlib import Path

import openpyxl
import pytest
from helpers import CALC_CHAIN, RALLY_SHEETS, open_book, parts, rewrite, with_calc_chain, write_book
from lxml import etree

from xlrally.app import stamps
from xlrally.app import sync as sync_module
from xlrally.app.sync import sync_file


def sheet_names(path: Path) -> list[str]:
    return re.findall(r'<sheet [^>]*name="([^"]+)"', parts(path)["xl/workbook.xml"].decode())


def test_a_sheet_named_standings_in_lower_case_is_the_standings_sheet(tmp_path: Path) -> None:
    """Excel would refuse a second sheet `Standings` beside `standings`: the sync writes into
    the user's sheet, keeping its name."""
    path = write_book(tmp_path / "league.xlsx", {**RALLY_SHEETS, "standings": [["old"]]})
    outcome = sync_file(path)
    assert outcome.result == "written", outcome.problems
    names = sheet_names(path)
    assert [n for n in names if n.casefold() == "standings"] == ["standings"]
    sheet = openpyxl.load_workbook(path)["standings"]
    # tests/helpers.py: Bobby 79 + 21 = 100 leads José's 54
    assert [sheet["B2"].value, sheet["C2"].value, sheet["B3"].value] == ["Bobby", 100, "José"]


def test_new_sheet_and_relationship_ids_never_collide(tmp_path: Path) -> None:
    """A workbook whose sheetIds have a gap (1, 2, 9: a sheet was deleted) and whose
    relationships include a high id (rId12, e.g. an external link): the new Standings sheet
    gets a sheetId and a relationship id used by nothing else."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    old = parts(path)
    workbook = old["xl/workbook.xml"].replace(b'sheetId="3"', b'sheetId="9"')
    rels = old["xl/_rels/workbook.xml.rels"].replace(
        b"</Relationships>",
        b'<Relationship Id="rId12" Type="http://schemas.openxmlformats.org/officeDocument/'
        b'2006/relationships/externalLink" Target="externalLinks/externalLink1.xml"/>'
        b"</Relationships>",
    )
    rewrite(path, {"xl/workbook.xml": workbook, "xl/_rels/workbook.xml.rels": rels})
    assert sync_file(path).result == "written"
    after = parts(path)
    ids = re.findall(rb'sheetId="(\d+)"', after["xl/workbook.xml"])
    assert len(ids) == len(set(ids)) == 4
    rel_ids = re.findall(rb'Id="(rId\d+)"', after["xl/_rels/workbook.xml.rels"])
    assert len(rel_ids) == len(set(rel_ids))
    assert b"rId12" in rel_ids  # the user's link is kept
    assert "Standings" in sheet_names(path)


def test_the_files_mode_is_kept(tmp_path: Path) -> None:
    """A workbook readable by its owner and group only stays so after a sync (the new file
    replaces it; its mode is the user's, not the umask's)."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    path.chmod(0o640)
    assert sync_file(path).result == "written"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_calc_chain_pointing_into_the_old_standings_is_dropped(tmp_path: Path) -> None:
    """The old Standings had a formula (A1), which the calcChain lists: once the sheet is
    replaced the entry points at a cell that is gone, so the part, its content type and its
    relationship go (Excel rebuilds the chain). Without formulas on the old sheet it stays."""
    for formulas in (True, False):
        path = tmp_path / f"chain-{formulas}.xlsx"
        book = open_book(path, RALLY_SHEETS)
        standings = book.add_worksheet("Standings")
        if formulas:
            standings.write_formula("A1", "=1+1", None, 2)
        else:
            standings.write_number("A1", 2)
        book.close()
        with_calc_chain(path)
        assert sync_file(path).result == "written"
        after = parts(path)
        assert ("xl/calcChain.xml" in after) is not formulas
        assert (b"calcChain" in after["[Content_Types].xml"]) is not formulas
        assert (b"calcChain" in after["xl/_rels/workbook.xml.rels"]) is not formulas
        if not formulas:
            assert after["xl/calcChain.xml"] == CALC_CHAIN


def test_a_selected_standings_tab_stays_selected(tmp_path: Path) -> None:
    """The user last looked at Standings (its tab selected, the workbook's active tab): after
    the sync it still is."""
    path = tmp_path / "league.xlsx"
    book = open_book(path, RALLY_SHEETS)
    book.add_worksheet("Standings").activate()
    book.close()
    assert sync_file(path).result == "written"
    after = parts(path)
    assert b'tabSelected="1"' in after["xl/worksheets/sheet4.xml"]
    assert b'activeTab="3"' in after["xl/workbook.xml"]


def test_a_file_saved_by_another_program_during_the_sync_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between reading and replacing, the treasurer saves the workbook in Excel: the sync must
    not overwrite that save. It refuses, naming what happened, and the new save stays."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    saved_meanwhile = write_book(tmp_path / "other.xlsx", {**RALLY_SHEETS, "Notes": [["new"]]})
    real_check = stamps.hand_edits

    def saved_during_the_sync(*args: object) -> str | None:
        shutil.copyfile(saved_meanwhile, path)  # the other program's save, in place
        return real_check(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(sync_module, "hand_edits", saved_during_the_sync)
    outcome = sync_file(path)
    assert outcome.result == "failed"
    assert outcome.problems[0].endswith(
        "the workbook was changed by another program while xlrally was working; sync it again"
    )
    assert path.read_bytes() == saved_meanwhile.read_bytes()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no litter


def test_new_number_formats_get_custom_ids(tmp_path: Path) -> None:
    """Number formats the sync adds take ids from 164 up (ECMA-376 §18.8.30: ids below 164
    are Excel's built-in formats, which a reader would show instead), and never an id the
    workbook already uses. A dropped score shows as `(29)` and a shared rank as `1=`: custom
    formats, which XlsxWriter did not write (best 2 of 3 count: Al and Bo 79 + 79 = 158, Al's
    29 dropped)."""
    sheets = {
        "Settings": [["Setting", "Value"], ["System", "rally"]],
        "Events": [["Event", "Rounds"], ["E1", 4], ["E2", 4], ["E3", 4]],
        "Results": [
            ["Event", "Player", "Points"],
            ["E1", "Al", 3],
            ["E2", "Al", 3],
            ["E3", "Al", 1],
            ["E1", "Bo", 3],
            ["E2", "Bo", 3],
        ],
    }
    path = write_book(tmp_path / "ties.xlsx", sheets)
    before = re.findall(rb'<numFmt numFmtId="(\d+)"', parts(path)["xl/styles.xml"])
    assert sync_file(path).result == "written"
    after = re.findall(rb'<numFmt numFmtId="(\d+)"', parts(path)["xl/styles.xml"])
    added = [int(n) for n in after if n not in before]
    assert added, "the sync added no number format"
    assert all(n >= 164 for n in added)
    assert len(after) == len(set(after))


@pytest.mark.parametrize(
    "calc",
    [
        "calcPr without fullCalcOnLoad",
        "no calcPr",
        "no calcPr, an extLst after",
        'fullCalcOnLoad="true"',
    ],
)
def test_a_defined_name_reading_standings_makes_the_workbook_recalculate(
    tmp_path: Path, calc: str
) -> None:
    """A defined name (`Leader` = Standings!$B$2) used by the user's formulas holds the old
    standings until Excel recalculates: the sync asks for a recalculation on opening. As in
    tests/app/test_sync.py, XlsxWriter's own fullCalcOnLoad is taken out first (or its whole
    calcPr). The schema allows one calcPr, after definedNames (ECMA-376 Part 1, 18.2.27); the
    one there keeps its other settings."""
    path = tmp_path / "named.xlsx"
    book = open_book(path, RALLY_SHEETS)
    book.add_worksheet("Standings")
    sheet = "standings" if calc.startswith("no calcPr") else "Standings"  # Excel ignores case
    book.define_name("Leader", f"={sheet}!$B$2")
    book.close()
    workbook = parts(path)["xl/workbook.xml"].replace(b' fullCalcOnLoad="1"', b"")
    if calc.startswith("no calcPr"):
        workbook = re.sub(rb"<calcPr[^>]*/>", b"", workbook)
    if calc == "no calcPr, an extLst after":  # the schema's last child of <workbook>
        workbook = workbook.replace(b"</workbook>", b"<extLst/></workbook>")
    if calc == 'fullCalcOnLoad="true"':  # xsd:boolean's other spelling, as another program wrote
        workbook = workbook.replace(b"<calcPr ", b'<calcPr fullCalcOnLoad="true" ')
    rewrite(path, {"xl/workbook.xml": workbook})
    assert sync_file(path).result == "written"
    root = etree.fromstring(parts(path)["xl/workbook.xml"])
    names = [etree.QName(child).localname for child in root]
    assert names.count("calcPr") == 1
    assert names.index("calcPr") == names.index("definedNames") + 1
    calc_pr = root[names.index("calcPr")]
    assert calc_pr.get("fullCalcOnLoad") == ("true" if "true" in calc else "1")  # as written
    if not calc.startswith("no calcPr"):
        assert calc_pr.get("calcId") == "124519"  # XlsxWriter's, kept
    if "extLst" in calc:
        assert names[-1] == "extLst"


def test_a_part_with_a_non_ascii_name_keeps_its_name(tmp_path: Path) -> None:
    """A zip entry's name is UTF-8 only when its flag bit 11 says so (APPNOTE 4.4.4); an entry
    copied without it would come back as `xl/media/bild_Ã¤.bin`."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    with zipfile.ZipFile(path, "a") as z:
        z.writestr("xl/media/bild_ä.bin", b"not referenced: kept as it is")
    assert sync_file(path).result == "written"
    with zipfile.ZipFile(path) as z:
        info = z.getinfo("xl/media/bild_ä.bin")
        assert info.flag_bits & 0x800
        assert z.read(info) == b"not referenced: kept as it is"


VT = "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"


@pytest.mark.parametrize("declared", ["on the root as v", "on each value"])
def test_the_users_custom_properties_stay_and_ours_are_written_in_their_namespace(
    tmp_path: Path, declared: str
) -> None:
    """docProps/custom.xml written by another program: its own prefix for the value types
    (``v:``, or declared on each value), property ids with a gap (2 and 5). The sync adds its
    two properties with new ids (ECMA-376 Part 1, 22.3: pid unique, from 2), values in the
    value-types namespace, and keeps the user's; a second sync after a change updates them in
    place (one property per name)."""
    path = tmp_path / "props.xlsx"
    book = open_book(path, RALLY_SHEETS)
    book.set_custom_property("Department", "Finance")
    book.set_custom_property("Checked by", "Ann")
    book.close()
    custom = parts(path)["docProps/custom.xml"].replace(b'pid="3"', b'pid="5"')
    if declared == "on the root as v":
        custom = custom.replace(b"xmlns:vt=", b"xmlns:v=").replace(b"vt:", b"v:")
    else:
        custom = custom.replace(f' xmlns:vt="{VT}"'.encode(), b"")
        custom = custom.replace(b"<vt:lpwstr>", f'<vt:lpwstr xmlns:vt="{VT}">'.encode())
    rewrite(path, {"docProps/custom.xml": custom})

    def properties() -> dict[str, tuple[str, str]]:
        root = etree.fromstring(parts(path)["docProps/custom.xml"])
        found = {}
        for prop in root:
            (value,) = list(prop)
            assert etree.QName(value).namespace == VT
            found[prop.get("name")] = (prop.get("pid"), value.text)
        pids = [pid for pid, _ in found.values()]
        assert len(pids) == len(set(pids)) == len(root)
        return found

    assert sync_file(path).result == "written"
    first = properties()
    assert first["Department"] == ("2", "Finance")
    assert first["Checked by"] == ("5", "Ann")
    ours = {name: pid for name, (pid, _) in first.items() if name.startswith("xlrally")}
    assert sorted(ours.values()) == ["6", "7", "8"]
    synced = parts(path)["docProps/custom.xml"]
    results = [*RALLY_SHEETS["Results"], ["May 2026", "Ann", 1, 4, 0]]  # a new result
    book = open_book(path, {**RALLY_SHEETS, "Results": results})
    book.set_custom_property("Department", "Finance")
    book.close()
    rewrite(path, {"docProps/custom.xml": synced})
    assert sync_file(path).result == "written"
    second = properties()
    assert {name: pid for name, (pid, _) in second.items() if name.startswith("xlrally")} == ours


WORKBOOK_SEQUENCE = (
    "fileVersion",
    "fileSharing",
    "workbookPr",
    "workbookProtection",
    "bookViews",
    "sheets",
    "functionGroups",
    "externalReferences",
    "definedNames",
    "calcPr",
    "oleSize",
    "customWorkbookViews",
    "pivotCaches",
    "smartTagPr",
    "smartTagTypes",
    "webPublishing",
    "fileRecoveryPr",
    "webPublishObjects",
    "extLst",
)
"""The children of <workbook>, in the order the schema requires (ECMA-376 Part 1, 18.2.27
CT_Workbook, a sequence of optional elements, each at most once)."""

EXT_LST = (
    b'<extLst><ext uri="{B58B0392-4F1F-4190-BB64-5DF3571DCE5F}" '
    b'xmlns:xcalcf="http://schemas.microsoft.com/office/spreadsheetml/2018/calcfeatures">'
    b"<xcalcf:calcFeatures/></ext></extLst>"
)


@pytest.mark.parametrize("workbook", ["XlsxWriter", "no calcPr", "extLst", "openpyxl"])
def test_the_print_names_go_where_the_schema_puts_them(tmp_path: Path, workbook: str) -> None:
    """A workbook without defined names gets the Standings' print titles and area in a new
    <definedNames>, which must come after <sheets> and before <calcPr> and <extLst>, whatever
    the workbook holds (Excel refuses a workbook.xml out of this order)."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    xml = parts(path)["xl/workbook.xml"]
    assert b"definedNames" not in xml
    if workbook == "no calcPr":
        rewrite(path, {"xl/workbook.xml": re.sub(rb"<calcPr[^>]*/>", b"", xml)})
    elif workbook == "extLst":
        rewrite(path, {"xl/workbook.xml": xml.replace(b"</workbook>", EXT_LST + b"</workbook>")})
    elif workbook == "openpyxl":
        openpyxl.load_workbook(path).save(path)
    assert sync_file(path).result == "written"
    root = etree.fromstring(parts(path)["xl/workbook.xml"])
    names = [etree.QName(child).localname for child in root]
    assert names == sorted(names, key=WORKBOOK_SEQUENCE.index)
    assert len(names) == len(set(names))
    defined = {d.get("name"): d.text for d in root.iter(f"{{{root.nsmap[None]}}}definedName")}
    assert defined == {
        "_xlnm.Print_Titles": "Standings!$1:$1",
        # Rank, Player, Total, Events and the two events; not the Working column (G)
        "_xlnm.Print_Area": "Standings!$A$1:$F$1048576",
    }


@pytest.mark.parametrize(
    ("workbook", "owner_file"),
    [
        ("club.xlsx", "~$club.xlsx"),  # fewer than 7 characters before .xlsx: the whole name
        ("league.xlsx", "~$league.xlsx"),
        ("league7.xlsx", "~$eague7.xlsx"),  # 7: Excel drops the first character
        ("league26.xlsx", "~$ague26.xlsx"),  # 8 or more: the first two
        ("league2026.xlsx", "~$ague2026.xlsx"),
    ],
)
def test_the_owner_file_excel_makes_for_a_name(
    tmp_path: Path, workbook: str, owner_file: str
) -> None:
    """Excel marks an open workbook with an owner file named as above (and LibreOffice with
    `.~lock.NAME#`); either beside the workbook means it is open, and the sync refuses."""
    from xlrally.ooxml.writer import owner_files

    found = {p.name for p in owner_files(tmp_path / workbook)}
    # the full name too: other programs write it so
    assert found == {f".~lock.{workbook}#", owner_file, f"~${workbook}"}


def test_stale_temporary_files_are_cleaned_and_fresh_ones_left(tmp_path: Path) -> None:
    """A sync killed mid-write can leave its temporary file (``.~xxxxxxxx-....xlrally-tmp``);
    a batch removes those older than an hour, and leaves younger ones (another sync may be
    writing them) and every other file alone."""
    import os
    import time

    from xlrally.ooxml.writer import TEMP_SUFFIX, clean_stale_temporaries, temp_prefix

    prefix = temp_prefix(tmp_path / "league.xlsx")
    stale, fresh = tmp_path / f"{prefix}a{TEMP_SUFFIX}", tmp_path / f"{prefix}b{TEMP_SUFFIX}"
    other = tmp_path / ".~lock.league.xlsx#"
    for path in (stale, fresh, other):
        path.write_bytes(b"x")
    two_hours_ago = time.time() - 7200
    os.utime(stale, (two_hours_ago, two_hours_ago))
    os.utime(other, (two_hours_ago, two_hours_ago))
    clean_stale_temporaries(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([fresh.name, other.name])
    assert re.fullmatch(r"\.~[0-9a-f]{8}-", prefix)


def test_the_files_extended_attributes_are_kept(tmp_path: Path) -> None:
    """Extended attributes (where ACLs, SELinux labels and macOS's quarantine flag live) belong
    to the user's file: the new file carries them."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    try:
        os.setxattr(path, "user.xlrally.test", b"kept")
    except OSError:
        pytest.skip("this file system has no user extended attributes")
    assert sync_file(path).result == "written"
    assert os.getxattr(path, "user.xlrally.test") == b"kept"


def test_a_workbook_that_cannot_be_replaced_is_named_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows refuses to replace a file Excel holds open (PermissionError from the rename)."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    before = path.read_bytes()

    def refuse(*_: object) -> None:
        raise PermissionError(13, "Access is denied")

    monkeypatch.setattr(os, "replace", refuse)
    outcome = sync_file(path)
    assert outcome.result == "failed"
    assert outcome.problems[0].endswith(
        "cannot replace the workbook (is it open in Excel or read-only?)"
    )
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["league.xlsx"]


def test_parts_the_sync_adds_carry_the_timestamp_excel_writes(tmp_path: Path) -> None:
    """Excel stamps every part of a package 1980-01-01 00:00 (279 of the first 300 corpus
    files do): the parts xlrally adds (the Standings sheet, the custom properties) are stamped
    the same, so the file does not tell when it was synced."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    with zipfile.ZipFile(path) as z:
        old = {i.filename for i in z.infolist()}
    assert sync_file(path).result == "written"
    with zipfile.ZipFile(path) as z:
        added = {i.filename: i.date_time for i in z.infolist() if i.filename not in old}
    assert set(added) == {"xl/worksheets/sheet4.xml", "docProps/custom.xml"}
    assert set(added.values()) == {(1980, 1, 1, 0, 0, 0)}


def test_an_open_workbook_is_refused_naming_the_owner_file(tmp_path: Path) -> None:
    path = write_book(tmp_path / "league2026.xlsx", RALLY_SHEETS)
    (tmp_path / "~$ague2026.xlsx").write_bytes(b"owner")
    before = path.read_bytes()
    outcome = sync_file(path)
    assert outcome.result == "failed"
    assert outcome.problems[0].endswith(
        "the workbook is open in Excel or LibreOffice (~$ague2026.xlsx is present); close it "
        "there first"
    )
    assert path.read_bytes() == before


def test_a_name_that_is_not_valid_text_still_gets_a_temporary_name() -> None:
    """A file name with bytes that are not UTF-8 (an old Latin-1 name on Linux) reaches Python
    with surrogates; its temporary file's prefix is still made from it."""
    from xlrally.ooxml.writer import temp_prefix

    latin1 = Path(os.fsdecode(b"caf\xe9.xlsx"))
    assert re.fullmatch(r"\.~[0-9a-f]{8}-", temp_prefix(latin1))
    assert temp_prefix(latin1) != temp_prefix(Path("cafe.xlsx"))
