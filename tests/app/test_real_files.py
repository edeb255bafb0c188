"""Regression tests for the real-file findings of issue 11: each names the item it protects.

Workbooks are made with XlsxWriter or openpyxl (helpers) and edited at the package level here;
expected standings come from tests/helpers.py RALLY_SHEETS (hand-worked: Bobby 100, José 54).
"""

from __future__ import annotations

import datetime as dt
import os
import stat
import zipfile
from pathlib import Path

import openpyxl
import pytest
from helpers import RALLY_SHEETS, Rows, parts, write_book

from xlrally.app.sync import sync_file
from xlrally.core.players import likely_duplicates
from xlrally.ooxml.styles import Styles
from xlrally.ooxml.xmlpart import XmlPart

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def replace_part(path: Path, part: str, data: bytes) -> Path:
    """Rewrite one part of a package (every other part copied as it is)."""
    with zipfile.ZipFile(path) as z:
        items = {i.filename: z.read(i) for i in z.infolist()}
    items[part] = data
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, content in items.items():
            out.writestr(name, content)
    return path


def standings_values(path: Path) -> dict[str, object]:
    sheet = openpyxl.load_workbook(path)["Standings"]
    return {sheet.cell(r, 2).value: sheet.cell(r, 3).value for r in (2, 3)}


def test_openpyxl_with_lxml_workbook_stays_readable(tmp_path: Path) -> None:
    """Item 1: openpyxl with lxml declares the relationships prefix on each <sheet>; the new
    <sheet> must bind its own prefix, and the file must open afterwards."""
    import openpyxl.xml

    assert openpyxl.xml.LXML, "lxml must be installed for this test (dev dependency)"
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in RALLY_SHEETS.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(list(row))
    path = tmp_path / "openpyxl.xlsx"
    book.save(path)
    assert b"<sheets><sheet xmlns:r=" in parts(path)["xl/workbook.xml"]  # the shape at stake
    assert sync_file(path).result == "written"
    assert standings_values(path) == {"Bobby": 100, "José": 54}


def test_styles_counted_by_the_parser_when_entries_nest() -> None:
    """Item 2: a self-closing <xf/> before an <xf> with an <alignment> child is two entries,
    so the first new format gets index 2, and it is bold with format "0"."""
    styles = (
        f'<styleSheet xmlns="{MAIN}"><fonts count="1"><font><sz val="11"/></font></fonts>'
        '<fills count="1"><fill/></fills><borders count="1"><border/></borders>'
        '<cellXfs count="2"><xf numFmtId="0" fontId="0"/>'
        '<xf numFmtId="14" fontId="0" applyAlignment="1"><alignment horizontal="center"/></xf>'
        "</cellXfs></styleSheet>"
    ).encode()
    from xlrally.formats.cells import Look

    sheet_styles = Styles(styles)
    assert sheet_styles.xf(Look(bold=True, number_format="0")) == 2
    sheet_styles.verify()
    cell_xfs = XmlPart("s", sheet_styles.data).first(MAIN, "cellXfs")
    assert cell_xfs is not None
    assert cell_xfs.attrs["count"] == "3"


def test_read_only_workbook_is_refused(tmp_path: Path) -> None:
    """Item 4: a workbook without write permission bits is refused, even for root."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    path.chmod(0o444)
    before = path.read_bytes()
    outcome = sync_file(path)
    assert outcome.result == "failed"
    assert outcome.problems[0].endswith(
        "the workbook is read-only; clear the read-only attribute (chmod u+w) to sync it"
    )
    assert path.read_bytes() == before


@pytest.mark.parametrize("mode", [0o464, 0o446, 0o644])
def test_a_workbook_anyone_may_write_is_not_read_only(tmp_path: Path, mode: int) -> None:
    """Only a file with no write bit at all is read-only (Windows' read-only attribute clears
    all three): writable by its group or by others alone, it syncs, and keeps its mode."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    path.chmod(mode)
    assert sync_file(path).result == "written"
    assert stat.S_IMODE(path.stat().st_mode) == mode


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to make another user's file")
def test_owner_group_and_mode_are_kept(tmp_path: Path) -> None:
    """Item 3: a root cron job syncing alice's alice:league 0660 workbook keeps all three."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    os.chown(path, 4242, 4343)
    path.chmod(0o660)
    assert sync_file(path).result == "written"
    status = path.stat()
    assert (status.st_uid, status.st_gid, stat.S_IMODE(status.st_mode)) == (4242, 4343, 0o660)


def test_owner_that_cannot_be_kept_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 3: bob (a member of the league group) syncing alice's file would make it his. The
    system refuses bob's chown to alice (EPERM); here a stand-in for that refusal (the test
    runs as root, and the interpreter is not reachable as another user). The sync is refused
    with a message naming the owner, and the file is left as it was."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    status = path.stat()

    def refuse(*_: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "chown", refuse)
    monkeypatch.setattr("xlrally.ooxml.replace._owner", lambda _: (status.st_uid + 1, 0))
    before = path.read_bytes()
    outcome = sync_file(path)
    assert outcome.result == "failed"
    assert outcome.problems[0].endswith(
        f"the workbook belongs to user {status.st_uid}, group {status.st_gid}; xlrally cannot "
        "give its new copy that owner: run the sync as that user"
    )
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["league.xlsx"]  # no temporary file left


def test_symlinked_workbook_is_written_through_the_link(tmp_path: Path) -> None:
    """Item 3: the real file gets the standings; the link stays a link."""
    real = write_book(tmp_path / "real.xlsx", RALLY_SHEETS)
    link = tmp_path / "link.xlsx"
    link.symlink_to(real)
    assert sync_file(link).result == "written"
    assert link.is_symlink()
    assert standings_values(real) == {"Bobby": 100, "José": 54}


def test_hard_linked_workbook_is_refused(tmp_path: Path) -> None:
    """Item 3: renaming over one name would split the hard links; refused, nothing changed."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    os.link(path, tmp_path / "other.xlsx")
    outcome = sync_file(path)
    assert outcome.result == "failed"
    assert outcome.problems[0].endswith(
        "the workbook has 2 hard links; syncing would split them (write a copy instead, or "
        "remove the other links)"
    )
    assert "Standings" not in openpyxl.load_workbook(tmp_path / "other.xlsx").sheetnames


def test_more_events_than_excel_has_columns(tmp_path: Path) -> None:
    """Item 5: 16,400 events would need columns past XFD: a clear error, file unchanged."""
    events: Rows = [["Event", "Date", "Rounds"]] + [
        [f"E{i}", dt.date(2000, 1, 1) + dt.timedelta(days=i), 4] for i in range(16_400)
    ]
    results: Rows = [["Event", "Player", "Points", "Games", "Byes"]] + [
        [f"E{i}", "Ann", 1, 4, 0] for i in range(16_400)
    ]
    sheets = {"Settings": RALLY_SHEETS["Settings"], "Events": events, "Results": results}
    path = write_book(tmp_path / "wide.xlsx", sheets)
    before = path.read_bytes()
    outcome = sync_file(path)
    assert outcome.result == "failed"
    assert "16,384" in outcome.problems[0]
    assert path.read_bytes() == before


def test_working_longer_than_a_cell_is_shortened(tmp_path: Path) -> None:
    """Item 5: ~600 long event names make a Working text past 32,767 characters; the cell is
    shortened with a note, and the file opens."""
    names = [f"Rapidplay Rally round {i:03d} at the Old Town Chess Club hall" for i in range(600)]
    events: Rows = [["Event", "Date", "Rounds"]] + [
        [n, dt.date(2020, 1, 1) + dt.timedelta(days=i), 4] for i, n in enumerate(names)
    ]
    results: Rows = [["Event", "Player", "Points", "Games", "Byes"]] + [
        [n, "Ann", 3, 4, 0] for n in names
    ]
    settings: Rows = [*RALLY_SHEETS["Settings"], ["Best X", 600]]
    path = write_book(
        tmp_path / "long.xlsx", {"Settings": settings, "Events": events, "Results": results}
    )
    assert sync_file(path).result == "written"
    sheet = openpyxl.load_workbook(path)["Standings"]
    working = sheet.cell(2, sheet.max_column).value
    assert isinstance(working, str)
    assert len(working) == 32_767
    assert working.endswith(
        "(shortened to fit a cell; the full working is in `xlrally standings -f json`)"
    )


def test_old_standings_settings_are_kept(tmp_path: Path) -> None:
    """Item 7: tab colour, code name, fit-to-page, protection and print options of an existing
    Standings sheet survive a sync."""
    sheets: dict[str, Rows] = {**RALLY_SHEETS, "Standings": [["old"]]}
    path = write_book(tmp_path / "league.xlsx", sheets)
    part = "xl/worksheets/sheet4.xml"
    xml = parts(path)[part].decode()
    xml = xml.replace(
        "<dimension",
        '<sheetPr codeName="Sheet4"><tabColor rgb="FFFF0000"/><pageSetUpPr fitToPage="1"/>'
        "</sheetPr><dimension",
    )
    xml = xml.replace(
        "</sheetData>",
        '</sheetData><sheetProtection sheet="1" objects="1"/><printOptions gridLines="1"/>',
    )
    replace_part(path, part, xml.encode())
    assert sync_file(path).result == "written"
    new = parts(path)[part].decode()
    for kept in (
        '<sheetPr codeName="Sheet4"><tabColor rgb="FFFF0000"/><pageSetUpPr fitToPage="1"/></sheetPr>',
        '<sheetProtection sheet="1" objects="1"/>',
        '<printOptions gridLines="1"/>',
    ):
        assert kept in new
    assert new.index("<sheetPr") < new.index("<dimension")
    assert standings_values(path) == {"Bobby": 100, "José": 54}


def test_table_on_standings_is_refused(tmp_path: Path) -> None:
    """Item 7: an Excel table on the Standings sheet would be removed: refused, unchanged."""
    path = write_book(tmp_path / "league.xlsx", {**RALLY_SHEETS, "Standings": [["old"]]})
    part = "xl/worksheets/sheet4.xml"
    xml = parts(path)[part].replace(
        b"</worksheet>", b'<tableParts count="1"><tablePart r:id="rId9"/></tableParts></worksheet>'
    )
    replace_part(path, part, xml)
    before = path.read_bytes()
    outcome = sync_file(path)
    assert outcome.result == "failed"
    assert "Excel table" in outcome.problems[0]
    assert path.read_bytes() == before


def test_new_relationship_id_skips_external_ones(tmp_path: Path) -> None:
    """Item 14: an external relationship rId5 in the workbook's relationships must not be
    issued again."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    rels = parts(path)["xl/_rels/workbook.xml.rels"].replace(
        b"</Relationships>",
        b'<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        b'relationships/externalLink" Target="http://example.invalid/x.xlsx" '
        b'TargetMode="External"/></Relationships>',
    )
    replace_part(path, "xl/_rels/workbook.xml.rels", rels)
    assert sync_file(path).result == "written"
    ids = [
        r.attrs["Id"] for r in XmlPart("r", parts(path)["xl/_rels/workbook.xml.rels"]).root.children
    ]
    assert len(ids) == len(set(ids))
    assert "rId10" in ids


@pytest.mark.parametrize(
    ("workbook", "lock", "refused"),
    [
        ("league.xlsx", "~$league.xlsx", True),
        ("league.xlsx", ".~lock.league.xlsx#", True),
        ("league2026.xlsx", "~$ague2026.xlsx", True),
        ("xyleague.xlsx", "~$league.xlsx", False),  # league.xlsx is the one open
    ],
)
def test_open_file_detection(tmp_path: Path, workbook: str, lock: str, refused: bool) -> None:
    """Item 10: Excel's and LibreOffice's lock files, and no false alarm for another file's."""
    write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    path = write_book(tmp_path / workbook, RALLY_SHEETS)
    (tmp_path / lock).write_bytes(b"owner")
    outcome = sync_file(path)
    assert (outcome.result == "failed") is refused
    if refused:
        assert lock in outcome.problems[0]


def test_long_file_name(tmp_path: Path) -> None:
    """Item 9: a legal 250-byte name syncs (the temporary file's name is short)."""
    path = write_book(tmp_path / ("l" * 245 + ".xlsx"), RALLY_SHEETS)
    assert sync_file(path).result == "written"


def test_duplicate_check_is_not_quadratic() -> None:
    """Item 6: 20,000 players sharing a surname: only the real look-alikes are paired (the
    blocking gives every pair that the all-pairs rule would, hand-listed here)."""
    names = [f"Player{i} Smith" for i in range(20_000)] + ["Quentin Smith", "Q Smith", "Ann Lee"]
    assert likely_duplicates(names) == [("Quentin Smith", "Q Smith")]
