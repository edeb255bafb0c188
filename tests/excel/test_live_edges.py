"""The live refresh at its edges: the button's caller, the message box, the 1904 date system,
where a new Standings sheet goes, and a Standings sheet named in another case."""

from __future__ import annotations

import copy
import datetime as dt
from types import SimpleNamespace
from typing import Any

import pytest
import xlwings
from fake_xlwings import FakeBook
from helpers import memory_book, rally_sheets

from xlrally.excel.live import MemoryBook, XlwingsBook, refresh, refresh_caller
from xlrally.formats.cells import Look, column_letter
from xlrally.formats.workbook import read_league


def press_button(monkeypatch: pytest.MonkeyPatch, caller: FakeBook, active: Any = None) -> None:
    """What the button's macro does: xlwings' Book.caller() is the workbook (or the add-in)
    the button is in; xw.books.active is the workbook in front."""
    monkeypatch.setattr(xlwings.Book, "caller", classmethod(lambda cls: caller))
    monkeypatch.setattr(xlwings, "books", SimpleNamespace(active=active))
    refresh_caller()


def test_the_button_refreshes_its_workbook_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeBook(memory_book("rally"))
    press_button(monkeypatch, fake)
    ((title, mode, prompt),) = fake.app.alerts
    assert (title, mode) == ("xlrally", "info")
    assert prompt.startswith("Standings updated: ")
    assert "Standings" in fake.memory.sheets


def test_problems_are_a_critical_message(monkeypatch: pytest.MonkeyPatch) -> None:
    book = memory_book("rally")
    book.sheets["Results"][1][2] = 9  # 9 points in 4 games
    fake = FakeBook(book)
    press_button(monkeypatch, fake)
    assert fake.app.alerts == [
        (
            "xlrally: problems",
            "critical",
            "The standings were not updated:\n"
            "Results!C2: points (9) must not exceed games played (4)",
        )
    ]


@pytest.mark.parametrize("add_in", ["xlrally.xlam", "XLRALLY.XLAM"])
def test_from_an_add_in_the_active_workbook_is_refreshed(
    monkeypatch: pytest.MonkeyPatch, add_in: str
) -> None:
    """An add-in's button is in the add-in's own workbook: the league is the active one."""
    add_in_book = FakeBook(MemoryBook(sheets={"Code": [["macros"]]}), name=add_in)
    league = FakeBook(memory_book("rally"))
    press_button(monkeypatch, add_in_book, active=league)
    assert "Standings" in league.memory.sheets
    assert [t for t, _, _ in league.app.alerts] == ["xlrally"]
    assert list(add_in_book.memory.sheets) == ["Code"]
    assert add_in_book.app.alerts == []


def test_a_new_standings_sheet_goes_after_the_last_sheet() -> None:
    """Excel would put a sheet added without a place before the active sheet."""
    fake = FakeBook(memory_book("rally"))
    before = list(fake.memory.sheets)
    assert refresh(XlwingsBook(fake)).standings is not None
    assert list(fake.memory.sheets) == [*before, "Standings"]


@pytest.mark.parametrize("backend", ["memory", "xlwings"])
def test_a_standings_sheet_in_another_case_is_written_in_place(backend: str) -> None:
    """Excel takes 'standings' and 'Standings' for one sheet: no second sheet is added, and
    the formulas and looks of the other sheets stay."""
    book = memory_book("rally")
    book.sheets["standings"] = [["old"]]
    book.formulas[("Results", "F2")] = "=C2*2"
    book.formulas[("standings", "Z99")] = "=old()"
    book.looks[("standings", "Z99")] = book.looks[("Results", "A1")] = Look(bold=True)
    target = book if backend == "memory" else XlwingsBook(FakeBook(book))
    assert refresh(target).standings is not None
    assert [n for n in book.sheets if n.casefold() == "standings"] == ["standings"]
    assert book.sheets["standings"][0][:2] == ["Rank", "Player"]
    assert ("Results", "F2") in book.formulas
    assert ("standings", "Z99") not in book.formulas
    assert ("Results", "A1") in book.looks
    assert ("standings", "Z99") not in book.looks


def dated_events(serials: list[float]) -> MemoryBook:
    """The rally league with its event dates as serial numbers, as a cell typed as a number
    (not formatted as a date) reaches Python."""
    sheets = rally_sheets()
    for row, serial in zip(sheets["Events"][1:], serials, strict=True):
        row[1] = serial
    return MemoryBook(sheets=sheets)


def test_serial_dates_count_from_the_workbooks_date_system() -> None:
    """Microsoft, "Date systems in Excel": in the 1900 system 45292 is 2024-01-01; the 1904
    system counts 1,462 days fewer, so there 43830 is 2024-01-01 (and in the 1900 system 43830
    is 2019-12-31). Excel tells which through COM (Workbook.Date1904)."""
    in_1904 = FakeBook(dated_events([43830, 43831]))
    in_1904.api = SimpleNamespace(Date1904=True)  # type: ignore[attr-defined]
    dates = [e.date for e in read_league(XlwingsBook(in_1904)).events]
    assert dates == [dt.date(2024, 1, 1), dt.date(2024, 1, 2)]
    in_1900 = FakeBook(dated_events([43830, 45292]))
    in_1900.api = SimpleNamespace(Date1904=False)  # type: ignore[attr-defined]
    dates = [e.date for e in read_league(XlwingsBook(in_1900)).events]
    assert dates == [dt.date(2019, 12, 31), dt.date(2024, 1, 1)]
    no_com = FakeBook(dated_events([45292, 45293]))  # Lite and the Mac: no Date1904 to ask
    dates = [e.date for e in read_league(XlwingsBook(no_com)).events]
    assert dates == [dt.date(2024, 1, 1), dt.date(2024, 1, 2)]


def test_every_look_of_the_grid_reaches_excel() -> None:
    """The adapter's job is to hand each cell's look to Excel: bold, italic, grey and the
    number format of every cell of the grid arrive as the grid gives them."""
    from xlrally.core.league import compute_standings
    from xlrally.formats.cells import PLAIN
    from xlrally.formats.grid import standings_grid

    fake = FakeBook(memory_book("reverse"))
    grid = standings_grid(compute_standings(read_league(fake.memory)))
    assert refresh(XlwingsBook(fake)).standings is not None
    wanted = {
        f"{column_letter(c)}{r}": cell.look
        for r, row in enumerate(grid, start=1)
        for c, cell in enumerate(row)
        if cell.look != PLAIN
    }
    assert any(look.italic for look in wanted.values())
    assert any(look.bold for look in wanted.values())
    for address, look in wanted.items():
        got = fake.memory.looks[("Standings", address)]
        assert (got.bold, got.italic, got.grey, got.number_format) == (
            look.bold,
            look.italic,
            look.grey,
            look.number_format,
        ), address


def test_the_block_written_is_a_rectangle() -> None:
    """Excel takes one rectangular block per write: short rows (the notes under the table)
    are padded with blanks, and every text gets Excel's text apostrophe."""
    from xlrally.excel.live import excel_values
    from xlrally.formats.cells import Cell

    grid = [
        (Cell("Rank"), Cell("Player"), Cell("Total")),
        (Cell(1), Cell("Ann"), Cell(3.5)),
        (Cell("Note"),),
    ]
    assert excel_values(grid) == [
        ["'Rank", "'Player", "'Total"],
        [1, "'Ann", 3.5],
        ["'Note", None, None],
    ]


# ---------------------------------------------------------------- Excel refuses (Windows COM)


def refused_refresh(monkeypatch: pytest.MonkeyPatch, fake: FakeBook) -> str:
    """Press the button on a workbook whose Excel refuses: the message box's text, after
    checking that it is a critical message and that nothing in the workbook changed."""
    before = copy.deepcopy(fake.memory.sheets)
    looks = dict(fake.memory.looks)
    press_button(monkeypatch, fake)
    ((title, mode, prompt),) = fake.app.alerts
    assert (title, mode) == ("xlrally: problems", "critical")
    assert fake.memory.sheets == before
    assert fake.memory.looks == looks
    assert fake.widths == {}
    assert prompt.startswith("The standings were not updated:\n")
    return prompt.split("\n", 1)[1]


def test_a_protected_standings_sheet_is_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standings protected (Review ▸ Protect Sheet): asked before anything is changed, and
    said in xlrally's words, not in xlwings' traceback box."""
    book = memory_book("rally")
    book.sheets["Standings"] = [["old"]]
    fake = FakeBook(book)
    fake.protected.add("Standings")
    assert refused_refresh(monkeypatch, fake) == (
        "Standings: the sheet is protected: unprotect it (Review ▸ Unprotect Sheet), then "
        "refresh again"
    )


def test_excel_in_cell_edit_mode_is_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cell being edited: Excel refuses the first change, and the message says what to do."""
    fake = FakeBook(memory_book("rally"))
    fake.editing = True
    assert refused_refresh(monkeypatch, fake) == (
        "Excel refused the refresh: Excel is busy (is a cell being edited? press Enter or "
        "Esc), then refresh again"
    )


def test_a_sheet_deleted_during_the_refresh_is_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sheet listed, then gone when it is read (deleted meanwhile): a message, no traceback."""
    fake = FakeBook(memory_book("rally"))
    fake.deleted.add("Results")
    assert refused_refresh(monkeypatch, fake) == (
        "Excel refused the refresh: a sheet was deleted or renamed during the refresh: "
        "refresh again"
    )


def test_a_protected_sheet_refused_by_excel_itself_is_a_message() -> None:
    """Excel's own refusal of a change to a protected sheet (found only when writing, e.g.
    where ProtectContents cannot be asked) is worded as a protected sheet too."""
    from fake_xlwings import com_error

    from xlrally.excel.live import excel_refused

    error = com_error(
        -2147352567,
        "Exception occurred.",
        (
            0,
            "Microsoft Excel",
            "The cell or chart you're trying to change is on a protected sheet.",
            None,
            0,
            -2146827284,
        ),
        None,
    )
    refused = excel_refused(error)
    assert refused is not None
    assert str(refused) == (
        "Excel refused the refresh: a sheet is protected: unprotect it (Review ▸ Unprotect "
        "Sheet), then refresh again"
    )
    assert excel_refused(ValueError("not Excel's")) is None
