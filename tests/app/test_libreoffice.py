"""A real spreadsheet program opens every file xlrally writes, and reads back its Standings.

LibreOffice (package libreoffice-calc-nogui, installed by .ci/run) converts each workbook's
sheets to CSV; the Standings it reads must equal the engine's standings.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
import zipfile
from pathlib import Path

import openpyxl
import pytest
from helpers import RALLY_SHEETS, program, vba_module_source, write_book
from remake_examples import TEMPLATE
from test_lossless import rich_content

from xlrally.app.newbook import make_new
from xlrally.app.sync import read_standings, sync_file
from xlrally.core.systems import SYSTEMS as REGISTRY

SYSTEMS = list(REGISTRY)
CSV_ALL_SHEETS = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every kind of file xlrally writes: the template, `new` for each system (and .xlsm),
    synced workbooks (plain and feature-rich)."""
    folder = tmp_path_factory.mktemp("written")
    files = {"template": shutil.copy(TEMPLATE, folder / "template.xlsx")}
    for system in SYSTEMS:
        files[f"new-{system}"] = make_new(folder / f"new_{system}.xlsx", system)[0]
    files["new-xlsm"] = make_new(folder / "new_macro.xlsm", "reverse")[0]
    synced = write_book(folder / "synced.xlsx", RALLY_SHEETS)
    rich = rich_content(folder / "rich.xlsx")
    for path in (synced, rich, files["new-dippouch"]):
        assert sync_file(path).ok
    files["synced"], files["synced-rich"] = synced, rich
    return {k: Path(v) for k, v in files.items()}


def convert(paths: list[Path], out: Path, to: str = CSV_ALL_SHEETS) -> str:
    """Open each file in LibreOffice and save it into the folder ``out`` in format ``to``
    (every sheet as CSV by default); LibreOffice's error output. A profile of its own beside
    ``out`` keeps runs apart."""
    if not paths:
        return ""  # soffice without files would wait forever
    profile = out.parent / f"{out.name}-profile"
    command = [
        program("soffice", "libreoffice"),
        f"-env:UserInstallation={profile.as_uri()}",
        "--headless",
        "--convert-to",
        to,
        "--outdir",
        str(out),
        *map(str, paths),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
    return done.stderr


@pytest.fixture(scope="module")
def converted(written: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("csv")
    convert(list(written.values()), out)
    return out


def read_csv(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


def same(cell: str, value: object) -> bool:
    if isinstance(value, int | float):
        try:
            return abs(float(cell) - float(value)) <= 1e-9 * max(1.0, abs(float(value)))
        except ValueError:
            return False
    return cell == str(value)


@pytest.mark.parametrize(
    "name", ["template", *(f"new-{s}" for s in SYSTEMS), "new-xlsm", "synced", "synced-rich"]
)
def test_libreoffice_reads_the_engines_standings(
    written: dict[str, Path], converted: Path, name: str
) -> None:
    """The Standings LibreOffice reads equal the engine's: rank, player, total, events, scores."""
    path = written[name]
    sheets = {p.name[len(path.stem) + 1 : -4]: p for p in converted.glob(f"{path.stem}-*.csv")}
    assert {"Settings", "Events", "Results", "Standings"} <= set(sheets), sorted(sheets)
    rows = read_csv(sheets["Standings"])
    table = read_standings(path)
    countries = ["Country"] if table.countries else []  # Dip Pouch lists show it
    lead = 4 + len(countries)
    assert rows[0][:lead] == [
        "Rank",
        "Player",
        *countries,
        "Rating" if table.system == "dippouch" else "Total",
        "Events",
    ]
    assert rows[0][lead : lead + len(table.held)] == list(table.held)
    players = rows[1 : 1 + len(table.rows)]
    assert len(players) == len(table.rows)  # every row is there (a missing one fails here)
    assert len(rows) == len(players) + 1 or not rows[len(players) + 1][0].strip().isdigit()
    if name == "synced":  # RALLY_SHEETS, hand-worked in tests/helpers.py: Bobby 100, José 54
        assert [(line[1], line[2]) for line in players] == [("Bobby", "100"), ("José", "54")]
    for line, row in zip(players, table.rows, strict=True):
        assert same(line[0], row.rank)
        assert line[1] == row.player
        if countries:
            assert line[2] == table.countries.get(row.player, "")
        assert same(line[lead - 2], row.total)
        assert same(line[lead - 1], row.events)
        for cell, event in zip(line[lead : lead + len(table.held)], table.held, strict=True):
            score = row.score(event)
            assert cell == "" if score is None else same(cell, score.value), (
                name,
                row.player,
                event,
                cell,
            )


def save_with_libreoffice(source: Path, out: Path, to: str = "xlsx:Calc MS Excel 2007 XML") -> Path:
    """Open ``source`` in LibreOffice and save it into the folder ``out`` (in format ``to``)."""
    convert([source], out, to)
    return out / f"{source.stem}.{to.split(':', maxsplit=1)[0]}"


def test_workbook_saved_by_libreoffice_syncs(tmp_path: Path) -> None:
    """A league saved by LibreOffice (its own package writer) syncs and reads back."""
    source = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    saved = save_with_libreoffice(source, tmp_path / "saved")
    assert sync_file(saved).result == "written"
    table = read_standings(saved)
    assert [(r.rank_label, r.player, r.total) for r in table.rows] == [
        ("1", "Bobby", 100),
        ("2", "José", 54),
    ]
    assert sync_file(saved).result == "unchanged"


def test_formulas_calculated_by_libreoffice_are_read(tmp_path: Path) -> None:
    """openpyxl saves a formula without its value, so the sync refuses the file and says to
    open and save it in LibreOffice; once LibreOffice has done so, the values are read."""
    source = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    book = openpyxl.load_workbook(source)
    book["Results"]["C2"] = "=1+2"  # Bobby's 3 points of seed example 1, as a formula
    book.save(source)
    refused = sync_file(source)
    assert "Results!C2: this formula has no calculated value" in refused.problems[0]
    saved = save_with_libreoffice(source, tmp_path / "saved")
    assert sync_file(saved).result == "written"
    assert [(r.player, r.total) for r in read_standings(saved).rows] == [
        ("Bobby", 100),  # hand-worked in tests/helpers.py
        ("José", 54),
    ]


def test_an_opendocument_file_from_libreoffice_gets_a_plain_message(tmp_path: Path) -> None:
    source = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    ods = save_with_libreoffice(source, tmp_path / "ods", "ods")
    [problem] = sync_file(ods).problems
    assert problem.startswith(f"{ods}: this is an OpenDocument spreadsheet (.ods)")


def test_csv_read_by_libreoffice_sums_to_the_totals(tmp_path: Path) -> None:
    """Issue 14: every score in the CSV is a number that a spreadsheet sums; the counted ones
    (all but the events in Dropped) add up to the Total."""
    from xlrally.formats.report import as_csv

    table = read_standings(TEMPLATE)
    source = tmp_path / "standings.csv"
    source.write_text(as_csv(table), encoding="utf-8")
    convert([source], tmp_path / "xlsx", "xlsx:Calc MS Excel 2007 XML")
    book = openpyxl.load_workbook(tmp_path / "xlsx" / "standings.xlsx")
    rows = list(book.active.iter_rows(values_only=True))
    header = list(rows[0])
    events = header[header.index("Events") + 1 : header.index("Dropped")]
    for row in rows[1:]:
        record = dict(zip(header, row, strict=True))
        dropped = set((record["Dropped"] or "").split("; "))
        scores = [record[e] for e in events if record[e] is not None]
        assert all(isinstance(s, int | float) for s in scores), record
        assert isinstance(record["Rank"], int | float), record
        counted = sum(record[e] for e in events if record[e] is not None and e not in dropped)
        assert counted == record["Total"], record


def test_the_xlsm_opens_in_libreoffice_with_its_macro_and_button(tmp_path: Path) -> None:
    """Issue 12: the .xlsm from `xlrally new` keeps its VBA project and its Refresh button
    through LibreOffice (opened and saved again as a macro-enabled workbook)."""
    from xlrally.app.newbook import BUTTON_MACRO

    source = make_new(tmp_path / "league.xlsm", "rally")[0]
    saved = save_with_libreoffice(source, tmp_path / "saved", "xlsm:Calc MS Excel 2007 VBA XML")
    with zipfile.ZipFile(saved) as z:
        vba = z.read("xl/vbaProject.bin")
        drawings = [z.read(n).decode() for n in z.namelist() if n.endswith(".vml")]
    assert f"Sub {BUTTON_MACRO}()" in vba_module_source(vba, "Module1")
    assert any("Refresh standings" in d and BUTTON_MACRO in d for d in drawings)
