"""The workbook format: find the sheets and columns, turn cells into a core League.

Works on any :class:`SheetSource` (a file read by :mod:`xlrally.ooxml.reader`, the open workbook in
Excel through xlwings, or plain lists in tests), so every backend reads a league the same way.
Sheet and column names match case-insensitively, ignoring spaces and punctuation; the header
row is found by its names; extra sheets and columns are left alone. See docs/workbook-format.md.
"""

from __future__ import annotations

import datetime as dt
import difflib
import functools
import itertools
import operator
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from xlrally.core.errors import LeagueProblems, Problem, XlrallyError
from xlrally.core.league import check_league
from xlrally.core.model import (
    BELOW_MINIMUM,
    DATE_FORMATS,
    DEFAULT_EVENTS_CAP,
    SHARED_PLACES,
    Event,
    League,
    PointStructure,
    Result,
    Settings,
)
from xlrally.core.numbers import show
from xlrally.core.prizes import Prize
from xlrally.core.ranking import parse_tie_breaks
from xlrally.core.systems import SYSTEMS, known, lookup
from xlrally.formats.cells import (
    EXCEL_EPOCH,
    Value,
    blank,
    column_letter,
    norm,
    quote_sheet,
    short,
    text_of,
    to_bool,
    to_date,
    to_number,
)
from xlrally.formats.trf import BYE_RULES, FORFEIT_RULES, LICHESS_RULES

HEADER_SEARCH_ROWS = 20
"""The header row of a sheet is looked for in its first 20 rows."""


class SheetSource(Protocol):
    """What reading a league needs of a workbook: its sheet names and a sheet's values."""

    epoch: dt.date
    """Day 0 of the workbook's serial dates (EXCEL_EPOCH, or DATE_1904 in a 1904 workbook)."""

    def sheet_names(self) -> list[str]:
        """The workbook's sheet names, in tab order."""
        ...

    def values(self, name: str) -> list[list[Value]]:
        """The sheet's values from A1, one list per row (rows may differ in length)."""
        ...


@dataclass
class MemorySheets:
    """An in-memory workbook (sheet name -> rows): the test backend."""

    sheets: dict[str, list[list[Value]]] = field(default_factory=dict)
    epoch: dt.date = EXCEL_EPOCH

    def sheet_names(self) -> list[str]:
        return list(self.sheets)

    def values(self, name: str) -> list[list[Value]]:
        return self.sheets[name]


class CellOrigin(NamedTuple):
    """A row of a sheet; ``where("byes")`` names the cell of that field, e.g. ``Results!D7``.

    A named tuple rather than a dataclass: one is made for every result row read.
    """

    sheet: str
    row: int
    columns: Mapping[str, int]

    def where(self, field: str | None = None) -> str:
        column = self.columns.get(field or "", min(self.columns.values(), default=0))
        return f"{quote_sheet(self.sheet)}!{column_letter(column)}{self.row}"


# Column names per field; the first spelling is the one documented and written by templates.
COLUMNS: dict[str, tuple[str, ...]] = {
    "event": ("Event", "Event name", "Tournament"),
    "date": ("Date",),
    "rounds": ("Rounds", "Number of rounds"),
    "buy-in": ("Buy-in", "Buyin", "Buy in"),
    "world championship": ("World Championship", "WC"),
    "players": ("Players", "Field size", "Number of players"),
    "weight": ("Weight", "Multiplier", "Points multiplier"),
    "section": ("Section", "Sections", "Division"),
    "amount": ("Amount", "Prize"),
    "share": ("Share", "Percent", "% of pot"),
    "value": ("Value", "Tournament value"),
    "status": ("Status",),
    "season": ("Season",),
    "player": ("Player", "Name", "Player name"),
    "points": ("Points", "Score"),
    "games": ("Games", "Games played"),
    "byes": ("Byes",),
    "rank": ("Rank", "Place", "Placement", "Position", "Finish"),
    "total": ("Total", "Total expense"),
    "country": ("Country",),
    "alias": ("Alias", "Also known as"),
    "bonus": ("Bonus", "Bonus points"),
}

RESERVED_SHEETS = frozenset(
    {"settings", "events", "points", "players", "results", "standings", "xlwingsconf"}
)
"""Sheets with a job of their own: never taken as an event's results sheet."""


SETTINGS_KEYS: dict[str, str] = {
    "system": "System",
    "league": "League",
    "season": "Season",
    "bestx": "Best X",
    "eventscap": "Events cap",
    "participating": "Participating",
    "multiplier": "Multiplier",
    "playercountfactor": "Player count factor",
    "playercounttorank": "Player count to rank",
    "tiebreak": "Tie break",
    "sharedplaces": "Shared places",
    "dateformat": "Date format",
    "minimumevents": "Minimum events",
    "belowminimum": "Below minimum",
    "pot": "Pot",
    "potshare": "Pot share",
    "currencyunit": "Currency unit",
    "requestedbyes": "Requested byes",
    "forfeitwins": "Forfeit wins",
    "lichessh": "Lichess H",
}

_SPELLINGS = {norm(s): f for f, spellings in COLUMNS.items() for s in spellings}


def field_named(header: str) -> str | None:
    """The field a column header names (``Place`` -> ``rank``), as every sheet is read."""
    return _SPELLINGS.get(norm(header))


def find_sheet(source: SheetSource, name: str) -> str | None:
    """The sheet of a source named ``name`` as the reader finds it (case, spaces and
    punctuation ignored)."""
    return _Book(source).find(name)


class _Problems:
    def __init__(self) -> None:
        self.items: list[Problem] = []
        self.missing_columns: set[str] = set()
        """Fields whose whole column is missing: reported once, at the header."""

    def at(self, origin: CellOrigin, field_name: str | None, message: str) -> None:
        self.items.append(Problem(message, field=field_name, origin=origin))


@dataclass(frozen=True)
class Table:
    """A sheet's rows below its header, with the header's column positions by field."""

    sheet: str
    columns: dict[str, int]
    rows: list[tuple[int, list[Value]]]  # (1-based row number, values)
    header: int = 1
    """The header's row number."""
    headers: tuple[str, ...] = ()
    """The header row's texts, as written."""

    def get(self, values: list[Value], field_name: str) -> Value:
        index = self.columns.get(field_name)
        if index is None or index >= len(values):
            return None
        value = values[index]
        return None if blank(value) else value

    def origin(self, row: int) -> CellOrigin:
        """The origin of a row of this table (for error messages)."""
        return CellOrigin(self.sheet, row, self.columns)


def find_table(sheet: str, rows: list[list[Value]], required: Sequence[str]) -> Table:
    """Find the header row (the first of the first 20 rows naming every required column)."""
    for index, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        columns: dict[str, int] = {}
        for col, value in enumerate(row):
            found = _SPELLINGS.get(norm(value)) if isinstance(value, str) else None
            if found and found not in columns:
                columns[found] = col
        if all(f in columns for f in required):
            body = [
                (index + 2 + offset, values)
                for offset, values in enumerate(rows[index + 1 :])
                # any() is a fast first test; a row of zeros or spaces needs the slow one
                if any(values) or not all(blank(v) for v in values)
            ]
            headers = tuple(text_of(v) for v in row if not blank(v))
            return Table(sheet, columns, body, index + 1, headers)
    names = ", ".join(COLUMNS[f][0] for f in required)
    best = max(rows[:HEADER_SEARCH_ROWS], key=_known_headers, default=[])
    if _known_headers(best):
        headers = tuple(text_of(v) for v in best if not blank(v))
        number = rows.index(best) + 1
        lacking = [f for f in required if f not in {_SPELLINGS.get(norm(h)) for h in headers}]
        hints = "; ".join(missing_column(f, headers) for f in lacking)
        raise XlrallyError(f"{quote_sheet(sheet)}!A{number}: {hints}")
    raise XlrallyError(
        f"{quote_sheet(sheet)}: no header row with the columns {names} in the first "
        f"{HEADER_SEARCH_ROWS} rows"
    )


def _known_headers(row: list[Value]) -> int:
    return sum(isinstance(v, str) and norm(v) in _SPELLINGS for v in row)


def missing_column(field_name: str, headers: Sequence[str]) -> str:
    """Why a column was not found: the headers there are, and the closest unknown one
    (``if 'No. of rounds' is it, rename it 'Rounds'``)."""
    wanted = COLUMNS[field_name][0]
    listed = ", ".join(repr(h) for h in headers) or "none"
    message = f"no {wanted} column (the headers are {listed})"

    def likeness(header: str) -> float:
        return max(
            difflib.SequenceMatcher(None, norm(header), norm(spelling)).ratio()
            for spelling in COLUMNS[field_name]
        )

    unknown = [h for h in headers if norm(h) not in _SPELLINGS]
    closest = max(unknown, key=likeness, default=None)
    if closest is not None and likeness(closest) >= 0.5:
        message += f"; if {closest!r} is it, rename it {wanted!r}"
    return message


class _Book:
    """Sheet lookup by normalised name."""

    def __init__(self, source: SheetSource) -> None:
        self.source = source
        self.names = {norm(name): name for name in reversed(source.sheet_names())}
        self._rows: dict[str, list[list[Value]]] = {}

    def find(self, name: str) -> str | None:
        return self.names.get(norm(name))

    def need(self, name: str) -> str:
        found = self.find(name)
        if found is None:
            raise XlrallyError(f"the workbook has no {name!r} sheet")
        return found

    def rows(self, sheet: str) -> list[list[Value]]:
        """The sheet's values, read once (a live workbook's read is a call into Excel)."""
        if sheet not in self._rows:
            self._rows[sheet] = self.source.values(sheet)
        return self._rows[sheet]


def read_settings(book: _Book) -> tuple[str, dict[str, tuple[Value, CellOrigin]]]:
    """The system key and the Settings sheet's other values with their cells."""
    sheet = book.need("Settings")
    found: dict[str, tuple[Value, CellOrigin]] = {}
    for number, row in enumerate(book.rows(sheet), start=1):
        if not row or blank(row[0]):
            continue
        key = norm(row[0])
        if key in SETTINGS_KEYS and key not in found:
            value = row[1] if len(row) > 1 and not blank(row[1]) else None
            found[key] = (value, CellOrigin(sheet, number, {"setting": 0, "value": 1}))
    if "system" not in found or found["system"][0] is None:
        raise XlrallyError(
            f"{quote_sheet(sheet)}: no System setting (column A 'System', column B one of "
            f"{known()})"
        )
    system_value, origin = found["system"]
    system = lookup(str(system_value))
    if system is None:
        raise XlrallyError(
            f"{origin.where('value')}: unknown system {short(str(system_value))!r}: use one of "
            f"{known()}"
        )
    return system.key, found


class _SettingsReader:
    """Typed access to the Settings sheet's values, recording bad cells as problems."""

    def __init__(self, found: dict[str, tuple[Value, CellOrigin]], problems: _Problems) -> None:
        self.found = found
        self.problems = problems

    def _raw(self, key: str) -> tuple[Value, CellOrigin] | None:
        entry = self.found.get(key)
        return None if entry is None or entry[0] is None else entry

    def text(self, key: str) -> str:
        entry = self._raw(key)
        return "" if entry is None else text_of(entry[0])

    def choice(self, key: str, choices: Sequence[str]) -> str:
        """One of ``choices`` (any case); the first when blank."""
        entry = self._raw(key)
        if entry is None:
            return choices[0]
        chosen = " ".join(text_of(entry[0]).split()).casefold()  # dd/mm/yyyy ≠ dd.mm.yyyy
        if chosen not in choices:
            listed = ", ".join(choices[:-1]) + f" or {choices[-1]}"
            shown = short(text_of(entry[0]))
            self.problems.at(
                entry[1], "value", f"{SETTINGS_KEYS[key]} must be {listed}, not {shown!r}"
            )
            return choices[0]
        return chosen

    def number(self, key: str, convert: Callable[[Value, str], float] = to_number) -> float | None:
        """The setting as a number (None when blank); a bad one is a problem at its cell."""
        entry = self._raw(key)
        if entry is None:
            return None
        try:
            return convert(entry[0], SETTINGS_KEYS[key])
        except ValueError as error:
            self.problems.at(entry[1], "value", str(error))
            return None

    def positive(self, key: str) -> float | None:
        """The setting as a number more than 0 (None when blank or bad; a bad one is a problem
        at its cell)."""
        entry = self._raw(key)
        number = self.number(key)
        if entry is None or number is None:
            return None
        if number <= 0:
            self.problems.at(
                entry[1], "value", f"{SETTINGS_KEYS[key]} must be more than 0, not {show(number)}"
            )
            return None
        return number

    def whole(self, key: str, minimum: int = 1) -> int | None:
        entry = self._raw(key)
        number = self.number(key)
        if entry is None or number is None:
            return None
        if not float(number).is_integer() or number < minimum:
            message = f"{SETTINGS_KEYS[key]} must be a whole number of at least {minimum}"
            self.problems.at(entry[1], "value", f"{message}, not {number}")
            return None
        return int(number)

    def tie_breaks(self) -> tuple[str, ...]:
        entry = self._raw("tiebreak")
        if entry is None:
            return ()
        try:
            return parse_tie_breaks(text_of(entry[0]))
        except XlrallyError as error:
            self.problems.at(entry[1], "value", str(error))
            return ()


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


def _points_table(
    book: _Book, problems: _Problems, notes: list[str]
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    sheet = book.find("Points")
    if sheet is None:
        return (), ()
    table = find_table(sheet, book.rows(sheet), ("rank", "points"))
    points: dict[int, float] = {}
    bonus: dict[int, float] = {}
    for number, values in table.rows:
        origin = table.origin(number)
        try:
            rank = _place(table.get(values, "rank"), "rank")
        except ValueError as error:
            problems.at(origin, "rank", str(error))
            continue
        for field_name, target in (("points", points), ("bonus", bonus)):
            value = table.get(values, field_name)
            if value is None:
                continue
            try:
                target[rank] = to_number(value, field_name)
            except ValueError as error:
                problems.at(origin, field_name, str(error))

    def by_rank(table_: dict[int, float]) -> tuple[float, ...]:
        return tuple(table_.get(r, 0) for r in range(1, max(table_, default=0) + 1))

    notes.extend(_points_notes(points))
    return by_rank(points), by_rank(bonus)


def _place(value: Value, what: str) -> int:
    """A place in a table (Points, Prizes): a whole number from 1."""
    number = to_number(value, what)
    if not float(number).is_integer() or number < 1:
        raise ValueError(f"{what} must be a whole number from 1, not {number}")
    return int(number)


def to_share(value: Value, what: str) -> float:
    """A share of something as a fraction: ``50%`` text, or a number: up to 1 a fraction (a
    cell formatted as a percentage holds 0.5 for 50%), above 1 a percentage (50).

    >>> to_share("50%", "share"), to_share(0.5, "share"), to_share(50, "share")
    (0.5, 0.5, 0.5)
    """
    if isinstance(value, str) and value.strip().endswith("%"):
        number = to_number(value.strip()[:-1], what) / 100
    else:
        number = to_number(value, what)
        number = number if number <= 1 else number / 100
    if not 0 <= number <= 1:
        raise ValueError(f"{what} must be between 0% and 100%, not {value!r}")
    return float(number)


def _read_prizes(book: _Book, problems: _Problems) -> tuple[Prize, ...]:
    """The Prizes sheet: `Place`, `Amount` or `Share` (of the pot), optional `Section`."""
    sheet = book.find("Prizes")
    if sheet is None:
        return ()
    table = find_table(sheet, book.rows(sheet), ("rank",))
    prizes = []
    for number, values in table.rows:
        origin = table.origin(number)
        try:
            place = _place(table.get(values, "rank"), "place")
        except ValueError as error:
            problems.at(origin, "rank", str(error))
            continue
        amount, share = table.get(values, "amount"), table.get(values, "share")
        section = text_of(table.get(values, "section"))
        try:
            if amount is not None and share is None:
                prize = Prize(place, amount=to_number(amount, "amount"), section=section)
            elif share is not None and amount is None:
                prize = Prize(place, share=to_share(share, "share"), section=section)
            else:
                problems.at(origin, "amount", "give the place an Amount or a Share of the pot")
                continue
        except ValueError as error:
            problems.at(origin, "amount" if amount is not None else "share", str(error))
            continue
        prizes.append(prize)
    return tuple(prizes)


def read_league(source: SheetSource) -> League:
    """Read a whole league from a workbook. Raises LeagueProblems/XlrallyError naming cells.

    When cells cannot be read, the core's own checks still run on the rest, so that every
    problem of the workbook is reported at once.
    """
    book = _Book(source)
    problems = _Problems()
    system, found = read_settings(book)
    setting = _SettingsReader(found, problems)
    notes: list[str] = []
    if SYSTEMS[system].points_table:
        points, bonus = _points_table(book, problems, notes)
    else:
        points, bonus = (), ()
    structure = PointStructure(
        points=points,
        bonus=bonus,
        participating=_or(setting.number("participating"), 0),
        multiplier=_or(setting.number("multiplier"), 1),
        player_count_factor=_or(setting.number("playercountfactor"), 0),
        player_count_to_rank=setting.whole("playercounttorank"),
    )
    settings = Settings(
        system=system,
        league=setting.text("league"),
        season=setting.text("season"),
        best_x=setting.whole("bestx"),
        events_cap=setting.whole("eventscap") or DEFAULT_EVENTS_CAP,
        structure=structure,
        tie_breaks=setting.tie_breaks(),
        shared_places=setting.choice("sharedplaces", SHARED_PLACES),
        date_format=setting.choice("dateformat", DATE_FORMATS),
        min_events=setting.whole("minimumevents") or 0,
        below_minimum=setting.choice("belowminimum", BELOW_MINIMUM),
        prizes=_read_prizes(book, problems),
        pot=_or(setting.number("pot"), 0),
        pot_share=_or(setting.number("potshare", to_share), 0),  # 20%, 20 or 0.2
        currency_unit=_or(setting.positive("currencyunit"), 0.01),
    )
    # How a TRF file's codes count in a rally (read by `xlrally import`), checked here so that
    # a bad value is named by `check` and sync too.
    setting.choice("requestedbyes", BYE_RULES)
    setting.choice("forfeitwins", FORFEIT_RULES)
    setting.choice("lichessh", LICHESS_RULES)
    events = _read_events(book, system, problems)
    countries: dict[str, str] = {}
    results = _read_results(book, system, [e.name for e in events], problems, countries)
    aliases, players, sections = _read_players(book, problems)
    notes.extend(_stray_sheets(book, system, [e.name for e in events]))
    notes.extend(_unknown_settings(book))
    league = League(
        settings,
        tuple(events),
        tuple(results),
        aliases,
        players,
        countries,
        sections=sections,
        notes=tuple(notes),
    )
    if problems.items:  # and the core's own problems of the rest, all reported at once
        check_league(league, problems.items, problems.missing_columns)
    return league


def read_import_rules(source: SheetSource) -> tuple[str, str, str]:
    """The Settings' ``Requested byes``, ``Forfeit wins`` and ``Lichess H`` (see
    xlrally.formats.trf)."""
    problems = _Problems()
    setting = _SettingsReader(read_settings(_Book(source))[1], problems)
    rules = (
        setting.choice("requestedbyes", BYE_RULES),
        setting.choice("forfeitwins", FORFEIT_RULES),
        setting.choice("lichessh", LICHESS_RULES),
    )
    if problems.items:
        raise LeagueProblems(problems.items)
    return rules


def _read_events(book: _Book, system: str, problems: _Problems) -> list[Event]:
    sheet = book.need("Events")
    table = find_table(sheet, book.rows(sheet), ("event",))
    scoring = SYSTEMS[system]
    needed = ["rounds"] if scoring.rounds == "required" else []
    needed += ["date"] if scoring.dated else []
    for field_name in needed:
        if field_name not in table.columns and table.rows:
            header = CellOrigin(sheet, table.header, {})
            problems.at(header, None, missing_column(field_name, table.headers))
            problems.missing_columns.add(field_name)
    events = []
    for number, values in table.rows:
        origin = table.origin(number)
        name = text_of(table.get(values, "event"))
        if not name:
            problems.at(origin, "event", "event name is missing")
            continue
        fields: dict[str, object] = {}
        converters: tuple[tuple[str, Callable[[Value, str], object]], ...] = (
            ("date", lambda value, what: to_date(value, what, book.source.epoch)),
            ("rounds", to_number),
            ("buy-in", to_number),
            ("players", to_number),
            ("world championship", to_bool),
            ("weight", to_number),
            ("value", to_number),
        )
        for field_name, convert in converters:
            if field_name not in scoring.event_inputs:
                continue  # a column the system does not read may mean anything
            value = table.get(values, field_name)
            if value is None:
                continue
            try:
                fields[field_name] = convert(value, field_name)
            except ValueError as error:
                problems.at(origin, field_name, str(error))
        status = norm(table.get(values, "status") or "")
        if status not in {"", "ranked", "pending"}:
            shown = short(text_of(table.get(values, "status")))
            problems.at(origin, "status", f"status must be ranked, pending or blank, not {shown!r}")
        events.append(
            Event(
                name,
                date=fields.get("date"),  # type: ignore[arg-type]
                rounds=fields.get("rounds"),
                buy_in=fields.get("buy-in"),
                world_championship=bool(fields.get("world championship", False)),
                players=fields.get("players"),
                pending=status == "pending",
                origin=origin,
                season=text_of(table.get(values, "season")),
                weight=fields.get("weight"),
                value=fields.get("value"),
            )
        )
    return events


def _read_results(
    book: _Book,
    system: str,
    event_names: list[str],
    problems: _Problems,
    countries: dict[str, str],
) -> list[Result]:
    fields = SYSTEMS[system].result_fields
    tables: list[tuple[Table, str | None]] = []
    results_sheet = book.find("Results")
    if results_sheet is not None:
        tables.append(
            (find_table(results_sheet, book.rows(results_sheet), ("event", *fields[:2])), None)
        )
    for name in event_names:
        sheet = book.find(name)
        if sheet is not None and norm(sheet) not in RESERVED_SHEETS:
            tables.append((find_table(sheet, book.rows(sheet), fields[:2]), name))
    if not tables:
        raise XlrallyError("the workbook has no 'Results' sheet and no sheet named after an event")
    results = []
    for table, event in tables:
        results.extend(_table_results(table, event, problems, countries))
    return results


_RESULT_NUMBERS = ("points", "games", "byes", "rank", "buy-in", "total")
"""Result fields that hold numbers, in the order of :class:`Result`'s fields."""

_new_origin = functools.partial(tuple.__new__, CellOrigin)
_new_result = functools.partial(tuple.__new__, Result)
"""``Result._make`` without its Python-level call and length check: the callers zip exactly
the fields (the event, the player, :data:`_RESULT_NUMBERS` and the origin)."""


def _column(rows: list[list[Value]], index: int) -> list[Value]:
    """One column's values (None where a row is too short)."""
    if rows and min(map(len, rows)) > index:  # the usual case (python-calamine's rows are
        return list(map(operator.itemgetter(index), rows))  # all as wide), at C speed
    return [r[index] if index < len(r) else None for r in rows]


def _texts(values: list[Value]) -> list[str]:
    """A column of names as texts, without the spaces around them."""
    return [v.strip() if type(v) is str else text_of(v) for v in values]


def _numbers(values: list[Value], field_name: str, bad: dict[int, tuple[str, str]]) -> list[object]:
    """A column as numbers: numbers kept, blanks None, numeric text converted; anything else is
    recorded in ``bad`` (row index -> field, message) and becomes None."""
    out: list[object] = [v if type(v) is float or type(v) is int else None for v in values]
    odd = [i for i, v in enumerate(values) if v is not None and v != "" and out[i] is None]
    for i in odd:
        if blank(values[i]):
            continue
        try:
            out[i] = to_number(values[i], field_name)
        except ValueError as error:
            bad.setdefault(i, (field_name, str(error)))
    return out


def _table_results(
    table: Table, event: str | None, problems: _Problems, countries: dict[str, str]
) -> list[Result]:
    """The results of one sheet, converted column by column: a big league has 200,000 rows,
    and list comprehensions over columns are several times faster than a loop over rows."""
    body = [values for _, values in table.rows]
    numbers = [r for r, _ in table.rows]
    sheet, columns = table.sheet, table.columns
    # tuple.__new__ through partial: made at C speed, without a Python call for each row
    origins = list(
        map(_new_origin, zip(itertools.repeat(sheet), numbers, itertools.repeat(columns)))
    )
    # Interned: the reader makes a new text for every cell, and a league repeats a few
    # thousand names (a million results, once the sheet's rows are released: -100 MB).
    players = list(map(sys.intern, _texts(_column(body, columns["player"]))))
    if "country" in columns:
        for player, value in zip(players, _column(body, columns["country"]), strict=True):
            if not blank(value):
                countries[player] = text_of(value)
    if event is None:
        column = _column(body, columns["event"])  # a Results sheet has one (find_table)
        events = list(map(sys.intern, _texts(column)))
    else:
        events = [event] * len(body)
    bad: dict[int, tuple[str, str]] = {}
    fields = [
        _numbers(_column(body, columns[f]), f, bad) if f in columns else [None] * len(body)
        for f in _RESULT_NUMBERS
    ]
    rows = zip(events, players, *fields, origins, strict=True)
    if not bad and all(events) and all(players):
        return list(map(_new_result, rows))  # the usual case, at C speed
    results = []
    for i, row in enumerate(rows):
        if not row[0]:
            problems.at(origins[i], "event", "event is missing")
        elif not row[1]:
            problems.at(origins[i], "player", "player name is missing")
        else:
            if i in bad:
                problems.at(origins[i], *bad[i])
            results.append(Result._make(row))
    return results


def _points_notes(points: dict[int, float]) -> list[str]:
    """Warnings about a Points table that may not mean what it says: ranks without a row
    (those places score 0) and points that grow as the rank worsens. A table may mean either,
    so each is said once, as a warning."""
    notes = []
    gaps = [str(rank) for rank in range(1, max(points, default=0)) if rank not in points]
    if gaps:
        notes.append(
            f"Points: no row for rank {', '.join(gaps)}, so that place scores 0 points; add the "
            "row if that is not meant"
        )
    given = sorted(points.items())
    for (better, high), (worse, low) in itertools.pairwise(given):
        if low > high:
            notes.append(
                f"Points: rank {worse} gets more points than rank {better} ({show(low)} > "
                f"{show(high)}); correct the table if that is not meant"
            )
            break
    return notes


def _stray_sheets(book: _Book, system: str, events: list[str]) -> list[str]:
    """Warnings about sheets that are not read but look as if they should be: results under a
    name that is no event's (``Jul 2026 results``), and standings under another name than
    Standings (an old copy, which sync never updates). Only sheets whose names suggest it are
    opened."""
    fields = SYSTEMS[system].result_fields[:2]
    taken = {norm(e) for e in events} | RESERVED_SHEETS
    notes = []
    for sheet in book.source.sheet_names():
        key = norm(sheet)
        if key in taken:
            continue
        close = difflib.get_close_matches(sheet, events, 1, 0.6)
        if close or "result" in key:
            if _has_columns(book.rows(sheet), fields):
                where = f"rename it {close[0]!r}" if close else "name it after its event"
                columns = " and ".join(COLUMNS[f][0] for f in fields)
                notes.append(
                    f"sheet {sheet!r} looks like results ({columns} columns) but is named after "
                    f"no event, so it is not read: {where}, or add the event to the Events sheet"
                )
        elif "standing" in key and _has_columns(book.rows(sheet), ("rank", "player")):
            notes.append(
                f"sheet {sheet!r} looks like standings written earlier; sync writes only "
                "'Standings' and never updates this one: delete it if it is stale"
            )
    return notes


def _unknown_settings(book: _Book) -> list[str]:
    """Warnings for Settings rows that look like a misspelt setting (``Tie-breaks`` for
    ``Tie break``): such a row is not read, and the league silently scored without it would
    look right. Rows like no setting (a heading, the user's notes) are left alone."""
    sheet = book.need("Settings")
    notes = []
    for number, row in enumerate(book.rows(sheet), start=1):
        if not row or not isinstance(row[0], str) or norm(row[0]) in SETTINGS_KEYS:
            continue
        close = difflib.get_close_matches(norm(row[0]), SETTINGS_KEYS, 1, 0.75)
        if close:
            notes.append(
                f"{quote_sheet(sheet)}!A{number}: {short(row[0])!r} is not a setting, so it "
                f"is not read: did you mean {SETTINGS_KEYS[close[0]]!r}?"
            )
    return notes


def _has_columns(rows: list[list[Value]], fields: Sequence[str]) -> bool:
    return any(
        set(fields) <= {_SPELLINGS.get(norm(v)) for v in row if isinstance(v, str)}
        for row in rows[:HEADER_SEARCH_ROWS]
    )


def _read_players(
    book: _Book, problems: _Problems
) -> tuple[dict[str, str], tuple[str, ...], dict[str, tuple[str, ...]]]:
    """The Players sheet: aliases (another spelling -> the player's name), the names listed,
    and each player's sections (``U1600, Junior``: split at commas and semicolons).

    An alias is an error, naming every cell involved, when it is given for two players, or when
    it is a listed player's name too (which also catches chains: an alias's player is listed,
    so a player that is itself an alias is caught there)."""
    sheet = book.find("Players")
    if sheet is None:
        return {}, (), {}
    table = find_table(sheet, book.rows(sheet), ("player",))
    sections: dict[str, tuple[str, ...]] = {}
    aliases: dict[str, tuple[str, CellOrigin]] = {}  # alias key -> (player, cell of the alias)
    players: dict[str, CellOrigin] = {}  # player key -> the cell where it is first listed
    pairs: list[tuple[str, str, CellOrigin]] = []
    listed: list[str] = []
    kept: dict[str, str] = {}
    for number, values in table.rows:
        player = text_of(table.get(values, "player"))
        alias = text_of(table.get(values, "alias"))
        origin = table.origin(number)
        if alias and not player:
            problems.at(origin, "player", f"alias {alias!r} has no player")
            continue
        if player:
            players.setdefault(norm(player), origin)
            listed.append(player)
            named = re.split(r"[,;]", text_of(table.get(values, "section")))
            if any(name.strip() for name in named):
                known = sections.get(player, ())
                sections[player] = tuple(
                    dict.fromkeys([*known, *(n.strip() for n in named if n.strip())])
                )
        if alias:
            pairs.append((alias, player, origin))
    for alias, player, origin in pairs:
        earlier = aliases.get(norm(alias))
        if earlier is not None and norm(earlier[0]) != norm(player):
            problems.at(
                origin,
                "alias",
                f"alias {alias!r} is given for two players: {earlier[0]!r} "
                f"({earlier[1].where('alias')}) and {player!r}; keep one",
            )
            continue
        if norm(alias) in players and norm(alias) != norm(player):
            problems.at(
                origin,
                "alias",
                f"alias {alias!r} is also a player listed at "
                f"{players[norm(alias)].where('player')}: one name cannot be two players",
            )
            continue
        if earlier is None:
            aliases[norm(alias)] = (player, origin)
            kept[alias] = player
    return kept, tuple(listed), sections
