"""Cells as spreadsheets hold them: values in, checked numbers, dates and yes/no out; and what
a cell written by xlrally looks like.

Shared by the workbook reader (:mod:`xlrally.formats.workbook`), the Excel functions and every
writer (file, open workbook, new workbook), so that each reads and shows a cell the same way.
Pure: no files, no Excel.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import NamedTuple

from xlrally.core.names import norm
from xlrally.formats.looks import GREY, PLAIN, Look

__all__ = [
    "DATE_1904",
    "ERROR_TEXTS",
    "EXCEL_EPOCH",
    "GREY",
    "MAX_CELL_TEXT",
    "MAX_HEADER",
    "PAGE_FOOTER",
    "PLAIN",
    "SIGNIFICANT_DIGITS",
    "TITLE_CODES",
    "Cell",
    "Look",
    "PrintSetup",
    "Row",
    "SheetRow",
    "SparseRow",
    "Value",
    "blank",
    "column_letter",
    "column_widths",
    "kept",
    "norm",
    "quote_sheet",
    "row_cells",
    "row_width",
    "short",
    "show_date",
    "text_of",
    "to_bool",
    "to_date",
    "to_number",
]

Value = object
"""A cell value as a backend gives it: str, int, float, bool, date/datetime, or None/'' blank."""


_TRUE = {"yes", "y", "true", "1", "x", "wc"}
_FALSE = {"no", "n", "false", "0", ""}
EXCEL_EPOCH = dt.date(1899, 12, 30)
"""Day 0 of Excel's serial dates (the 1900 date system, with Lotus's phantom 29 Feb 1900)."""
DATE_1904 = dt.date(1904, 1, 1)
"""Day 0 in a workbook using the 1904 date system (old Mac Excel; ``workbookPr date1904``)."""
ERROR_TEXTS = frozenset(
    (
        *("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA"),
        *("#SPILL!", "#CALC!", "#FIELD!", "#BLOCKED!", "#CONNECT!", "#BUSY!", "#UNKNOWN!"),
    )
)
"""Excel's error values as text, as xlwings hands them over with ``err_to_str=True`` (its
default turns them into None, which looks like a blank cell)."""
MAX_CELL_TEXT = 32_767
"""Excel holds at most this many characters in a cell."""
_CURRENCY = "£$€¥₹₩₺₽¢"
"""Currency symbols an amount typed as text may carry, before or after the number."""
_THOUSANDS = re.compile(r"[+-]?\d{1,3}(,\d{3})+(\.\d+)?")


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA.

    >>> column_letter(0), column_letter(27), column_letter(16383)
    ('A', 'AB', 'XFD')
    """
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def quote_sheet(name: str) -> str:
    """Quote a sheet name as Excel does in references when it has spaces or punctuation."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", name):
        return name
    return "'" + name.replace("'", "''") + "'"


def blank(value: Value) -> bool:
    """True for an empty cell (None, '' or only spaces)."""
    return value is None or (isinstance(value, str) and not value.strip())


def to_number(value: Value, what: str) -> float | int:
    """A number from a cell; numeric text such as ``"3"``, ``"1,250"`` or ``"£20.00"`` is
    accepted, other text is not. A currency cell read through Excel on Windows is a
    decimal.Decimal: a number too.

    >>> to_number("£20.00", "buy-in"), to_number("20 €", "buy-in"), to_number("$1,250", "total")
    (20, 20, 1250)
    """
    if isinstance(value, bool):
        raise ValueError(f"{what} must be a number, not {value}")
    if isinstance(value, Decimal) and value.is_finite():
        value = float(value)
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{what} must be a number, not {value}")
        return int(value) if isinstance(value, float) and value.is_integer() else value
    if isinstance(value, str):
        text = value.strip().strip(_CURRENCY).strip()  # £20.00, 20 €, $1,250
        if _THOUSANDS.fullmatch(text):
            text = text.replace(",", "")  # 1,000 (a decimal comma, 1,5, stays an error)
        try:
            number = float(text)
        except ValueError:
            raise ValueError(f"{what} must be a number, not the text {short(value)!r}") from None
        if math.isfinite(number):
            return int(number) if number.is_integer() else number
    raise ValueError(f"{what} must be a number, not {short(str(value))!r}")


def to_date(value: Value, what: str = "date", epoch: dt.date = EXCEL_EPOCH) -> dt.date:
    """A date from a date cell, an Excel serial number counted from ``epoch`` or ISO text
    (2025-12-06). In the 1900 date system the serials before 61 (1 March 1900) are one day
    further on: Excel counts a 29 February 1900 that never was (serial 60, refused)."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool) and 1 <= value < 2958466:
        if epoch == EXCEL_EPOCH and value < 61:
            if int(value) == 60:
                raise ValueError(f"{what}: serial 60 is Excel's 29 February 1900, not a date")
            return epoch + dt.timedelta(days=int(value) + 1)
        return epoch + dt.timedelta(days=int(value))
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip()[:10])
        except ValueError:
            pass
    raise ValueError(f"{what} must be a date (e.g. 2025-12-06), not {short(str(value))!r}")


def to_bool(value: Value, what: str) -> bool:
    """yes/no, TRUE/FALSE, 1/0, x or blank."""
    if isinstance(value, bool):
        return value
    text = "" if value is None else norm(value) if isinstance(value, str) else str(value)
    if text in _TRUE or text == "1.0":
        return True
    if text in _FALSE or text == "0.0":
        return False
    raise ValueError(f"{what} must be yes or no, not {short(str(value))!r}")


def short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def text_of(value: Value) -> str:
    if type(value) is str:
        return value.strip()
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()[:10]
    return str(value).strip()


class Cell(NamedTuple):
    """One cell: a value (text is always written as text, never as a formula) and its look."""

    value: str | float | int | None
    look: Look = PLAIN


Row = tuple[Cell, ...]

BLANK = Cell(None)


class SparseRow(NamedTuple):
    """A row of cells given sparsely: its first cells (``head``), then numbers at some of the
    columns up to ``tail_at``, in order (each with its look; the cells between them blank),
    then its last cells (``tail``) from column ``tail_at``. A standings table's row is one: a
    player's own cells, a score in each event played among the season's columns, the working.
    The file writer writes it as it is (:func:`~xlrally.ooxml.sheet_xml.sheet_xml`), without a
    cell object per score; :func:`row_cells` gives it cell by cell for every other writer.

    >>> row = SparseRow((Cell("Ann"),), [2], [79], [PLAIN], 3, (Cell("100 × 3 / 4 + 4 = 79"),))
    >>> [cell.value for cell in row_cells(row)], row_width(row)
    (['Ann', None, 79, '100 × 3 / 4 + 4 = 79'], 4)
    """

    head: Row
    columns: list[int]
    values: list[float]
    looks: list[Look]
    tail_at: int
    tail: Row


SheetRow = Row | SparseRow
"""A row of a sheet to write: cell by cell, or sparsely."""


def row_cells(row: SheetRow) -> Row:
    """The row cell by cell (a :class:`SparseRow`'s blanks filled in)."""
    if not isinstance(row, SparseRow):
        return row
    cells = [*row.head, *[BLANK] * (row.tail_at - len(row.head))]
    for column, value, look in zip(row.columns, row.values, row.looks, strict=True):
        cells[column] = Cell(value, look)
    return (*cells, *row.tail)


def row_width(row: SheetRow) -> int:
    """The number of cells of a row, its blanks counted."""
    return row.tail_at + len(row.tail) if isinstance(row, SparseRow) else len(row)


def column_widths(grid: Sequence[SheetRow]) -> list[float]:
    """Each column's width in characters, the same in every writer (file, Excel, template):
    the longest value *as shown* among the table's first 500 rows (the note lines below the
    table do not count), plus 2, at least 8 and at most 60."""
    columns = max(map(row_width, grid), default=0)
    table = [row_cells(r) for r in grid[:500] if row_width(r) == columns]
    if not table:
        return [8.0] * columns
    return [float(min(max(_longest(column), 6) + 2, 60)) for column in zip(*table, strict=True)]


def _longest(cells: Iterable[Cell]) -> int:
    """The greatest :func:`shown_length` among the cells holding a value (0 when none).

    The numbers of one format are measured by their least and greatest only: rounded to a
    fixed number of decimals, a number's text grows with its size, a negative one's with its
    size below 0 (``-0.00`` included), so one of those two is the longest. A big league's
    table has 500 rows of a hundred scores: measuring two per column and format, not each,
    takes this from 0.05 s to 0.01 s (issue 33). Infinities and NaN are measured one by one.
    """
    longest = 0
    numbers: dict[str, list[float]] = {}
    for cell in cells:
        value, number_format = cell.value, cell.look.number_format
        if value is None:
            continue
        if number_format and (type(value) is float or type(value) is int):
            numbers.setdefault(number_format, []).append(value)
        else:
            longest = max(longest, shown_length(cell))
    for number_format, values in numbers.items():
        look = Look(number_format=number_format)
        measured = (min(values), max(values)) if all(map(math.isfinite, values)) else values
        longest = max(longest, *(shown_length(Cell(v, look)) for v in measured))
    return longest


def shown_length(cell: Cell) -> int:
    """How many characters a cell shows: a number as its format shows it (``0.00``: two
    decimals; ``(0)``: brackets; ``0"="``: a shared rank's ``=``), not its full precision.

    >>> shown_length(Cell(26.59528955418021, Look(number_format="0.00")))
    5
    >>> shown_length(Cell(21, Look(number_format="(0)"))), shown_length(Cell("Bobby"))
    (4, 5)
    """
    value, number_format = cell.value, cell.look.number_format
    if isinstance(value, bool) or not isinstance(value, int | float) or not number_format:
        return len(str(value))
    decimals, extra = _format_extent(number_format)
    return len(f"{value:.{decimals}f}") + extra


@functools.cache
def _format_extent(number_format: str) -> tuple[int, int]:
    """The decimals a number format shows and the characters it adds (brackets, quoted text:
    a shared rank's ``=``, ``" (needs 2 more)"``); the formats are the few xlrally writes, so
    each is parsed once.

    >>> _format_extent('0" (needs 2 more)"'), _format_extent("(0.00)"), _format_extent('0"="')
    ((0, 15), (2, 2), (0, 1))
    """
    first = number_format.split(";", 1)[0]
    quoted = re.findall(r'"([^"]*)"', first)
    bare = re.sub(r'"[^"]*"', "", first)
    decimals = len(bare.split(".", 1)[1].split(")")[0]) if "." in bare else 0
    return decimals, sum(map(len, quoted)) + bare.count("(") + bare.count(")")


MAX_HEADER = 255
"""Excel's limit on a page header or footer: 255 characters, its codes included (a longer
one is refused when the file opens)."""
TITLE_CODES = '&C&"-,Bold"&14'
"""How the title is printed at the top of each page: centred (``&C``), bold in the sheet's
font (``&"-,Bold"``), 14 point (``&14``)."""
PAGE_FOOTER = "&CPage &P of &N"
"""Page numbers, centred at the foot of each page."""
_NOT_PRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
"""Control characters (a vertical tab from Word's Shift+Enter, stored as ``_x000B_``), lone
surrogates and the two non-characters: XML 1.0 cannot hold most of them at all."""


class PrintSetup(NamedTuple):
    """How a written Standings sheet prints unless its user set their own: landscape, one page
    wide, the header row on every page, ``title`` at the top, page numbers at the foot, and
    only the first ``columns`` columns (the table without the long Working column, whose text
    is in the JSON and on the published page)."""

    title: str
    columns: int

    @property
    def header(self) -> str:
        """The page header's codes and text (:data:`TITLE_CODES`, then the title): an ``&``
        doubled (a single one starts a code), control characters as spaces, a space before a
        title that starts with a digit (``&142026`` would be a font size), and cut with an
        ellipsis to fit Excel's 255 characters (:data:`MAX_HEADER`).

        >>> PrintSetup("Club & Co\x0bRapidplay", 6).header
        '&C&"-,Bold"&14Club && Co Rapidplay'
        >>> PrintSetup("2026 League", 6).header, len(PrintSetup("x" * 300, 6).header)
        ('&C&"-,Bold"&14 2026 League', 255)
        """
        title = " ".join(_NOT_PRINTABLE.sub(" ", self.title).split())
        room = MAX_HEADER - len(TITLE_CODES) - title[:1].isdigit()
        text = title.replace("&", "&&")
        if len(text) > room:
            kept_chars, used = [], 1  # the ellipsis
            for char in title:
                used += 2 if char == "&" else 1
                if used > room:
                    break
                kept_chars.append(char)
            text = "".join(kept_chars).rstrip().replace("&", "&&") + "…"
        return TITLE_CODES + (" " if title[:1].isdigit() else "") + text


SIGNIFICANT_DIGITS = 15
"""The significant digits of a number that spreadsheet programs keep: Excel shows 15,
LibreOffice saves 15 (``46.565879604193``), openpyxl saves 16. xlrally writes the numbers of
the Standings sheet with 15 and compares them so, so that a file saved again by any of them
holds the same numbers (issue 32)."""


def kept(value: float) -> float:
    """A number as spreadsheet programs keep it: rounded to 15 significant digits.

    >>> kept(46.565879604193036), kept(0.1 + 0.2), kept(float("46.56587960419304"))
    (46.565879604193, 0.3, 46.565879604193)
    """
    return float(f"{value:.{SIGNIFICANT_DIGITS}g}")


def show_date(day: dt.date, pattern: str = "yyyy-mm-dd") -> str:
    """A date as the league's ``Date format`` shows it (a time, if any, is left out).

    >>> [show_date(dt.date(2026, 3, 7), p) for p in ("dd/mm/yyyy", "d mmm yyyy", "mm/dd/yyyy")]
    ['07/03/2026', '7 Mar 2026', '03/07/2026']
    """
    day = day.date() if isinstance(day, dt.datetime) else day
    if pattern == "d mmm yyyy":
        return f"{day.day} {day:%b %Y}"
    codes = {"yyyy": "%Y", "mm": "%m", "dd": "%d"}
    separator = next((c for c in "/.-" if c in pattern), "-")
    return day.strftime(separator.join(codes[part] for part in pattern.split(separator)))
