"""A stand-in for the few xlwings Book/Sheet/Range calls xlrally.excel.live makes, over a MemoryBook.

Excel cannot run here. Like python-chess's mock engine transport, this fake lets the real
XlwingsBook adapter and refresh_caller() run in tests. It behaves as Excel does through xlwings
where the differences matter, each from a named source:

* values read: whole numbers as floats, blanks as None, error cells as None unless
  ``err_to_str`` (xlwings' conversion options, ``xlwings/main.py`` ``Range.options``, 0.37);
  a currency cell stays a ``decimal.Decimal`` (pywin32's VT_CY; xlwings issues #65, #640);
* values written: text is parsed as if typed (:func:`xlrally.excel.live.as_typed`, from
  Microsoft's support pages; xlwings issues #1635, #36) unless it starts with an apostrophe;
* a comma-joined address (``"E2,E4"``) is refused as by xlwings' remote and Lite engines,
  which take one contiguous range per call;
* a sheet is added after the sheet given, else before the active one (xlwings' ``Sheets.add``);
* ``app.screen_updating`` and ``app.enable_events`` are settings whose history is recorded,
  and ``autofit`` and ``column_width`` calls are recorded;
* Excel's refusals come as pywin32's ``pywintypes.com_error(hresult, text, excepinfo,
  argerr)`` (:class:`com_error`), as xlwings passes them on (``_xlwindows.py`` 0.37.8 lines
  128-262: it retries a call Excel rejects while busy and raises the rest): a protected
  sheet's ``Worksheet.ProtectContents`` is True (``protected``), a workbook in cell-edit
  mode refuses every method call that changes it (``editing``: hresult -2147352567 with the exception
  code 0x800AC472, the pair xlwings' retry loop names), and a sheet deleted after the
  sheets were listed is an invalid index (``deleted``: DISP_E_BADINDEX, -2147352565).
"""

from __future__ import annotations

import re
from typing import Any

from xlrally.excel.live import MemoryBook
from xlrally.formats.cells import Look, column_letter


def _cell(address: str) -> tuple[int, int]:
    match = re.fullmatch(r"([A-Z]+)(\d+)", address)
    assert match, address
    letters, row = match.groups()
    col = 0
    for ch in letters:
        col = col * 26 + ord(ch) - 64
    return int(row), col


class com_error(Exception):  # noqa: N801  (pywin32's name, which the refresh looks for)
    """pywin32's ``pywintypes.com_error``: ``args`` are (hresult, text, excepinfo, argerr),
    excepinfo (wcode, source, text, help file, help id, scode)."""


EDITING = com_error(-2147352567, "Exception occurred.", (0, None, None, None, 0, -2146777998), None)
"""What a COM call gives while a cell is being edited."""


class CellError:
    """A cell holding an Excel error value (what a formula such as =NA() shows)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"CellError({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CellError) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


class FakeFont:
    def __init__(self, range_: FakeRange) -> None:
        self._range = range_

    def _set(self, **changes: Any) -> None:
        for cell in self._range.cells():
            key = (self._range.sheet.name, cell)
            look = self._range.sheet.book.memory.looks.get(key, Look())
            self._range.sheet.book.memory.looks[key] = Look(**{**look.__dict__, **changes})

    bold = property(lambda self: None, lambda self, v: self._set(bold=bool(v)))
    italic = property(lambda self: None, lambda self, v: self._set(italic=bool(v)))
    color = property(lambda self: None, lambda self, v: self._set(grey=v == (128, 128, 128)))


class FakeRange:
    def __init__(
        self, sheet: FakeSheet, first: tuple[int, int] | str, last: tuple[int, int] | None = None
    ) -> None:
        if isinstance(first, str) and "," in first:
            raise ValueError(f"one contiguous range per call, not {first!r}")
        self.sheet = sheet
        self.address = first if isinstance(first, str) else None
        self.first = first if isinstance(first, tuple) else None
        self.last = last
        self.ndim: int | None = None
        self.err_to_str = False
        sheet.book.calls.append(("range", str(first), str(last)))

    def cells(self) -> list[str]:
        assert self.address is not None
        found = []
        for part in self.address.split(","):
            start, _, end = part.partition(":")
            (r1, c1), (r2, c2) = _cell(start), _cell(end or start)
            found += [
                f"{column_letter(c - 1)}{r}" for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)
            ]
        return found

    def options(self, ndim: int | None = None, err_to_str: bool = False, **_: Any) -> FakeRange:
        self.ndim = ndim
        self.err_to_str = err_to_str
        return self

    @property
    def value(self) -> Any:
        assert self.first == (1, 1)
        assert self.last is not None
        assert self.ndim == 2
        rows = self.sheet.book.memory.sheets[self.sheet.name]
        height, width = self.last
        block = []
        for r in range(height):
            row = rows[r] if r < len(rows) else []
            block.append(
                [(row[c] if c < len(row) and row[c] != "" else None) for c in range(width)]
            )
        self.sheet.book.calls.append(("read", self.sheet.name))

        def handed_over(value: Any) -> Any:
            if isinstance(value, CellError):
                return value.text if self.err_to_str else None
            if isinstance(value, int) and not isinstance(value, bool):
                return float(value)  # Excel hands whole numbers over as floats
            return value

        return [[handed_over(v) for v in row] for row in block]

    @value.setter
    def value(self, block: list[list[Any]]) -> None:
        assert self.address == "A1"
        self.sheet.book.calls.append(("write", self.sheet.name))
        self.sheet.book.memory.assign(self.sheet.name, block)

    number_format = property(lambda self: None, lambda self, v: self._look(number_format=v))
    horizontal_alignment = property(lambda self: None, lambda self, v: self._look(align=v))

    @property
    def column_width(self) -> float:
        raise NotImplementedError

    @column_width.setter
    def column_width(self, width: float) -> None:
        assert self.first is not None
        self.sheet.book.widths[(self.sheet.name, self.first[1])] = width

    def _look(self, **changes: Any) -> None:
        FakeFont(self)._set(**changes)

    @property
    def font(self) -> FakeFont:
        return FakeFont(self)


class FakeUsed:
    def __init__(self, sheet: FakeSheet) -> None:
        rows = sheet.book.memory.sheets[sheet.name]
        last = type("Cell", (), {})()
        last.row = max(len(rows), 1)
        last.column = max((len(r) for r in rows), default=1) or 1
        self.last_cell = last


class FakeSheet:
    def __init__(self, book: FakeBook, name: str) -> None:
        self.book = book
        self.name = name

    @property
    def used_range(self) -> FakeUsed:
        return FakeUsed(self)

    def range(self, first: Any, last: Any = None) -> FakeRange:
        return FakeRange(self, first, last)

    @property
    def api(self) -> Any:
        """The COM worksheet: only ``ProtectContents`` is asked."""
        return type("Worksheet", (), {"ProtectContents": self.name in self.book.protected})()

    def clear(self) -> None:
        """Contents (formulas too) and formats, as xlwings' ``Sheet.clear`` does."""
        if self.book.editing:
            raise EDITING
        if self.name in self.book.protected:
            raise com_error(
                -2147352567,
                "Exception occurred.",
                (
                    0,
                    "Microsoft Excel",
                    "The cell or chart you're trying to change is on a protected sheet.",
                    None,
                    0,
                    -2146827284,
                ),
                None,
            )
        memory = self.book.memory
        memory.sheets[self.name] = []
        memory.looks = {k: v for k, v in memory.looks.items() if k[0] != self.name}
        memory.formulas = {k: v for k, v in memory.formulas.items() if k[0] != self.name}

    def autofit(self, axis: str | None = None) -> None:
        self.book.calls.append(("autofit", self.name, str(axis)))


class FakeSheets:
    def __init__(self, book: FakeBook) -> None:
        self.book = book

    def __iter__(self) -> Any:
        return iter([FakeSheet(self.book, n) for n in self.book.memory.sheets])

    def __getitem__(self, key: int | str) -> FakeSheet:
        if key in self.book.deleted:
            raise com_error(-2147352565, "Invalid index.", None, None)
        names = list(self.book.memory.sheets)
        return FakeSheet(self.book, names[key] if isinstance(key, int) else key)

    def add(self, name: str, after: FakeSheet | None = None) -> FakeSheet:
        """As Excel's ``Sheets.Add``: after the sheet given, else before the active sheet
        (xlwings' ``Sheets.add`` docs; the fake takes the first sheet as the active one)."""
        if self.book.editing:
            raise EDITING
        order = list(self.book.memory.sheets.items())
        at = 0 if after is None else [n for n, _ in order].index(after.name) + 1
        order.insert(at, (name, []))
        self.book.memory.sheets = dict(order)
        return FakeSheet(self.book, name)


class FakeApp:
    def __init__(self) -> None:
        self.alerts: list[tuple[str, str, str]] = []
        self.history: list[tuple[str, bool]] = []
        self._settings = {"screen_updating": True, "enable_events": True}

    screen_updating = property(
        lambda self: self._settings["screen_updating"],
        lambda self, value: self._set("screen_updating", value),
    )
    enable_events = property(
        lambda self: self._settings["enable_events"],
        lambda self, value: self._set("enable_events", value),
    )

    def _set(self, name: str, value: bool) -> None:
        self._settings[name] = value
        self.history.append((name, value))

    def alert(self, prompt: str, title: str = "", mode: str = "", **_: Any) -> None:
        self.alerts.append((title, mode, prompt))


class FakeBook:
    """What ``xlwings.Book.caller()`` returns, over a MemoryBook."""

    def __init__(self, memory: MemoryBook, name: str = "league.xlsm") -> None:
        self.memory = memory
        self.name = name
        self.app = FakeApp()
        self.calls: list[tuple[str, ...]] = []
        self.widths: dict[tuple[str, int], float] = {}
        self.protected: set[str] = set()
        self.editing = False
        self.deleted: set[str] = set()

    @property
    def sheets(self) -> FakeSheets:
        return FakeSheets(self)
