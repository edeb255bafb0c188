"""The live path: the same reading, engine and Standings as `xlrally sync`, through the sheet
interfaces (file backend, in-memory backend, and the xlwings adapter over a fake Excel)."""

from __future__ import annotations

import copy
import datetime as dt
import importlib.util
import os
import re
import zipfile
from pathlib import Path

import olefile
import pytest
import xlwings
from click.testing import CliRunner
from fake_xlwings import FakeBook
from helpers import memory_book, plain, vba_module_source, write_book

from xlrally.app.newbook import BUTTON_MACRO, make_new, xlwings_vba_project
from xlrally.app.sync import sync_file
from xlrally.cli import cli
from xlrally.core.systems import SYSTEMS as REGISTRY
from xlrally.excel.live import XlwingsBook, looks_by_range, refresh
from xlrally.excel.template import league_sheets
from xlrally.formats.cells import Cell, Look
from xlrally.ooxml.package import Package
from xlrally.ooxml.reader import FileSheets

SYSTEMS = list(REGISTRY)


@pytest.mark.parametrize("system", SYSTEMS)
def test_file_and_memory_backends_write_the_same_standings(tmp_path: Path, system: str) -> None:
    """Refreshing in memory gives the same Standings values as syncing the file."""
    book = memory_book(system)
    outcome = refresh(book)
    assert outcome.problems == ()
    path = write_book(tmp_path / f"{system}.xlsx", league_sheets(system).sheets)
    assert sync_file(path).result == "written"
    with FileSheets(path) as sheets:
        from_file = sheets.values("Standings")
    assert plain(book.sheets["Standings"]) == plain(from_file)
    assert book.formulas == {}
    if system == "rally":  # both paths right, not only alike: the seed's rule by hand
        # 3 events held: the best (3 + 1) / 2 = 2 count. Bobby: Dec 100 × 3 / 4 + 4 = 79,
        # Feb 100 × 4 / 6 + 6 = 72 (72.67, decimals dropped), May 21; José: Dec 100 × 2.5 / 4
        # + 4 = 66, May 54 (seed example 2); Mikhail: Dec 29, Feb 34 (seed example 3).
        totals = {row[1]: row[2] for row in book.sheets["Standings"][1:4]}
        assert totals == {"Bobby": 151, "José": 120, "Mikhail": 63}


def test_xlwings_adapter_over_fake_excel_matches_memory() -> None:
    """The XlwingsBook adapter reads whole ranges (one call per sheet) and writes one block."""
    fake = FakeBook(memory_book("rally"))
    outcome = refresh(XlwingsBook(fake))
    assert outcome.standings is not None
    direct = memory_book("rally")
    refresh(direct)
    assert plain(fake.memory.sheets["Standings"]) == plain(direct.sheets["Standings"])
    reads = [c for c in fake.calls if c[0] == "read"]
    assert len(reads) == 4  # Settings, Events, Results, Players: one whole-range read each
    assert fake.calls.count(("write", "Standings")) == 1  # the one block write
    looks = fake.memory.looks
    assert looks[("Standings", "E2")].bold  # Bobby's counted Dec 2025 score
    assert looks[("Standings", "G2")].grey  # Bobby's dropped May 2026 score
    assert looks[("Standings", "A2")].number_format == "0"


def test_formula_like_names_are_text_in_excel() -> None:
    """A player called '=1+1' is written with Excel's text apostrophe, never as a formula."""
    book = memory_book("reverse")
    book.sheets["Results"] = [row[:] for row in book.sheets["Results"]]
    book.sheets["Results"][1][1] = "=1+1"
    book.sheets["Results"][2][1] = "@home"
    refresh(book)
    assert book.formulas == {}
    names = [row[1] for row in book.sheets["Standings"][1:6]]
    assert "=1+1" in names
    assert "@home" in names


def test_text_stays_text_whatever_excel_would_make_of_it() -> None:
    """Excel parses written text as typed: the event headers 'Dec 2025' would become dates,
    a player '007' the number 7, 'TRUE' a boolean. The refresh writes every text as text."""
    book = memory_book("reverse")
    first_event = book.sheets["Events"][1][0]
    book.sheets["Events"][1][0] = "Dec 2025"
    for row in book.sheets["Results"][1:]:
        if row[0] == first_event:
            row[0] = "Dec 2025"
    book.sheets["Results"][1][1] = "007"
    book.sheets["Results"][2][1] = "TRUE"
    assert refresh(book).problems == ()
    standings = book.sheets["Standings"]
    assert "Dec 2025" in standings[0]
    names = [row[1] for row in standings[1:]]
    assert "007" in names
    assert "TRUE" in names


def test_an_error_cell_is_named_not_read_as_blank() -> None:
    """A points cell holding #N/A (a failed VLOOKUP) reaches Python as None by xlwings'
    default, which would score the row as blank; read as text, it is named."""
    from fake_xlwings import CellError

    book = memory_book("rally")
    book.sheets["Results"][1][2] = CellError("#N/A")
    before = copy.deepcopy(book.sheets)
    outcome = refresh(XlwingsBook(FakeBook(book)))
    assert outcome.standings is None
    assert outcome.problems == (
        "Results!C2: the cell holds the error #N/A: correct the formula behind it (or wrap it "
        "in IFERROR)",
    )
    assert book.sheets == before


def test_formatting_is_quiet_contiguous_and_sized_like_the_file(tmp_path: Path) -> None:
    """Screen updating and events are off while writing and restored; every format goes to one
    contiguous range (the fake refuses 'E2,E4' as xlwings' remote and Lite engines do); no
    column is autofitted; the widths are those the file writer gives the same columns."""
    fake = FakeBook(memory_book("dippouch"))
    assert refresh(XlwingsBook(fake)).standings is not None
    assert fake.app.history == [
        ("screen_updating", False),
        ("enable_events", False),
        ("screen_updating", True),
        ("enable_events", True),
    ]
    assert not [c for c in fake.calls if c[0] == "autofit"]
    path = write_book(tmp_path / "dippouch.xlsx", league_sheets("dippouch").sheets)
    assert sync_file(path).result == "written"
    with Package(path) as package:
        ref = package.sheet("Standings")
        assert ref is not None
        sheet = package.read(ref.part).decode()
    file_widths = {
        int(m.group(1)): float(m.group(2))
        for m in re.finditer(r'<col min="(\d+)" max="\d+" width="([\d.]+)"', sheet)
    }
    assert file_widths
    assert {c: w for (_, c), w in fake.widths.items()} == file_widths


def test_problems_go_to_a_message_not_a_traceback() -> None:
    """A bad result: nothing written, the message names the cell."""
    book = memory_book("rally")
    book.sheets["Results"][1][2] = 9  # 9 points in 4 games
    before = copy.deepcopy(book.sheets)
    fake = FakeBook(book)
    outcome = refresh(XlwingsBook(fake))
    assert outcome.standings is None
    assert (
        outcome.message
        == "The standings were not updated:\nResults!C2: points (9) must not exceed games played (4)"
    )
    assert book.sheets == before


# ---------------------------------------------------------------- the macro-enabled workbook


def test_new_xlsm_has_vba_button_macro_and_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`xlrally new league.xlsm`: VBA project, a button bound to a macro that exists, and the
    module the macro imports runs the refresh (here against a fake Excel over memory)."""
    path = tmp_path / "league.xlsm"
    written = make_new(path, "rally")
    assert written == [path, tmp_path / "league.py"]
    with zipfile.ZipFile(path) as z:
        vba = z.read("xl/vbaProject.bin")
        drawings = [
            z.read(n).decode() for n in z.namelist() if n.startswith("xl/drawings/vmlDrawing")
        ]
    assert vba == xlwings_vba_project()
    # The workbook follows the installed xlwings add-in: no pinned copy of xlwings' VBA module
    # (whose DLL and AppleScript names are those of one xlwings version).
    modules = {"/".join(entry) for entry in olefile.OleFileIO(vba).listdir()}
    assert "VBA/Module1" in modules
    assert not any(m.lower().startswith("vba/xlwings") for m in modules)
    assert b"xlwings64-" not in vba
    assert any(f"[0]!{BUTTON_MACRO}" in d and "Refresh standings" in d for d in drawings)
    source = vba_module_source(vba, "Module1")
    assert f"Sub {BUTTON_MACRO}()" in source
    assert 'RunPython "import " & mymodule & ";" & mymodule & ".main()"' in source

    spec = importlib.util.spec_from_file_location("league", tmp_path / "league.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fake = FakeBook(memory_book("rally"), name="league.xlsm")
    monkeypatch.setattr(xlwings.Book, "caller", staticmethod(lambda: fake))
    module.main()
    assert fake.app.alerts[0][:2] == ("xlrally", "info")
    direct = memory_book("rally")
    refresh(direct)
    assert plain(fake.memory.sheets["Standings"]) == plain(direct.sheets["Standings"])


def test_headless_sync_keeps_button_and_macro(tmp_path: Path) -> None:
    """Syncing the .xlsm from the command line leaves the VBA project and the button alone."""
    path = tmp_path / "league.xlsm"
    make_new(path, "rally")
    with zipfile.ZipFile(path) as z:
        before = {n: z.read(n) for n in z.namelist()}
    assert sync_file(path).ok
    with zipfile.ZipFile(path) as z:
        after = {n: z.read(n) for n in z.namelist()}
    for name, data in before.items():
        if "vba" in name.lower() or "drawing" in name.lower():
            assert after[name] == data, name


def test_module_name_must_be_importable(tmp_path: Path) -> None:
    """The macro imports a module named after the workbook: 'my league.xlsm' cannot work, and
    'xlrally.xlsm' or 'json.xlsm' would hide a module the refresh imports."""
    from xlrally.core.errors import NewBookError

    for name in ("my league", "2026_rally", "class"):
        with pytest.raises(NewBookError, match="cannot be a Python module name"):
            make_new(tmp_path / f"{name}.xlsm", "rally")
    for name in ("xlrally", "udfs", "xlwings", "json", "random"):
        with pytest.raises(NewBookError, match="would hide it"):
            make_new(tmp_path / f"{name}.xlsm", "rally")
    assert list(tmp_path.iterdir()) == []


def test_renamed_copy_is_warned_and_its_button_module_written(tmp_path: Path) -> None:
    """A copy saved as 'league_2026.xlsm' keeps a button whose macro imports 'league_2026',
    which does not exist: `check` says so and `xlrally button` writes it. A copy named
    'league (1).xlsm' cannot be imported at all: `check` says to rename it."""
    original = tmp_path / "league.xlsm"
    make_new(original, "rally")
    assert _cli("check", str(original))[2] == ""  # the original and its module: no warning

    renamed = tmp_path / "league_2026.xlsm"
    renamed.write_bytes(original.read_bytes())
    code, _out, err = _cli("check", str(renamed))
    assert code == 0
    assert "league_2026.py beside the workbook, which is missing" in err
    assert "xlrally button" in err
    code, out, _err = _cli("button", str(renamed))
    assert (code, out.strip()) == (0, f"wrote {tmp_path / 'league_2026.py'}")
    assert "refresh_caller()" in (tmp_path / "league_2026.py").read_text(encoding="utf-8")
    assert _cli("check", str(renamed))[2] == ""
    code, _out, err = _cli("button", str(renamed))  # never over a module that is there
    assert code == 1
    assert "already exists" in err

    copied = tmp_path / "league (1).xlsm"
    copied.write_bytes(original.read_bytes())
    assert "'league (1)' cannot be a Python module name" in _cli("check", str(copied))[2]
    code, _out, err = _cli("button", str(copied))
    assert code == 1
    assert "cannot be a Python module name" in err
    assert not (tmp_path / "league (1).py").exists()

    plain_book = tmp_path / "plain.xlsx"  # no button, nothing to say or write
    make_new(plain_book, "rally")
    assert _cli("check", str(plain_book))[2] == ""
    assert "has no Refresh standings button" in _cli("button", str(plain_book))[2]


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.skipif(
    not os.environ.get("XLWINGS_LICENSE_KEY"), reason="needs an xlwings licence (remote engine)"
)
def test_real_xlwings_book_api_via_remote_engine(tmp_path: Path) -> None:  # pragma: no cover
    """With a licence, drive xlwings' real Book API on a file (its licensed engines) through
    XlwingsBook: the same adapter the refresh uses in Excel."""
    path = tmp_path / "rally.xlsx"
    write_book(path, league_sheets("rally").sheets)
    book = xlwings.Book(str(path), mode="r")  # calamine reader engine (read side of the API)
    source = XlwingsBook(book)
    from xlrally.core.league import compute_standings
    from xlrally.formats.workbook import read_league

    assert compute_standings(read_league(source)).rows[0].player == "Bobby"


def test_settings_sheet_lists_only_its_systems_settings(tmp_path: Path) -> None:
    """Issue 14: a chess treasurer should not see poker settings."""
    import openpyxl

    def listed(system: str) -> list[str]:
        path = make_new(tmp_path / f"{system}.xlsx", system)[0]
        sheet = openpyxl.load_workbook(path)["Settings"]
        return [row[0] for row in sheet.iter_rows(min_row=2, values_only=True)]

    assert listed("rally") == [
        "System",
        "League",
        "Season",
        "Best X",
        "Events cap",
        "Tie break",
        "Date format",
        "Minimum events",
        "Below minimum",
        "Team best N",
        "Team scores",
        "Pot",
        "Currency unit",
        "Season fee",
        "Withhold",
        "Withhold rounding",
        "Withhold cap",
        "Withhold per head",
        "Withheld for",
        "What it takes",
        "Events left",
        "Prize ties",
        "Prizes per player",
        "Comma names",
        "Requested byes",
        "Forfeit wins",
        "Lichess H",
    ]
    assert "Participating" in listed("absolute")
    assert "Knockout points" in listed("absolute")
    assert "Knockout points" not in listed("rally")
    assert "Shared places" in listed("neau")
    assert "Pot share" in listed("neau")
    assert "Pot share" not in listed("rally")
    assert listed("dippouch") == [
        "System",
        "League",
        "Season",
        "Tie break",
        "Date format",
        "Minimum events",
        "Below minimum",
        "Team best N",
        "Team scores",
        "What it takes",
        "Events left",
        "Comma names",
    ]


def test_looks_are_set_on_runs_of_cells_per_column() -> None:
    """Excel is told each look once per run of cells in a column (``C2:C4``), a single cell
    alone (``C6``); blank cells and plain cells break a run, and the last row is included.
    Worked by hand from the grid below (rows 1-6, columns A-C)."""
    bold, grey = Look(bold=True), Look(grey=True)
    grid = [
        (Cell("Rank", bold), Cell("Player", bold), Cell("Total", bold)),
        (Cell(1), Cell("Ann"), Cell(10, grey)),
        (Cell(2), Cell("Bea"), Cell(9, grey)),
        (Cell(3), Cell("Cy"), Cell(8, grey)),
        (Cell(4), Cell("Dan"), Cell(None, grey)),
        (Cell("note", bold), Cell(None), Cell(7, grey)),
    ]
    assert looks_by_range(grid) == {
        bold: ["A1", "A6", "B1", "C1"],
        grey: ["C2:C4", "C6"],
    }
    assert looks_by_range([]) == {}


@pytest.mark.parametrize(
    ("typed", "becomes"),
    [
        ("6 Dec 2025", dt.datetime(2025, 12, 6)),  # day, month name, year
        ("Dec 6, 2025", dt.datetime(2025, 12, 6)),  # month name, day, year
        ("December 2025", dt.datetime(2025, 12, 1)),  # no day: the 1st
        ("12/6/2025", dt.datetime(2025, 12, 6)),  # month/day/year (English, United States)
        ("2025-12-06", dt.datetime(2025, 12, 6)),
        ("31 Feb 2026", "31 Feb 2026"),  # no such day: stays text
        ("Dec", "Dec"),
        ("1,250", 1250),
        ("1.5e3", 1500),
        ("-0.5", -0.5),
        ("150%", 1.5),  # a percentage stays a fraction, even when it is whole
        ("FALSE", False),
        ("1,25", "1,25"),  # a decimal comma is not a number in English (United States)
    ],
)
def test_what_excel_makes_of_typed_text(typed: str, becomes: object) -> None:
    """Excel's entry parsing, from the Microsoft support pages named in as_typed's docstring:
    the fake backend must turn written text into what Excel would, so that the refresh is
    tested against Excel's behaviour, not the fake's."""
    from xlrally.excel.live import as_typed

    got = as_typed(typed)
    assert (type(got), got) == (type(becomes), becomes)


def test_the_button_sits_on_settings_beside_the_settings(tmp_path: Path) -> None:
    """The Refresh button of `xlrally new league.xlsm` is drawn on the Settings sheet (the
    sheet whose relationships name the VML drawing), to the right of the settings' columns and
    in the first rows, so that no setting and no growing table covers it. VML's ``x:Anchor``
    is "left column, offset, top row, offset, right column, offset, bottom row, offset",
    0-based (Office VML, ClientData ``Anchor``)."""
    path = tmp_path / "league.xlsm"
    make_new(path, "rally")
    with zipfile.ZipFile(path) as z:
        workbook = z.read("xl/workbook.xml").decode()
        rels = z.read("xl/_rels/workbook.xml.rels").decode()
        sheet_ids = dict(
            re.findall(r'<sheet name="([^"]+)" sheetId="\d+" r:id="(rId\d+)"', workbook)
        )
        targets = dict(re.findall(r'Id="(rId\d+)"[^>]*Target="([^"]+)"', rels))
        targets |= {i: t for t, i in re.findall(r'Target="([^"]+)"[^>]*Id="(rId\d+)"', rels)}
        settings_part = targets[sheet_ids["Settings"]].removeprefix("/xl/").removeprefix("xl/")
        settings_rels = z.read(f"xl/worksheets/_rels/{Path(settings_part).name}.rels").decode()
        assert "vmlDrawing" in settings_rels
        vml = z.read("xl/drawings/vmlDrawing1.vml").decode()
    (anchor,) = re.findall(r"<x:Anchor>\s*([^<]+)</x:Anchor>", vml)
    left, _, top, _, right, _, bottom, _ = (int(n) for n in anchor.split(","))
    with FileSheets(path) as sheets:
        settings = sheets.values("Settings")
    used_columns = max(
        (c + 1 for row in settings for c, v in enumerate(row) if v not in (None, "")), default=0
    )
    assert left >= used_columns  # right of every setting's column
    assert right > left
    assert 0 < top < bottom <= 5  # in the first rows, below the header row


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_button_writes_the_looks_sync_writes(tmp_path: Path, system: str) -> None:
    """Bold, italic, grey, number format and alignment of every Standings cell: the same from
    the Refresh button (through the COM double) as in the file `xlrally sync` writes, read back
    with openpyxl."""
    from fake_office_js import file_looks

    fake = FakeBook(memory_book(system))
    assert refresh(XlwingsBook(fake)).standings is not None
    path = write_book(tmp_path / f"{system}.xlsx", league_sheets(system).sheets)
    assert sync_file(path).result == "written"
    button = {
        address: (look.bold, look.italic, look.grey, look.number_format, look.align)
        for (sheet, address), look in fake.memory.looks.items()
        if sheet == "Standings" and look != Look()
    }
    wanted = file_looks(path)
    assert any(align for *_, align in wanted.values())  # alignment is part of the check
    assert button == wanted
