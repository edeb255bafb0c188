"""New league workbooks, made with XlsxWriter: the template and ``xlrally new``.

One builder makes the workbook for any system: the same sheets (Settings, Points, Events,
Results, Players, Standings, xlwings.conf, About), the system's result columns and example
data from the seeds' worked examples. ``workbook_template.xlsx`` at the repository root is its
output for the rally (``python tools/remake_examples.py`` remakes it; a test fails when it is
stale).

The output is reproducible: fixed document dates, so the same code writes the same bytes.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import xlsxwriter

from xlrally.core.league import compute_standings
from xlrally.core.systems import SYSTEMS, System, known
from xlrally.formats.cells import (
    PAGE_FOOTER,
    Cell,
    Look,
    PrintSetup,
    Row,
    column_letter,
    column_widths,
    quote_sheet,
)
from xlrally.formats.grid import print_setup, standings_grid
from xlrally.formats.looks import xlsxwriter_format
from xlrally.formats.workbook import COLUMNS, MemorySheets, read_league
from xlrally.formats.workbook.settings import offered

FIXED_DATE = dt.datetime(2026, 1, 1)
"""Document properties carry this date so that the template's bytes do not change."""


LEDGER_ITEMS = (
    "Entry fee",
    "Buy-in",
    "Re-buy",
    "Season fee",
    "Income",
    "Refund",
    "Payout",
    "Prize",
    "Expense",
    "Held",
)
"""The Ledger sheet's items offered in its Item column (free text is accepted too)."""


def _result_columns(system: str) -> list[str]:
    return ["Event"] + [COLUMNS[f][0] for f in SYSTEMS[system].result_fields]


def _event_columns(system: str) -> list[str]:
    return [COLUMNS[f][0] for f in SYSTEMS[system].event_fields]


def league_sheets(system: str) -> MemorySheets:
    """The example league as plain sheets (what the workbook's sheets will hold)."""
    scoring = SYSTEMS[system]
    example = scoring.example
    settings: list[list[object]] = [["Setting", "Value"], ["System", system]]
    settings += [[k, v] for k, v in example.settings]
    sheets = MemorySheets({"Settings": settings})
    if scoring.points_table:
        header: list[object] = ["Rank", "Points", "Bonus"]
        points: list[list[object]] = [[rank, pts, bonus] for rank, pts, bonus in example.points]
        sheets.sheets["Points"] = [header, *points]
    fields = scoring.event_fields
    sheets.sheets["Events"] = [
        [*_event_columns(system)],
        *([e.get(f) for f in fields] for e in example.events),
    ]
    fields = ("event", *scoring.result_fields)
    sheets.sheets["Results"] = [
        [*_result_columns(system)],
        *([r.get(f) for f in fields] for r in example.results),
    ]
    players: list[list[object]] = [["Player", "Alias", "Section", "Team"]]
    teams = dict(example.teams)
    players += [[*p, teams.pop(p[0], None)] for p in example.players]
    players += [[player, None, None, team] for player, team in teams.items()]
    sheets.sheets["Players"] = players
    if example.prizes:
        sheets.sheets["Prizes"] = [["Place", "Amount", "Share"], *(list(p) for p in example.prizes)]
    if example.ledger:
        header = ["Date", "Player", "Item", "Amount", "Event"]
        sheets.sheets["Ledger"] = [header, *(list(entry) for entry in example.ledger)]
    return sheets


class _Formats:
    def __init__(self, book: Any) -> None:
        self.book = book
        self.header = book.add_format({"bold": True, "bg_color": "#DDEBF7", "bottom": 1})
        self.date = book.add_format({"num_format": "yyyy-mm-dd"})
        self.note = book.add_format({"italic": True, "font_color": "#595959"})
        self.title = book.add_format({"bold": True, "font_size": 14})
        self._looks: dict[Look, Any] = {}

    def look(self, look: Look) -> Any:
        if look not in self._looks:
            self._looks[look] = self.book.add_format(xlsxwriter_format(look))
        return self._looks[look]


def _table(
    sheet: Any,
    rows: list[list[object]],
    name: str,
    formats: _Formats,
    widths: dict[str, int] | None = None,
) -> None:
    header = [str(h) for h in rows[0]]
    body = rows[1:] or [[None] * len(header)]
    sheet.add_table(
        0,
        0,
        len(body),
        len(header) - 1,
        {
            "name": name,
            "style": "Table Style Light 9",
            "columns": [{"header": h, "header_format": formats.header} for h in header],
        },
    )
    for r, values in enumerate(rows[1:], start=1):
        for c, value in enumerate(values):
            if value is None:
                continue
            if isinstance(value, dt.date):
                sheet.write_datetime(r, c, dt.datetime.combine(value, dt.time()), formats.date)
            elif isinstance(value, str):
                sheet.write_string(r, c, value)
            else:
                sheet.write(r, c, value)
    for c, h in enumerate(header):
        sheet.set_column(c, c, (widths or {}).get(h, max(len(h) + 4, 10)))
    sheet.freeze_panes(1, 0)


def write_grid(sheet: Any, grid: Sequence[Row], formats: _Formats, setup: PrintSetup) -> None:
    """Write a Standings grid with XlsxWriter (text always as text, never a formula), printed
    as the file writer prints it (xlrally.ooxml.sheet_xml.print_defaults)."""
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            _write_cell(sheet, r, c, cell, formats)
    sheet.freeze_panes(1, 2)  # the header row, Rank and Player stay in view
    for index, width in enumerate(column_widths(grid)):
        sheet.set_column(index, index, width)
    sheet.set_landscape()
    sheet.fit_to_pages(1, 0)
    sheet.set_margins(left=0.5, right=0.5, top=0.75, bottom=0.75)
    sheet.set_header(setup.header)
    sheet.set_footer(PAGE_FOOTER)
    sheet.repeat_rows(0)
    # XlsxWriter writes whole columns as `Standings!$A:$G`, which openpyxl cannot read (and
    # drops when it saves): the form the file writer uses, rows 1 to 1,048,576, instead.
    last = column_letter(setup.columns - 1)
    sheet.print_area_range = f"{quote_sheet(sheet.name)}!$A$1:${last}$1048576"


def _write_cell(sheet: Any, r: int, c: int, cell: Cell, formats: _Formats) -> None:
    look = formats.look(cell.look) if cell.look != Look() else None
    if cell.value is None:
        return
    if isinstance(cell.value, str):
        sheet.write_string(r, c, cell.value, look)
    else:
        sheet.write_number(r, c, cell.value, look)


ABOUT = (
    "Enter events on the Events sheet and results on the Results sheet",
    "(or on a sheet per event named exactly as the event).",
    "Then update the standings: run `xlrally sync THIS_FILE` (any computer with Python),",
    "or click Refresh standings (Settings sheet) in a workbook made by `xlrally new x.xlsm`.",
    "The Standings sheet belongs to xlrally: it is replaced on every sync.",
    "Excel functions (with the xlwings add-in): =RALLY_SCORE(points, rounds, byes, games),",
    "=NEAU_POINTS(players, buy_in, total, finish), =DIPPOUCH_RATING(...), =BEST_X_TOTAL(...),",
    "=FORMULA_POINTS(formula, players, place, buy_in, ...).",
    "Format and rules: docs/workbook-format.md and docs/scoring.md in the xlrally project.",
)
"""The About sheet's lines, below its title."""


def build_workbook(
    path: str | Path,
    system: str = "rally",
    vba_project: bytes | None = None,
    button_macro: str | None = None,
    created: dt.datetime = FIXED_DATE,
    about: Sequence[str] = ABOUT,
) -> None:
    """Write a new league workbook for ``system`` with example data and computed Standings.

    With ``vba_project`` (a vbaProject.bin) the file is macro-enabled (.xlsm) and, with
    ``button_macro``, the Settings sheet gets a "Refresh standings" button running it.
    ``created`` is its recorded creation and save time (fixed for the bundled files, so that
    their bytes are stable; now for ``xlrally new``). ``about`` is the About sheet's text
    (the Calc workbook's speaks of Calc: :mod:`xlrally.calc.odsbook`).
    """
    if system not in SYSTEMS:
        raise ValueError(f"unknown system {system!r}: use one of {known()}")
    scoring = SYSTEMS[system]
    sheets = league_sheets(system)
    standings = compute_standings(read_league(sheets))
    book = xlsxwriter.Workbook(str(path), {"strings_to_formulas": False, "strings_to_urls": False})
    book.set_properties(
        {
            "title": f"xlrally league ({scoring.name})",
            "author": "xlrally",
            "created": created,
        }
    )
    book.set_custom_property("xlrally system", system)
    formats = _Formats(book)
    if vba_project is not None:
        book.add_vba_project(io.BytesIO(vba_project), is_stream=True)
        book.set_vba_name("ThisWorkbook")
    settings = _settings_sheet(book, scoring, sheets, formats)
    _input_sheets(book, sheets, formats)
    if button_macro:  # beside the settings, whose width is fixed: never over the standings
        settings.insert_button(
            1,
            4,
            {"macro": button_macro, "caption": "Refresh standings", "width": 160, "height": 36},
        )
    standings_sheet = book.add_worksheet("Standings")
    grid = standings_grid(standings)
    write_grid(standings_sheet, grid, formats, print_setup(standings, grid))
    conf = book.add_worksheet("xlwings.conf")
    conf.write_row(0, 0, ["UDF Modules", "udfs"])
    conf.hide()
    about_sheet = book.add_worksheet("About")
    about_sheet.write_string(0, 0, "xlrally league workbook", formats.title)
    for r, line in enumerate(about, start=2):
        about_sheet.write_string(r, 0, line)
    about_sheet.set_column(0, 0, 100)
    settings.activate()
    book.close()


def _settings_sheet(book: Any, scoring: System, sheets: MemorySheets, formats: _Formats) -> Any:
    """The Settings sheet: the settings offered for the system (:func:`offered`), the
    example's values, what each does; the System cell takes one of the registry's keys."""
    settings = book.add_worksheet("Settings")
    settings.write_row(0, 0, ["Setting", "Value", "What it does"], formats.header)
    given = {str(row[0]): row[1] for row in sheets.sheets["Settings"][1:]}
    for r, setting in enumerate(offered(scoring), start=1):
        settings.write_string(r, 0, setting.name)
        value = given.get(setting.name)
        if isinstance(value, str):
            settings.write_string(r, 1, value)
        elif value is not None:
            settings.write(r, 1, value)
        help_text = setting.help.format(systems=known(" or "))
        settings.write_string(r, 2, help_text, formats.note)
    settings.data_validation(
        1,
        1,
        1,
        1,
        {
            "validate": "list",
            "source": list(SYSTEMS),
            "error_title": "System",
            "error_message": "Choose one of the listed systems.",
        },
    )
    settings.set_column(0, 0, 22)
    settings.set_column(1, 1, 24)
    settings.set_column(2, 2, 70)
    settings.freeze_panes(1, 0)
    return settings


def _input_sheets(book: Any, sheets: MemorySheets, formats: _Formats) -> None:
    """The sheets the treasurer fills in, each an Excel table: Points (a points-table
    system's), Events (its Status a choice), Results, Players, Prizes (when the example pays),
    Ledger (when it has one: its Item a choice of the vocabulary, free text allowed)."""
    if "Points" in sheets.sheets:
        _table(book.add_worksheet("Points"), sheets.sheets["Points"], "PointsTable", formats)
    events = book.add_worksheet("Events")
    event_rows = sheets.sheets["Events"]
    _table(events, event_rows, "EventsTable", formats, {"Event": 22, "Date": 12})
    status = event_rows[0].index("Status")
    events.data_validation(
        1,
        status,
        1000,
        status,
        {
            "validate": "list",
            "source": ["ranked", "pending"],
            "ignore_blank": True,
            "error_message": "Leave blank (scored), or choose ranked or pending.",
        },
    )
    for name, table, widths in (
        ("Results", "ResultsTable", {"Event": 22, "Player": 24}),
        ("Players", "PlayersTable", {"Player": 24, "Alias": 24, "Section": 18, "Team": 18}),
    ):
        _table(book.add_worksheet(name), sheets.sheets[name], table, formats, widths)
    if "Prizes" in sheets.sheets:
        _table(book.add_worksheet("Prizes"), sheets.sheets["Prizes"], "PrizesTable", formats)
    if "Ledger" in sheets.sheets:
        ledger = book.add_worksheet("Ledger")
        widths = {"Date": 12, "Player": 24, "Item": 16, "Event": 22}
        _table(ledger, sheets.sheets["Ledger"], "LedgerTable", formats, widths)
        ledger.data_validation(
            1,
            2,
            1000,
            2,
            {
                "validate": "list",
                "source": list(LEDGER_ITEMS),
                "ignore_blank": True,
                "error_type": "information",  # free text is an item too
                "error_message": "Not one of the listed items: kept as free text (money in "
                "when the amount is 0 or more, out when it is below 0).",
            },
        )
