"""What xlrally records in a workbook it writes, and what it makes of that later: a
fingerprint of the Standings it wrote (so that a sheet changed by hand since is said), and
the record of the sync kept with it (:mod:`xlrally.app.unchanged`: the digest of the package
as written with what that sync found, so that a sync of the file unchanged since is skipped).
Both are custom document properties; :mod:`xlrally.ooxml.writer` writes any it is given.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from xlrally.app import unchanged
from xlrally.core.errors import XlrallyError
from xlrally.formats.cells import Row, Value, column_letter, kept, norm
from xlrally.ooxml.package import Package
from xlrally.ooxml.properties import custom_property

if TYPE_CHECKING:  # here only for the types: the unchanged file's check loads neither
    from xlrally.core.standings import Standings
    from xlrally.ooxml.reader import FileSheets

FINGERPRINT = "xlrally standings"
"""The custom document property holding the fingerprint of the Standings xlrally wrote."""

WRITTEN = "xlrally standings part"
"""The custom document property recording the Standings sheet's part as xlrally wrote it: its
CRC-32 and size, as a zip's directory lists every part. While the part still has them, its
bytes are the ones written (the sheet holds its texts inline), so the hand-edit check needs no
read-back of its values: a weekly sync of a 200,000-result league spent 0.3 s on it."""


FINGERPRINT_FORM = "v3-"
"""How a fingerprint starts; one without it (an older xlrally's: ``v2-`` compared numbers to
the last bit) cannot be compared and is taken as unedited, until the next write replaces it."""


def fingerprint(rows: Sequence[Sequence[Value]]) -> str:
    """A digest of a sheet's values as a reader of the file sees them (:func:`as_read`):
    numbers by value to the 15 significant digits every spreadsheet program keeps
    (:func:`~xlrally.formats.cells.kept`; 3 and 3.0 alike), texts as they are, blank cells
    alike however they are
    blank, blank cells after a row's last value and blank rows after the last row left out.
    Equal for the grid xlrally writes and for the same sheet read back, so a difference means
    the sheet was edited since. Each row is one ``repr`` of a list (a call per cell would cost
    twice the time at 200,000 cells), hashed as it is made (a million cells' texts at once
    were the peak of a sync's memory).

    >>> written = [["Rank", "Player"], [1, "Bobby"], []]
    >>> read_back = [["Rank", "Player", ""], [1.0, "Bobby"]]
    >>> fingerprint(written) == fingerprint(read_back) != fingerprint([[1, "Bob"]])
    True
    """
    digest = hashlib.sha256()
    blank_rows = 0  # hashed only when a row with values follows them
    for row in rows:
        seen = [
            None
            if value is None or value == ""
            else float(value)
            if type(value) is int
            else kept(value)
            if type(value) is float  # not bool: a bool is shown as text
            else str(value)
            for value in row
        ]
        while seen and seen[-1] is None:
            seen.pop()
        if not seen:
            blank_rows += 1
            continue
        digest.update(b"[]\n" * blank_rows + repr(seen).encode() + b"\n")
        blank_rows = 0
    return FINGERPRINT_FORM + digest.hexdigest()[: 32 - len(FINGERPRINT_FORM)]


def as_read(value: Value) -> float | str | None:
    """A cell's value as a reader of the file sees it: None for a blank, a float for any
    number, the text otherwise (what :func:`fingerprint` and a comparison with a sheet read
    back go by; numbers to 15 significant digits, :func:`~xlrally.formats.cells.kept`)."""
    if value is None or value == "":
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return kept(float(value))
    return str(value)


def marks(grid: Sequence[Row], sheet: bytes) -> Mapping[str, str]:
    """The custom properties a written Standings sheet gives its package: the fingerprint of
    its values, and its part's CRC-32 and size (:data:`WRITTEN`) from ``sheet``, its XML."""
    return {
        FINGERPRINT: fingerprint([[c.value for c in r] for r in grid]),
        WRITTEN: _listing(zlib.crc32(sheet), len(sheet)),
    }


def _listing(crc: int, size: int) -> str:
    return f"{crc:08x} {size}"


def as_written(package: Package, part: str) -> bool:
    """True when the sheet part is still the one xlrally wrote (:data:`WRITTEN`): its CRC-32
    and size in the package's directory are those recorded when it was written."""
    stored = custom_property(package, WRITTEN)
    return stored is not None and package.has(part) and stored == _listing(*package.listed(part))


def hand_edits(source: FileSheets, standings: Standings) -> str | None:
    """A warning when the Standings sheet was changed by hand since xlrally wrote it: its
    values no longer match the fingerprint xlrally kept (a custom document property) when it
    wrote them. Names the cells that now differ from the standings (at most five)."""
    from xlrally.formats.grid import SHEET_NAME, standings_grid

    stored = custom_property(source.package, FINGERPRINT)
    if stored is None or not stored.startswith(FINGERPRINT_FORM):
        return None
    name = next((n for n in source.sheet_names() if norm(n) == norm(SHEET_NAME)), None)
    if name is None:
        return renamed(source, stored)
    sheet = source.package.sheet(name)
    if sheet is not None and as_written(source.package, sheet.part):
        return None
    try:
        current = source.values(name)
    except XlrallyError:
        current = []  # it cannot even be read as it is: not what xlrally wrote
    if fingerprint(current) == stored:
        return None
    written = [[cell.value for cell in row] for row in standings_grid(standings)]
    differ = [
        f"{column_letter(c)}{r + 1}"
        for r in range(max(len(current), len(written)))
        for c in range(max(_width(current, r), _width(written, r)))
        if _shown(current, r, c) != _shown(written, r, c)
    ]
    cells = ", ".join(differ[:5]) + (f" and {len(differ) - 5} more" if len(differ) > 5 else "")
    return (
        f"the Standings sheet was changed by hand since xlrally wrote it (cells that differ from "
        f"the standings now: {cells or 'none'}); a sync replaces it, so keep notes on another sheet"
    )


def renamed(source: FileSheets, stored: str) -> str | None:
    """A warning when the workbook has no Standings sheet but another sheet holds exactly the
    standings xlrally last wrote (their fingerprint is the one kept): the Standings sheet was
    renamed. xlrally writes only a sheet named Standings; the renamed one is left as it is
    (it may be a season kept on purpose), but not without a word: it is no longer updated."""
    from xlrally.formats.grid import SHEET_NAME

    for name in source.sheet_names():
        if "standing" in norm(name):
            continue  # warned about by its name already (formats.workbook.notes.stray_sheets)
        try:
            if fingerprint(source.values(name)) == stored:
                return (
                    f"the sheet {name!r} is the Standings sheet xlrally wrote, renamed: xlrally "
                    f"updates only a sheet named {SHEET_NAME}, so a sync adds a new one and leaves "
                    f"{name!r} as it is, no longer updated; to keep one table, rename it back "
                    f"to {SHEET_NAME} (after deleting any new {SHEET_NAME} sheet)"
                )
        except XlrallyError:
            continue  # a sheet that cannot be read is not one xlrally wrote
    return None


def _width(rows: Sequence[Sequence[Value]], r: int) -> int:
    return len(rows[r]) if r < len(rows) else 0


def _shown(rows: Sequence[Sequence[Value]], r: int, c: int) -> object:
    return as_read(rows[r][c] if r < len(rows) and c < len(rows[r]) else None)


def kept_record(package: Package, standings: Standings) -> str | None:
    """The last sync's record (:func:`~xlrally.app.unchanged.stamp`) to keep, when other
    rules wrote it (another xlrally, :func:`~xlrally.app.unchanged.rules`) but the package
    is as that sync left it and the record says what this sync would (system, players,
    events, warnings): if these rules write the very Standings the file holds, the file keeps
    that record and is not written at all, so an upgrade that changes no result rewrites no
    file (the next sync reads it whole again). None otherwise: the record these rules make is
    written with the Standings."""
    try:
        record = unchanged.record_as_written(package.zip)
    except ValueError as error:
        raise package.unreadable(str(error)) from None
    if record is None:
        return None
    note, facts = record
    made = json.loads(unchanged.stamp(standings))
    if facts == made:
        return None
    same = all(
        facts.get(fact) == made[fact] for fact in ("system", "players", "events", "warnings")
    )
    return note if same else None
