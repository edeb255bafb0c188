"""Issue 18: rules of the file format the writer must keep, each of which a deliberate mistake
broke without any test noticing: sheet names compare without case in Excel, sheet ids and
relationship ids must be unique, the sync must not change a file's mode.

Sources: ECMA-376 Part 1, §18.2.19 (sheet: sheetId unique), §9.2 (a relationship's Id unique
in its part); Excel refuses two sheets whose names differ only in case.
"""

from __future__ import annotations

import re
import stat
import zipfile
from pathlib import Path

import openpyxl
from helpers import RALLY_SHEETS, parts, write_book

from xlrally.app.sync import sync_file


def _replace_parts(path: Path, changes: dict[str, bytes]) -> None:
    old = parts(path)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in old.items():
            z.writestr(name, changes.get(name, data))


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
    _replace_parts(path, {"xl/workbook.xml": workbook, "xl/_rels/workbook.xml.rels": rels})
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
