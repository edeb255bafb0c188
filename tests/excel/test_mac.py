"""The Refresh on a Mac, through xlwings' own macOS engine (``xlwings/_xlmac.py``) with
appscript stubbed (tests/fake_appscript.py): the engine's reading, value cleaning and sheet
handling run as they do in Excel for Mac."""

from __future__ import annotations

import copy

import pytest
from fake_appscript import MacError, MacExcel, mac_book
from fake_xlwings import FakeBook
from helpers import memory_book, plain

from xlrally.excel.live import XlwingsBook, alert, refresh


def test_an_error_cell_is_named_on_a_mac_not_a_type_error() -> None:
    """A Results cell holding #N/A: the refresh reads the sheet as the macOS engine can (no
    TypeError), names the cell, and changes nothing."""
    book = memory_book("rally")
    book.sheets["Results"][1][2] = MacError("#N/A")
    before = copy.deepcopy(book.sheets)
    excel = MacExcel(book)
    with mac_book(excel) as mac:
        workbook = XlwingsBook(mac)
        assert workbook.engine == "mac"
        outcome = refresh(workbook)
    assert outcome.problems == (
        "Results!C2: the cell holds the error #N/A: correct the formula behind it (or wrap it "
        "in IFERROR)",
    )
    assert book.sheets == before
    assert excel.fonts == {}
    assert excel.number_formats == {}


def test_the_mac_engine_reads_no_errors_as_text_from_a_range() -> None:
    """The engine's own limit, which the refresh works around: ``err_to_str`` on a range of
    more than one cell fails in ``_xlmac.Range.raw_value`` (even on one row); one cell
    works. (This is what the Refresh did before, and the Mac button crashed.)"""
    book = memory_book("rally")
    book.sheets["Results"][1][2] = MacError("#N/A")
    with mac_book(MacExcel(book)) as mac:
        sheet = mac.sheets["Results"]
        with pytest.raises(TypeError, match="'NoneType' object is not iterable"):
            _ = sheet.range((1, 1), (1, 3)).options(ndim=2, err_to_str=True).value
        assert sheet.range((2, 3)).options(err_to_str=True).value == "#N/A"
        assert sheet.range((2, 3)).value is None  # without err_to_str: read as a blank


def test_the_refresh_writes_on_a_mac_what_it_writes_elsewhere() -> None:
    """The Standings written through the macOS engine are those of the in-memory refresh
    (itself checked against `xlrally sync`), formatted and aligned as through COM, sized in
    characters, and the message comes in a Mac alert."""
    excel = MacExcel(memory_book("neau"))
    with mac_book(excel) as mac:
        outcome = refresh(XlwingsBook(mac))
        alert(mac, outcome)
    direct = memory_book("neau")
    refresh(direct)
    assert plain(excel.memory.sheets["Standings"]) == plain(direct.sheets["Standings"])
    assert list(excel.memory.sheets)[-1] == "Standings"
    assert excel.fonts[("Standings", "A1")]["bold"] is True
    windows = FakeBook(memory_book("neau"))  # COM takes characters too: the file's widths
    refresh(XlwingsBook(windows))
    assert excel.widths == windows.widths
    aligned = {a: kw.removeprefix("horizontal_align_") for (_, a), kw in excel.alignments.items()}
    assert aligned
    assert aligned == {a: look.align for (_, a), look in windows.memory.looks.items() if look.align}
    ((title, message, mode),) = excel.alerts
    assert (title, mode) == ("xlrally", "informational")
    assert message.startswith("Standings updated: ")
    assert excel.settings == {"screen_updating": True, "enable_events": True}
