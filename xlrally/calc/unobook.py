"""The open Calc document as the refresh's workbook: :class:`UnoBook` implements
:class:`xlrally.excel.live.LiveBook` over UNO, so that Calc runs the very refresh the Excel
button runs (:func:`xlrally.excel.live.refresh`), and writes the Standings as ``xlrally sync``
writes them into a file: the values (text always as text), each cell's look, the column
widths, the frozen header, and the print setup (:meth:`UnoBook.print_setup`).

:func:`refresh_document` makes the whole refresh one Undo step (``Refresh standings``); when
the league has a problem nothing is written and no Undo step is added.

Runs inside LibreOffice: UNO structs and enums are made with ``uno`` where they are needed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from xlrally.calc.names import respelled
from xlrally.core.errors import XlrallyError
from xlrally.excel.live import RefreshOutcome, looks_by_range, refresh
from xlrally.formats.cells import (
    ERROR_TEXTS,
    Look,
    PrintSetup,
    Row,
    column_letter,
    column_widths,
    norm,
)
from xlrally.formats.grid import SHEET_NAME, print_setup
from xlrally.formats.looks import calc_properties

UNDO_TITLE = "Refresh standings"

CLEARED = 1 | 2 | 4 | 16 | 32 | 64 | 256 | 512
"""``com.sun.star.sheet.CellFlags`` cleared from the old Standings: values, dates, texts,
formulas, hard formats, styles, edit formats, formatted text. Comments and drawing objects
(a chart placed on the sheet) are kept, as the file writer keeps them."""

_ERROR_RESULT = 4
"""``com.sun.star.sheet.FormulaResult.ERROR``."""

LAST_ROW = 1_048_575
LETTER = (27940, 21590)
"""US Letter, landscape, in 1/100 mm: the paper of a page setup that names none (OOXML's
default ``paperSize``, as LibreOffice reads the file sync writes)."""
MM100_PER_INCH = 2540


def _uno() -> Any:
    import uno

    return uno


class UnoBook:
    """A Calc document (``com.sun.star.sheet.SpreadsheetDocument``) as a LiveBook."""

    def __init__(self, document: Any) -> None:
        self.document = document
        null = document.NullDate
        self.epoch = dt.date(null.Year, null.Month, null.Day)
        self.written: Sequence[Row] = ()
        self.undoing = False

    def sheet_names(self) -> list[str]:
        return list(self.document.Sheets.ElementNames)

    def values(self, name: str) -> list[list[Any]]:
        """The sheet's used area from A1 in one call (empty cells None). A cell whose formula
        gives an error is refused with its cell, as in Excel."""
        sheet = self.document.Sheets.getByName(name)
        cursor = sheet.createCursor()
        cursor.gotoEndOfUsedArea(False)
        end = cursor.getRangeAddress()
        block = sheet.getCellRangeByPosition(0, 0, end.EndColumn, end.EndRow)
        errors = block.queryFormulaCells(_ERROR_RESULT).getRangeAddresses()
        if errors:
            first = min(errors, key=lambda a: (a.StartRow, a.StartColumn))
            cell = sheet.getCellByPosition(first.StartColumn, first.StartRow)
            shown = cell.getString()
            error = next((e for e in ERROR_TEXTS if e == shown), shown)
            raise XlrallyError(
                f"{name}!{column_letter(first.StartColumn)}{first.StartRow + 1}: the cell holds "
                f"the error {error}: correct the formula behind it (or wrap it in IFERROR)"
            )
        return [[None if v == "" else v for v in row] for row in block.getDataArray()]

    def _standings_sheet(self) -> tuple[Any, bool]:
        sheets = self.document.Sheets
        name = next((n for n in sheets.ElementNames if norm(n) == norm(SHEET_NAME)), None)
        if name is not None:
            return sheets.getByName(name), False
        sheets.insertNewByName(SHEET_NAME, sheets.getCount())
        return sheets.getByName(SHEET_NAME), True

    def write_standings(self, grid: Sequence[Row]) -> None:
        """Clear the Standings sheet (made at the end if missing) and write the grid: the
        values in one block, each look on its ranges, the widths; columns the user hid (by
        their heading) stay hidden; the header row and the Rank and Player columns frozen."""
        self.document.getUndoManager().enterUndoContext(UNDO_TITLE)
        self.undoing = True
        sheet, self.created = self._standings_sheet()
        columns = sheet.getColumns()
        hidden = set()
        if not self.created:
            headings = sheet.getCellRangeByPosition(0, 0, 255, 0).getDataArray()[0]
            hidden = {
                h for i, h in enumerate(headings) if h and not columns.getByIndex(i).IsVisible
            }
        sheet.clearContents(CLEARED)
        width = max((len(r) for r in grid), default=0)
        block = tuple(
            tuple("" if c.value is None else c.value for c in row) + ("",) * (width - len(row))
            for row in grid
        )
        if block and width:
            written = sheet.getCellRangeByPosition(0, 0, width - 1, len(block) - 1)
            written.setDataArray(block)
            written.NumberFormat = 0  # General: Calc marks a text that looks like a number "@"
        formats = _Formats(self.document)
        for look, addresses in looks_by_range(grid).items():
            names, values = formats.properties(look)
            for address in addresses:
                sheet.getCellRangeByName(address).setPropertyValues(names, values)
        digit = _digit_width(self.document)
        for index, chars in enumerate(column_widths(grid)):
            column = columns.getByIndex(index)
            column.Width = mm100(round(chars * digit))
            heading = grid[0][index].value if grid and index < len(grid[0]) else None
            column.IsVisible = heading not in hidden
        self.sheet = sheet
        self.written = grid

    def freeze(self) -> None:
        """The header row and the Rank and Player columns stay in view (a view setting, kept
        in the file; not an Undo step)."""
        sheet = self.sheet
        controller = self.document.getCurrentController()
        if controller is None:
            return
        active = controller.getActiveSheet()
        controller.setActiveSheet(sheet)
        controller.freezeAtPosition(2, 1)
        controller.setActiveSheet(active)

    def print_setup(self, setup: PrintSetup) -> None:
        """How the Standings print, as the file writer sets them where the user has not: a
        page style of their own (landscape, one page wide, margins, the title at the top of
        each page, page numbers at the foot), the header row on every page, the table without
        the Working column as the print area. An existing sheet keeps its own page style,
        print titles and area; only a title xlrally wrote is replaced."""
        sheet = self.sheet
        styles = self.document.StyleFamilies.getByName("PageStyles")
        current = sheet.PageStyle
        sharing = [
            s for s in self.document.Sheets if s.PageStyle == current and s.Name != sheet.Name
        ]
        if self.created or sharing:
            name = _unused(styles, f"PageStyle_{sheet.Name}")
            styles.insertByName(name, self.document.createInstance("com.sun.star.style.PageStyle"))
            sheet.PageStyle = name
            _page_defaults(self.document, styles.getByName(name), setup.title)
        else:
            _retitle(styles.getByName(current), setup.title)
        if not sheet.getPrintTitleRows():
            rows = _uno().createUnoStruct("com.sun.star.table.CellRangeAddress")
            rows.Sheet, rows.StartRow, rows.EndRow = sheet.RangeAddress.Sheet, 0, 0
            sheet.setTitleRows(rows)
            sheet.setPrintTitleRows(True)
        area = _uno().createUnoStruct("com.sun.star.table.CellRangeAddress")
        area.Sheet, area.StartColumn, area.StartRow = sheet.RangeAddress.Sheet, 0, 0
        area.EndColumn, area.EndRow = setup.columns - 1, LAST_ROW
        areas = sheet.getPrintAreas()
        ours = all(a.StartColumn == 0 and a.StartRow == 0 and a.EndRow == LAST_ROW for a in areas)
        if not areas or (len(areas) == 1 and ours):
            sheet.setPrintAreas((area,))


def _unused(styles: Any, name: str) -> str:
    candidate, number = name, 1
    while styles.hasByName(candidate):
        number += 1
        candidate = f"{name}_{number}"
    return candidate


TITLE_POINTS = 14.0
"""The title's size in the header, as the file writer's ``&"-,Bold"&14``."""
_HEADER_HEIGHT = 0.45
"""Inches from the top margin's header line to the body: 0.75 (top) − 0.3 (header), Excel's."""


def _page_defaults(document: Any, style: Any, title: str) -> None:
    style.IsLandscape = True  # on US Letter: an .xlsx page setup naming no paper size
    style.Width, style.Height = LETTER
    style.ScaleToPagesX, style.ScaleToPagesY = 1, 0
    style.LeftMargin = style.RightMargin = round(0.5 * MM100_PER_INCH)
    style.HeaderIsOn = style.FooterIsOn = True
    style.TopMargin = style.BottomMargin = round(0.3 * MM100_PER_INCH)
    body = document.StyleFamilies.getByName("CellStyles").getByName("Default").CharHeight
    height = round(_HEADER_HEIGHT * MM100_PER_INCH)
    for part, points in (("Header", TITLE_POINTS), ("Footer", body)):
        # as LibreOffice reads the file's margins: the text's height, then the distance
        setattr(style, f"{part}IsDynamicHeight", False)
        setattr(style, f"{part}Height", height)
        setattr(style, f"{part}BodyDistance", height - round(points * MM100_PER_INCH / 72))
    _retitle(style, title, force=True)
    footer = style.RightPageFooterContent
    for text in (footer.LeftText, footer.RightText):
        text.setString("")
    centre = footer.CenterText
    centre.setString("Page ")
    end = centre.getEnd()
    centre.insertTextContent(end, _field(document, "PageNumber"), False)
    centre.insertString(centre.getEnd(), " of ", False)
    centre.insertTextContent(centre.getEnd(), _field(document, "PageCount"), False)
    cursor = centre.createTextCursor()
    cursor.gotoStart(False)
    cursor.gotoEnd(True)
    cursor.CharHeight = body
    style.RightPageFooterContent = footer


def _field(document: Any, kind: str) -> Any:
    """A text field for a header or footer (page number or count)."""
    return document.createInstance(f"com.sun.star.text.TextField.{kind}")


def _retitle(style: Any, title: str, force: bool = False) -> None:
    """Put ``title`` in the header's centre, bold 14 pt, where the header is empty or is one
    xlrally wrote (a centred bold 14 pt text alone) or ``force``; a user's own is kept."""
    header = style.RightPageHeaderContent
    left, centre, right = header.LeftText, header.CenterText, header.RightText
    start = centre.createTextCursor()
    start.gotoStart(False)
    ours = (
        not left.getString()
        and not right.getString()
        and (
            not centre.getString() or (start.CharWeight >= 150 and start.CharHeight == TITLE_POINTS)
        )
    )
    if not (ours or force):
        return
    left.setString("")
    right.setString("")
    centre.setString(title)
    cursor = centre.createTextCursor()
    cursor.gotoStart(False)
    cursor.gotoEnd(True)
    cursor.CharWeight = 150.0
    cursor.CharHeight = TITLE_POINTS
    style.RightPageHeaderContent = header


class _Formats:
    """A look as cell properties (font weight, posture, colour, number format, alignment)."""

    def __init__(self, document: Any) -> None:
        self.formats = document.NumberFormats
        self.locale = _uno().createUnoStruct("com.sun.star.lang.Locale")
        self.locale.Language, self.locale.Country = "en", "US"

    def number_format(self, code: str) -> int:
        key = int(self.formats.queryKey(code, self.locale, False))
        return key if key >= 0 else int(self.formats.addNew(code, self.locale))

    def properties(self, look: Look) -> tuple[tuple[str, ...], tuple[Any, ...]]:
        """The cell properties of ``look``, as the file writer's styles give them: a look with
        a font (bold, italic or a colour) has the workbook's default font with those marks and
        no underline or strike-through, in its colour or the automatic one (-1); a look
        without keeps the cell's font."""
        uno = _uno()
        found: dict[str, Any] = calc_properties(look)  # the one mapping of looks
        if "CharPosture" in found:
            found["CharPosture"] = uno.Enum("com.sun.star.awt.FontSlant", found["CharPosture"])
        if "NumberFormat" in found:
            found["NumberFormat"] = self.number_format(found["NumberFormat"])
        if "HoriJustify" in found:
            found["HoriJustify"] = uno.Enum(
                "com.sun.star.table.CellHoriJustify", found["HoriJustify"]
            )
        return tuple(found), tuple(found.values())


def _digit_width(document: Any) -> float:
    """The width in twips of the widest digit of the document's default font (its Default
    cell style), as LibreOffice measures it when it opens an ``.xlsx`` (oox's
    ``UnitConverter::finalizeImport``: the reference device's font, its height in twips): a
    column ``n`` characters wide in a file is ``n`` of these in Calc."""
    style = document.StyleFamilies.getByName("CellStyles").getByName("Default")
    font = _uno().createUnoStruct("com.sun.star.awt.FontDescriptor")
    font.Name, font.Height = style.CharFontName, round(style.CharHeight * 20)
    measured = document.ReferenceDevice.getFont(font)
    return float(max(measured.getCharWidth(digit) for digit in "0123456789"))


def mm100(twips: float) -> int:
    """Twips (1/1440 inch) in 1/100 mm, the unit of a column's Width."""
    return round(twips * MM100_PER_INCH / 1440)


def refresh_document(document: Any) -> RefreshOutcome:
    """Refresh the document's Standings as one Undo step; when the league has a problem nothing
    is written and no Undo step is added (the step opens with the first write). When Calc
    refuses a write (a protected sheet or workbook), what was written is taken back and the
    outcome says so: nothing is changed."""
    book = UnoBook(document)
    undo = document.getUndoManager()
    refused = None
    document.lockControllers()
    try:
        outcome = refresh(book)
        if outcome.standings is not None:
            book.print_setup(print_setup(outcome.standings, book.written))
    except Exception as error:  # a UNO exception: Calc would not take a write
        refused = getattr(error, "Message", "") or str(error) or type(error).__name__
    finally:
        document.unlockControllers()
        if book.undoing:
            undo.leaveUndoContext()
    if refused is not None:
        if book.undoing:
            undo.undo()
        return RefreshOutcome(
            None,
            (
                f"{SHEET_NAME}: LibreOffice refused to write the sheet ({refused}); nothing was "
                "changed. Unprotect the sheet (Tools ▸ Protect Sheet) and the workbook's "
                "structure, then refresh again",
            ),
        )
    if outcome.standings is not None:
        book.freeze()
    return outcome


def show_message(ctx: Any, frame: Any, outcome: RefreshOutcome) -> None:
    """The outcome in a message box over the document's window."""
    uno = _uno()
    toolkit = ctx.ServiceManager.createInstanceWithContext("com.sun.star.awt.Toolkit", ctx)
    kind = "INFOBOX" if outcome.standings is not None else "ERRORBOX"
    title = "xlrally" if outcome.standings is not None else "xlrally: problems"
    box = toolkit.createMessageBox(
        frame.getContainerWindow(),
        uno.Enum("com.sun.star.awt.MessageBoxType", kind),
        1,  # com.sun.star.awt.MessageBoxButtons.BUTTONS_OK
        title,
        outcome.message,
    )
    box.execute()


FORMULA_CELLS = 16
"""``com.sun.star.sheet.CellFlags.FORMULA``."""


def respell_document(document: Any) -> int:
    """Give the functions their names back in the formulas of an opened ``.xlsx`` (see
    :mod:`xlrally.calc.names`; such a cell shows its saved value until Calc recalculates it,
    then ``#NAME?``), so that Calc computes them; how many formulas. Not an Undo step, and the
    document stays as modified or unmodified as it opened."""
    if not document.supportsService("com.sun.star.sheet.SpreadsheetDocument"):
        return 0
    modified = document.isModified()
    undo = document.getUndoManager()
    undo.lock()
    count = 0
    try:
        for sheet in document.Sheets:
            done: set[tuple[int, int]] = set()
            for found in sheet.queryContentCells(FORMULA_CELLS).getRangeAddresses():
                area = sheet.getCellRangeByPosition(
                    found.StartColumn, found.StartRow, found.EndColumn, found.EndRow
                )
                for r, row in enumerate(area.getFormulaArray()):
                    for c, formula in enumerate(row):
                        where = (found.StartColumn + c, found.StartRow + r)
                        if where not in done and respelled(formula) is not None:
                            count += _respell_cell(sheet, *where, done)
    finally:
        undo.unlock()
        document.setModified(modified)
    return count


def _respell_cell(sheet: Any, column: int, row: int, done: set[tuple[int, int]]) -> int:
    """Respell one formula; an array formula (``{=...}``) once, over its whole range."""
    cell = sheet.getCellByPosition(column, row)
    formula = cell.getFormula()
    array = formula.startswith("{") and formula.endswith("}")
    new = respelled(formula[1:-1] if array else formula)
    if new is None:
        return 0
    if not array:
        cell.setFormula(new)
        return 1
    cursor = sheet.createCursorByRange(cell)
    cursor.collapseToCurrentArray()
    area = cursor.getRangeAddress()
    done.update(
        (c, r)
        for r in range(area.StartRow, area.EndRow + 1)
        for c in range(area.StartColumn, area.EndColumn + 1)
    )
    cursor.setArrayFormula(new)
    return 1
