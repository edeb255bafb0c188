"""What a sync records in the workbook it writes: the fingerprint of the Standings, which
tells a sheet changed by hand since from one as written."""

from __future__ import annotations

import datetime as dt

from xlrally.app.stamps import fingerprint


def test_a_fingerprint_sees_blank_rows_between_values_but_not_after_them() -> None:
    """A blank row between two tables (sections) is part of the sheet; blank rows after the
    last value are not (a reader cannot tell them from the rest of the sheet)."""
    two = fingerprint([["a"], ["b"]])
    one_gap = fingerprint([["a"], [], ["b"]])
    two_gaps = fingerprint([["a"], [None, ""], [], ["b"]])
    assert len({two, one_gap, two_gaps}) == 3
    assert fingerprint([[], ["a"]]) != fingerprint([["a"]])
    assert fingerprint([["a"], [], [None], [""]]) == fingerprint([["a"]])
    assert fingerprint([["a"], [], ["b"], []]) == one_gap


def test_a_fingerprint_tells_values_apart_by_what_a_reader_sees() -> None:
    """TRUE and FALSE are shown as texts, not as 1 and 0; a date as its text."""
    assert len({fingerprint([[True]]), fingerprint([[False]]), fingerprint([[1]])}) == 3
    assert fingerprint([[dt.date(2025, 1, 2)]]) != fingerprint([[dt.date(2025, 1, 3)]])
    assert fingerprint([[1]]).startswith("v3-")
    assert len(fingerprint([[1]])) == 32


def test_a_fingerprint_compares_numbers_at_the_digits_spreadsheet_programs_keep() -> None:
    """Issue 32: xlrally wrote 46.565879604193036, LibreOffice saves 15 significant digits
    (46.5658796041930), openpyxl 16 (46.56587960419304): the same number to every program,
    so the same fingerprint. A change in the 15th digit is a change."""
    written = fingerprint([["Ann", 46.565879604193036]])
    assert fingerprint([["Ann", 46.5658796041930]]) == written  # LibreOffice
    assert fingerprint([["Ann", 46.56587960419304]]) == written  # openpyxl
    assert fingerprint([["Ann", 46.5658796041931]]) != written
    assert fingerprint([[0.1 + 0.2]]) == fingerprint([[0.3]])
