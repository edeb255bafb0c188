"""A written sheet's values as any reader of the file sees them: each cell's text, and a digest
of a whole sheet's (the fingerprint of the Standings is made of it: :mod:`xlrally.app.stamps`).

A cell is seen as (:func:`cell_text`):

- nothing, when it is blank (None or the empty text);
- a number's text as the sheet holds it (:func:`kept_text`): whole numbers in full, others to
  the 15 significant digits spreadsheet programs keep, so that 3 and 3.0 are alike, and
  46.565879604193036 (as computed), 46.565879604193 (as LibreOffice saves it) and
  46.56587960419304 (as openpyxl saves it) are one number;
- ``'`` and the text of anything else (a text, a yes/no, a date), so that the text ``3`` is
  not the number 3.

The digest of a sheet (:class:`SheetDigest`) takes each row that has a value, in order: its
row number, the columns of its values, the length of each value's text, then the texts. A blank
cell or row is nothing, wherever it is: a sheet whose values are the same has the same digest
however its blanks were written or saved. The writer (:func:`~xlrally.ooxml.sheet_xml.sheet_xml`)
makes the digest of the values it writes from the very texts it writes; a sheet read back is
digested here (:func:`values_digest`), and the two are equal for the same values.

>>> written = values_digest([["Rank", "Player"], [1, "Bobby", None], []])
>>> written == values_digest([["Rank", "Player", ""], [1.0, "Bobby"]])
True
>>> written == values_digest([["Rank", "Player"], ["1", "Bobby"]])  # the text 1 is not 1
False
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from xlrally.formats.cells import SIGNIFICANT_DIGITS, Value


def kept_text(value: float | int) -> str:
    """A number as the sheet holds it: whole numbers in full, others to the 15 significant
    digits spreadsheet programs keep (:data:`~xlrally.formats.cells.SIGNIFICANT_DIGITS`), so
    that a file saved again by Excel, LibreOffice or openpyxl holds the very numbers written.
    The text reads back as itself: a number that its 15 digits make whole (999999999999999.5
    is 1e+15 to 15 digits) is written in full, as the whole number it is read back as.

    >>> kept_text(46.565879604193036), kept_text(3.0), kept_text(7), kept_text(-0.0)
    ('46.565879604193', '3', '7', '0')
    >>> kept_text(0.1 + 0.2), kept_text(1e20), kept_text(999999999999999.5), kept_text(True)
    ('0.3', '100000000000000000000', '1000000000000000', '1')
    """
    if type(value) is float and not value.is_integer():
        text = f"{value:.{SIGNIFICANT_DIGITS}g}"
        if "e+" not in text:
            return text
        value = float(text)  # whole: past 1e15 the 15 digits reach the units
    if type(value) is int:
        return str(value)
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(int(value))


def cell_text(value: Value) -> str | None:
    """What a reader sees in a cell holding ``value`` (see the module docstring); None for a
    blank cell.

    >>> cell_text(46.56587960419304), cell_text("46.565879604193"), cell_text(""), cell_text(True)
    ('46.565879604193', "'46.565879604193", None, "'True")
    """
    if value is None or value == "":
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return kept_text(value)
    return "'" + str(value)


class SheetDigest:
    """The digest of a sheet's values, fed a row at a time (see the module docstring)."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()

    def row(self, number: int, columns: list[int], texts: list[str]) -> None:
        """Take row ``number``: its non-blank cells' 0-based ``columns`` and their ``texts``
        (:func:`cell_text`), in column order. A row without values may be given or not."""
        if not columns:
            return
        head = f"{number} {columns} {list(map(len, texts))}\n"
        self._hash.update(head.encode())
        # surrogatepass: a lone surrogate a reader may hand over is hashed, never refused
        self._hash.update("".join(texts).encode("utf-8", "surrogatepass"))

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


def values_digest(rows: Iterable[Sequence[Value]]) -> str:
    """The digest (hexadecimal) of a sheet whose rows, from row 1, hold ``rows``' values."""
    digest = SheetDigest()
    for number, row in enumerate(rows, start=1):
        seen = [(at, text) for at, value in enumerate(row) if (text := cell_text(value))]
        digest.row(number, [at for at, _ in seen], [text for _, text in seen])
    return digest.hexdigest()
