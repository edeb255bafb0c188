"""The rows of a sheet xlrally writes whole (:func:`~xlrally.ooxml.sheet_xml.sheet_xml`): each
row's ``<row>`` XML, and its values given to the sheet's digest
(:class:`~xlrally.ooxml.sheet_values.SheetDigest`) as the very texts written.

A row comes cell by cell, or sparsely (:class:`~xlrally.formats.cells.SparseRow`: a standings
table's row, a score per event played among the season's columns): its numbers are then
formatted and written together, a few C-level calls for the whole row, not a loop over its
cells.
"""

from __future__ import annotations

from collections.abc import Sequence

from xlrally.core.errors import WorkbookError
from xlrally.formats.cells import (
    MAX_CELL_TEXT,
    PLAIN,
    SIGNIFICANT_DIGITS,
    Look,
    Row,
    SheetRow,
    SparseRow,
)
from xlrally.ooxml.escapes import xml_text
from xlrally.ooxml.sheet_values import SheetDigest, kept_text
from xlrally.ooxml.styles import Styles

PLAIN_FLOATS = 999_999_999_999_999.5
"""Below this, whole or not, a number's 15 significant digits (:data:`DIGITS`) are its
:func:`~xlrally.ooxml.sheet_values.kept_text` (but for -0.0, whose text is 0)."""

DIGITS = f"%.{SIGNIFICANT_DIGITS}g"
"""A number to the significant digits kept (``%.15g``): the format of every plain number."""


class RowWriter:
    """Writes a sheet's rows one after another (:meth:`row`), each cell's style found once per
    look in the sheet's styles."""

    def __init__(self, styles: Styles, letters: list[str]) -> None:
        self.styles = styles
        self.letters = letters
        self.style_attr: dict[int, str] = {}  # by id(): looks are few shared objects

    def row(self, number: int, row: SheetRow, digest: SheetDigest) -> bytes:
        """Row ``number``'s ``<row>`` as bytes; its values go to ``digest``."""
        n = str(number)
        if not isinstance(row, SparseRow):
            xml, columns, texts = self._cells(row, 0, n)
            digest.row(number, columns, texts)
            return f'<row r="{n}">{xml}</row>'.encode()
        head, head_columns, head_texts = self._cells(row.head, 0, n)
        numbers = number_texts(row.values)
        letters = map(self.letters.__getitem__, row.columns)
        cells = zip(letters, self._styles(row.looks), numbers, strict=True)
        middle = "".join([f'<c r="{c}{n}"{s}><v>{t}</v></c>' for c, s, t in cells])
        tail, tail_columns, tail_texts = self._cells(row.tail, row.tail_at, n)
        digest.row(
            number, [*head_columns, *row.columns, *tail_columns], head_texts + numbers + tail_texts
        )
        return f'<row r="{n}">{head}{middle}{tail}</row>'.encode()

    def _style(self, look: Look) -> str:
        """A look's ``s`` attribute (none for the default format)."""
        found = self.style_attr.get(id(look))
        if found is None:
            style = self.styles.xf(look)
            found = self.style_attr[id(look)] = f' s="{style}"' if style else ""
        return found

    def _styles(self, looks: Sequence[Look]) -> list[str]:
        """Each look's ``s`` attribute, at C speed once each look is known."""
        ids = list(map(id, looks))
        if not self.style_attr.keys() >= set(ids):
            for look in {id(look): look for look in looks}.values():
                self._style(look)
        return list(map(self.style_attr.__getitem__, ids))

    def _cells(self, cells: Row, first: int, n: str) -> tuple[str, list[int], list[str]]:
        """The XML of cells from column ``first`` of row ``n``, and the columns and texts of
        those with values; on purpose one loop with its lookups bound once: a sheet written
        cell by cell runs it once per cell."""
        out: list[str] = []
        append = out.append
        columns: list[int] = []
        texts: list[str] = []
        letters = self.letters
        at = first - 1
        last, s = None, ""  # a run of cells of one look finds its attribute once
        for value, look in cells:
            at += 1
            if look is not last:
                last, s = look, self._style(look)
            if type(value) is float and -PLAIN_FLOATS < value < PLAIN_FLOATS:
                text = DIGITS % (value + 0.0)  # kept_text's here (+ 0.0: -0.0 is 0)
            elif value is None:
                if s and look != PLAIN:
                    append(f'<c r="{letters[at]}{n}"{s}/>')
                continue
            elif type(value) is int:
                text = str(value)
            elif isinstance(value, str):
                if len(value) > MAX_CELL_TEXT:
                    raise WorkbookError(
                        f"{letters[at]}{n} of the Standings sheet would hold {len(value):,} "
                        f"characters; Excel holds at most {MAX_CELL_TEXT:,} in a cell"
                    )
                append(
                    f'<c r="{letters[at]}{n}"{s} t="inlineStr"><is><t xml:space="preserve">'
                    f"{xml_text(value)}</t></is></c>"
                )
                if value:
                    columns.append(at)
                    texts.append(f"'{value}")
                continue
            else:
                text = kept_text(value)  # a number beyond 1e15, or a yes/no written as 1/0
            append(f'<c r="{letters[at]}{n}"{s}><v>{text}</v></c>')
            columns.append(at)
            texts.append(text)
        return "".join(out), columns, texts


def number_texts(values: Sequence[float]) -> list[str]:
    """Each number's :func:`~xlrally.ooxml.sheet_values.kept_text`: within
    :data:`PLAIN_FLOATS` and with no -0.0 among them, all formatted by one ``%`` (a row of a
    hundred scores at once).

    >>> number_texts([46.565879604193036, 3.0, 7, 0.1 + 0.2]), number_texts([-0.0, 1e20])
    (['46.565879604193', '3', '7', '0.3'], ['0', '100000000000000000000'])
    """
    if values and min(values) > -PLAIN_FLOATS and max(values) < PLAIN_FLOATS:
        joined = (f"{DIGITS}\0" * len(values)) % tuple(values)
        if not joined.startswith("-0\0") and "\0-0\0" not in joined:
            return joined.split("\0")[:-1]
    return [kept_text(value) for value in values]
