"""The workbook's sheets as the league is read from them during an import: the sheets read at
first, with the rows the import writes laid over them (what the next sync will read from the
new file), and a new event sheet added."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from xlrally.formats.cells import Value
from xlrally.ooxml.reader import FileSheets


class Overlay:
    """A :class:`~xlrally.formats.workbook.tables.SheetSource` over the workbook read, with
    some sheets' rows laid over (the rows as the import writes them) and sheets added."""

    def __init__(
        self,
        base: FileSheets,
        rows: Mapping[str, list[list[Value]]],
        added: Iterable[str] = (),
    ) -> None:
        self.base = base
        self.rows = rows
        self.added = list(added)
        self.epoch = base.epoch

    def sheet_names(self) -> list[str]:
        return self.base.sheet_names() + self.added

    def values(self, name: str) -> list[list[Value]]:
        if name in self.rows:
            return self.rows[name]
        return self.base.values(name)


def laid_over(
    base: list[list[Value]], cells: Mapping[int, Mapping[int, Value]]
) -> list[list[Value]]:
    """The sheet's rows with the cells read back laid over them (a shallow copy: only the rows
    written are new lists)."""
    rows = list(base)
    width = len(rows[0]) if rows else 0
    for number, values in cells.items():
        while len(rows) < number:
            rows.append([""] * width)
        row = list(rows[number - 1])
        widest = max(values) + 1
        if len(row) < widest:
            row.extend([""] * (widest - len(row)))
        for column, value in values.items():
            row[column] = "" if value is None else value
        rows[number - 1] = row
    return rows
