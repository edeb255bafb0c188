"""The Refresh standings button of a workbook made by ``xlrally new league.ods``, pressed in
real headless LibreOffice with the extension installed: the click goes through the form
control (its accessible action, what VCL's button does when clicked) to the ``xlrally:refresh``
command, which writes the Standings as ``xlrally sync`` writes them, or changes nothing when the
league has a mistake. The .ods is the same workbook as the .xlsx ``new`` makes, with the
.xlsx's frozen panes."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from office import Office, calc, oxt  # noqa: F401 (fixtures: real LibreOffice for the session)
from openpyxl.utils.cell import column_index_from_string, coordinate_from_string
from test_calc_refresh import comparable, standings

from xlrally.app.newbook import make_new
from xlrally.app.sync import sync_file
from xlrally.calc import odsbook
from xlrally.cli import cli
from xlrally.core.errors import NewBookError

BUTTON = "Refresh standings"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """`xlrally new` for two systems, as a Calc workbook (.ods) and as an Excel one (.xlsx)."""
    folder = tmp_path_factory.mktemp("new-ods")
    found = {}
    for system in ("rally", "dippouch"):
        ods = folder / f"{system}.ods"
        done = CliRunner().invoke(cli, ["new", str(ods), "--system", system])
        assert done.exit_code == 0, done.output
        assert done.output == f"wrote {ods}\n"
        found[system] = ods
        found[f"{system}-xlsx"] = make_new(folder / f"{system}.xlsx", system)[0]
    return found


def frozen_in_excel(xlsx: Path) -> dict[str, list[int]]:
    """Each sheet's frozen columns and rows as the .xlsx says (read by openpyxl)."""
    found = {}
    for sheet in openpyxl.load_workbook(xlsx).worksheets:
        if sheet.freeze_panes:
            letters, row = coordinate_from_string(sheet.freeze_panes)
            found[sheet.title] = [column_index_from_string(letters) - 1, row - 1]
    return found


def opened(calc: Office, path: Path) -> int:
    doc: int = calc("open", str(path))
    return doc


def test_the_ods_is_the_xlsx_with_a_button(calc: Office, made: dict[str, Path]) -> None:
    """Every sheet holds what the .xlsx's does (the About sheet speaks of Calc), the frozen
    panes are the .xlsx's, Settings is shown first, and its button is out of design mode with
    the action URL xlrally:refresh, dispatched in the document's own frame."""
    ods, xlsx = opened(calc, made["rally"]), opened(calc, made["rally-xlsx"])
    try:
        sheets = calc("sheet_names", xlsx)
        assert calc("sheet_names", ods) == sheets
        for name in sheets:
            if name != "About":
                assert calc("used", ods, name) == calc("used", xlsx, name), name
        about = "\n".join(str(row[0]) for row in calc("used", ods, "About"))
        assert "LibreOffice Calc with the xlrally extension" in about
        assert calc("frozen", ods) == frozen_in_excel(made["rally-xlsx"])
        assert calc("frozen", ods)["Standings"] == [2, 1]  # Rank and Player, the header row
        assert calc("active_sheet", ods) == "Settings"
        assert not calc("design_mode", ods)
        assert calc("button", ods, "Settings", BUTTON) == {
            "ButtonType": "URL",
            "TargetURL": "xlrally:refresh",
            "TargetFrame": "_self",
            "DispatchURLInternal": True,
            "Enabled": True,
        }
    finally:
        calc("close", ods)
        calc("close", xlsx)


def swapped(calc: Office, doc: int) -> None:
    """The first two result rows' players swapped (the results changed since the last sync)."""
    [_, first, second] = calc("values", doc, "Results", "B1:B3")
    assert first != second
    calc("set_cell", doc, "Results", "B2", second[0])
    calc("set_cell", doc, "Results", "B3", first[0])


def synced(calc: Office, xlsx: Path, folder: Path) -> dict[str, Any]:
    """The Standings `xlrally sync` writes after the same change, as LibreOffice reads them."""
    doc = opened(calc, xlsx)
    try:
        swapped(calc, doc)
        edited = folder / "edited.xlsx"
        calc("store", doc, str(edited), "Calc MS Excel 2007 XML")
    finally:
        calc("close", doc)
    assert sync_file(edited).result == "written"
    return standings(calc, edited)


@pytest.mark.parametrize("system", ["rally", "dippouch"])
def test_clicking_the_button_writes_what_sync_writes(
    calc: Office, made: dict[str, Path], tmp_path: Path, system: str
) -> None:
    """A click on the button refreshes the Standings, equal cell by cell, look by look, in
    widths and print setup to what sync writes for the same results; Undo takes it back."""
    expected = synced(calc, made[f"{system}-xlsx"], tmp_path)
    doc = opened(calc, Path(shutil.copy(made[system], tmp_path / "league.ods")))
    try:
        swapped(calc, doc)
        before = calc("snapshot", doc, "Standings")
        titles = calc("undo_titles", doc)
        calc("click", doc, "Settings", BUTTON)
        after = calc("snapshot", doc, "Standings")
        assert calc("undo_titles", doc) == ["Refresh standings", *titles]
        calc("undo", doc)
        undone = calc("snapshot", doc, "Standings")
    finally:
        calc("close", doc)
    assert comparable(after)["cells"] != comparable(before)["cells"]
    rows = zip(comparable(after)["cells"], comparable(expected)["cells"], strict=True)
    for row, (got, want) in enumerate(rows, start=1):  # numbers to 15 digits, as comparable says
        assert got == want, f"Standings row {row}"
    assert comparable(after) == comparable(expected)
    assert after["frozen"] == [True, 2, 1]
    assert comparable(undone) == comparable(before)


def test_clicking_the_button_on_a_mistake_changes_nothing(
    calc: Office, made: dict[str, Path], tmp_path: Path
) -> None:
    """A result that is not a number: the click writes nothing and adds no Undo step."""
    doc = opened(calc, Path(shutil.copy(made["rally"], tmp_path / "league.ods")))
    try:
        calc("set_cell", doc, "Results", "C3", "two and a half")
        before = calc("snapshot", doc, "Standings")
        titles = calc("undo_titles", doc)
        calc("click", doc, "Settings", BUTTON)
        assert calc("undo_titles", doc) == titles
        assert calc("snapshot", doc, "Standings") == before
    finally:
        calc("close", doc)


def test_without_libreoffice_new_ods_says_what_to_do(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No LibreOffice to write the .ods: a clear error, and no file; an .xlsx still works."""
    monkeypatch.setattr(odsbook, "soffice", lambda: None)
    with pytest.raises(NewBookError, match=r"made by LibreOffice, which was not found"):
        make_new(tmp_path / "league.ods", "rally")
    assert list(tmp_path.iterdir()) == []
    assert make_new(tmp_path / "league.xlsx", "rally") == [tmp_path / "league.xlsx"]


def rewritten(source: Path, out: Path, change: dict[str, bytes], stored: bool = True) -> Path:
    """``source`` with the parts in ``change`` replaced (``mimetype`` compressed if not
    ``stored``)."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(out, "w") as new:
        for info in old.infolist():
            kind = info.compress_type if stored else zipfile.ZIP_DEFLATED
            new.writestr(info, change.get(info.filename, old.read(info.filename)), kind)
    return out


@pytest.mark.usefixtures("calc")
def test_a_wrong_ods_is_refused_before_it_replaces_anything(
    made: dict[str, Path], tmp_path: Path
) -> None:
    """The file staged for ``new`` is checked against LibreOffice's before it is renamed over
    the target: a part it should not change, no button, a compressed mimetype are refused."""
    good = made["rally"]
    with zipfile.ZipFile(good) as z:
        content, styles = z.read("content.xml"), z.read("styles.xml")
    start, end = content.index(b"<form:button "), content.index(b"</form:button>")
    no_button = content[:start] + content[end + len(b"</form:button>") :]
    wrong = {
        "a part changed that should not": {"styles.xml": styles.replace(b"Default", b"Other", 1)},
        "the Settings sheet has no Refresh button": {"content.xml": no_button},
    }
    for problem, change in wrong.items():
        staged = rewritten(good, tmp_path / "staged.ods", change)
        with pytest.raises(NewBookError, match=re.escape(f"({problem}); nothing was changed")):
            odsbook.verify(staged, good)
    staged = rewritten(good, tmp_path / "staged.ods", {}, stored=False)
    with pytest.raises(NewBookError, match="its first part is not the stored mimetype"):
        odsbook.verify(staged, good)
    odsbook.verify(rewritten(good, tmp_path / "same.ods", {}), good)
