"""The results: the Results sheet and the sheets named after an event, read column by column
into core results (a big league has 200,000 rows).
"""

from __future__ import annotations

import functools
import itertools
import operator
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import cast

from xlrally.core.errors import XlrallyError
from xlrally.core.model import RESULT_NUMBERS, Result
from xlrally.core.numbers import MAX_AMOUNT, grouped
from xlrally.core.systems import SYSTEMS
from xlrally.formats.cells import Value, blank, norm, text_of, to_number
from xlrally.formats.workbook.tables import (
    Book,
    CellOrigin,
    ColumnBody,
    Problems,
    Table,
    read_table,
)
from xlrally.formats.workbook.vocabulary import RESERVED_SHEETS


def read_results(
    book: Book,
    system: str,
    event_names: list[str],
    problems: Problems,
    countries: dict[str, str],
) -> list[Result]:
    fields = SYSTEMS[system].result_fields
    tables: list[tuple[Table, str | None]] = []
    results_sheet = book.find("Results")
    if results_sheet is not None:
        tables.append((read_table(book, results_sheet, ("event", *fields[:2])), None))
    for name in event_names:
        sheet = book.find(name)
        if sheet is not None and norm(sheet) not in RESERVED_SHEETS:
            tables.append((read_table(book, sheet, fields[:2]), name))
    if not tables:
        raise XlrallyError("the workbook has no 'Results' sheet and no sheet named after an event")
    knockouts = SYSTEMS[system].takes_knockouts  # other systems' columns may mean anything
    results = []
    for table, event in tables:
        results.extend(_table_results(table, event, problems, countries, knockouts))
    return results


_new_origin = functools.partial(tuple.__new__, CellOrigin)
_new_result = functools.partial(tuple.__new__, Result)
"""``Result._make`` without its Python-level call and length check: the callers zip exactly
the fields (the event, the player, :data:`RESULT_NUMBERS` and the origin)."""


def _columns(rows: Sequence[Sequence[Value]], wanted: Iterable[int]) -> dict[int, list[Value]]:
    """The columns at the ``wanted`` positions, by position (None where a row is too short).

    The usual case (python-calamine's rows are all as wide) is transposed at C speed, a block
    of rows at a time: ``zip(*block)`` visits each row once, where a pass per column visited
    every row again for each (8 columns of 200,000 rows: 0.3 s against 0.09 s); by blocks, the
    columns not wanted (notes, a club's own) are never held whole."""
    positions = set(wanted)
    if isinstance(rows, ColumnBody):  # read as columns
        return {i: rows.column(i) for i in positions}
    width = max(positions, default=-1) + 1
    if not rows or min(map(len, rows)) < width:
        return {i: [r[i] if i < len(r) else None for r in rows] for i in positions}
    columns: dict[int, list[Value]] = {i: [] for i in positions}
    for start in range(0, len(rows), _BLOCK):
        # zip stops at the block's shortest row, which holds every column wanted
        for i, column in enumerate(zip(*rows[start : start + _BLOCK])):  # noqa: B905
            if i in columns:
                columns[i].extend(column)
    return columns


_BLOCK = 4096
"""Rows transposed at a time by :func:`_columns`."""


def _texts(values: Sequence[Value]) -> list[str]:
    """A column of names as texts, without the spaces around them (at C speed when every
    cell is a text, as a column of names is)."""
    if set(map(type, values)) == {str}:
        return list(map(str.strip, cast("Sequence[str]", values)))
    return [v.strip() if type(v) is str else text_of(v) for v in values]


def _numbers(
    values: Sequence[Value], field_name: str, bad: dict[int, tuple[str, str]]
) -> list[object]:
    """A column as numbers: numbers kept, blanks None, numeric text converted; anything else is
    recorded in ``bad`` (row index -> field, message) and becomes None.

    A column of numbers and blank cells (None, or the empty text python-calamine gives an empty
    cell inside the sheet's area), as a league's are, is read at C speed: 200,000 cells in a
    few milliseconds, where a loop over them took fifty."""
    out: list[object] = list(map(_EMPTY_TEXT.get, values, values))  # "" is None, others kept
    if not set(map(type, out)) <= _NUMBERS_OR_NONE:
        out = [v if type(v) is float or type(v) is int else None for v in values]
        odd = [i for i, v in enumerate(values) if v is not None and v != "" and out[i] is None]
        for i in odd:
            if blank(values[i]):
                continue
            try:
                out[i] = to_number(values[i], field_name)
            except ValueError as error:
                bad.setdefault(i, (field_name, str(error)))
    # a slip such as 1e15 would make a pot past any club's (the numbers compared at C speed)
    if field_name in _MONEY and any(map(_OVER_MAX, filter(_given, out))):
        for i, v in enumerate(out):
            if isinstance(v, int | float) and v > MAX_AMOUNT:
                limit = f"{field_name} must be at most {grouped(MAX_AMOUNT)}, not {grouped(v)}"
                bad.setdefault(i, (field_name, limit))
    return out


_EMPTY_TEXT: dict[Value, Value] = {"": None}
_NUMBERS_OR_NONE = frozenset({float, int, type(None)})
_given = functools.partial(operator.is_not, None)
_OVER_MAX = cast("Callable[[object], bool]", MAX_AMOUNT.__lt__)
"""``MAX_AMOUNT < v`` for a number ``v`` (all :func:`_numbers` gives it): the money test."""


_MONEY = frozenset({"buy-in", "total"})
"""Result columns holding money, each at most :data:`~xlrally.core.numbers.MAX_AMOUNT`."""


_KNOCKOUT_FIELDS = frozenset({"knockouts", "re-buys", "knocked out by"})
"""Result columns read only for a system that takes knockouts (a poker system's)."""


def _table_results(
    table: Table,
    event: str | None,
    problems: Problems,
    countries: dict[str, str],
    knockouts: bool = False,
) -> list[Result]:
    """The results of one sheet, converted column by column: a big league has 200,000 rows,
    and list comprehensions over columns are several times faster than a loop over rows."""
    numbers, body = table.numbers, table.body
    sheet, columns = table.sheet, table.columns
    if not knockouts:
        columns = {f: c for f, c in columns.items() if f not in _KNOCKOUT_FIELDS}
    # tuple.__new__ through partial: made at C speed, without a Python call for each row
    origins = list(
        map(_new_origin, zip(itertools.repeat(sheet), numbers, itertools.repeat(columns)))
    )
    # Each column read is dropped once converted (pop): a million rows' column is 8 MB.
    used = ("player", "country", "event", *RESULT_NUMBERS, "knocked out by")
    column = _columns(body, [columns[f] for f in used if f in columns])
    # Interned: the reader makes a new text for every cell, and a league repeats a few
    # thousand names (a million results, once the sheet's rows are released: -100 MB).
    players = list(map(sys.intern, _texts(column.pop(columns["player"]))))
    if "country" in columns:
        for player, value in zip(players, column.pop(columns["country"]), strict=True):
            if not blank(value):
                countries[player] = text_of(value)
    if event is None:
        # a Results sheet has an event column (find_table)
        events = list(map(sys.intern, _texts(column.pop(columns["event"]))))
    else:
        events = [event] * len(body)
    bad: dict[int, tuple[str, str]] = {}
    fields = [
        _numbers(column.pop(columns[f]), f, bad) if f in columns else [None] * len(body)
        for f in RESULT_NUMBERS
    ]
    if "knocked out by" in columns:
        named = _texts(column.pop(columns["knocked out by"]))
        hitmen: list[str | None] = [sys.intern(name) if name else None for name in named]
    else:
        hitmen = [None] * len(body)
    rows = zip(events, players, *fields, hitmen, origins, strict=True)
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
