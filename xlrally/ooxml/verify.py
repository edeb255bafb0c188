"""The check of a planned package before anything is committed: every changed part is
namespace-well-formed, relationship ids and sheet ids are unique, every sheet's relationship
exists, and every cell format used leads to the look it was meant to have.
"""

from __future__ import annotations

from xlrally.core.errors import WorkbookError
from xlrally.ooxml.constants import NS_MAIN, NS_REL
from xlrally.ooxml.edit import Edit
from xlrally.ooxml.styles import Styles
from xlrally.ooxml.xmlpart import XmlPart, check_namespaces


def without_cells(sheet: bytes) -> bytes:
    """A sheet part written by :func:`sheet_xml` with its ``<sheetData>`` body left out."""
    opening = sheet.index(b"<sheetData>") + len(b"<sheetData>")
    return sheet[:opening] + sheet[sheet.rindex(b"</sheetData>") :]


def verify(edit: Edit, styles: Styles, written: str) -> None:
    """Check the planned package before anything is committed (see the module docstring).

    Of the written ``sheet`` only what surrounds the cells is parsed (the settings kept from
    the old sheet): the cells are xlrally's own escaped output, and parsing them again would
    cost a quarter of a second on a big league.
    """
    for part, data in edit.changed.items():
        if part.endswith((".xml", ".rels")):
            check_namespaces(part, without_cells(data) if part == written else data)
        if part.endswith(".rels"):
            ids = [r.get("", "Id") for r in XmlPart(part, data).root.children]
            if len(ids) != len(set(ids)):
                raise WorkbookError(f"{part}: a relationship id would be used twice")
    workbook = edit.package.workbook_part
    if workbook in edit.changed:
        book = XmlPart(workbook, edit.changed[workbook])
        sheets = book.find(NS_MAIN, "sheet")
        ids = [s.get("", "sheetId") for s in sheets]
        names = [(s.get("", "name") or "").casefold() for s in sheets]
        if len(set(ids)) != len(ids) or len(set(names)) != len(names):
            raise WorkbookError(f"{workbook}: a sheet id or name would be used twice")
        rels_part = edit.package.rels_part(workbook)
        rels = XmlPart(rels_part, edit.data(rels_part))
        known = {r.get("", "Id") for r in rels.root.children}
        for sheet in sheets:
            if sheet.get(NS_REL, "id") not in known:
                raise WorkbookError(f"{workbook}: sheet {sheet.get('', 'name')!r} lost its part")
    styles.verify()
