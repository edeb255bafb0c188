"""A renamed Standings sheet is noticed (issue 32, finding 7): a treasurer who renames the
sheet xlrally wrote (`League Table`, in a script or another program) gets a new Standings
sheet at the next sync, and the renamed one, no longer updated, is said to be so; it is kept
as it was (it may be a season kept on purpose).
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
from helpers import rally_sheets, write_book

from xlrally.app.sync import read_standings, sync_file

RENAMED = (
    "the sheet 'League Table' is the Standings sheet xlrally wrote, renamed: xlrally updates "
    "only a sheet named Standings, so a sync adds a new one and leaves 'League Table' as it "
    "is, no longer updated; to keep one table, rename it back to Standings (after deleting any "
    "new Standings sheet)"
)


def _synced_then(tmp_path: Path, change: str) -> Path:
    """The rally seed league synced, then its Standings sheet renamed or deleted by openpyxl
    (a script's load and save, as a treasurer's other program would)."""
    path = write_book(tmp_path / "league.xlsx", rally_sheets())
    assert sync_file(path).result == "written"
    book = openpyxl.load_workbook(path)
    if change == "rename":
        book["Standings"].title = "League Table"
    else:
        del book["Standings"]
    book.save(path)
    return path


def test_a_renamed_standings_sheet_is_said_and_kept_as_it_was(tmp_path: Path) -> None:
    """check warns before the sync; the sync writes a new Standings sheet, warns, and leaves
    League Table's cells as they were (Bobby 100 above José 54, the seed's hand-worked)."""
    path = _synced_then(tmp_path, "rename")
    kept = [
        list(r) for r in openpyxl.load_workbook(path)["League Table"].iter_rows(values_only=True)
    ]
    assert RENAMED in read_standings(path).warnings
    outcome = sync_file(path)
    assert (outcome.result, outcome.problems) == ("written", ())
    assert RENAMED in outcome.warnings
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["Settings", "Events", "Results", "League Table", "Standings"]
    assert [list(r) for r in book["League Table"].iter_rows(values_only=True)] == kept
    ranks = [r[:3] for r in book["Standings"].iter_rows(min_row=2, max_row=3, values_only=True)]
    assert ranks == [(1, "Bobby", 100), (2, "José", 54)]


def test_a_deleted_standings_sheet_is_written_again_without_a_word(tmp_path: Path) -> None:
    """Deleting the sheet to get a fresh one is not a rename: no sheet holds what xlrally
    wrote, so no warning."""
    path = _synced_then(tmp_path, "delete")
    outcome = sync_file(path)
    assert (outcome.result, outcome.warnings) == ("written", ())
