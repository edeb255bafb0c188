"""A big worksheet part edited as a stream (a Results sheet of 200,000 rows is 50 MB of XML):
only the rows written, the row whose look new rows take, and what surrounds ``<sheetData>`` are
parsed; the rows are found by their ``r`` numbers, from the end for new rows; the new part is
compressed piece by piece from the old bytes and the new text, never parsed or held whole
again. Each row found is parsed on its own to check that it is exactly one row; a sheet the
stream cannot read so (rows without ``r``, a comment among the rows) raises :class:`NeedsParse`,
and is parsed whole instead (:class:`~xlrally.ooxml.in_place.SheetCells`)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from xlrally.core.errors import WorkbookError
from xlrally.formats.cells import EXCEL_EPOCH
from xlrally.ooxml.package import NS_MAIN
from xlrally.ooxml.rawzip import Packed, pack
from xlrally.ooxml.sheet_ranges import Rows, extension_splices
from xlrally.ooxml.sheet_rows import PlacedRow, Planner, SheetDataAt, Writes
from xlrally.ooxml.xmlpart import Splice, XmlPart, check_namespaces, splice_all


class NeedsParse(Exception):
    """The sheet cannot be edited as a stream (no ``r`` on a row, a comment among the rows, an
    unusual layout): parse it whole instead."""


_SHEET_DATA = re.compile(rb"<((?:[A-Za-z_][\w.\-]*:)?)sheetData(?=[\s/>])")
_R = re.compile(rb"""\sr\s*=\s*(["'])(\d+)\1""")
_TAG_END = frozenset(b" \t\r\n>/")


def _unusual(data: bytes, start: int, end: int) -> bool:
    """Whether a comment, a CDATA section or a processing instruction is among the rows (no
    spreadsheet program writes them there; a row could hide in one from the search). Found by
    their rare second character, not by the ``<`` that starts every tag."""
    for mark in (b"!", b"?"):
        at = data.find(mark, start, end)
        while at >= 0:
            if data[at - 1 : at] == b"<":
                return True
            at = data.find(mark, at + 1, end)
    return False


class StreamedSheet:
    """A worksheet part edited as a stream (see the module docstring): built from the part's
    bytes, it locates the rows a write needs without parsing the others."""

    def __init__(self, name: str, data: bytes, epoch: dt.date = EXCEL_EPOCH) -> None:
        self.name = name
        self.data = data
        self.epoch = epoch
        found = _SHEET_DATA.search(data)
        if found is None:
            raise NeedsParse(name)
        prefix = found.group(1)
        open_end = data.find(b">", found.end())
        if open_end < 0 or data[open_end - 1 : open_end] == b"/":
            raise NeedsParse(name)  # <sheetData/>: an empty sheet, small
        self.body_start = open_end + 1
        close = b"</" + prefix + b"sheetData>"
        self.body_end = data.rfind(close)
        if self.body_end < self.body_start:
            raise NeedsParse(name)
        if _unusual(data, self.body_start, self.body_end):
            raise NeedsParse(name)
        self.skeleton = XmlPart(name, data[: self.body_start] + data[self.body_end :])
        element = self.skeleton.first(NS_MAIN, "sheetData")
        if (
            element is None
            or element.start != found.start()
            or element.self_closing
            or element.close_start != self.body_start
        ):
            raise NeedsParse(name)
        self.element = element
        self.prefix = element.prefix
        self.row_tag = b"<" + prefix + b"row"
        self.row_close = b"</" + prefix + b"row>"
        declared = " ".join(
            f'xmlns="{uri}"' if p == "" else f'xmlns:{p}="{uri}"'
            for p, uri in element.scope.items()
            if p != "xml"
        )
        self.wrap_head = f"<w {declared}>".encode()
        self.rows: dict[int, PlacedRow] = {}

    def _row_at(self, start: int) -> tuple[int, PlacedRow]:
        """The row element starting at ``start``: its number and itself, parsed on its own."""
        data = self.data
        tag_end = data.find(b">", start)
        if tag_end < 0:
            raise NeedsParse(self.name)
        tag = data[start : tag_end + 1]
        number = _R.search(tag)
        if number is None:
            raise NeedsParse(self.name)  # rows numbered by position: count them all
        if tag.endswith(b"/>"):
            end = tag_end + 1
        else:
            close = data.find(self.row_close, tag_end, self.body_end)
            if close < 0:
                raise NeedsParse(self.name)
            end = close + len(self.row_close)
        wrapped = self.wrap_head + data[start:end] + b"</w>"
        try:
            part = XmlPart(self.name, wrapped)
        except WorkbookError:
            raise NeedsParse(self.name) from None
        children = part.root.children
        if (
            len(children) != 1
            or children[0].local != "row"
            or children[0].uri != NS_MAIN
            or children[0].end != len(wrapped) - 4
        ):
            raise NeedsParse(self.name)
        return int(number.group(2)), PlacedRow(children[0], wrapped, start - len(self.wrap_head))

    def locate(self, wanted: set[int], last: int) -> None:
        """Find every row after row ``last`` (from the end, where new rows go among them) and
        the rows ``wanted`` at or before it (each by its number, searching forward)."""
        data = self.data
        position = self.body_end
        while True:
            start = data.rfind(self.row_tag, self.body_start, position)
            if start < 0:
                break
            if data[start + len(self.row_tag)] not in _TAG_END:
                position = start
                continue
            number, row = self._row_at(start)
            self.rows[number] = row
            if number <= last:
                break
            position = start
        position = self.body_start
        for number in sorted(n for n in wanted if n <= last and n not in self.rows):
            pattern = re.compile(
                re.escape(self.row_tag)
                + rb"""(?=[\s/>])[^>]*?\sr\s*=\s*(["'])"""
                + str(number).encode()
                + rb"\1"
            )
            found = pattern.search(data, position, self.body_end)
            if found is None:
                raise NeedsParse(self.name)
            found_number, row = self._row_at(found.start())
            if found_number != number:
                raise NeedsParse(self.name)
            self.rows[number] = row
            position = row.end

    def write(
        self,
        writes: Writes,
        like: int | None,
        date_style: Callable[[], int],
        extent: Rows,
        new_last: int,
        widest: int,
    ) -> StreamedEdit:
        """Plan the write of ``writes`` and the ranges carried over the new rows (as
        :meth:`SheetCells.write` then :func:`extend_sheet`), checked: the sheet around the rows
        and every row written must be namespace-well-formed XML."""
        wanted = set(writes) | ({like} if like is not None else set())
        self.locate(wanted, extent.last)
        sheet_data = SheetDataAt(self.element.qname, -1, -1, self.body_end, False, "")
        planner = Planner(self.prefix, self.rows, sheet_data, self.epoch)
        splices = planner.splices(writes, like, date_style)
        for _, _, text in splices:
            check_namespaces(self.name, self.wrap_head + text.encode() + b"</w>")
        removed = self.body_end - self.body_start
        around = extension_splices(self.skeleton, extent, new_last, widest)
        check_namespaces(self.name, splice_all(self.skeleton.data, around))
        for start, end, text in around:
            moved = removed if start >= self.body_start else 0
            splices.append((start + moved, end + moved, text))
        return StreamedEdit(self.data, sorted(splices), planner.cells)


@dataclass(frozen=True)
class StreamedEdit:
    """A streamed sheet's new contents as the old bytes and the splices into them."""

    data: bytes
    splices: list[Splice]
    cells: dict[int, dict[int, str]]
    """The markup of each cell written, by row and column."""

    @property
    def size(self) -> int:
        return len(self.data) + sum(len(t.encode()) - (e - s) for s, e, t in self.splices)

    def pieces(self) -> Iterator[bytes | memoryview]:
        view = memoryview(self.data)
        done = 0
        for start, end, text in self.splices:
            yield view[done:start]
            yield text.encode()
            done = end
        yield view[done:]

    def pack(self) -> Packed:
        """The new part compressed as the zip writer compresses a part (the same bytes)."""
        return pack(self.pieces(), self.size)

    def joined(self) -> bytes:
        """The new part whole (for tests)."""
        return b"".join(self.pieces())
