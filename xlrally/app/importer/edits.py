"""The cells an import writes, written into the sheets' parts in memory: an existing sheet
edited in place (as a stream when it is big, :class:`~xlrally.ooxml.in_place.StreamedSheet`,
packed later; else parsed whole), its Excel tables grown over the new rows, or a new event
sheet; each sheet's record (:class:`WrittenSheet`) keeps the markup written, for reading
back."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field

from xlrally.app.importer.plan import SheetWrites
from xlrally.core.errors import XlrallyError
from xlrally.formats.cells import Look, Value
from xlrally.ooxml.in_place import (
    STREAMED_FROM,
    NeedsParse,
    SheetCells,
    StreamedEdit,
    StreamedSheet,
    Writes,
    extend_sheet,
    extend_table,
)
from xlrally.ooxml.package import NS_MAIN, Package
from xlrally.ooxml.writer import Edit, new_sheet
from xlrally.ooxml.xmlpart import XmlPart

DATE_LOOK = Look(number_format="yyyy-mm-dd")
XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


@dataclass
class WrittenSheet:
    """One sheet the import writes cells into."""

    name: str
    part: str
    cells: Writes
    """What it writes (row -> column -> value)."""
    lines: dict[int, int | None] = field(default_factory=dict)
    """The file's line behind each row written (None for a row emptied, or Events')."""
    markup: dict[int, dict[int, str]] = field(default_factory=dict)
    declared: str = ""
    new: bool = False
    read: dict[int, dict[int, Value]] = field(default_factory=dict)
    """What the reader reads in each cell written."""


def edit_sheet(
    edit: Edit,
    package: Package,
    writes: SheetWrites,
    date_style: Callable[[], int],
    read: Future[bytes] | None = None,
) -> tuple[WrittenSheet, StreamedEdit | None]:
    """Write a sheet's cells into the edit (as a stream, packed later, unless the stream cannot
    read it); its record. ``read``: its part's bytes, read beside the rest meanwhile."""
    ref = package.sheet(writes.name)
    if ref is None:
        raise XlrallyError(f"the workbook has no sheet {writes.name!r}")
    data = read.result() if read is not None else package.read(ref.part)
    record = WrittenSheet(writes.name, ref.part, writes.cells)
    new_last, widest = writes.new_last, writes.widest
    streamed = None
    if len(data) > STREAMED_FROM:
        try:
            sheet = StreamedSheet(ref.part, data, package.epoch)
            streamed = sheet.write(
                writes.cells, writes.like, date_style, writes.extent, new_last, widest
            )
            record.markup, record.declared = streamed.cells, sheet.wrap_head[3:-1].decode()
        except NeedsParse:
            streamed = None
    if streamed is None:
        cells = SheetCells(XmlPart(ref.part, data), package.epoch)
        written = cells.write(writes.cells, writes.like, date_style)
        edit.set(ref.part, extend_sheet(written, ref.part, writes.extent, new_last, widest))
        record.markup = cells.planner.cells
        record.declared = _declarations(cells.sheet_data.scope)
    for kind, table in package.relationships(ref.part).values():
        if kind.endswith("/table"):
            extended = extend_table(edit.data(table), table, writes.name, writes.extent, new_last)
            edit.set(table, extended)
    return record, streamed


def _declarations(scope: Mapping[str, str]) -> str:
    return " ".join(
        f'xmlns="{uri}"' if p == "" else f'xmlns:{p}="{uri}"'
        for p, uri in scope.items()
        if p != "xml"
    )


def new_event_sheet(
    edit: Edit, package: Package, name: str, cells: Writes, date_style: Callable[[], int]
) -> WrittenSheet:
    part = new_sheet(edit, package, name)
    empty = XmlPart(
        part, f'{XML_HEAD}<worksheet xmlns="{NS_MAIN}"><sheetData/></worksheet>'.encode()
    )
    sheet = SheetCells(empty, package.epoch)
    edit.set(part, sheet.write(cells, None, date_style))
    return WrittenSheet(
        name, part, cells, markup=sheet.planner.cells, declared=f'xmlns="{NS_MAIN}"', new=True
    )
