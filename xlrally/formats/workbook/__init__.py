"""The workbook format: find the sheets and columns, turn cells into a core League.

Works on any :class:`~xlrally.formats.workbook.tables.SheetSource` (a file read by
:mod:`xlrally.ooxml.reader`, the open workbook in Excel through xlwings, or plain lists in
tests), so every backend reads a league the same way. Sheet and column names match
case-insensitively, ignoring spaces and punctuation; the header row is found by its names;
extra sheets and columns are left alone. See docs/workbook-format.md.

One module per job: :mod:`~.vocabulary` (the columns and their spellings), :mod:`~.tables`
(sheets, header rows, cells, problems at cells), :mod:`~.settings` (the Settings sheet),
:mod:`~.points` (the Points and Prizes sheets), :mod:`~.events`, :mod:`~.results`,
:mod:`~.players` (their sheets), :mod:`~.notes` (what is not read but looks as if it should
be) and :mod:`~.league` (all of them in turn: :func:`read_league`). The names below are the
format's public API.
"""

from xlrally.formats.workbook.league import read_import_rules, read_league
from xlrally.formats.workbook.settings import SETTINGS_KEYS, read_settings, to_share
from xlrally.formats.workbook.tables import (
    CellOrigin,
    MemorySheets,
    SheetSource,
    Table,
    find_sheet,
    find_table,
)
from xlrally.formats.workbook.vocabulary import (
    COLUMNS,
    HEADER_SEARCH_ROWS,
    RESERVED_SHEETS,
    field_named,
    missing_column,
)

__all__ = [
    "COLUMNS",
    "HEADER_SEARCH_ROWS",
    "RESERVED_SHEETS",
    "SETTINGS_KEYS",
    "CellOrigin",
    "MemorySheets",
    "SheetSource",
    "Table",
    "field_named",
    "find_sheet",
    "find_table",
    "missing_column",
    "read_import_rules",
    "read_league",
    "read_settings",
    "to_share",
]
