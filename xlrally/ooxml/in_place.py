"""Writing cells into a sheet the user owns (Events, Results) without disturbing anything else.

Unlike the Standings sheet, which xlrally writes whole, an input sheet is edited in place: each
row that gets a value is rewritten (its other cells kept byte for byte), a new row is put in
its place among the others, and every other byte of the part is kept. New cells take the style
of the cell above them in the same column (the table's last row before the import), so dates
stay dates and formats carry on; a new row takes that row's height and style.

Text is written as an inline string (``t="inlineStr"``): it is never read as a formula, number
or date, whatever it looks like (``=Bob``, ``007``, ``Dec 2025``), and ``sharedStrings.xml``
is left alone. Excel and LibreOffice move inline strings into the shared table when they save.

What covers the table's last row is extended over the new rows, so that the table keeps
working as before: an Excel table's range and its filter (:func:`extend_table`; a table with a
totals row is refused, since the new rows would write over it), data validation and
conditional formatting ranges (also those Excel keeps in ``x14`` extensions), the sheet's
filter and its ``<dimension>``. A range that ends elsewhere is left as it is.

Two ways to the same bytes. A small sheet is parsed whole (:class:`SheetCells`). A big one
(a Results sheet of 200,000 rows is 50 MB of XML) is edited as a stream (:class:`StreamedSheet`):
only the rows written, the row whose look new rows take, and what surrounds ``<sheetData>``
are parsed; the rows are found by their ``r`` numbers, from the end for new rows; the new part
is compressed piece by piece from the old bytes and the new text, never parsed or held whole
again. Each row found is parsed on its own to check that it is exactly one row; a sheet the
stream cannot read so (rows without ``r``, a comment among the rows) is parsed whole instead.
Both write byte for byte the same part (tests/ooxml/test_in_place.py checks it on real sheets).

One module per job: :mod:`~xlrally.ooxml.sheet_rows` (the rows and cells written, planned as
splices for both editors), :mod:`~xlrally.ooxml.sheet_ranges` (what covers the table carried
over the new rows), :mod:`~xlrally.ooxml.streamed_sheet` (the edit as a stream); this module
holds the whole parse and is their public API.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from xlrally.core.errors import WorkbookError
from xlrally.formats.cells import EXCEL_EPOCH
from xlrally.ooxml.package import NS_MAIN
from xlrally.ooxml.sheet_ranges import (
    Rows,
    extend_ranges,
    extend_sheet,
    extend_table,
    extension_splices,
)
from xlrally.ooxml.sheet_rows import (
    PlacedRow,
    Planner,
    Writes,
    Written,
    row_number,
    serial,
    sheet_data_of,
)
from xlrally.ooxml.streamed_sheet import NeedsParse, StreamedEdit, StreamedSheet
from xlrally.ooxml.xmlpart import Element, XmlPart, splice_all

__all__ = [
    "STREAMED_FROM",
    "NeedsParse",
    "Rows",
    "SheetCells",
    "StreamedEdit",
    "StreamedSheet",
    "Writes",
    "Written",
    "extend_ranges",
    "extend_sheet",
    "extend_table",
    "extension_splices",
    "serial",
]

STREAMED_FROM = 0
"""Parts larger than this are edited as a stream (every part: the whole parse is what a part the
stream cannot read falls back to)."""


class SheetCells:
    """The cells of one worksheet part, parsed whole, and the edits that write values into it."""

    def __init__(self, part: XmlPart, epoch: dt.date = EXCEL_EPOCH) -> None:
        self.part = part
        self.epoch = epoch
        data = part.first(NS_MAIN, "sheetData")
        if data is None:
            raise WorkbookError(f"{part.name}: the sheet has no cell data element")
        self.sheet_data = data
        self.prefix = data.prefix
        self.rows: dict[int, Element] = {}
        number = 0
        for row in data.named(NS_MAIN, "row"):
            number = row_number(row, number)
            self.rows[number] = row
        self.planner = Planner(
            self.prefix,
            {n: PlacedRow(r, part.data, 0) for n, r in self.rows.items()},
            sheet_data_of(data, part.data),
            epoch,
        )

    def styles_of(self, number: int) -> dict[int, str]:
        """The style index of each cell of a row."""
        return self.planner.styles_of(number)

    def write(self, writes: Writes, like: int | None, date_style: Callable[[], int]) -> bytes:
        """Write values (row number -> column -> value) and return the part's new bytes. Cells
        not there yet take the style of the same column in row ``like``; new rows take its
        height and style."""
        return splice_all(self.part.data, self.planner.splices(writes, like, date_style))
