"""What covers a table's last row, carried over the rows an import adds: data validation and
conditional formatting ranges (also those Excel keeps in ``x14`` extensions), the sheet's filter
and its ``<dimension>`` (:func:`extend_sheet`), and an Excel table's range and its filter
(:func:`extend_table`; a table with a totals row is refused, since the new rows would write
over it). A range that ends elsewhere is left as it is."""

from __future__ import annotations

import re
from dataclasses import dataclass

from xlrally.core.errors import WorkbookError
from xlrally.formats.cells import column_letter
from xlrally.ooxml.package import NS_MAIN, column_number
from xlrally.ooxml.xmlpart import Splice, XmlPart, splice_all

_RANGE = re.compile(r"^\$?([A-Z]{1,3})\$?(\d+)(?::\$?([A-Z]{1,3})\$?(\d+))?$")


@dataclass(frozen=True)
class Rows:
    """Where a table's rows are: its header row, and the last row with anything in it before
    the import (ranges that end there are extended)."""

    header: int
    last: int


def extend_ranges(text: str, rows: Rows, new_last: int) -> str:
    """A space-separated list of ranges (``sqref``) with each range that covers the table's
    last row carried down to ``new_last``; the others unchanged.

    >>> extend_ranges("B2:B20 D2:D9 F1 G2:G99", Rows(header=1, last=20), 23)
    'B2:B23 D2:D9 F1 G2:G99'
    """
    if new_last <= rows.last or rows.last <= rows.header:
        return text
    out = []
    for token in text.split():
        match = _RANGE.match(token)
        if (
            match
            and match.group(3)
            and int(match.group(2)) <= rows.last <= int(match.group(4)) < new_last
        ):
            out.append(_ending(token, new_last))
        else:
            out.append(token)
    return " ".join(out)


def extension_splices(part: XmlPart, rows: Rows, new_last: int, widest: int) -> list[Splice]:
    """The splices that carry the sheet's own ranges over new rows (see the module docstring)
    and make its ``<dimension>`` cover them (``widest``: the last column written, 0-based)."""
    splices: list[Splice] = []
    for element in part.root.iter():
        if element.uri == NS_MAIN and element.local in ("dataValidation", "conditionalFormatting"):
            attribute = "sqref"
        elif element.uri == NS_MAIN and element.local == "autoFilter":
            attribute = "ref"
        elif element.local == "sqref" and not element.self_closing:  # x14 extensions: xm:sqref
            inner = part.inner_text(element)
            extended = extend_ranges(inner, rows, new_last)
            if extended != inner:
                splices.append((element.open_end, element.close_start, extended))
            continue
        elif element.uri == NS_MAIN and element.local == "dimension":
            ref = element.get("", "ref") or "A1"
            splices.append(part.attribute_splice(element, "ref", _cover(ref, new_last, widest)))
            continue
        else:
            continue
        value = element.get("", attribute)
        if value and (extended := extend_ranges(value, rows, new_last)) != value:
            splices.append(part.attribute_splice(element, attribute, extended))
    return splices


def extend_sheet(data: bytes, name: str, rows: Rows, new_last: int, widest: int) -> bytes:
    """The sheet's own ranges carried over new rows (see the module docstring) and its
    ``<dimension>`` made to cover them (``widest``: the last column written, 0-based)."""
    part = XmlPart(name, data)
    return splice_all(part.data, extension_splices(part, rows, new_last, widest))


def _cover(ref: str, last: int, widest: int) -> str:
    """A ``dimension`` reference grown to include row ``last`` and column ``widest``."""
    match = _RANGE.match(ref)
    if not match:
        return ref
    first_col, first_row = match.group(1), match.group(2)
    end_col = match.group(3) or first_col
    end_row = int(match.group(4) or first_row)
    end_number = max(column_number(end_col), widest + 1)
    return f"{first_col}{first_row}:{column_letter(end_number - 1)}{max(end_row, last)}"


def extend_table(data: bytes, name: str, sheet: str, rows: Rows, new_last: int) -> bytes:
    """An Excel table (``xl/tables/tableN.xml``) over the table's rows grown over the new
    rows; a table with a totals row, which the new rows would write over, is refused."""
    part = XmlPart(name, data)
    table = part.root
    ref = table.get("", "ref") or ""
    match = _RANGE.match(ref)
    if not match or not match.group(3) or new_last <= rows.last:
        return data
    first_row, end_row = int(match.group(2)), int(match.group(4))
    if not first_row <= rows.last <= end_row:
        return data  # a table elsewhere on the sheet
    shown = table.get("", "displayName") or table.get("", "name") or name
    if (table.get("", "totalsRowCount") or "0") != "0":
        raise WorkbookError(
            f"the Excel table {shown!r} on {sheet!r} has a totals row, which the new rows would "
            "write over: turn the totals row off (Table Design > Total Row), import, then turn "
            "it on again"
        )
    splices = []
    if end_row < new_last:
        splices.append(part.attribute_splice(table, "ref", _ending(ref, new_last)))
        for child in table.children:
            if child.local == "autoFilter" and (value := child.get("", "ref")):
                splices.append(part.attribute_splice(child, "ref", _ending(value, new_last)))
    return splice_all(data, splices)


def _ending(ref: str, last: int) -> str:
    """A range reference ending on row ``last`` (``A1:F9`` -> ``A1:F12``)."""
    first, second = ref.split(":")
    return f"{first}:{second.rstrip('0123456789')}{last}"
