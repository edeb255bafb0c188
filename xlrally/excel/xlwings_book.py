"""The xlwings backend of the refresh: an open workbook in Excel, read and written through
xlwings' three engines (Windows' COM, macOS' AppleScript, the remote engine of xlwings Lite),
whole ranges at once, each engine as it takes them; Excel's own refusals in xlrally's words.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from xlrally.core.errors import XlrallyError
from xlrally.excel.blocks import excel_values, looks_by_range
from xlrally.formats.cells import (
    DATE_1904,
    ERROR_TEXTS,
    EXCEL_EPOCH,
    Row,
    Value,
    column_letter,
    column_widths,
    norm,
)
from xlrally.formats.grid import SHEET_NAME
from xlrally.formats.looks import xlwings_properties


def _uses_1904(book: Any) -> bool:
    """Excel's ``Workbook.Date1904`` through COM on Windows; False where it cannot be read
    (other backends; there, dates typed as plain numbers count from 1899-12-30)."""
    try:
        return bool(book.api.Date1904)
    except Exception:  # no api, or a backend without the property
        return False


def engine_of(book: Any) -> str:
    """Which xlwings engine drives ``book``: ``remote`` (xlwings Lite and xlwings Server:
    ``xlwings/pro/_xlremote.py``), ``mac`` (``xlwings/_xlmac.py``, AppleScript) or
    ``windows`` (``xlwings/_xlwindows.py``, COM; also the test double of it, which has no
    engine object). Told by the module of the engine's own Book class (``book.impl``)."""
    module = type(getattr(book, "impl", None)).__module__
    if module.endswith(("_xlremote", "_xlofficejs")):
        return "remote"
    if module.endswith("_xlmac"):
        return "mac"
    return "windows"


def points(width: float) -> float:
    """A column width in characters (what the file writer and Excel's COM and AppleScript
    ``ColumnWidth`` take) as points (what xlwings' remote engine, so xlwings Lite, hands to
    Office.js: ``_xlremote.py`` 0.37.8 lines 2262-2273; Office.js ``RangeFormat.columnWidth``
    is in points). ECMA-376 Part 1 §18.3.1.13 (``col/@width``): pixels =
    ⌊(256 × width + ⌊128 / 7⌋) / 256 × 7⌋ for Calibri 11 (a digit is 7 pixels wide), and a
    pixel is 3/4 of a point at 96 dpi.

    >>> points(9.140625), points(10)  # Excel's default column (64 pixels); 10 characters
    (48.0, 52.5)
    """
    pixels = int((256 * width + 128 // 7) / 256 * 7)
    return pixels * 0.75


_COM_ADVICE = {
    -2147418111: "Excel is busy (is a cell being edited? press Enter or Esc), then refresh again",
    -2146777998: "Excel is busy (is a cell being edited? press Enter or Esc), then refresh again",
    -2147352565: "a sheet was deleted or renamed during the refresh: refresh again",
    -2147417848: "a sheet was deleted or renamed during the refresh: refresh again",
}
"""What to do about the COM errors Excel raises through pywin32 (``com_error``): its
HRESULT (``args[0]``) or the exception's own code (``args[2][5]``). RPC_E_CALL_REJECTED
(0x80010001) and 0x800AC472 are Excel in cell-edit mode, which xlwings retries on some calls
and raises from others (``_xlwindows.py`` 0.37.8 lines 128-262); DISP_E_BADINDEX
(0x8002000B) and RPC_E_DISCONNECTED (0x80010108) a sheet that is gone (winerror.h)."""


def excel_refused(error: BaseException) -> XlrallyError | None:
    """An xlrally error for an error Excel raised (pywin32's ``com_error``, whose arguments
    are ``(hresult, text, excepinfo, argerr)``, excepinfo ``(wcode, source, text, help file,
    help id, scode)``: ``_xlwindows.py`` 0.37.8 lines 176-187); None for any other error."""
    if type(error).__name__ != "com_error" or len(error.args) != 4:
        return None
    hresult, text, excepinfo, _ = error.args
    scode = excepinfo[5] if excepinfo and len(excepinfo) == 6 else None
    detail = (excepinfo[2] if excepinfo and len(excepinfo) == 6 else None) or text
    advice = _COM_ADVICE.get(int(scode or 0)) or _COM_ADVICE.get(int(hresult))
    if advice is None and "protected" in str(detail).lower():
        advice = "a sheet is protected: unprotect it (Review ▸ Unprotect Sheet), then refresh again"
    return XlrallyError(f"Excel refused the refresh: {advice or detail}")


@contextmanager
def _through_excel() -> Iterator[None]:
    """Excel's own errors (COM) as xlrally errors, so that they reach the message box."""
    try:
        yield
    except Exception as error:
        refused = excel_refused(error)
        if refused is None:
            raise
        raise refused from error


class XlwingsBook:
    """An open workbook in Excel, through xlwings: whole ranges at once, never cell by cell.

    The same code runs on xlwings' three engines, each read and written as it takes it:
    Windows (COM), macOS (AppleScript) and remote (xlwings Lite, Office.js), see
    :func:`engine_of`.
    """

    def __init__(self, book: Any) -> None:
        self.book = book
        self.engine = engine_of(book)
        self.epoch = DATE_1904 if _uses_1904(book) else EXCEL_EPOCH

    def sheet_names(self) -> list[str]:
        with _through_excel():
            return [sheet.name for sheet in self.book.sheets]

    def values(self, name: str) -> list[list[Value]]:
        """The sheet's used range in one call. Error cells are refused with their cell:
        xlwings' default reads them as blanks, and the row would score as empty.

        On Windows and in Lite, ``err_to_str`` reads them as their text. xlwings' macOS
        engine cannot do that for more than one cell (``_xlmac.py`` 0.37.8 lines 1083-1103:
        its ``ensure_2d`` returns None for the list of rows AppleScript gives, and the read
        fails with a TypeError), so there the values are read plainly and the cells' shown
        texts (AppleScript's ``string value``, what xlwings itself compares with the error
        texts) in one more call."""
        with _through_excel():
            sheet = self.book.sheets[name]
            last = sheet.used_range.last_cell
            block = sheet.range((1, 1), (last.row, last.column))
            if self.engine == "mac":
                values: list[list[Value]] = block.options(ndim=2).value
                shown = _rows(block.api.string_value.get())
                for r, row in enumerate(shown):
                    for c, text in enumerate(row):
                        if text in ERROR_TEXTS:
                            values[r][c] = text
            else:
                values = block.options(ndim=2, err_to_str=True).value
        for r, row in enumerate(values, start=1):
            for c, value in enumerate(row):
                if isinstance(value, str) and value in ERROR_TEXTS:
                    raise XlrallyError(
                        f"{name}!{column_letter(c)}{r}: the cell holds the error {value}: "
                        "correct the formula behind it (or wrap it in IFERROR)"
                    )
        return values

    def write_standings(self, grid: Sequence[Row]) -> None:
        """Clear and write the Standings sheet: the values in one block, then each look (font,
        number format, alignment) on one contiguous range at a time (xlwings' remote and Lite
        engines take no comma-joined addresses), then the column widths of the file writer
        (in points on the remote engine). Screen updating and events are off meanwhile and
        restored after. A protected Standings sheet is refused before anything changes."""
        with _through_excel():
            names = {norm(s.name): s for s in self.book.sheets}
            sheet = names.get(norm(SHEET_NAME))
            if sheet is not None and _protected(sheet):
                raise XlrallyError(
                    f"{sheet.name}: the sheet is protected: unprotect it (Review ▸ Unprotect "
                    "Sheet), then refresh again"
                )
            if sheet is None:
                sheet = self.book.sheets.add(SHEET_NAME, after=self.book.sheets[-1])
            with _quiet(self.book.app):
                self._write(sheet, grid)

    def _write(self, sheet: Any, grid: Sequence[Row]) -> None:
        sheet.clear()
        block = excel_values(grid)
        if block:
            sheet.range("A1").value = block
        for look, addresses in looks_by_range(grid).items():
            properties = xlwings_properties(look)  # alignment: xlwings 0.37.3+, every engine
            for address in addresses:
                target = sheet.range(address)
                for path, value in properties.items():
                    owner, _, name = path.rpartition(".")
                    setattr(getattr(target, owner) if owner else target, name, value)
        unit = points if self.engine == "remote" else float
        for index, width in enumerate(column_widths(grid), start=1):
            try:
                sheet.range((1, index)).column_width = unit(width)
            except NotImplementedError:  # an engine that cannot size columns
                break


def _rows(shown: Any) -> list[list[Any]]:
    """AppleScript's answer for a range as rows: a single cell comes as one value."""
    if not isinstance(shown, list):
        return [[shown]]
    return [row if isinstance(row, list) else [row] for row in shown]


def _protected(sheet: Any) -> bool:
    """Whether the sheet's cells are protected: COM's ``Worksheet.ProtectContents`` on
    Windows; False where it cannot be asked (the other engines)."""
    if engine_of(sheet.book) != "windows":
        return False
    try:
        return bool(sheet.api.ProtectContents)
    except Exception:  # a backend without the property
        return False


@contextmanager
def _quiet(app: Any) -> Iterator[None]:
    """Screen updating and events off while writing (hundreds of formatting calls), restored
    as they were; a backend without these settings (xlwings Lite) is left alone."""
    before: dict[str, Any] = {}
    for setting in ("screen_updating", "enable_events"):
        try:
            before[setting] = getattr(app, setting)
            setattr(app, setting, False)
        except (AttributeError, NotImplementedError):
            continue
    try:
        yield
    finally:
        for setting, value in before.items():
            setattr(app, setting, value)
