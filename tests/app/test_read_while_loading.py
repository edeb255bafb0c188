"""A lone file's sync reads its Results sheet while a thread imports the code that uses it
(sync.read_while_loading, issue 33)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from helpers import RALLY_SHEETS, parts, rewrite, write_book

from xlrally.app import sync
from xlrally.core.errors import WorkbookError
from xlrally.ooxml import package as package_module
from xlrally.ooxml.reader import FileSheets


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the threads that ran :func:`sync.load`, with the code taken as not loaded
    yet (as in a lone file's worker)."""
    ran: list[str] = []
    monkeypatch.delitem(sys.modules, "xlrally.formats.workbook")
    monkeypatch.setattr(sync, "load", lambda: ran.append(threading.current_thread().name))
    return ran


def test_the_results_are_read_here_while_another_thread_loads(
    tmp_path: Path, loads: list[str]
) -> None:
    path = write_book(tmp_path / "rally.xlsx", RALLY_SHEETS)
    with FileSheets(path) as source:
        sync.read_while_loading(source)
        assert loads == ["xlrally load"]
        assert set(source._cache) == {"Results"}


def test_nothing_is_started_when_the_code_is_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[str] = []
    monkeypatch.setattr(sync, "load", lambda: ran.append("load"))
    path = write_book(tmp_path / "rally.xlsx", RALLY_SHEETS)
    with FileSheets(path) as source:
        sync.read_while_loading(source)
        assert ran == []
        assert source._cache == {}


def test_a_results_sheet_that_cannot_be_read_is_left_for_the_league_s_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loads: list[str]
) -> None:
    """Under a limit of 100 cells, the Results reaching K10 is refused: not here, but where
    the league's reader asks for it, with the message a plain read gives."""
    monkeypatch.setattr(package_module, "MAX_CELLS", 100)
    path = write_book(tmp_path / "rally.xlsx", RALLY_SHEETS)
    results = "xl/worksheets/sheet3.xml"
    far = b'<row r="10"><c r="K10"><v>1</v></c></row></sheetData>'
    rewrite(path, {results: parts(path)[results].replace(b"</sheetData>", far)})
    with FileSheets(path, check_area=False) as source:
        sync.read_while_loading(source)
        assert loads == ["xlrally load"]
        with pytest.raises(WorkbookError, match="Results: cells reach row 10 and column 11"):
            source.values("Results")
