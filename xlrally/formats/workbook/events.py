"""The Events sheet: each event's name, date, rounds, field size and the other fields its
system reads (:attr:`~xlrally.core.systems.base.System.event_inputs`), as core events.
"""

from __future__ import annotations

from collections.abc import Callable

from xlrally.core.model import Event
from xlrally.core.systems import SYSTEMS
from xlrally.formats.cells import Value, norm, short, text_of, to_bool, to_date, to_number
from xlrally.formats.workbook.tables import Book, CellOrigin, Problems, find_table
from xlrally.formats.workbook.vocabulary import missing_column


def read_events(book: Book, system: str, problems: Problems) -> list[Event]:
    sheet = book.need("Events")
    table = find_table(sheet, book.rows(sheet), ("event",))
    scoring = SYSTEMS[system]
    needed = ["rounds"] if scoring.rounds == "required" else []
    needed += ["date"] if scoring.dated else []
    for field_name in needed:
        if field_name not in table.columns and table.body:
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
