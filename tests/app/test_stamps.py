"""What a sync records in the workbook it writes: the fingerprint of the Standings, which
tells a sheet changed by hand since from one as written."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest
from helpers import RALLY_SHEETS, parts, rewrite, write_book

from xlrally.app.stamps import FINGERPRINT, fingerprint
from xlrally.app.sync import read_standings, sync_file, synced_before
from xlrally.formats.cells import Value
from xlrally.ooxml.package import Package
from xlrally.ooxml.properties import custom_property
from xlrally.ooxml.reader import FileSheets


def test_a_fingerprint_sees_blank_rows_between_values_but_not_after_them() -> None:
    """A blank row between two tables (sections) is part of the sheet; blank rows after the
    last value are not (a reader cannot tell them from the rest of the sheet)."""
    two = fingerprint([["a"], ["b"]])
    one_gap = fingerprint([["a"], [], ["b"]])
    two_gaps = fingerprint([["a"], [None, ""], [], ["b"]])
    assert len({two, one_gap, two_gaps}) == 3
    assert fingerprint([[], ["a"]]) != fingerprint([["a"]])
    assert fingerprint([["a"], [], [None], [""]]) == fingerprint([["a"]])
    assert fingerprint([["a"], [], ["b"], []]) == one_gap


def test_a_fingerprint_tells_values_apart_by_what_a_reader_sees() -> None:
    """TRUE and FALSE are shown as texts, not as 1 and 0; a date as its text."""
    assert len({fingerprint([[True]]), fingerprint([[False]]), fingerprint([[1]])}) == 3
    assert fingerprint([[dt.date(2025, 1, 2)]]) != fingerprint([[dt.date(2025, 1, 3)]])
    assert fingerprint([[1]]).startswith("v4-")
    assert len(fingerprint([[1]])) == 32


def test_a_fingerprint_compares_numbers_at_the_digits_spreadsheet_programs_keep() -> None:
    """Issue 32: xlrally wrote 46.565879604193036, LibreOffice saves 15 significant digits
    (46.5658796041930), openpyxl 16 (46.56587960419304): the same number to every program,
    so the same fingerprint. A change in the 15th digit is a change."""
    written = fingerprint([["Ann", 46.565879604193036]])
    assert fingerprint([["Ann", 46.5658796041930]]) == written  # LibreOffice
    assert fingerprint([["Ann", 46.56587960419304]]) == written  # openpyxl
    assert fingerprint([["Ann", 46.5658796041931]]) != written
    assert fingerprint([[0.1 + 0.2]]) == fingerprint([[0.3]])


def _standings_part(path: Path) -> str:
    with Package(path) as package:
        sheet = package.sheet("Standings")
        assert sheet is not None
        return sheet.part


def _sheets_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the sheets whose values are read from now on."""
    read: list[str] = []
    values = FileSheets.values

    def recorded(self: FileSheets, name: str) -> list[list[Value]]:
        read.append(name)
        return values(self, name)

    monkeypatch.setattr(FileSheets, "values", recorded)
    return read


def test_a_standings_sheet_as_written_is_not_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 33: the hand-edit check reads the Standings' values back only when its part is
    no longer the one xlrally wrote (the CRC-32 and size recorded with it): the read-back was
    0.3 s of a weekly sync of a 200,000-result league. Here another part changed (the file
    saved again by a program that touched only its properties): nothing to read back."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    assert sync_file(path).result == "written"
    core = parts(path)["docProps/core.xml"]
    rewrite(
        path, {"docProps/core.xml": core.replace(b"</cp:coreProperties>", b" </cp:coreProperties>")}
    )
    read = _sheets_read(monkeypatch)
    standings = read_standings(path)
    assert read
    assert "Standings" not in read
    assert not [w for w in standings.warnings if "by hand" in w]


def test_a_standings_sheet_changed_in_its_bytes_is_read_back_and_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A total typed over in the sheet's own XML, keeping its size (100 → 999): only the
    CRC-32 tells, and the sheet is read back and the cell named (Bobby's total, C2: 100 by
    the rule, tests/app/test_sync.py)."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    assert sync_file(path).result == "written"
    part = _standings_part(path)
    xml = parts(path)[part]
    assert xml.count(b"<v>100</v>") == 1
    rewrite(path, {part: xml.replace(b"<v>100</v>", b"<v>999</v>")})
    read = _sheets_read(monkeypatch)
    standings = read_standings(path)
    assert "Standings" in read
    assert [w for w in standings.warnings if "by hand" in w] == [
        "the Standings sheet was changed by hand since xlrally wrote it (cells that differ from "
        "the standings now: C2); a sync replaces it, so keep notes on another sheet"
    ]


OLDER = Path(__file__).resolve().parent.parent / "data" / "synced" / "rally_v3.xlsx"
"""The rally example as xlrally wrote it with fingerprints of the form v3 (its README)."""


def test_a_sheet_fingerprinted_in_the_older_form_is_still_compared(tmp_path: Path) -> None:
    """The file saved again by another program (every part rewritten, so the Standings are
    read back and compared with the v3 fingerprint): unedited, then a typed-over total named."""
    path = tmp_path / "rally.xlsx"
    path.write_bytes(OLDER.read_bytes())
    with Package(path) as package:
        assert (custom_property(package, FINGERPRINT) or "").startswith("v3-")
    book = openpyxl.load_workbook(path)
    book.save(path)
    assert not [w for w in read_standings(path).warnings if "by hand" in w]
    book = openpyxl.load_workbook(path)
    book["Standings"]["C2"] = 999
    book.save(path)
    assert [w for w in read_standings(path).warnings if "by hand" in w] == [
        "the Standings sheet was changed by hand since xlrally wrote it (cells that differ from "
        "the standings now: C2); a sync replaces it, so keep notes on another sheet"
    ]


def test_an_upgrade_keeps_the_older_fingerprint_while_the_standings_are_the_same(
    tmp_path: Path,
) -> None:
    """The file as the earlier xlrally left it: not skipped (its record names the earlier
    rules), read whole, and since its standings are the ones this xlrally writes, not
    written at all, though this xlrally's fingerprint is of another form. (Should the rally
    example's Standings change on purpose one day, the file is rightly written: then this
    premise is gone, not the rule.)"""
    path = tmp_path / "rally.xlsx"
    path.write_bytes(OLDER.read_bytes())
    assert synced_before(path) is None
    assert sync_file(path).result == "unchanged"
    assert path.read_bytes() == OLDER.read_bytes()


def test_a_sync_records_the_fingerprint_of_the_values_as_read_back(tmp_path: Path) -> None:
    """The fingerprint a sync writes (made from the texts written) is the fingerprint of the
    sheet as python-calamine reads it back."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    assert sync_file(path).result == "written"
    with Package(path) as package:
        stored = custom_property(package, FINGERPRINT)
    with FileSheets(path) as sheets:
        assert fingerprint(sheets.values("Standings")) == stored
