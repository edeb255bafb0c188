"""The Points and Prizes sheets: a points system's points and bonus by rank, and what each
final place pays; with the warnings about a Points table that may not mean what it says.
"""

from __future__ import annotations

import itertools

from xlrally.core.numbers import show
from xlrally.core.prizes import Prize
from xlrally.formats.cells import text_of, to_number
from xlrally.formats.workbook.settings import to_share
from xlrally.formats.workbook.tables import Book, Problems, find_table, table_place


def points_table(
    book: Book, problems: Problems, notes: list[str]
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
            rank = table_place(table.get(values, "rank"), "rank")
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

    notes.extend(points_notes(points))
    return by_rank(points), by_rank(bonus)


def points_notes(points: dict[int, float]) -> list[str]:
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


def read_prizes(book: Book, problems: Problems) -> tuple[Prize, ...]:
    """The Prizes sheet: `Place`, `Amount` or `Share` (of the pot), optional `Section`."""
    sheet = book.find("Prizes")
    if sheet is None:
        return ()
    table = find_table(sheet, book.rows(sheet), ("rank",))
    prizes = []
    for number, values in table.rows:
        origin = table.origin(number)
        try:
            place = table_place(table.get(values, "rank"), "place")
        except ValueError as error:
            problems.at(origin, "rank", str(error))
            continue
        amount, share = table.get(values, "amount"), table.get(values, "share")
        section = text_of(table.get(values, "section"))
        try:
            if amount is not None and share is None:
                value = to_number(amount, "amount")
                prize = Prize(place, amount=value, section=section, origin=origin)
            elif share is not None and amount is None:
                fraction = to_share(share, "share")
                prize = Prize(place, share=fraction, section=section, origin=origin)
            else:
                problems.at(origin, "amount", "give the place an Amount or a Share of the pot")
                continue
        except ValueError as error:
            problems.at(origin, "amount" if amount is not None else "share", str(error))
            continue
        prizes.append(prize)
    return tuple(prizes)
