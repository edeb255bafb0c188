"""A big sheet read ahead in a thread (FileSheets.read_ahead, issue 33): the same values, its
errors met when the sheet is asked for, and nothing else read from the book meanwhile."""

from __future__ import annotations

import shutil
import threading
import zipfile
from pathlib import Path

import pytest
from helpers import RALLY_SHEETS, write_book

from xlrally.app.sync import sync_file
from xlrally.core.errors import WorkbookError
from xlrally.ooxml import package as package_module
from xlrally.ooxml import reader
from xlrally.ooxml.reader import FileSheets


@pytest.fixture
def every_sheet_big(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sheet counts as big enough to be read ahead (the test workbooks are small)."""
    monkeypatch.setattr(reader, "BESIDE_FROM", 0)


@pytest.mark.parametrize("check_area", [True, False])
@pytest.mark.usefixtures("every_sheet_big")
def test_a_sheet_read_ahead_has_the_values_of_one_read_when_asked(
    tmp_path: Path, check_area: bool
) -> None:
    path = write_book(tmp_path / "rally.xlsx", RALLY_SHEETS)
    with FileSheets(path, check_area) as plain:
        expected = {name: plain.values(name) for name in plain.sheet_names()}
    with FileSheets(path, check_area) as ahead:
        ahead.read_ahead("Results")
        assert ahead._ahead is not None
        assert {name: ahead.values(name) for name in ahead.sheet_names()} == expected


def test_a_small_sheet_is_not_read_ahead(tmp_path: Path) -> None:
    """Under 1 MB of XML a thread would cost more than it saves: the sheet is read when asked."""
    path = write_book(tmp_path / "rally.xlsx", RALLY_SHEETS)
    with FileSheets(path) as sheets:
        sheets.read_ahead("Results")
        assert sheets._ahead is None
        sheets.read_ahead("No such sheet")
        assert sheets._ahead is None


@pytest.mark.usefixtures("every_sheet_big")
def test_the_error_of_a_sheet_read_ahead_is_raised_when_the_sheet_is_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Results sheet reaches K10 under a limit of 100 cells: asking for the Events sheet
    first is no error; asking for the Results is the one a plain read raises."""
    monkeypatch.setattr(package_module, "MAX_CELLS", 100)
    path = write_book(tmp_path / "rally.xlsx", RALLY_SHEETS)
    with zipfile.ZipFile(path) as z:
        items = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    with zipfile.ZipFile(path, "w") as z:
        far = b'<row r="10"><c r="K10"><v>1</v></c></row></sheetData>'
        for name, data in items:
            results = name == "xl/worksheets/sheet3.xml"
            z.writestr(name, data.replace(b"</sheetData>", far) if results else data)
    message = "Results: cells reach row 10 and column 11"
    with FileSheets(path, check_area=False) as sheets:
        sheets.read_ahead("Results")
        assert sheets.values("Events")
        with pytest.raises(WorkbookError, match=message):
            sheets.values("Results")


@pytest.mark.usefixtures("every_sheet_big")
def test_every_other_use_of_the_reader_waits_for_the_sheet_read_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read ahead is held back until a timer lets it go; the book is not used by two
    threads at once, so the sheet names (the first thing a league's reader asks) come only
    once it has finished."""
    path = write_book(tmp_path / "rally.xlsx", RALLY_SHEETS)
    gate, done = threading.Event(), threading.Event()
    with FileSheets(path) as sheets:
        read = sheets._read

        def held_back(name: str) -> list[list[object]]:
            gate.wait()
            rows = read(name)
            done.set()
            return rows

        monkeypatch.setattr(sheets, "_read", held_back)
        threading.Timer(0.05, gate.set).start()
        sheets.read_ahead("Results")
        assert not done.is_set()
        assert "Results" in sheets.sheet_names()
        assert done.is_set()


@pytest.mark.usefixtures("every_sheet_big")
def test_a_sync_whose_results_are_read_ahead_writes_the_same_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = write_book(tmp_path / "rally.xlsx", RALLY_SHEETS)
    plain, ahead = tmp_path / "plain.xlsx", tmp_path / "ahead.xlsx"
    shutil.copyfile(source, plain)
    shutil.copyfile(source, ahead)
    asked: list[str] = []
    read_ahead = FileSheets.read_ahead

    def recorded(self: FileSheets, name: str) -> None:
        asked.append(name)
        read_ahead(self, name)

    monkeypatch.setattr(FileSheets, "read_ahead", recorded)
    assert sync_file(ahead).result == "written"
    assert asked == ["Results"]
    monkeypatch.setattr(FileSheets, "read_ahead", lambda self, name: None)
    assert sync_file(plain).result == "written"
    with zipfile.ZipFile(plain) as a, zipfile.ZipFile(ahead) as b:
        assert {i.filename: a.read(i) for i in a.infolist()} == {
            i.filename: b.read(i) for i in b.infolist()
        }
