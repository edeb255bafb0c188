"""The Refresh standings command in real LibreOffice, dispatched as the menu dispatches it,
on workbooks made by ``xlrally new`` for each of the five systems: the Standings it writes
equal, cell by cell and look by look, what ``xlrally sync`` writes into a copy (both read back
by LibreOffice); Undo restores the old Standings in one step; a workbook with a mistake is left
as it was and the problem named with its cell."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from office import Office, calc, oxt  # noqa: F401 (fixtures: real LibreOffice for the session)

from xlrally.app.newbook import make_new
from xlrally.app.sync import sync_file
from xlrally.core.systems import SYSTEMS as REGISTRY

SYSTEMS = list(REGISTRY)
XLSX = "Calc MS Excel 2007 XML"


def edited_copy(calc: Office, folder: Path, system: str) -> Path:
    """A new league whose results changed since its Standings were written: the first two
    result rows' players swapped, in Calc, saved as .xlsx by Calc."""
    book = make_new(folder / f"{system}.xlsx", system)[0]
    doc = calc("open", str(book))
    try:
        [_, first, second] = calc("values", doc, "Results", "B1:B3")
        assert first != second
        calc("set_cell", doc, "Results", "B2", second[0])
        calc("set_cell", doc, "Results", "B3", first[0])
        edited = folder / f"{system}-edited.xlsx"
        calc("store", doc, str(edited), XLSX)
    finally:
        calc("close", doc)
    return edited


def standings(calc: Office, path: Path) -> dict[str, Any]:
    doc = calc("open", str(path))
    try:
        found: dict[str, Any] = calc("snapshot", doc, "Standings")
    finally:
        calc("close", doc)
    return found


def comparable(snapshot: dict[str, Any]) -> dict[str, Any]:
    """What is compared: every cell's value and look, the widths, the page and print ranges.
    Not the frozen panes: a document LibreOffice opens hidden (as here, headless) keeps no
    frozen panes of a sheet that is not the active one, even those of the file it opened.
    Numbers to the 15 significant digits a spreadsheet keeps: sync writes them so (issue 32),
    the Refresh hands Calc the full double, which Calc saves with 15."""
    found = {key: snapshot[key] for key in ("cells", "widths", "page")}
    found["cells"] = [
        [
            {**cell, "value": float(f"{cell['value']:.15g}")}
            if isinstance(cell["value"], float)
            else cell
            for cell in row
        ]
        for row in snapshot["cells"]
    ]
    return found


@pytest.mark.parametrize("system", SYSTEMS)
def test_refresh_writes_what_sync_writes(calc: Office, tmp_path: Path, system: str) -> None:
    """The Standings after Refresh equal the synced copy's, cell by cell and look by look;
    Undo takes them back to what they were, in one step."""
    edited = edited_copy(calc, tmp_path, system)
    synced = shutil.copy(edited, tmp_path / f"{system}-synced.xlsx")
    assert sync_file(Path(synced)).result == "written"
    doc = calc("open", str(edited))
    try:
        before = calc("snapshot", doc, "Standings")
        done = calc("refresh", doc)
        assert done["state"] == 1, done
        assert done["message"].startswith("Standings updated: "), done
        after = calc("snapshot", doc, "Standings")
        assert calc("undo_titles", doc) == ["Refresh standings"]
        calc("undo", doc)
        undone = calc("snapshot", doc, "Standings")
    finally:
        calc("close", doc)
    expected = comparable(standings(calc, Path(synced)))
    assert comparable(after)["cells"] != comparable(before)["cells"]  # the refresh changed them
    got_cells = comparable(after)["cells"]
    for row, (got, want) in enumerate(zip(got_cells, expected["cells"], strict=True), start=1):
        assert got == want, f"Standings row {row}"
    assert comparable(after) == expected
    assert comparable(undone) == comparable(before)


def test_a_new_standings_sheet_is_made_and_printed_as_sync_makes_it(
    calc: Office, tmp_path: Path
) -> None:
    """Without a Standings sheet, Refresh adds one at the end with the print setup sync gives
    a new sheet: landscape, one page wide, the title at the top, page numbers at the foot,
    the header row on every page, the table without the Working column."""
    book = make_new(tmp_path / "rally.xlsx", "rally")[0]
    doc = calc("open", str(book))
    try:
        calc("remove_sheet", doc, "Standings")
        edited = tmp_path / "no-standings.xlsx"
        calc("store", doc, str(edited), XLSX)
    finally:
        calc("close", doc)
    synced = Path(shutil.copy(edited, tmp_path / "synced.xlsx"))
    assert sync_file(synced).result == "written"
    doc = calc("open", str(edited))
    try:
        assert calc("refresh", doc)["state"] == 1
        assert calc("sheet_names", doc)[-1] == "Standings"
        after = calc("snapshot", doc, "Standings")
    finally:
        calc("close", doc)
    expected = standings(calc, synced)
    assert after["cells"] == expected["cells"]
    columns = len(after["cells"][0])  # beyond the table, each program's default width
    assert after["widths"][:columns] == expected["widths"][:columns]
    page = after["page"]
    assert page["IsLandscape"]
    assert (page["ScaleToPagesX"], page["ScaleToPagesY"]) == (1, 0)
    assert page["HeaderCenter"] == expected["page"]["HeaderCenter"]
    assert page["PrintTitleRows"] == expected["page"]["PrintTitleRows"]
    assert page["PrintAreas"] == expected["page"]["PrintAreas"]
    assert {k: page[k] for k in PRINTED} == {k: expected["page"][k] for k in PRINTED}
    assert page == expected["page"]


PRINTED = ("LeftMargin", "RightMargin", "FooterCenter", "HeaderCenterLook", "Width", "Height")


def test_a_mistake_changes_nothing_and_is_reported_with_its_cell(
    calc: Office, tmp_path: Path
) -> None:
    """A result that is not a number: Refresh writes nothing, adds no Undo step, leaves the
    document unmodified, and reports the problem at its cell, as sync does."""
    book = make_new(tmp_path / "rally.xlsx", "rally")[0]
    doc = calc("open", str(book))
    try:
        calc("set_cell", doc, "Results", "C3", "two and a half")
        wrong = tmp_path / "wrong.xlsx"
        calc("store", doc, str(wrong), XLSX)
    finally:
        calc("close", doc)
    [problem] = sync_file(Path(shutil.copy(wrong, tmp_path / "copy.xlsx"))).problems
    assert "Results!C3: " in problem
    doc = calc("open", str(wrong))
    try:
        before = calc("snapshot", doc, "Standings")
        done = calc("refresh", doc)
        after = calc("snapshot", doc, "Standings")
        assert (calc("undo_titles", doc), calc("modified", doc)) == ([], False)
    finally:
        calc("close", doc)
    assert done["state"] == 0
    assert done["message"].startswith("The standings were not updated:\n")
    assert problem.split(": ", 1)[1] in done["message"]  # the same words at the same cell
    assert after == before


def test_a_protected_standings_sheet_is_left_as_it_was(calc: Office, tmp_path: Path) -> None:
    """When Calc refuses the write (the Standings sheet protected), whatever was written is
    taken back: the sheet is as it was, no Undo step is left, and the message says what to do."""
    edited = edited_copy(calc, tmp_path, "rally")
    doc = calc("open", str(edited))
    try:
        calc("protect", doc, "Standings")
        before = calc("snapshot", doc, "Standings")
        titles = calc("undo_titles", doc)
        done = calc("refresh", doc)
        after = calc("snapshot", doc, "Standings")
        assert calc("undo_titles", doc) == titles
    finally:
        calc("close", doc)
    assert done["state"] == 0
    assert "LibreOffice refused to write the sheet" in done["message"]
    assert "nothing was changed" in done["message"]
    assert after == before
