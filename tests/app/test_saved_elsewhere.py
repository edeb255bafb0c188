"""What another program saved is read for what it means, not for its bytes (issue 32,
findings 2 and 3): a league synced, saved again by headless LibreOffice or by openpyxl (load
and save, as a script would), its League renamed meanwhile, then synced again. No hand-edit
warning (LibreOffice keeps 15 significant digits of a number, openpyxl 16, xlrally wrote 17);
the printed title is the league's (LibreOffice rewrites xlrally's header with ``&quot;`` and
the font's own name, openpyxl adds a space and empty even and first headers); every other
part is as the other program left it.

Hand-worked standings: one Neau night, buy-in 20, three players, Ben re-buying (total 40).
Neau points √(n × b × b / c) / (d + 1): Ann √(3 × 20 × 20 / 20) / 2 = √60 / 2 = 3.8730;
Ben √(3 × 20 × 20 / 40) / 3 = √30 / 3 = 1.8257; Cara √60 / 4 = 1.9365. So Ann, Cara, Ben.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import shutil
import warnings
from pathlib import Path

import openpyxl
import pytest
from helpers import parts, rewrite, write_book
from test_libreoffice import convert

from xlrally.app.newbook import make_new
from xlrally.app.sync import read_standings, sync_file
from xlrally.ooxml.package import Package
from xlrally.ooxml.reader import FileSheets

NIGHT = {
    "Settings": [
        ["Setting", "Value"],
        ["System", "neau"],
        ["League", "Neau League"],
        ["Season", "2026"],
    ],
    "Events": [["Event", "Date", "Buy-in"], ["Night 1", dt.date(2026, 1, 8), 20]],
    "Results": [
        ["Event", "Player", "Rank", "Total"],
        ["Night 1", "Ann", 1, None],
        ["Night 1", "Ben", 2, 40],
        ["Night 1", "Cara", 3, None],
    ],
}
EXPECTED: list[list[str | float]] = [
    ["Rank", "Player", "Total", "Events", "Night 1"],
    [1, "Ann", math.sqrt(60) / 2, 1, math.sqrt(60) / 2],
    [2, "Cara", math.sqrt(60) / 4, 1, math.sqrt(60) / 4],
    [3, "Ben", math.sqrt(30) / 3, 1, math.sqrt(30) / 3],
]
"""The table without its Working column, as the hand-worked numbers above give it."""

OURS_CHANGE = {"docProps/custom.xml", "xl/styles.xml"}
"""What a sync may change besides the Standings sheet and its print area (docs/workbook-format.md:
the fingerprint and the record of the sync, the cell formats the sheet needs)."""
PRINT_AREA = re.compile(r'<definedName\b[^>]*name="_xlnm\.Print_Area"[^>]*>[^<]*</definedName>')


def _synced_night(folder: Path) -> Path:
    path = write_book(folder / "night.xlsx", NIGHT)
    assert sync_file(path).result == "written"
    return path


def _renamed(path: Path) -> None:
    """The treasurer renames the league (Settings!B3) before the other program saves."""
    strings = parts(path)["xl/sharedStrings.xml"]
    assert b"Neau League" in strings
    rewrite(path, {"xl/sharedStrings.xml": strings.replace(b"Neau League", b"Red Lion League")})


def _standings_part(path: Path) -> str:
    with Package(path) as package:
        return next(s.part for s in package.sheets if s.name == "Standings")


def _header(path: Path) -> tuple[str | None, str | None]:
    sheet = openpyxl.load_workbook(path)["Standings"]
    return sheet.oddHeader.center.text, sheet.oddFooter.center.text


def _table(path: Path) -> list[list[object]]:
    with FileSheets(path) as sheets:
        rows = [list(row) for row in sheets.values("Standings")]
    return [row[:5] for row in rows[:4]]


def _same_numbers(got: list[list[object]]) -> bool:
    """The table read back is the hand-worked one (numbers to the 15 digits kept)."""
    return all(
        g == e if isinstance(e, str) else isinstance(g, int | float) and math.isclose(g, e)
        for grow, erow in zip(got, EXPECTED, strict=True)
        for g, e in zip(grow, erow, strict=True)
    )


def _after_other_program(saved: Path) -> None:
    """Sync the file another program saved and check what the issue asks of it."""
    before = parts(saved)
    assert not [w for w in read_standings(saved).warnings if "by hand" in w]  # `check`
    outcome = sync_file(saved)
    assert outcome.ok, outcome.problems
    assert not [w for w in outcome.warnings if "by hand" in w]
    assert _header(saved) == ("Red Lion League 2026", "Page &P of &N")
    assert _same_numbers(_table(saved))
    after = parts(saved)
    standings = _standings_part(saved)
    kept = set(before) - OURS_CHANGE - {standings, "xl/workbook.xml"}
    assert {n for n in kept if before[n] != after.get(n)} == set()
    book_before, book_after = (
        PRINT_AREA.sub("", data["xl/workbook.xml"].decode()) for data in (before, after)
    )
    assert book_after == book_before  # but for the print area, in a form openpyxl reads
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # openpyxl warns of a print area it cannot read
        area = openpyxl.load_workbook(saved)["Standings"].print_area
    assert area == "'Standings'!$A$1:$E$1048576"  # Rank to the one event, not Working
    assert sync_file(saved).result == "unchanged"


@pytest.mark.slow
def test_a_league_saved_by_libreoffice_keeps_its_title_and_no_false_alarm(tmp_path: Path) -> None:
    """Headless LibreOffice opens the synced file and saves it as .xlsx: no hand-edit
    warning at `check` or `sync`, the title follows the renamed league."""
    path = _synced_night(tmp_path)
    _renamed(path)
    out = tmp_path / "calc"
    convert([path], out, "xlsx")
    saved = out / "night.xlsx"
    assert saved.exists()
    assert b"&amp;&quot;" in parts(saved)[_standings_part(saved)]  # Calc's way of writing ours
    _after_other_program(saved)


def test_a_league_saved_by_openpyxl_keeps_its_title_and_no_false_alarm(tmp_path: Path) -> None:
    """A script loads the synced file with openpyxl, renames the league and saves it."""
    path = _synced_night(tmp_path)
    saved = shutil.copy(path, tmp_path / "script.xlsx")
    book = openpyxl.load_workbook(saved)
    assert book["Settings"]["B3"].value == "Neau League"
    book["Settings"]["B3"] = "Red Lion League"
    book.save(saved)
    _after_other_program(Path(saved))


@pytest.mark.parametrize("system", ["rally", "neau", "dippouch"])
def test_a_new_workbooks_print_area_is_one_openpyxl_reads_and_keeps(
    tmp_path: Path, system: str
) -> None:
    """Issue 32, finding 7: `xlrally new` wrote the print area as whole columns
    (``Standings!$A:$G``, XlsxWriter's form), which openpyxl cannot read ("Print area cannot be
    set to Defined name") and drops when it saves. Now it is the form the file writer uses,
    rows 1 to 1,048,576 of the table's columns, kept by an openpyxl save."""
    [path, *_] = make_new(tmp_path / f"{system}.xlsx", system)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        book = openpyxl.load_workbook(path)
    area = book["Standings"].print_area
    assert re.fullmatch(r"'Standings'!\$A\$1:\$[A-Z]\$1048576", area), area
    book.save(path)
    assert openpyxl.load_workbook(path)["Standings"].print_area == area
