"""The Office.js side of xlwings Lite, for tests that drive xlwings' real remote engine
(``xlwings/pro/_xlremote.py``) in Pyodide: the workbook payload Excel sends to a script, and
what Excel does with the actions the script sends back. Office.js itself runs only inside
Excel; each behaviour below follows a named source:

* the payload: xlwings-server ``xlwings_server/static/js/custom-scripts/index.js``
  ``getBookData`` (lines 302-600): ``client: "Office.js"``, the book's name and active sheet,
  each sheet's values from A1 to the used range's last cell; an empty cell is ``""``
  (Office.js ``Range.values``), a date-formatted cell an ISO text ending in ``Z``
  (``convertDateValues``, lines 288-300); JavaScript numbers reach Python as int when whole
  (Pyodide's type conversions: a JS number that is a safe integer becomes a Python int);
* the actions: ``index.js`` ``runActions`` and its handlers (``addSheet`` 924-933,
  ``sheetClear`` 1225-1233, ``setValues`` 900-905, ``setNumberFormat`` 974-978,
  ``setFontProperty`` 891-899, ``alert`` 1084-1092); ``setColumnWidth``,
  ``setHorizontalAlignment`` and ``setScreenUpdating`` as xlwings 0.37.8's ``_xlremote.py``
  emits them (lines 2262-2273, 2313-2318 with the names of lines 235-244, and 712-718): a
  width in points (Office.js ``RangeFormat.columnWidth``), an alignment as Office.js names it
  (``Left``, ``Center``, ``Right``);
* values written are parsed as if typed (Office.js ``Range.values``: "If the value starts
  with a plus, minus or equal sign, Excel interprets it as a formula"; text with a leading
  apostrophe stays text, without the apostrophe), the same parsing as through COM
  (:func:`xlrally.excel.live.as_typed`).
"""

from __future__ import annotations

import datetime as dt
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import openpyxl

from xlrally.excel.live import MemoryBook
from xlrally.formats.cells import column_letter


def js_value(value: Any) -> Any:
    """One cell as Office.js hands it over and Pyodide converts it."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime | dt.date):
        moment = value if isinstance(value, dt.datetime) else dt.datetime(*value.timetuple()[:3])
        return moment.isoformat(timespec="milliseconds") + "Z"
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def payload(path: Path, version: str) -> dict[str, Any]:
    """What Excel sends a Lite script for the workbook at ``path`` (read with openpyxl, which
    is not xlrally's reader): its sheets' values as Office.js gives them."""
    with warnings.catch_warnings():  # openpyxl cannot keep a print area of whole columns
        warnings.simplefilter("ignore", UserWarning)
        workbook = openpyxl.load_workbook(path, data_only=True)
    sheets = []
    for sheet in workbook.worksheets:
        rows = [
            [js_value(cell.value) for cell in row]
            for row in sheet.iter_rows(min_row=1, max_row=sheet.max_row, max_col=sheet.max_column)
        ]
        sheets.append(
            {
                "name": sheet.title,
                "values": rows or [[""]],
                "pictures": [],
                "tables": [],
            }
        )
    active = workbook.worksheets.index(workbook.active)
    return {
        "client": "Office.js",
        "version": version,
        "book": {"name": path.name, "active_sheet_index": active, "selection": "A1"},
        "names": [],
        "sheets": sheets,
    }


LookTuple = tuple[bool, bool, bool, str | None, str | None]
"""(bold, italic, grey, number format or None for General, alignment or None)."""


@dataclass
class OfficeBook:
    """The workbook as Excel holds it after a script's actions (values, formats, widths)."""

    names: list[str]
    memory: MemoryBook = field(default_factory=MemoryBook)
    number_formats: dict[tuple[str, int, int], str] = field(default_factory=dict)
    fonts: dict[tuple[str, int, int], dict[str, Any]] = field(default_factory=dict)
    alignments: dict[tuple[str, int, int], str] = field(default_factory=dict)
    widths: dict[tuple[str, int], float] = field(default_factory=dict)
    alerts: list[list[Any]] = field(default_factory=list)

    def looks(self, sheet: str = "Standings") -> dict[str, LookTuple]:
        """Each styled cell's look, as :func:`file_looks` gives a file's."""
        cells = {k for k in (*self.number_formats, *self.fonts, *self.alignments) if k[0] == sheet}
        found = {}
        for key in cells:
            font = self.fonts.get(key, {})
            look = (
                bool(font.get("bold")),
                bool(font.get("italic")),
                str(font.get("color", "")).upper() == "#808080",
                self.number_formats.get(key),
                self.alignments[key].lower() if key in self.alignments else None,
            )
            if look != (False, False, False, None, None):
                _, row, column = key
                found[f"{column_letter(column)}{row + 1}"] = look
        return found

    def apply(self, actions: list[dict[str, Any]]) -> None:
        """Carry out the actions in order, as ``runActions`` does; an action this double
        does not know fails the test (a new kind of call to check against Office.js)."""
        for action in actions:
            getattr(self, "_" + action["func"])(action)

    def _cells(self, action: dict[str, Any]) -> list[tuple[str, int, int]]:
        name = self.names[action["sheet_position"]]
        return [
            (name, r, c)
            for r in range(action["start_row"], action["start_row"] + action["row_count"])
            for c in range(action["start_column"], action["start_column"] + action["column_count"])
        ]

    def _addSheet(self, action: dict[str, Any]) -> None:
        position, name = action["args"]
        self.names.insert(position, name)
        self.memory.sheets[name] = []

    def _sheetClear(self, action: dict[str, Any]) -> None:
        name = self.names[action["sheet_position"]]
        self.memory.sheets[name] = []
        for store in (self.number_formats, self.fonts):
            for key in [k for k in store if k[0] == name]:
                del store[key]

    def _setValues(self, action: dict[str, Any]) -> None:
        name = self.names[action["sheet_position"]]
        assert (action["start_row"], action["start_column"]) == (0, 0)
        self.memory.assign(name, action["values"])

    def _setNumberFormat(self, action: dict[str, Any]) -> None:
        for cell in self._cells(action):
            self.number_formats[cell] = action["args"][0]

    def _setFontProperty(self, action: dict[str, Any]) -> None:
        attribute, value = action["args"]
        for cell in self._cells(action):
            self.fonts.setdefault(cell, {})[attribute] = value

    def _setHorizontalAlignment(self, action: dict[str, Any]) -> None:
        for cell in self._cells(action):
            self.alignments[cell] = action["args"][0]

    def _setColumnWidth(self, action: dict[str, Any]) -> None:
        name = self.names[action["sheet_position"]]
        for column in range(
            action["start_column"], action["start_column"] + action["column_count"]
        ):
            self.widths[(name, column + 1)] = action["args"][0]

    def _setScreenUpdating(self, action: dict[str, Any]) -> None:
        assert isinstance(action["args"][0], bool)

    def _alert(self, action: dict[str, Any]) -> None:
        self.alerts.append(action["args"])


def file_looks(path: Path, sheet: str = "Standings") -> dict[str, LookTuple]:
    """The look of each non-blank cell of a sheet that a file writer styled, read back with
    openpyxl (not xlrally's reader): what `xlrally sync` gave the cells."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        workbook = openpyxl.load_workbook(path)
    found = {}
    for row in workbook[sheet].iter_rows():
        for cell in row:
            if cell.value is None:
                continue
            colour = cell.font.color.rgb if cell.font.color is not None else None
            look = (
                bool(cell.font.b),
                bool(cell.font.i),
                isinstance(colour, str) and colour.upper().endswith("808080"),
                None if cell.number_format == "General" else cell.number_format,
                cell.alignment.horizontal,
            )
            if look != (False, False, False, None, None):
                found[cell.coordinate] = look
    return found
