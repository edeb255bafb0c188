"""Pure translation between the core and cells or text; no files, no Excel, no zip.

:mod:`~xlrally.formats.cells` (cell values to numbers, dates, yes/no; the look of a cell, shared
with the Excel functions), :mod:`~xlrally.formats.workbook` (the workbook format: sheets and
columns to a core League, over any sheet source; one module per job),
:mod:`~xlrally.formats.view` (one view of a standings row for every output),
:mod:`~xlrally.formats.grid` (the Standings sheet as cells), :mod:`~xlrally.formats.report`
(JSON, CSV, text) and :mod:`~xlrally.formats.page` (HTML).

May import: the standard library, ``xlrally.core`` and ``xlrally.formats``.
"""
