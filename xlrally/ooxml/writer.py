"""Writing one sheet into a workbook file without touching anything else.

A workbook is a zip of XML parts. Writing the sheet changes only:

* the sheet's own part (created, or replaced whole: xlrally owns that sheet; its settings
  are kept, see :mod:`xlrally.ooxml.sheet_xml`);
* ``xl/styles.xml``, only to append the few fonts, number formats and cell formats the sheet
  uses, when they are not there yet (:mod:`xlrally.ooxml.styles`);
* when the sheet is new: ``xl/workbook.xml`` (one ``<sheet>``), its relationships and
  ``[Content_Types].xml`` (one entry each);
* ``xl/workbook.xml``'s ``<calcPr>``, to recalculate on open, when other sheets or defined names
  refer to the sheet; and ``xl/calcChain.xml`` is dropped (Excel rebuilds it) when the old
  sheet had formulas, since its entries would point at cells that are gone.

Every other part is copied as its raw compressed bytes. Shared parts are edited through
:mod:`xlrally.ooxml.xmlpart`: located by a parser, spliced as text, every other byte kept.

Before the new file replaces the old one it is verified (:func:`verify`): every changed part
is namespace-well-formed, relationship ids and sheet ids are unique, every sheet's relationship
exists, and every cell format used leads to the look it was meant to have. Then the file's
identity is carried over (owner, group, mode, extended attributes and so ACLs), and the new
file is renamed over the real file (through a symbolic link). A workbook without write
permission, with several hard links, or whose owner cannot be kept is refused, as is one that
changed meanwhile. If nothing would change, nothing is written.
"""

from __future__ import annotations

import hashlib
import html
import os
import posixpath
import re
import stat
import tempfile
import time
import zipfile
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

from xlrally.core.errors import WorkbookError
from xlrally.formats.cells import (
    FINGERPRINT,
    INPUTS,
    PrintSetup,
    Row,
    column_letter,
    fingerprint,
    norm,
    quote_sheet,
)
from xlrally.ooxml.package import (
    DEFAULT_CUSTOM_PART,
    NS_MAIN,
    NS_REL,
    WORKSHEET_TYPE,
    Package,
    file_identity,
    identity,
    parts_digest,
)
from xlrally.ooxml.rawzip import RawZipWriter
from xlrally.ooxml.sheet_xml import (
    has_formulas,
    hidden_headings,
    is_print_default,
    kept_elements,
    print_defaults,
    selected,
    sheet_xml,
    string_item,
    table_parts,
    xml_text,
)
from xlrally.ooxml.styles import Styles
from xlrally.ooxml.xmlpart import XmlPart, check_namespaces

WORKSHEET_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
STYLES_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"
CUSTOM_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.custom-properties+xml"
NS_CUSTOM = "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"
NS_VT = "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"
USER_FMTID = "{D5CDD505-2E9C-101B-9397-08002B2CF9AE}"
"""The format id of user-defined document properties (MS-OLEPS; what Excel writes)."""
NS_TYPES = "http://schemas.openxmlformats.org/package/2006/content-types"
CONTENT_TYPES = "[Content_Types].xml"
TEMP_SUFFIX = ".xlrally-tmp"
"""Temporary files are ``.~<8 hex digits of the name>-<random>.xlrally-tmp`` beside the
workbook: short whatever its name, and findable for that workbook. A later sync removes any
such file older than an hour (left by a power cut)."""

_WORKBOOK_CHILDREN = (
    "fileVersion",
    "fileSharing",
    "workbookPr",
    "workbookProtection",
    "bookViews",
    "sheets",
    "functionGroups",
    "externalReferences",
    "definedNames",
    "calcPr",
    "oleSize",
    "customWorkbookViews",
    "pivotCaches",
    "smartTagPr",
    "smartTagTypes",
    "webPublishing",
    "fileRecoveryPr",
    "webPublishObjects",
    "extLst",
)
"""The children of <workbook> in schema order (ECMA-376 Part 1, 18.2.27)."""
_CALC_FOLLOWERS = _WORKBOOK_CHILDREN[_WORKBOOK_CHILDREN.index("calcPr") + 1 :]
"""Children of <workbook> that come after <calcPr>."""
_NAMES_FOLLOWERS = _WORKBOOK_CHILDREN[_WORKBOOK_CHILDREN.index("definedNames") + 1 :]
"""Children of <workbook> that come after <definedNames>."""


@dataclass(frozen=True)
class WriteOutcome:
    """What a write did: ``changed`` False means the file was left as it was."""

    changed: bool


class Edit:
    """The parts a write changes, computed before anything is written."""

    def __init__(self, package: Package) -> None:
        self.package = package
        self.changed: dict[str, bytes] = {}
        self.dropped: set[str] = set()

    def data(self, part: str) -> bytes:
        if part in self.changed:
            return self.changed[part]
        return self.package.read(part)

    def xml(self, part: str) -> XmlPart:
        return XmlPart(part, self.data(part))

    def set(self, part: str, data: bytes) -> None:
        if self.package.has(part) and self.package.read(part) == data:
            self.changed.pop(part, None)
        else:
            self.changed[part] = data


def _refers_to(package: Package, sheet_name: str, skip: str) -> bool:
    """True if a defined name or a formula on another sheet mentions the sheet."""
    literal = xml_text(sheet_name).encode("utf-8").lower()
    needle = re.escape(xml_text(sheet_name).encode("utf-8"))
    defined = re.compile(rb"<(?:\w+:)?definedName\b[^>]*>[^<]*" + needle, re.IGNORECASE)
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


def workbook_styles(package: Package) -> tuple[str | None, Styles]:
    """The workbook's styles part (None when it has none) and its styles."""
    rels = package.relationships(package.workbook_part)
    part = next((t for k, t in rels.values() if k.endswith("/styles")), None)
    return part, Styles(package.read(part) if part else None, part or "styles")


def plan_sheet(
    package: Package,
    name: str,
    grid: Sequence[Row],
    setup: PrintSetup | None = None,
    stamp: str | None = None,
) -> tuple[Edit, Styles, str]:
    """Work out every part that writing this grid as the sheet ``name`` changes; with
    ``setup``, the sheet's page setup and print names where its user has set none; with
    ``stamp``, the custom property :data:`INPUTS` set to the digest of the package as written
    (:meth:`Package.digest`) and the stamp."""
    edit = Edit(package)
    workbook = package.workbook_part
    existing = next((s for s in package.sheets if norm(s.name) == norm(name)), None)
    if existing is not None and existing.kind != WORKSHEET_TYPE:
        raise WorkbookError(f"the sheet {existing.name!r} is not a worksheet; rename it")
    styles_part, styles = workbook_styles(package)

    kept: dict[str, str] = {}
    hidden: frozenset[str] = frozenset()
    tab_selected = had_formulas = False
    if existing is not None and package.has(existing.part):
        old = XmlPart(existing.part, package.read(existing.part))
        tables = table_parts(old)
        if tables:
            raise WorkbookError(
                f"the sheet {existing.name!r} holds {tables} Excel table(s), which xlrally "
                "would have to remove when it rewrites that sheet: move them to another sheet"
            )
        kept = kept_elements(old)
        hidden = hidden_headings(old, _shared_strings(package))
        tab_selected = selected(old)
        had_formulas = has_formulas(old)
        part = existing.part
    else:
        part = new_sheet(edit, package, name)
    if setup is not None:
        mine = {k: v for k, v in kept.items() if not is_print_default(k, v)}
        kept = {**print_defaults(setup), **mine}
    edit.set(part, sheet_xml(grid, styles, kept, tab_selected, hidden))
    if setup is not None:
        _print_names(edit, workbook, existing.name if existing else name, setup)
    if part in edit.changed:
        _custom_property(
            edit, package, FINGERPRINT, fingerprint([[c.value for c in r] for r in grid])
        )
    if styles_part is None:
        styles_part = posixpath.join(posixpath.dirname(workbook), "styles.xml")
        _add_relationship(edit, package, workbook, "/styles", styles_part, STYLES_CONTENT_TYPE)
    edit.set(styles_part, styles.data)
    if part in edit.changed and _refers_to(package, existing.name if existing else name, part):
        _recalc_on_open(edit, workbook)
    if had_formulas:
        _drop_calc_chain(edit, package, workbook)
    if stamp is not None:  # last, and the part made first: the digest is of the final package
        custom = _custom_property(edit, package, INPUTS, stamp)
        _custom_property(edit, package, INPUTS, f"{_digest_after(edit, package, custom)} {stamp}")
    return edit, styles, part


def _digest_after(edit: Edit, package: Package, skip: str) -> str:
    """:meth:`Package.digest` of the file this edit writes, ``skip`` (the custom properties)
    left out."""
    parts = []
    for info in package.zip.infolist():
        if info.filename in edit.dropped or info.filename == skip:
            continue
        data = edit.changed.get(info.filename)
        if data is None:
            parts.append((info.filename, info.CRC, info.file_size))
        else:
            parts.append((info.filename, zlib.crc32(data), len(data)))
    added = (p for p in edit.changed if p != skip and not package.has(p))
    parts.extend((p, zlib.crc32(edit.changed[p]), len(edit.changed[p])) for p in added)
    return parts_digest(parts)


def _shared_strings(package: Package) -> Callable[[int], str]:
    """A lookup of the workbook's shared strings, parsed only when first asked."""
    found: list[str] = []

    def lookup(index: int) -> str:
        if not found:
            rels = package.relationships(package.workbook_part).values()
            part = next((t for k, t in rels if k.endswith("/sharedStrings")), None)
            if part is None or not package.has(part):
                return ""
            strings = XmlPart(part, package.read(part))
            found.extend(string_item(strings, item) for item in strings.root.children)
        return found[index] if 0 <= index < len(found) else ""

    return lookup


_PRINT_AREA = re.compile(r"'?(?:[^'!]|'')+'?!\$A(?:\$1)?:\$[A-Z]{1,3}(?:\$1048576)?")
"""A print area of whole columns from A (``$A$1:$F$1048576``, or ``$A:$F`` as Excel saves it):
the form xlrally writes, kept up to date; any other print area is the user's, left alone."""


def _custom_property(edit: Edit, package: Package, name: str, value: str) -> str:
    """Set the text custom document property ``name`` (``docProps/custom.xml``, made with its
    relationship and content type when the workbook has none); returns the part."""
    part = package.custom_properties_part()
    if part is None and DEFAULT_CUSTOM_PART not in edit.changed:
        part = DEFAULT_CUSTOM_PART
        data = (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
            f'<Properties xmlns="{NS_CUSTOM}" xmlns:vt="{NS_VT}"><property fmtid="{USER_FMTID}" '
            f'pid="2" name="{escape(name)}"><vt:lpwstr>{escape(value)}</vt:lpwstr></property>'
            "</Properties>"
        )
        edit.set(part, data.encode("utf-8"))
        _add_relationship(edit, package, "", "/custom-properties", part, CUSTOM_CONTENT_TYPE)
        return part
    part = part or DEFAULT_CUSTOM_PART  # made earlier in this edit
    props = edit.xml(part)
    found = next((p for p in props.root.children if p.get("", "name") == name), None)
    vt = props.prefix_for(props.root, NS_VT)
    prefix, declaration = (vt, "") if vt else ("vt", f' xmlns:vt="{NS_VT}"')
    string = f"<{prefix}:lpwstr{declaration}>{escape(value)}</{prefix}:lpwstr>"
    if found is not None:
        if [props.inner_text(c) for c in found.children] != [escape(value)]:
            pid = found.get("", "pid") or "2"
            markup = (
                f'<{found.qname} fmtid="{USER_FMTID}" pid="{pid}" name="{escape(name)}">'
                f"{string}</{found.qname}>"
            )
            edit.set(part, props.replace(found, markup))
        return part
    pids = [int(p) for c in props.root.children if (p := c.get("", "pid") or "").isdigit()]
    tag = props.tag(props.root, "property")
    markup = (
        f'<{tag} fmtid="{USER_FMTID}" pid="{max(pids, default=1) + 1}" name="{escape(name)}">'
        f"{string}</{tag}>"
    )
    edit.set(part, props.append_child(props.root, markup))
    return part


def _print_names(edit: Edit, workbook: str, name: str, setup: PrintSetup) -> None:
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
                (c for c in book.root.children if c.uri == NS_MAIN and c.local in _NAMES_FOLLOWERS),
                None,
            )
            if follower is not None:
                edit.set(workbook, book.insert_before(follower, block))
            else:
                edit.set(workbook, book.append_child(book.root, block))


def _add_relationship(
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
    type); return its part, for the caller to write."""
    workbook = package.workbook_part
    folder = posixpath.join(posixpath.dirname(workbook), "worksheets")
    number = 1
    while package.has(f"{folder}/sheet{number}.xml"):
        number += 1
    part = f"{folder}/sheet{number}.xml"
    rel_id = _add_relationship(edit, package, workbook, "/worksheet", part, WORKSHEET_CONTENT_TYPE)
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


def _recalc_on_open(edit: Edit, workbook: str) -> None:
    """Set fullCalcOnLoad="1" on <calcPr> (adding <calcPr> in its schema place if missing)."""
    book = edit.xml(workbook)
    calc = book.root.named(NS_MAIN, "calcPr")
    if calc:
        if calc[0].get("", "fullCalcOnLoad") not in {"1", "true"}:
            edit.set(workbook, book.set_attribute(calc[0], "fullCalcOnLoad", "1"))
        return
    element = f'<{book.tag(book.root, "calcPr")} fullCalcOnLoad="1"/>'
    follower = next(
        (c for c in book.root.children if c.uri == NS_MAIN and c.local in _CALC_FOLLOWERS), None
    )
    if follower is not None:
        edit.set(workbook, book.insert_before(follower, element))
    else:
        edit.set(workbook, book.append_child(book.root, element))


def _drop_calc_chain(edit: Edit, package: Package, workbook: str) -> None:
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


def _without_cells(sheet: bytes) -> bytes:
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
            check_namespaces(part, _without_cells(data) if part == written else data)
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


# ---------------------------------------------------------------- the file and its identity


def owner_files(path: Path) -> tuple[Path, ...]:
    """The lock files that say the workbook is open: LibreOffice's ``.~lock.NAME#`` and Excel's
    owner file, ``~$`` + the name, where Excel drops the name's first character when the part
    before the extension has 7 characters and its first two when it has 8 or more
    (``~$ague2026.xlsx`` for ``league2026.xlsx``). A shortened owner file that is the full
    owner file of another workbook in the folder (``~$league.xlsx`` while ``league.xlsx``
    exists) is taken as that workbook's, not this one's."""
    name, stem = path.name, path.stem
    found = [path.with_name(f".~lock.{name}#"), path.with_name("~$" + name)]
    cut = 2 if len(stem) >= 8 else 1 if len(stem) == 7 else 0
    if cut and not _exists(path.with_name(name[cut:])):
        found.append(path.with_name("~$" + name[cut:]))
    return tuple(found)


def _exists(path: Path) -> bool:
    """Path.exists(), where a name too long to exist (a lock file of a long name) is False."""
    try:
        return path.exists()
    except OSError:
        return False


def _refuse_to_replace(path: Path, status: os.stat_result) -> None:
    """Refuse what Excel would refuse, or what renaming would damage."""
    for lock in owner_files(path):
        if _exists(lock):
            raise WorkbookError(
                f"the workbook is open in Excel or LibreOffice ({lock.name} is present); "
                "close it there first"
            )
    if not status.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise WorkbookError(
            "the workbook is read-only; clear the read-only attribute (chmod u+w) to sync it"
        )
    if status.st_nlink > 1:
        raise WorkbookError(
            f"the workbook has {status.st_nlink} hard links; syncing would split them "
            "(write a copy instead, or remove the other links)"
        )


def _carry_identity(real: Path, temp: Path, status: os.stat_result) -> None:
    """Give the new file the old one's owner, group, mode and extended attributes (ACLs, SELinux
    labels and the rest); refuse when they cannot be kept."""
    if hasattr(os, "chown") and (status.st_uid, status.st_gid) != _owner(temp):
        try:
            os.chown(temp, status.st_uid, status.st_gid)
        except PermissionError:
            raise WorkbookError(
                f"the workbook belongs to user {status.st_uid}, group {status.st_gid}; "
                "xlrally cannot give its new copy that owner: run the sync as that user"
            ) from None
    os.chmod(temp, stat.S_IMODE(status.st_mode))
    if hasattr(os, "listxattr"):
        try:
            for attribute in os.listxattr(real):
                os.setxattr(temp, attribute, os.getxattr(real, attribute))
        except OSError as error:
            raise WorkbookError(
                f"cannot keep the workbook's extended attributes or ACL ({error.strerror})"
            ) from None


def temp_prefix(path: Path) -> str:
    """The start of the names of the temporary files written for this workbook."""
    return ".~" + hashlib.sha1(path.name.encode("utf-8", "surrogateescape")).hexdigest()[:8] + "-"


def _owner(path: Path) -> tuple[int, int]:
    status = path.stat()
    return status.st_uid, status.st_gid


def clean_stale_temporaries(folder: Path, older_than: float = 3600) -> None:
    """Remove xlrally's temporary files left in ``folder`` by a sync that could not clean up
    (called once per folder by a batch, not once per file)."""
    limit = time.time() - older_than
    try:
        for leftover in folder.glob(f".~*{TEMP_SUFFIX}"):
            if leftover.stat().st_mtime < limit:
                leftover.unlink()
    except OSError:
        pass  # a folder xlrally cannot list or clean: the sync itself will say what is wrong


@dataclass(frozen=True)
class Staged:
    """A complete new workbook written beside the old one, waiting to replace it."""

    real: Path
    temp: Path
    opened: os.stat_result

    def commit(self) -> WriteOutcome:
        """Rename the new file over the real file (atomic), unless it changed meanwhile.

        Call it after every handle on the old file is closed (Windows cannot replace an open
        file).
        """
        try:
            if file_identity(self.real) != identity(self.opened):
                raise WorkbookError(
                    "the workbook was changed by another program while xlrally was working; "
                    "sync it again"
                )
            try:
                os.replace(self.temp, self.real)
            except PermissionError:
                raise WorkbookError(
                    "cannot replace the workbook (is it open in Excel or read-only?)"
                ) from None
        except BaseException:
            self.discard()
            raise
        _fsync_folder(self.real.parent)
        return WriteOutcome(True)

    def discard(self) -> None:
        """Remove the staged file (a sync that will not commit)."""
        self.temp.unlink(missing_ok=True)


def stage_sheet(
    path: str | Path,
    name: str,
    grid: Sequence[Row],
    package: Package,
    setup: PrintSetup | None = None,
    stamp: str | None = None,
) -> Staged | None:
    """Write the workbook with the grid as its sheet ``name`` to a temporary file beside the
    real file, verified and with the original's identity. None when nothing would change.
    ``setup`` and ``stamp``: see :func:`plan_sheet`."""
    refuse_to_replace(Path(path))
    edit, styles, sheet = plan_sheet(package, name, grid, setup, stamp)
    return stage(path, edit, lambda: verify(edit, styles, written=sheet))


def refuse_to_replace(path: Path) -> None:
    """Raise WorkbookError when the workbook cannot be replaced safely (open elsewhere,
    read-only, hard-linked): before any work is done."""
    _refuse_to_replace(path, (path.resolve() if path.is_symlink() else path).stat())


def stage(path: str | Path, edit: Edit, check: Callable[[], None]) -> Staged | None:
    """Write the package with the edit's parts to a temporary file beside the real file,
    after ``check`` (which raises when the planned parts are wrong), with the original's
    identity. None when the edit changes nothing. The caller has called
    :func:`refuse_to_replace` before planning the edit."""
    path = Path(path)
    real = path.resolve() if path.is_symlink() else path
    status = real.stat()
    package = edit.package
    if not edit.changed and not edit.dropped:
        return None
    check()
    fd, temp_name = tempfile.mkstemp(prefix=temp_prefix(real), suffix=TEMP_SUFFIX, dir=real.parent)
    temp = Path(temp_name)
    try:
        with os.fdopen(fd, "wb") as out, real.open("rb") as source:
            writer = RawZipWriter(out)
            written = set()
            for info in package.zip.infolist():
                if info.filename in edit.dropped:
                    continue
                if info.filename in edit.changed:
                    writer.add(info, edit.changed[info.filename])
                else:
                    writer.copy(source, info)
                written.add(info.filename)
            for part, data in edit.changed.items():
                if part not in written:
                    writer.add(zipfile.ZipInfo(part, date_time=(1980, 1, 1, 0, 0, 0)), data)
            writer.close()
            out.flush()
            os.fsync(out.fileno())
        _carry_identity(real, temp, status)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return Staged(real, temp, package.opened)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # not possible on Windows (or a folder without read permission); the rename
        # is still atomic there
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
