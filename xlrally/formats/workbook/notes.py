"""Warnings about what is in the workbook but not read, and looks as if it should be: a
sheet of results named after no event, an old copy of the standings, a misspelt setting.
"""

from __future__ import annotations

import difflib

from xlrally.core.systems import SYSTEMS
from xlrally.formats.cells import norm, quote_sheet, short
from xlrally.formats.workbook.settings import SETTINGS_KEYS
from xlrally.formats.workbook.tables import Book
from xlrally.formats.workbook.vocabulary import COLUMNS, RESERVED_SHEETS, has_columns


def stray_sheets(book: Book, system: str, events: list[str]) -> list[str]:
    """Warnings about sheets that are not read but look as if they should be: results under a
    name that is no event's (``Jul 2026 results``), and standings under another name than
    Standings (an old copy, which sync never updates). Only sheets whose names suggest it are
    opened."""
    fields = SYSTEMS[system].result_fields[:2]
    taken = {norm(e) for e in events} | RESERVED_SHEETS
    notes = []
    for sheet in book.source.sheet_names():
        key = norm(sheet)
        if key in taken:
            continue
        close = difflib.get_close_matches(sheet, events, 1, 0.6)
        if close or "result" in key:
            if has_columns(book.rows(sheet), fields):
                where = f"rename it {close[0]!r}" if close else "name it after its event"
                columns = " and ".join(COLUMNS[f][0] for f in fields)
                notes.append(
                    f"sheet {sheet!r} looks like results ({columns} columns) but is named after "
                    f"no event, so it is not read: {where}, or add the event to the Events sheet"
                )
        elif "standing" in key and has_columns(book.rows(sheet), ("rank", "player")):
            notes.append(
                f"sheet {sheet!r} looks like standings written earlier; sync writes only "
                "'Standings' and never updates this one: delete it if it is stale"
            )
    return notes


def unknown_settings(book: Book) -> list[str]:
    """Warnings for Settings rows that look like a misspelt setting (``Tie-breaks`` for
    ``Tie break``): such a row is not read, and the league silently scored without it would
    look right. Rows like no setting (a heading, the user's notes) are left alone."""
    sheet = book.need("Settings")
    notes = []
    for number, row in enumerate(book.rows(sheet), start=1):
        if not row or not isinstance(row[0], str) or norm(row[0]) in SETTINGS_KEYS:
            continue
        close = difflib.get_close_matches(norm(row[0]), SETTINGS_KEYS, 1, 0.75)
        if close:
            notes.append(
                f"{quote_sheet(sheet)}!A{number}: {short(row[0])!r} is not a setting, so it "
                f"is not read: did you mean {SETTINGS_KEYS[close[0]]!r}?"
            )
    return notes
