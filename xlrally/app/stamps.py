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
from xlrally.formats.cells import SheetRow, Value, column_letter, kept, norm, row_cells
from xlrally.ooxml.package import Package
from xlrally.ooxml.properties import custom_property
from xlrally.ooxml.sheet_values import cell_text, values_digest

if TYPE_CHECKING:  # here only for the types: the unchanged file's check loads none of them
    from xlrally.core.standings import Standings
    from xlrally.ooxml.reader import FileSheets
    from xlrally.ooxml.sheet_xml import SheetXml
    from xlrally.ooxml.writer import Marks

FINGERPRINT = "xlrally standings"
"""The custom document property holding the fingerprint of the Standings xlrally wrote."""

WRITTEN = "xlrally standings part"
"""The custom document property recording the Standings sheet's part as xlrally wrote it: its
CRC-32 and size, as a zip's directory lists every part. While the part still has them, its
bytes are the ones written (the sheet holds its texts inline), so the hand-edit check needs no
read-back of its values: a weekly sync of a 200,000-result league spent 0.3 s on it."""


FINGERPRINT_FORM = "v4-"
"""How a fingerprint starts. The older ``v3-`` (xlrally before 2026-12-07: a ``repr`` of each
row's values, numbers as floats) is still compared (:func:`same_values`), so a sheet written
then and edited since is still named; an older one still (``v2-``: numbers compared to the last
bit) cannot be compared and is taken as unedited, until the next write replaces it."""

V3 = "v3-"


def fingerprint(rows: Sequence[Sequence[Value]]) -> str:
    """The fingerprint of a sheet's values as a reader of the file sees them: the digest of
    :mod:`~xlrally.ooxml.sheet_values` (numbers to the 15 significant digits spreadsheet
    programs keep, 3 and 3.0 alike; texts as they are; blank cells and rows nothing, wherever
    they are). The writer makes the same digest from the texts it writes (:func:`marks`), so a
    difference means the sheet was edited since.

    >>> written = [["Rank", "Player"], [1, "Bobby"], []]
    >>> read_back = [["Rank", "Player", ""], [1.0, "Bobby"]]
    >>> fingerprint(written) == fingerprint(read_back) != fingerprint([[1, "Bob"]])
    True
    """
    return _form(values_digest(rows))


def _form(digest: str) -> str:
    return FINGERPRINT_FORM + digest[: 32 - len(FINGERPRINT_FORM)]


def comparable(stored: str) -> bool:
    """Whether a stored fingerprint is of a form this xlrally compares (:func:`same_values`)."""
    return stored.startswith((FINGERPRINT_FORM, V3))


def same_values(rows: Sequence[Sequence[Value]], stored: str) -> bool:
    """Whether a sheet holds the values fingerprinted ``stored``, compared in its form."""
    if stored.startswith(V3):
        return _v3(rows) == stored
    return fingerprint(rows) == stored


def _v3(rows: Sequence[Sequence[Value]]) -> str:
    """The fingerprint's older form: each row's values (numbers as floats to 15 significant
    digits, :func:`~xlrally.formats.cells.kept`; texts as they are; blanks as None) as one
    ``repr`` of a list, blank cells after a row's last value and blank rows after the last row
    left out.

    >>> _v3([["Rank", "Player"], [1, "Bobby"], []]) == _v3([["Rank", "Player", ""], [1.0, "Bobby"]])
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
    return V3 + digest.hexdigest()[: 32 - len(V3)]


def marks(sheet: SheetXml) -> Mapping[str, str]:
    """The custom properties a written Standings sheet gives its package: the fingerprint of
    its values (from the digest the writer made of the texts it wrote), and its part's CRC-32
    and size (:data:`WRITTEN`)."""
    return {
        FINGERPRINT: _form(sheet.values),
        WRITTEN: _listing(zlib.crc32(sheet.data), len(sheet.data)),
    }


def marks_keeping(package: Package, grid: Sequence[SheetRow]) -> Marks:
    """:func:`marks`, but where the package's fingerprint is of the older form (``v3-``) and
    still the grid's, that one is kept: an upgrade of xlrally that changes no result rewrites
    no file (:func:`kept_record`), not even for the new form of the fingerprint."""
    stored = custom_property(package, FINGERPRINT)
    if stored is None or not stored.startswith(V3):
        return marks
    if _v3([[cell.value for cell in row_cells(row)] for row in grid]) != stored:
        return marks
    return lambda sheet: {**marks(sheet), FINGERPRINT: stored}


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
    if stored is None or not comparable(stored):
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
    if same_values(current, stored):
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
            if same_values(source.values(name), stored):
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


def _shown(rows: Sequence[Sequence[Value]], r: int, c: int) -> str | None:
    return cell_text(rows[r][c] if r < len(rows) and c < len(rows[r]) else None)


def kept_record(package: Package, standings: Standings) -> tuple[str, str] | None:
    """The last sync's record (:func:`~xlrally.app.unchanged.stamp`) to keep, the package's
    digest it holds and its note, when other rules wrote it (another xlrally,
    :func:`~xlrally.app.unchanged.rules`) but the package is as that sync left it and the
    record says what this sync would (system, players, events, warnings): if these rules write
    the very Standings the file holds, the file keeps that record and is not written at all,
    so an upgrade that changes no result rewrites no file (and remembers it outside the file,
    :mod:`~xlrally.app.rechecked`, so that the next sync skips it again). None otherwise: the
    record these rules make is written with the Standings."""
    try:
        record = unchanged.record_as_written(package.zip)
    except ValueError as error:
        raise package.unreadable(str(error)) from None
    if record is None:
        return None
    written, note, facts = record
    made = json.loads(unchanged.stamp(standings))
    if facts == made:
        return None
    same = all(
        facts.get(fact) == made[fact] for fact in ("system", "players", "events", "warnings")
    )
    return (written, note) if same else None
