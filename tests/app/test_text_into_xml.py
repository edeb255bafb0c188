"""Every text xlrally writes into a workbook's XML is escaped or refused (issue 32, finding
11): a vertical tab in the League name (Word's Shift+Enter, stored by Excel as ``_x000B_``)
reached the page header raw, and every sync then failed with "the edited part is not
well-formed XML" while `check` said ok; a long title made a header over Excel's 255
characters."""

from __future__ import annotations

import warnings
from pathlib import Path

import openpyxl
import pytest
from helpers import parts, rally_sheets, write_book

from xlrally.app.sync import read_standings, sync_file
from xlrally.core.errors import WorkbookError
from xlrally.ooxml.package import Package
from xlrally.ooxml.writer import Edit, new_sheet


def _league_named(tmp_path: Path, name: str) -> Path:
    sheets = rally_sheets()
    assert sheets["Settings"][2][0] == "League"
    sheets["Settings"][2][1] = name
    return write_book(tmp_path / "league.xlsx", sheets)


def _header(path: Path) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = openpyxl.load_workbook(path)["Standings"].oddHeader.center.text
    assert isinstance(text, str)
    return text


def test_a_vertical_tab_in_the_league_name_prints_as_a_space(tmp_path: Path) -> None:
    """``Club\\vRally`` is stored as ``Club_x000B_Rally`` (XlsxWriter, as Excel): the sync
    writes, the header reads ``Club Rally``, the note under the table keeps the character as
    Excel's escape, and a second sync of the result is skipped, not refused."""
    path = _league_named(tmp_path, "Club\x0bRally")
    assert any(b"Club_x000B_Rally" in data for data in parts(path).values())
    outcome = sync_file(path)
    assert (outcome.result, outcome.problems) == ("written", ())
    assert _header(path) == "Club Rally"
    standings = next(d for n, d in parts(path).items() if b"Working" in d and n.endswith(".xml"))
    assert b"Club_x000B_Rally: " in standings
    assert read_standings(path).settings.league == "Club\x0bRally"
    assert sync_file(path).result == "unchanged"


def test_a_title_longer_than_a_header_holds_is_cut_to_fit(tmp_path: Path) -> None:
    """Excel's header holds 255 characters, codes included: ``&C&"-,Bold"&14`` (14) and 241
    of the title, the last of them ``…``. Each ``&`` of the title takes two (``&&``)."""
    path = _league_named(tmp_path, "Red Lion & Crown " + "Rapidplay " * 40)
    assert sync_file(path).result == "written"
    header = _header(path)
    assert header.startswith("Red Lion && Crown Rapidplay Rapidplay")  # openpyxl's raw codes
    assert header.endswith("…")
    with Package(path) as package:
        part = next(s.part for s in package.sheets if s.name == "Standings")
        raw = package.read(part).decode()
    codes = raw[raw.index("<oddHeader>") + 11 : raw.index("</oddHeader>")]
    assert len(codes.replace("&amp;", "&").replace("&quot;", '"')) == 255


@pytest.mark.parametrize("name", ["W1\x0bfinal", "W1\x00"])
def test_a_sheet_name_with_a_control_character_is_refused(tmp_path: Path, name: str) -> None:
    """A sheet name is an attribute of xl/workbook.xml: a control character there would make
    the part unreadable, so a new sheet so named is refused before anything is written."""
    path = write_book(tmp_path / "league.xlsx", rally_sheets())
    with Package(path) as package, pytest.raises(WorkbookError, match="control character"):
        new_sheet(Edit(package), package, name)
