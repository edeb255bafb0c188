"""xlwings' real macOS engine (``xlwings/_xlmac.py``) on Linux, with appscript stubbed.

The engine talks to Excel through appscript, Python's bridge to AppleScript, which exists only
on macOS. This module stands in for appscript (and for ``aem``, ``osax`` and ``psutil``, which
the engine also imports) with a reference object that answers the AppleScript calls the
engine makes for reading, writing and formatting a sheet, over an in-memory workbook. So the
engine's own code runs: its ``raw_value`` with and without ``err_to_str``, its value cleaning,
its sheet handling. What Excel answers, each from a named source (line numbers of xlwings
0.37.8's ``_xlmac.py``):

* ``value`` of a range of more than one cell is a list of rows, even for one row or one
  column; of one cell, the value itself (the engine's ``ensure_2d``, lines 1084-1091, is
  written for that answer, and its comment: "macOS doesn't deliver any info about errors with
  values");
* an empty cell's value is ``""``; an error cell's ``missing value`` (read as blank: lines
  72-76), and its ``string value`` the error's text (what ``err_to_str`` compares with the
  error texts, lines 1094-1102); numbers are reals (floats), dates datetimes;
* text written is parsed as if typed (:func:`xlrally.excel.live.as_typed`), as by COM;
* the used range is the block from A1 to the last cell holding something
  (``used_range.get_address()``, line 836), a new sheet's name is set after it is made
  (``Sheets.add``, lines 643-655), and a message box comes through StandardAdditions'
  ``display alert`` (``App.alert``, lines 373-397).
"""

from __future__ import annotations

import importlib
import re
import struct
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from xlrally.excel.live import MemoryBook
from xlrally.formats.cells import column_letter


class Keyword:
    """An AppleScript keyword (``k.missing_value``, ``k.worksheet``, ...)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"k.{self.name}"


class Keywords:
    def __init__(self) -> None:
        self._made: dict[str, Keyword] = {}

    def __getattr__(self, name: str) -> Keyword:
        return self._made.setdefault(name, Keyword(name))


k = Keywords()


class CommandError(Exception):
    """appscript's error for a command Excel refused."""


@dataclass
class MacError:
    """A cell holding an Excel error value (its value reads as ``missing value``)."""

    text: str


@dataclass
class MacExcel:
    """What the stubbed Excel holds: one workbook, its sheets, formats and message boxes."""

    memory: MemoryBook
    name: str = "league.xlsx"
    fonts: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    number_formats: dict[tuple[str, str], str] = field(default_factory=dict)
    alignments: dict[tuple[str, str], str] = field(default_factory=dict)
    widths: dict[tuple[str, int], float] = field(default_factory=dict)
    settings: dict[str, Any] = field(
        default_factory=lambda: {"screen_updating": True, "enable_events": True}
    )
    alerts: list[tuple[str, str, Any]] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)


def _cell(address: str) -> tuple[int, int]:
    match = re.fullmatch(r"\$?([A-Z]+)\$?(\d+)", address)
    assert match, address
    col = 0
    for ch in match.group(1):
        col = col * 26 + ord(ch) - 64
    return int(match.group(2)), col


def _address(row: int, col: int) -> str:
    return f"${column_letter(col - 1)}${row}"


class Ref:
    """An appscript reference: a path of properties and elements, resolved when a command
    (``get``, ``set``, ``get_address``, ...) is sent."""

    def __init__(self, excel: MacExcel, path: tuple[Any, ...] = ()) -> None:
        self._excel = excel
        self._path = path

    def __getattr__(self, name: str) -> Ref:
        if name.startswith("__"):
            raise AttributeError(name)
        return Ref(self._excel, (*self._path, name))

    def __getitem__(self, key: Any) -> Ref:
        return Ref(self._excel, (*self._path, ("item", key)))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        *where, command = self._path
        return _command(self._excel, tuple(where), command, args, kwargs)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ref) and other._path == self._path

    def __hash__(self) -> int:
        return hash(self._path)


def _sheet_name(excel: MacExcel, key: Any) -> str:
    names = list(excel.memory.sheets)
    return names[key - 1] if isinstance(key, int) else str(key)


def _parse(excel: MacExcel, path: tuple[Any, ...]) -> dict[str, Any]:
    """What a path points at: the app, the workbook, a sheet, a range of cells, a property."""
    found: dict[str, Any] = {"properties": []}
    steps = list(path)
    while steps:
        step = steps.pop(0)
        if step in {"workbooks", "active_workbook"}:
            if step == "workbooks":
                steps.pop(0)
            found["book"] = True
        elif step in {"worksheets", "active_sheet"}:
            key = steps.pop(0)[1] if step == "worksheets" else 1
            found["sheet"] = _sheet_name(excel, key)
        elif step == "cells":
            start, _, end = steps.pop(0)[1].partition(":")
            found["range"] = (_cell(start), _cell(end or start))
        elif step == "rows":
            row = steps.pop(0)[1]
            assert steps.pop(0) == "columns"
            col = steps.pop(0)[1]
            found["range"] = ((row, col), (row, col))
        elif step == "used_range":
            rows = excel.memory.sheets[found["sheet"]]
            height = max(len(rows), 1)
            width = max((len(r) for r in rows), default=1) or 1
            found["range"] = ((1, 1), (height, width))
        elif step in {"after", "before"}:
            found["position"] = (step, found.pop("sheet"))
        else:
            found["properties"].append(step)
    return found


def _command(
    excel: MacExcel, path: tuple[Any, ...], command: str, args: tuple[Any, ...], kwargs: Any
) -> Any:
    found = _parse(excel, path)
    excel.calls.append(command)
    prop = ".".join(found["properties"])
    sheet = str(found.get("sheet"))
    if command == "get_address":
        (r1, c1), (r2, c2) = found["range"]
        first = _address(r1, c1)
        return first if (r1, c1) == (r2, c2) else f"{first}:{_address(r2, c2)}"
    if command == "count":
        each = kwargs["each"].name
        if each == "worksheet":
            return len(excel.memory.sheets)
        (r1, c1), (r2, c2) = found["range"]
        return r2 - r1 + 1 if each == "row" else c2 - c1 + 1
    if command == "make":
        where, beside = kwargs["at"]._parse_position()
        names = list(excel.memory.sheets)
        at = names.index(beside) + (1 if where == "after" else 0)
        new = f"Sheet{len(names) + 1}"
        order = list(excel.memory.sheets.items())
        order.insert(at, (new, []))
        excel.memory.sheets = dict(order)
        return Ref(excel, ("worksheets", ("item", new)))
    if command == "clear_range":
        excel.memory.sheets[sheet] = []
        for store in (excel.fonts, excel.number_formats, excel.alignments):
            for key in [key for key in store if key[0] == sheet]:
                del store[key]
        return None
    if command == "get":
        return _get(excel, found, prop)
    if command == "set":
        _set(excel, found, prop, args[0])
        return None
    raise AssertionError(f"the stub does not know {command} on {path}")


def _parse_position(self: Ref) -> tuple[str, str]:
    found = _parse(self._excel, self._path)
    where: tuple[str, str] = found["position"]
    return where


Ref._parse_position = _parse_position  # type: ignore[attr-defined]


def _block(excel: MacExcel, found: dict[str, Any]) -> list[list[Any]]:
    (r1, c1), (r2, c2) = found["range"]
    rows = excel.memory.sheets[found["sheet"]]
    return [
        [
            rows[r - 1][c - 1] if r <= len(rows) and c <= len(rows[r - 1]) else None
            for c in range(c1, c2 + 1)
        ]
        for r in range(r1, r2 + 1)
    ]


def _shape(found: dict[str, Any], block: list[list[Any]]) -> Any:
    """AppleScript's answer: one cell as its value, more as a list of rows."""
    (r1, c1), (r2, c2) = found["range"]
    return block[0][0] if (r1, c1) == (r2, c2) else block


def _get(excel: MacExcel, found: dict[str, Any], prop: str) -> Any:
    if prop in excel.settings and "sheet" not in found:
        return excel.settings[prop]
    if prop == "name":
        return found.get("sheet") or excel.name
    if prop in {"first_row_index", "first_column_index"}:
        (r1, c1), _ = found["range"]
        return r1 if prop == "first_row_index" else c1
    block = _block(excel, found)
    if prop == "value":
        return _shape(found, [[_value(v) for v in row] for row in block])
    if prop == "string_value":
        return _shape(found, [[_shown(v) for v in row] for row in block])
    raise AssertionError(f"the stub does not know the property {prop}")


def _value(cell: Any) -> Any:
    if isinstance(cell, MacError):
        return k.missing_value
    if cell is None or cell == "":
        return ""
    if isinstance(cell, int) and not isinstance(cell, bool):
        return float(cell)  # AppleScript reals
    return cell


def _shown(cell: Any) -> str:
    if isinstance(cell, MacError):
        return cell.text
    if cell is None:
        return ""
    return str(cell)


def _set(excel: MacExcel, found: dict[str, Any], prop: str, value: Any) -> None:
    if prop in excel.settings and "sheet" not in found:
        excel.settings[prop] = value
        return
    sheet = str(found.get("sheet"))
    if prop == "name" and "range" not in found:
        excel.memory.sheets = {
            (value if name == sheet else name): rows for name, rows in excel.memory.sheets.items()
        }
        return
    (r1, c1), (r2, c2) = found["range"]
    cells = [(r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]
    if prop == "value":
        assert (r1, c1) == (1, 1), "the refresh writes its block at A1"
        excel.memory.assign(sheet, value)
    elif prop == "number_format":
        for r, c in cells:
            excel.number_formats[(sheet, f"{column_letter(c - 1)}{r}")] = value
    elif prop.startswith("font_object."):
        attribute = prop.split(".", 1)[1]
        for r, c in cells:
            excel.fonts.setdefault((sheet, f"{column_letter(c - 1)}{r}"), {})[attribute] = value
    elif prop == "horizontal_alignment":
        for r, c in cells:
            excel.alignments[(sheet, f"{column_letter(c - 1)}{r}")] = value.name
    elif prop == "column_width":
        for c in range(c1, c2 + 1):
            excel.widths[(sheet, c)] = value
    else:
        raise AssertionError(f"the stub does not set {prop}")


class OSAX:
    """StandardAdditions (``osax.OSAX``): ``display alert`` records the message."""

    excel: MacExcel | None = None

    def __init__(self, pid: int | None = None) -> None:
        self.pid = pid

    def activate(self) -> None:
        pass

    def display_alert(self, title: str, message: str, buttons: Any, as_: Keyword) -> Any:
        assert OSAX.excel is not None
        OSAX.excel.alerts.append((title, message, as_.name))
        return {k.button_returned: "OK"}


class _AppData:
    """``xl.AS_appdata.target().addressdesc.coerce(...).data``: the process id (line 225)."""

    def target(self) -> Any:
        return self

    @property
    def addressdesc(self) -> Any:
        return self

    def coerce(self, _kind: Any) -> Any:
        return types.SimpleNamespace(data=struct.pack("i", 4242))


def _modules() -> dict[str, types.ModuleType]:
    appscript = types.ModuleType("appscript")
    reference = types.ModuleType("appscript.reference")
    reference.CommandError = CommandError  # type: ignore[attr-defined]
    reference.Reference = Ref  # type: ignore[attr-defined]
    appscript.reference = reference  # type: ignore[attr-defined]
    appscript.k = k  # type: ignore[attr-defined]
    appscript.its = Keywords()  # type: ignore[attr-defined]
    appscript.mactypes = types.ModuleType("mactypes")  # type: ignore[attr-defined]
    aem = types.ModuleType("aem")
    aem.kae = types.SimpleNamespace(typeKernelProcessID=0)  # type: ignore[attr-defined]
    osax = types.ModuleType("osax")
    osax.OSAX = OSAX  # type: ignore[attr-defined]
    psutil = types.ModuleType("psutil")
    psutil.process_iter = list  # type: ignore[attr-defined]  # no Excel process: atexit
    return {
        "appscript": appscript,
        "appscript.reference": reference,
        "aem": aem,
        "osax": osax,
        "psutil": psutil,
    }


@contextmanager
def mac_book(excel: MacExcel) -> Iterator[Any]:
    """An ``xlwings.Book`` driven by xlwings' own macOS engine over ``excel``."""
    saved = {name: sys.modules.get(name) for name in [*_modules(), "xlwings._xlmac"]}
    sys.modules.update(_modules())
    sys.modules.pop("xlwings._xlmac", None)
    try:
        import xlwings

        xlmac = importlib.import_module("xlwings._xlmac")
        app_ref = Ref(excel)
        object.__setattr__(app_ref, "AS_appdata", _AppData())
        app = xlmac.App(xl=app_ref)
        OSAX.excel = excel
        yield xlwings.Book(impl=xlmac.Book(app, excel.name))
    finally:
        OSAX.excel = None
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
