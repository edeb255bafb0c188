"""A planned edit of a package: the parts a write changes or drops, worked out before anything
is written; and the edits of shared parts a write may need (a new sheet with its relationship
and content type, the print titles and area, a recalculation on open, no calculation chain).

Shared parts are edited through :mod:`xlrally.ooxml.xmlpart`: located by a parser, spliced as
text, every other byte kept.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Callable
from concurrent.futures import Future
from html import escape

from xlrally.core.errors import WorkbookError
from xlrally.formats.cells import PrintSetup, column_letter, norm, quote_sheet
from xlrally.ooxml.constants import (
    CALC_FOLLOWERS,
    CONTENT_TYPES,
    NAMES_FOLLOWERS,
    NS_MAIN,
    NS_REL,
    WORKSHEET_CONTENT_TYPE,
    WORKSHEET_TYPE,
)
from xlrally.ooxml.escapes import NOT_IN_XML, xml_text
from xlrally.ooxml.package import Package
from xlrally.ooxml.rawzip import AHEAD_FROM, Packed, pack_ahead
from xlrally.ooxml.sheet_xml import string_item
from xlrally.ooxml.styles import Styles
from xlrally.ooxml.xmlpart import XmlPart


class Edit:
    """The parts a write changes, computed before anything is written."""

    def __init__(self, package: Package) -> None:
        self.package = package
        self.changed: dict[str, bytes] = {}
        self.dropped: set[str] = set()
        self.packed: dict[str, Packed] = {}
        """Existing parts replaced by contents compressed already (a big sheet edited as a
        stream, :mod:`xlrally.ooxml.in_place`), checked by whoever made them."""
        self._deflating: dict[str, Future[Packed]] = {}
        """Big changed parts' contents, being compressed in a thread since they were set."""

    def data(self, part: str) -> bytes:
        if part in self.changed:
            return self.changed[part]
        return self.package.read(part)

    def xml(self, part: str) -> XmlPart:
        return XmlPart(part, self.data(part))

    def set(self, part: str, data: bytes) -> None:
        self._deflating.pop(part, None)
        if self.package.has(part) and self.package.read(part) == data:
            self.changed.pop(part, None)
        else:
            self.changed[part] = data
            if len(data) >= AHEAD_FROM:
                self._deflating[part] = pack_ahead(data)

    def deflated(self, part: str) -> Packed | None:
        """A changed part's contents compressed, when that began as they were set (a big part:
        :func:`~xlrally.ooxml.rawzip.pack_ahead`); None otherwise."""
        packed = self._deflating.get(part)
        return None if packed is None else packed.result()


def refers_to(package: Package, sheet_name: str, skip: str) -> bool:
    """True if a defined name or a formula on another sheet mentions the sheet (the sheet's
    print area and print titles do not count: they are xlrally's, or printing only)."""
    literal = xml_text(sheet_name).encode("utf-8").lower()
    needle = re.escape(xml_text(sheet_name).encode("utf-8"))
    printing = rb'(?![^>]*\bname="_xlnm\.Print_(?:Area|Titles)")'
    defined = re.compile(
        rb"<(?:\w+:)?definedName\b" + printing + rb"[^>]*>[^<]*" + needle, re.IGNORECASE
    )
    if defined.search(package.read(package.workbook_part)):
        return True
    formula = re.compile(rb"<(?:\w+:)?f\b[^>]*>[^<]*" + needle, re.IGNORECASE)
    for sheet in package.sheets:
        if sheet.part == skip or sheet.kind != WORKSHEET_TYPE or not package.has(sheet.part):
            continue
        if not package.has_formulas(sheet):
            continue
        tail = b""
        for chunk in package.chunks(sheet.part):
            data = tail + chunk
            if b"<f" in data and literal in data.lower() and formula.search(data):
                return True
            tail = chunk[-4096:]
    return False


def styles_part(package: Package) -> str | None:
    """The workbook's styles part (None when it has none)."""
    return package.workbook_related("/styles")


def workbook_styles(package: Package) -> tuple[str | None, Styles]:
    """The workbook's styles part (None when it has none) and its styles."""
    part = styles_part(package)
    return part, Styles(package.read(part) if part else None, part or "styles")


def shared_strings(package: Package) -> Callable[[int], str]:
    """A lookup of the workbook's shared strings, parsed only when first asked."""
    found: list[str] = []

    def lookup(index: int) -> str:
        if not found:
            part = package.workbook_related("/sharedStrings")
            if part is None or not package.has(part):
                return ""
            strings = XmlPart(part, package.read(part))
            found.extend(string_item(strings, item) for item in strings.root.children)
        return found[index] if 0 <= index < len(found) else ""

    return lookup


_PRINT_AREA = re.compile(r"'?(?:[^'!]|'')+'?!\$A(?:\$1)?:\$[A-Z]{1,3}(?:\$1048576)?")
"""A print area of whole columns from A (``$A$1:$F$1048576``, or ``$A:$F`` as Excel saves it):
the form xlrally writes, kept up to date; any other print area is the user's, left alone."""


def print_names(edit: Edit, workbook: str, name: str, setup: PrintSetup) -> None:
    """Repeat the header row on every printed page and print the table (not the Working
    column): the defined names ``_xlnm.Print_Titles`` and ``_xlnm.Print_Area`` of the sheet,
    added where missing (a user's own print area or titles are kept)."""
    book = edit.xml(workbook)
    sheets = book.first(NS_MAIN, "sheets")
    listed = [] if sheets is None else [s for s in sheets.children if s.local == "sheet"]
    index = next(i for i, s in enumerate(listed) if norm(s.get("", "name") or "") == norm(name))
    sheet = quote_sheet(name)
    wanted = {
        "_xlnm.Print_Titles": f"{sheet}!$1:$1",
        "_xlnm.Print_Area": f"{sheet}!$A$1:${column_letter(setup.columns - 1)}$1048576",
    }
    for defined, reference in wanted.items():
        book = edit.xml(workbook)
        names = book.first(NS_MAIN, "definedNames")
        existing = next(
            (
                d
                for d in ([] if names is None else names.children)
                if d.get("", "name") == defined and d.get("", "localSheetId") == str(index)
            ),
            None,
        )
        tag = book.tag(book.root, "definedName")
        markup = f'<{tag} name="{defined}" localSheetId="{index}">{escape(reference)}</{tag}>'
        if existing is not None:
            current = html.unescape(book.inner_text(existing))
            ours = defined == "_xlnm.Print_Area" and _PRINT_AREA.fullmatch(current)
            if ours and current != reference:  # (also turns $A:$F into the form openpyxl reads)
                edit.set(workbook, book.replace(existing, markup))
        elif names is not None:
            edit.set(workbook, book.append_child(names, markup))
        else:
            outer = book.tag(book.root, "definedNames")
            block = f"<{outer}>{markup}</{outer}>"
            follower = next(
                (c for c in book.root.children if c.uri == NS_MAIN and c.local in NAMES_FOLLOWERS),
                None,
            )
            if follower is not None:
                edit.set(workbook, book.insert_before(follower, block))
            else:
                edit.set(workbook, book.append_child(book.root, block))


def add_relationship(
    edit: Edit, package: Package, source: str, kind: str, target: str, content_type: str
) -> str:
    """Add a relationship from ``source`` to ``target`` (and the target's content type);
    the new id is unique among all of the part's relationships, external ones included."""
    rels_part = package.rels_part(source)
    rels = edit.xml(rels_part)
    ids = {r.get("", "Id") for r in rels.root.children}
    numbers = [int(m.group(1)) for i in ids if i and (m := re.fullmatch(r"rId(\d+)", i))]
    rel_id = f"rId{max(numbers, default=0) + 1}"  # above every rIdN: used by nothing
    relative = posixpath.relpath(target, posixpath.dirname(source)) if source else target
    relationship = (
        f'<{rels.tag(rels.root, "Relationship")} Id="{rel_id}" Type="{NS_REL}{kind}" '
        f'Target="{escape(relative)}"/>'
    )
    edit.set(rels_part, rels.append_child(rels.root, relationship))
    types = edit.xml(CONTENT_TYPES)
    if not any(o.get("", "PartName") == "/" + target for o in types.root.children):
        override = (
            f'<{types.tag(types.root, "Override")} PartName="/{escape(target)}" '
            f'ContentType="{content_type}"/>'
        )
        edit.set(CONTENT_TYPES, types.append_child(types.root, override))
    return rel_id


def new_sheet(edit: Edit, package: Package, name: str) -> str:
    """Add a worksheet named ``name`` to the workbook (its entry, relationship and content
    type); return its part, for the caller to write. A name with a character XML cannot hold
    (a control character) is refused: the workbook's part would be unreadable."""
    if NOT_IN_XML.search(name):
        raise WorkbookError(f"the sheet name {name!r} holds a control character; rename it")
    workbook = package.workbook_part
    folder = posixpath.join(posixpath.dirname(workbook), "worksheets")
    number = 1
    while (
        package.has(f"{folder}/sheet{number}.xml") or f"{folder}/sheet{number}.xml" in edit.changed
    ):
        number += 1
    part = f"{folder}/sheet{number}.xml"
    rel_id = add_relationship(edit, package, workbook, "/worksheet", part, WORKSHEET_CONTENT_TYPE)
    book = edit.xml(workbook)
    sheets = book.first(NS_MAIN, "sheets")
    if sheets is None:
        raise WorkbookError(f"{workbook}: the workbook lists no sheets")
    r = book.prefix_for(sheets, NS_REL)
    declaration = ""
    if not r:  # declared on each <sheet> (openpyxl with lxml, the OpenXML SDK) or not at all
        r = next(p for p in ("r", "xr", "rel") if p not in sheets.scope)
        declaration = f' xmlns:{r}="{NS_REL}"'
    ids = [int(i) for s in sheets.children if (i := s.get("", "sheetId") or "").isdigit()]
    element = (
        f'<{book.tag(sheets, "sheet")} name="{escape(name)}" sheetId="{max(ids, default=0) + 1}" '
        f'{r}:id="{rel_id}"{declaration}/>'
    )
    edit.set(workbook, book.append_child(sheets, element))
    return part


def recalc_on_open(edit: Edit, workbook: str) -> None:
    """Set fullCalcOnLoad="1" on <calcPr> (adding <calcPr> in its schema place if missing)."""
    book = edit.xml(workbook)
    calc = book.root.named(NS_MAIN, "calcPr")
    if calc:
        if calc[0].get("", "fullCalcOnLoad") not in {"1", "true"}:
            edit.set(workbook, book.set_attribute(calc[0], "fullCalcOnLoad", "1"))
        return
    element = f'<{book.tag(book.root, "calcPr")} fullCalcOnLoad="1"/>'
    follower = next(
        (c for c in book.root.children if c.uri == NS_MAIN and c.local in CALC_FOLLOWERS), None
    )
    if follower is not None:
        edit.set(workbook, book.insert_before(follower, element))
    else:
        edit.set(workbook, book.append_child(book.root, element))


def drop_calc_chain(edit: Edit, package: Package, workbook: str) -> None:
    rels_part = package.rels_part(workbook)
    rels = edit.xml(rels_part)
    for relationship in rels.root.children:
        if (relationship.get("", "Type") or "").endswith("/calcChain"):
            target = posixpath.normpath(
                posixpath.join(posixpath.dirname(workbook), relationship.get("", "Target") or "")
            )
            edit.set(rels_part, rels.remove(relationship))
            types = edit.xml(CONTENT_TYPES)
            for override in types.root.children:
                if override.get("", "PartName") == "/" + target:
                    edit.set(CONTENT_TYPES, types.remove(override))
                    break
            edit.dropped.add(target)
            return
