"""The workbook format's old home, kept so that ``from xlrally.formats.layout import ...``
still works: everything is in :mod:`xlrally.formats.workbook` now (issue 31)."""

from xlrally.formats.workbook import (
    COLUMNS,
    HEADER_SEARCH_ROWS,
    RESERVED_SHEETS,
    SETTINGS_KEYS,
    CellOrigin,
    MemorySheets,
    SheetSource,
    Table,
    field_named,
    find_sheet,
    find_table,
    missing_column,
    read_import_rules,
    read_league,
    read_settings,
    to_share,
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
