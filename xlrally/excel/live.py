"""The live path inside Excel: one click recomputes the open workbook's Standings (xlwings).

The refresh reads the open workbook through xlwings (each sheet's used range in one call),
runs the same reader, checks and engine as ``xlrally sync``, and writes the same Standings grid
in one block. Problems go to a message box, never a traceback.

Reading and writing go through two small interfaces, so that the same code runs against:

* :class:`XlwingsBook` — an open workbook in Excel (needs Excel; not on Linux);
* :class:`MemoryBook` — plain lists that behave as Excel does when values are assigned
  (text starting with ``=`` becomes a formula unless it starts with an apostrophe). The tests
  use it to run the refresh here, and the file backend (``xlrally sync``) is checked against it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from xlrally.core.errors import LeagueProblems, XlrallyError
from xlrally.core.league import compute_standings
from xlrally.core.numbers import plural
from xlrally.core.standings import Standings
from xlrally.formats.cells import (
    DATE_1904,
    ERROR_TEXTS,
    EXCEL_EPOCH,
    Look,
    Row,
    Value,
    column_letter,
    column_widths,
    norm,
)
from xlrally.formats.grid import SHEET_NAME, standings_grid
from xlrally.formats.looks import xlwings_properties
from xlrally.formats.view import shown_warnings
from xlrally.formats.workbook import MemorySheets, SheetSource, read_league

FORMULA_STARTS = ("=", "+", "-", "@")
"""Excel takes an assigned text starting with one of these as a formula."""
MAX_SHOWN_PROBLEMS = 15


class StandingsTarget(Protocol):
    """Where a Standings grid is written (an open workbook, a file, memory)."""

    def write_standings(self, grid: Sequence[Row]) -> None: ...


class LiveBook(SheetSource, StandingsTarget, Protocol):
    """A workbook that can be read and written in place: what a refresh needs."""


def excel_values(grid: Sequence[Row]) -> list[list[Any]]:
    """The grid as one rectangular block of values to assign to a range.

    Excel parses text written into a cell as if it were typed (xlwings issues #1635, #36):
    ``Dec 2025`` would become a date, ``007`` the number 7, ``TRUE`` a boolean, ``=1+1`` a
    formula. So every text gets a leading apostrophe, Excel's mark for "this is text" (it is
    not part of the value). Missing cells are None.
    """
    width = max((len(row) for row in grid), default=0)
    block = []
    for row in grid:
        values: list[Any] = [
            "'" + cell.value if isinstance(cell.value, str) else cell.value for cell in row
        ]
        block.append(values + [None] * (width - len(values)))
    return block


def looks_by_range(grid: Sequence[Row]) -> dict[Look, list[str]]:
    """For each look but the plain one, the A1 addresses it applies to, runs merged per column."""
    addresses: dict[Look, list[str]] = {}
    for col in range(max((len(r) for r in grid), default=0)):
        letter = column_letter(col)
        run_start = run_look = None
        for number in range(1, len(grid) + 2):
            row = grid[number - 1] if number <= len(grid) else ()
            look = row[col].look if col < len(row) and row[col].value is not None else None
            if look != run_look:
                if run_look is not None and run_look != Look() and run_start is not None:
                    end = number - 1
                    cell = f"{letter}{run_start}" + (f":{letter}{end}" if end > run_start else "")
                    addresses.setdefault(run_look, []).append(cell)
                run_start, run_look = number, look
    return addresses


# ---------------------------------------------------------------- the in-memory backend


@dataclass
class MemoryBook(MemorySheets):
    """An in-memory workbook that takes assigned values as Excel does, for tests.

    Assigned text is parsed as if typed (:func:`as_typed`) unless it starts with an apostrophe;
    ``formulas`` records cells Excel would have taken as formulas; ``looks`` the formats set.
    """

    formulas: dict[tuple[str, str], str] = field(default_factory=dict)
    looks: dict[tuple[str, str], Look] = field(default_factory=dict)

    def assign(self, sheet: str, block: list[list[Any]]) -> None:
        """Assign a block of values at A1, as ``range.value = block`` does in Excel."""
        rows: list[list[Value]] = []
        for r, values in enumerate(block, start=1):
            row: list[Value] = []
            for c, assigned in enumerate(values):
                value = assigned
                if isinstance(value, str) and value.startswith("'"):
                    value = value[1:]
                elif isinstance(value, str):
                    value = as_typed(value)
                    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
                        self.formulas[(sheet, f"{column_letter(c)}{r}")] = value
                        value = None  # a formula's value is not known here
                row.append(value)
            rows.append(row)
        self.sheets[sheet] = rows

    def write_standings(self, grid: Sequence[Row]) -> None:
        name = next((n for n in self.sheets if norm(n) == norm(SHEET_NAME)), SHEET_NAME)
        self.formulas = {k: v for k, v in self.formulas.items() if k[0] != name}
        self.assign(name, excel_values(grid))
        self.looks = {k: v for k, v in self.looks.items() if k[0] != name}
        for look, cells in looks_by_range(grid).items():
            for cell in cells:
                self.looks[(name, cell)] = look


_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}
_NUMBER = re.compile(r"[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][+-]?\d+)?%?")
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_US_DATE = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")
_WORD_DATE = re.compile(r"(?:(\d{1,2})[ -])?([A-Za-z]{3,9})\.?[ -](?:(\d{1,2}),? )?(\d{4})")


def as_typed(text: str) -> Value:
    """What Excel (English, United States) makes of ``text`` typed into a General cell: the
    test double's model of Excel's entry parsing, which also applies to values written through
    COM (xlwings issues #1635, #36).

    From Microsoft's support pages "Stop automatically changing numbers to dates" (``Dec
    2025`` and ``12/6/2025`` become dates), "Keeping leading zeros and large numbers" (``007``
    becomes 7) and "Format numbers as text" (a leading apostrophe keeps text as typed):
    numbers with thousands separators, exponents or a percent sign; TRUE and FALSE in any
    case; dates as ISO, month/day/year, or with a month name and a year (day 1 when no day is
    given). Anything else stays text.

    >>> as_typed("007"), as_typed("12%"), as_typed("true"), as_typed("Dec 2025")
    (7, 0.12, True, datetime.datetime(2025, 12, 1, 0, 0))
    >>> as_typed("Jul 2026 results")
    'Jul 2026 results'
    """
    stripped = text.strip()
    if stripped.upper() in {"TRUE", "FALSE"}:
        return stripped.upper() == "TRUE"
    if stripped and any(ch.isdigit() for ch in stripped) and _NUMBER.fullmatch(stripped):
        number = float(stripped.rstrip("%").replace(",", "")) / (
            100 if stripped.endswith("%") else 1
        )
        return int(number) if number.is_integer() and "%" not in stripped else number
    date = _typed_date(stripped)
    return date if date is not None else text


def _typed_date(text: str) -> dt.datetime | None:
    year = month = day = None
    if match := _ISO_DATE.fullmatch(text):
        year, month, day = (int(g) for g in match.groups())
    elif match := _US_DATE.fullmatch(text):
        month, day, year = (int(g) for g in match.groups())
    elif (match := _WORD_DATE.fullmatch(text)) and match.group(2).lower() in _MONTHS:
        month = _MONTHS[match.group(2).lower()]
        day = int(match.group(1) or match.group(3) or 1)
        year = int(match.group(4))
    if year is None or month is None or day is None:
        return None
    try:
        return dt.datetime(year, month, day)
    except ValueError:
        return None


# ---------------------------------------------------------------- the xlwings backend


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


# ---------------------------------------------------------------- the refresh


@dataclass(frozen=True)
class RefreshOutcome:
    """What a refresh did: the standings written, or the problems found (nothing written)."""

    standings: Standings | None
    problems: tuple[str, ...] = ()

    @property
    def message(self) -> str:
        """The text for the message box."""
        if self.standings is None:
            shown = list(self.problems[:MAX_SHOWN_PROBLEMS])
            more = len(self.problems) - len(shown)
            if more:
                shown.append(f"... and {more} more (run `xlrally check` for all)")
            return "The standings were not updated:\n" + "\n".join(shown)
        table = self.standings
        players, events = plural(len(table.rows), "player"), plural(len(table.held), "event")
        lines = [f"Standings updated: {players}, {events}."]
        lines.extend(f"Warning: {w}" for w in shown_warnings(table.warnings, 5))
        return "\n".join(lines)


def refresh(book: LiveBook) -> RefreshOutcome:
    """Recompute the Standings of an open workbook. Never raises for a user's mistake."""
    try:
        standings = compute_standings(read_league(book))
        book.write_standings(standings_grid(standings))
    except LeagueProblems as error:
        return RefreshOutcome(None, tuple(str(p) for p in error.problems))
    except XlrallyError as error:
        return RefreshOutcome(None, (str(error),))
    return RefreshOutcome(standings)


def alert(book: Any, outcome: RefreshOutcome) -> None:
    """Show the outcome in a message box: information, or the problems as a critical one."""
    title = "xlrally" if outcome.standings is not None else "xlrally: problems"
    mode = "info" if outcome.standings is not None else "critical"
    book.app.alert(outcome.message, title=title, mode=mode)


def refresh_caller() -> None:
    """Run by a button or "Run main": refresh the workbook that called, say what happened.

    When called from an add-in (its own workbook is the caller), the active workbook is used.
    """
    import xlwings as xw

    book = xw.Book.caller()
    if str(book.name).lower().endswith(".xlam"):
        book = xw.books.active
    outcome = refresh(XlwingsBook(book))
    alert(book, outcome)


def main() -> None:
    """Entry point for xlwings' "Run main" and quickstart macros."""
    refresh_caller()
