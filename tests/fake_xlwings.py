"""A stand-in for the few xlwings Book/Sheet/Range calls xlrally.excel.live makes, over a MemoryBook.

Excel cannot run here. Like python-chess's mock engine transport, this fake lets the real
XlwingsBook adapter and refresh_caller() run in tests: values assigned to a range behave as in
Excel (a text starting with "=" becomes a formula unless it starts with an apostrophe).
"""

from __future__ import annotations

import re
from typing import Any

from xlrally.excel.live import MemoryBook
from xlrally.formats.cells import Look
from xlrally.formats.layout import column_letter


def _cell(address: str) -> tuple[int, int]:
    match = re.fullmatch(r"([A-Z]+)(\d+)", address)
    assert match, address
    letters, row = match.groups()
    col = 0
    for ch in letters:
        col = col * 26 + ord(ch) - 64
    return int(row), col


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
        self.sheet = sheet
        self.address = first if isinstance(first, str) else None
        self.first = first if isinstance(first, tuple) else None
        self.last = last
        self.ndim: int | None = None
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

    def options(self, ndim: int | None = None, **_: Any) -> FakeRange:
        self.ndim = ndim
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
        # Excel hands whole numbers over as floats
        return [
            [float(v) if isinstance(v, int) and not isinstance(v, bool) else v for v in row]
            for row in block
        ]

    @value.setter
    def value(self, block: list[list[Any]]) -> None:
        assert self.address == "A1"
        self.sheet.book.memory.assign(self.sheet.name, block)

    number_format = property(lambda self: None, lambda self, v: self._look(number_format=v))

    def _look(self, **changes: Any) -> None:
        FakeFont(self)._set(**changes)

    @property
    def font(self) -> FakeFont:
        return FakeFont(self)


class FakeUsed:
    def __init__(self, sheet: FakeSheet) -> None:
        rows = sheet.book.memory.sheets[sheet.name]
        last = type("Cell", (), {})()
        last.row = max(len(rows), 1)  # type: ignore[attr-defined]
        last.column = max((len(r) for r in rows), default=1) or 1  # type: ignore[attr-defined]
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

    def clear(self) -> None:
        self.book.memory.sheets[self.name] = []
        self.book.memory.looks = {
            k: v for k, v in self.book.memory.looks.items() if k[0] != self.name
        }

    def autofit(self, axis: str | None = None) -> None:
        self.book.calls.append(("autofit", self.name, str(axis)))


class FakeSheets:
    def __init__(self, book: FakeBook) -> None:
        self.book = book

    def __iter__(self) -> Any:
        return iter([FakeSheet(self.book, n) for n in self.book.memory.sheets])

    def __getitem__(self, key: int | str) -> FakeSheet:
        names = list(self.book.memory.sheets)
        return FakeSheet(self.book, names[key] if isinstance(key, int) else key)

    def add(self, name: str, after: FakeSheet | None = None) -> FakeSheet:
        self.book.memory.sheets[name] = []
        return FakeSheet(self.book, name)


class FakeApp:
    def __init__(self) -> None:
        self.alerts: list[tuple[str, str, str]] = []

    def alert(self, prompt: str, title: str = "", mode: str = "", **_: Any) -> None:
        self.alerts.append((title, mode, prompt))


class FakeBook:
    """What ``xlwings.Book.caller()`` returns, over a MemoryBook."""

    def __init__(self, memory: MemoryBook, name: str = "league.xlsm") -> None:
        self.memory = memory
        self.name = name
        self.app = FakeApp()
        self.calls: list[tuple[str, ...]] = []

    @property
    def sheets(self) -> FakeSheets:
        return FakeSheets(self)
