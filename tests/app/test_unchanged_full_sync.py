"""A full sync of a file xlrally wrote, with nothing changed since, writes nothing (issue 28,
finding 2). The skip of unchanged files (tests/app/test_skip.py) answers such a sync before the
writer runs, so these tests turn it off (``full_syncs``, tests/conftest.py): the writer's own
no-change path must then leave the file as it is, the same file (no rename over it), and add
nothing to it sync after sync. And what the old Standings carried that xlrally keeps (comments,
form buttons) survives.
"""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from helpers import RALLY_SHEETS, Sheets, open_book, parts, write_book

from xlrally.app.sync import sync_file
from xlrally.ooxml.package import file_identity

pytestmark = pytest.mark.usefixtures("full_syncs")

TIES_AND_DROPS: Sheets = {
    "Settings": [["Setting", "Value"], ["System", "rally"], ["League", "Club Rally"]],
    "Events": [
        ["Event", "Date", "Rounds"],
        ["Dec 2025", dt.date(2025, 12, 6), 4],
        ["Feb 2026", dt.date(2026, 2, 7), 4],
        ["May 2026", dt.date(2026, 5, 9), 4],
    ],
    "Results": [
        ["Event", "Player", "Points", "Games", "Byes"],
        ["Dec 2025", "Ann", 3, 4, 0],
        ["Feb 2026", "Ann", 2, 4, 0],
        ["May 2026", "Ann", 1, 4, 0],
        ["Dec 2025", "Ben", 2, 4, 0],
        ["Feb 2026", "Ben", 3, 4, 0],
    ],
}
"""Rally, three events held, best ⌈(3 + 1) / 2⌉ = 2 count; each score 100 × points / 4 + 4
(seed formula): 3 → 79, 2 → 54, 1 → 29. Ann 79 + 54 (29 dropped) = 133; Ben 54 + 79 = 133.
Equal totals and no tie-break: both ranked 1=, shown with the number format ``0"="``; Ann's
dropped 29 shown as ``(29)``."""


def synced(path: Path) -> Path:
    assert sync_file(path).result == "written"
    return path


def test_the_tie_is_as_worked_by_hand(tmp_path: Path) -> None:
    """The league the next tests use: both 133, ranked 1= (shown with ``0"="``), Ann's 29 dropped."""
    path = synced(write_book(tmp_path / "league.xlsx", TIES_AND_DROPS))
    sheet = openpyxl.load_workbook(path)["Standings"]
    rows = [[c.value for c in row[:3]] for row in sheet.iter_rows(min_row=2, max_row=3)]
    assert rows == [[1, "Ann", 133], [1, "Ben", 133]]
    assert sheet["A2"].number_format == '0"="'
    dropped = [c for row in sheet.iter_rows(min_row=2, max_row=2) for c in row if c.value == 29]
    assert [c.number_format for c in dropped] == ["(0)"]


@pytest.mark.parametrize("sheets", [RALLY_SHEETS, TIES_AND_DROPS], ids=["plain", "ties and drops"])
def test_a_full_sync_of_an_unchanged_file_leaves_it_alone(tmp_path: Path, sheets: Sheets) -> None:
    """Synced once, then twice more in full: unchanged, the same bytes, the same file."""
    path = synced(write_book(tmp_path / "league.xlsx", sheets))
    before, identity = path.read_bytes(), file_identity(path)
    for _ in range(2):
        outcome = sync_file(path)
        assert outcome.result == "unchanged"
        assert path.read_bytes() == before
        assert file_identity(path) == identity  # not even rewritten with the same bytes
        assert [p.name for p in tmp_path.iterdir()] == ["league.xlsx"]


def test_a_number_format_is_added_once_not_at_every_sync(tmp_path: Path) -> None:
    """The shared rank's ``0"="`` and the dropped score's ``(0)`` are added to styles.xml by the
    first sync, and found there by the next (as every cell format and font is)."""
    path = synced(write_book(tmp_path / "league.xlsx", TIES_AND_DROPS))
    styles = parts(path)["xl/styles.xml"]
    assert styles.count(b'formatCode="0&quot;=&quot;"') == 1
    assert styles.count(b'formatCode="(0)"') == 1
    # A changed result that needs no new look: Ann's dropped May 2026 score 1 -> 0 points
    # (29 -> 4, still dropped; the tie stays): the Standings are rewritten, the styles not.
    with zipfile.ZipFile(path) as package:
        items = [(i, package.read(i)) for i in package.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
        for info, data in items:
            if info.filename == "xl/worksheets/sheet3.xml":
                assert data.count(b'<c r="C4"><v>1</v>') == 1
            package.writestr(info, data.replace(b'<c r="C4"><v>1</v>', b'<c r="C4"><v>0</v>'))
    assert sync_file(path).result == "written"
    sheet = openpyxl.load_workbook(path)["Standings"]
    assert [c.value for c in sheet[2]][:3] == [1, "Ann", 133]
    assert 4 in [c.value for c in sheet[2]]
    assert parts(path)["xl/styles.xml"] == styles


CELL = re.compile(rb'<c r="([A-Z]+)(\d+)"')


def column_number(letters: bytes) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + letter - ord("A") + 1
    return number


@pytest.mark.parametrize("sheets", [RALLY_SHEETS, TIES_AND_DROPS], ids=["plain", "ties and drops"])
def test_the_dimension_is_the_extent_of_the_cells(tmp_path: Path, sheets: Sheets) -> None:
    """The Standings' ``<dimension ref>`` is A1 to the last column and row that hold a cell
    (ECMA-376 §18.3.1.35: the used range), counted here from the cells themselves."""
    path = synced(write_book(tmp_path / "league.xlsx", sheets))
    standings = next(
        data
        for name, data in parts(path).items()
        if name.startswith("xl/worksheets/") and b"Rank" in data and b"Working" in data
    )
    cells = [(column_number(c), int(r)) for c, r in CELL.findall(standings)]
    last_column = max(c for c, _ in cells)
    last_row = max(r for _, r in cells)
    letters = openpyxl.utils.get_column_letter(last_column)
    assert re.search(rb'<dimension ref="([^"]+)"/>', standings).group(1) == (  # type: ignore[union-attr]
        f"A1:{letters}{last_row}".encode()
    )


def test_the_old_standings_comments_and_buttons_are_kept(tmp_path: Path) -> None:
    """A comment and a form button the user put on the Standings sheet (both in its VML
    drawing, ``<legacyDrawing>``): after the sync, and after a second full sync, the sheet
    still points at them and the drawing, the comments and their relationships are byte for
    byte as they were; openpyxl still reads the comment at its cell."""
    path = tmp_path / "league.xlsx"
    book = open_book(path, RALLY_SHEETS)
    sheet = book.add_worksheet("Standings")
    sheet.write_comment("J2", "Prize giving on 6 June")
    sheet.insert_button("J5", {"macro": "refresh", "caption": "Refresh"})
    book.close()
    before = parts(path)
    kept = [
        "xl/drawings/vmlDrawing1.vml",
        "xl/comments1.xml",
        "xl/worksheets/_rels/sheet4.xml.rels",
    ]
    assert all(part in before for part in kept)
    assert b'<legacyDrawing r:id="rId1"/>' in before["xl/worksheets/sheet4.xml"]
    synced(path)
    for _ in range(2):
        after = parts(path)
        assert {part: after[part] for part in kept} == {part: before[part] for part in kept}
        assert b'<legacyDrawing r:id="rId1"/>' in after["xl/worksheets/sheet4.xml"]
        comment = openpyxl.load_workbook(path)["Standings"]["J2"].comment
        assert comment is not None
        assert "Prize giving on 6 June" in comment.text
        assert sync_file(path).result == "unchanged"
