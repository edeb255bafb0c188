"""Writing the Standings sheet into a workbook file without touching anything else.

A workbook is a zip of XML parts. xlrally rewrites only:

* the Standings sheet's own part (created, or replaced wholesale: xlrally owns that sheet);
* ``xl/styles.xml``, only to append the few fonts, number formats and cell formats the
  Standings sheet uses, when they are not there yet;
* when Standings is new: ``xl/workbook.xml`` (one ``<sheet>``), its relationships and
  ``[Content_Types].xml`` (one entry each);
* ``xl/workbook.xml``'s ``<calcPr>``, to recalculate on open, when other sheets or defined names
  refer to Standings; and ``xl/calcChain.xml`` is dropped (Excel rebuilds it) when the old
  Standings sheet had formulas, since its entries would point at cells that are gone.

Every other part is copied as its raw compressed bytes, so charts, pictures, buttons, VBA and
its signature, ribbons, tables, defined names and cached formula values stay as they were.
From the old Standings sheet, its drawing (a chart placed on it), page setup and tab selection
are kept. Edits to shared XML parts are textual insertions, never a parse and re-serialise,
which would rename namespace prefixes that Excel relies on.

The new file is written beside the old one and renamed over it (atomic on every platform we
support), after a check that the original did not change meanwhile. If nothing would change,
nothing is written and the file keeps its bytes and timestamp.
"""

from __future__ import annotations

import html
import os
import posixpath
import re
import shutil
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from xlrally.core.errors import WorkbookError
from xlrally.formats.cells import Cell, Look, Row, column_letter, norm
from xlrally.ooxml.package import NS_MAIN, NS_REL, WORKSHEET_TYPE, Package
from xlrally.ooxml.rawzip import RawZipWriter

WORKSHEET_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
_BUILTIN_FORMATS = {None: 0, "0": 1, "0.00": 2}
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_ESCAPE_LIKE = re.compile("_(x[0-9A-Fa-f]{4}_)")
_SELECTED = ' tabSelected="1"'
_KEEP_FROM_OLD = ("pageMargins", "pageSetup", "headerFooter", "drawing", "legacyDrawing")


@dataclass(frozen=True)
class WriteOutcome:
    """What a write did: ``changed`` False means the file was left as it was."""

    changed: bool
    parts: tuple[str, ...] = ()


# ---------------------------------------------------------------- cell text


def xml_text(text: str) -> str:
    """Escape text for a cell: XML specials, characters XML cannot hold (as Excel's _xHHHH_),
    and literal ``_xHHHH_`` sequences (so that Excel shows them as typed).

    >>> xml_text("=SUM(A1) & <b>")
    '=SUM(A1) &amp; &lt;b&gt;'
    >>> xml_text("bell\\x07 _x0041_")
    'bell_x0007_ _x005F_x0041_'
    """
    text = _ESCAPE_LIKE.sub(r"_x005F_\1", text)
    text = _INVALID_XML.sub(lambda m: f"_x{ord(m.group()):04X}_", text)
    return html.escape(text, quote=False)


def _attr(text: str) -> str:
    return html.escape(text, quote=True)


def _number(value: float | int) -> str:
    if type(value) is int:
        return str(value)
    if isinstance(value, bool):
        return "1" if value else "0"
    if float(value).is_integer():
        return str(int(value))
    return repr(float(value))


# ---------------------------------------------------------------- styles.xml edits


def _prefix(xml: str, tag: str) -> str:
    match = re.search(rf"<(\w+:)?{tag}[\s>/]", xml)
    return match.group(1) or "" if match else ""


def _block(xml: str, p: str, tag: str) -> re.Match[str] | None:
    return re.search(rf"<{p}{tag}(?:\s[^>]*)?(?:/>|>(.*?)</{p}{tag}>)", xml, re.DOTALL)


def _children(inner: str, p: str, tag: str) -> list[str]:
    return re.findall(rf"<{p}{tag}(?:[\s/][^>]*)?(?:/>|>.*?</{p}{tag}>)", inner, re.DOTALL)


def _append(xml: str, p: str, tag: str, child_tag: str, child: str) -> tuple[str, int]:
    """Append ``child`` to the collection ``tag``; returns the new XML and the child's index."""
    block = _block(xml, p, tag)
    if block is None:
        raise WorkbookError(f"xl/styles.xml has no <{tag}>")
    inner = block.group(1) or ""
    index = len(_children(inner, p, child_tag))
    opening = re.match(rf"<{p}{tag}(\s[^>]*)?", block.group(0))
    attributes = (opening.group(1) or "") if opening else ""
    attributes = re.sub(r'\scount="\d+"', "", attributes).rstrip("/").rstrip()
    new = f'<{p}{tag} count="{index + 1}"{attributes}>{inner}{child}</{p}{tag}>'
    return xml[: block.start()] + new + xml[block.end() :], index


class Styles:
    """Finds or appends the cell formats the grid needs in a styles.xml text."""

    def __init__(self, xml: str) -> None:
        self.xml = xml
        self.p = _prefix(xml, "styleSheet")
        self._xf: dict[Look, int] = {}

    def _font(self, look: Look) -> int:
        p = self.p
        fonts = _block(self.xml, p, "fonts")
        existing = _children((fonts.group(1) or "") if fonts else "", p, "font")
        base = existing[0] if existing else f'<{p}font><{p}sz val="11"/></{p}font>'
        body = re.sub(rf"^<{p}font(?:\s[^>]*)?>|</{p}font>$|<{p}font(?:\s[^>]*)?/>$", "", base)
        body = re.sub(rf"<{p}(?:b|i|color)(?:\s[^>]*)?/>", "", body)
        marks = (f"<{p}b/>" if look.bold else "") + (f"<{p}i/>" if look.italic else "")
        colour = f'<{p}color rgb="FF{look.colour}"/>' if look.colour else ""
        font = f"<{p}font>{marks}{body}{colour}</{p}font>"
        if not (look.bold or look.italic or look.colour):
            return 0
        if font in existing:
            return existing.index(font)
        self.xml, index = _append(self.xml, p, "fonts", "font", font)
        return index

    def _number_format(self, code: str | None) -> int:
        if code in _BUILTIN_FORMATS:
            return _BUILTIN_FORMATS[code]
        assert code is not None
        p = self.p
        block = _block(self.xml, p, "numFmts")
        found = _children((block.group(1) or "") if block else "", p, "numFmt")
        ids = []
        for item in found:
            number = re.search(r'numFmtId="(\d+)"', item)
            text = re.search(r'formatCode="([^"]*)"', item)
            if number and text:
                ids.append(int(number.group(1)))
                if html.unescape(text.group(1)) == code:
                    return int(number.group(1))
        new_id = max([163, *ids]) + 1
        element = f'<{p}numFmt numFmtId="{new_id}" formatCode="{_attr(code)}"/>'
        if block is None:
            root = re.search(rf"<{p}styleSheet\b[^>]*>", self.xml)
            if root is None:
                raise WorkbookError("xl/styles.xml has no <styleSheet>")
            insert = f'<{p}numFmts count="1">{element}</{p}numFmts>'
            self.xml = self.xml[: root.end()] + insert + self.xml[root.end() :]
        else:
            self.xml, _ = _append(self.xml, p, "numFmts", "numFmt", element)
        return new_id

    def xf(self, look: Look) -> int:
        """The cellXfs index for this look, appended to styles.xml if not there yet."""
        if look == Look():
            return 0
        if look not in self._xf:
            font = self._font(look)
            number = self._number_format(look.number_format)
            p = self.p
            applied = (' applyNumberFormat="1"' if number else "") + (
                ' applyFont="1"' if font else ""
            )
            element = (
                f'<{p}xf numFmtId="{number}" fontId="{font}" fillId="0" borderId="0" xfId="0"'
                f"{applied}/>"
            )
            block = _block(self.xml, p, "cellXfs")
            existing = _children((block.group(1) or "") if block else "", p, "xf")
            if element in existing:
                self._xf[look] = existing.index(element)
            else:
                self.xml, self._xf[look] = _append(self.xml, p, "cellXfs", "xf", element)
        return self._xf[look]


MINIMAL_STYLES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    f'<styleSheet xmlns="{NS_MAIN}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/>'
    '</font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill>'
    '<patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/>'
    '<right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1">'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="1">'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs><cellStyles '
    'count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'
)


# ---------------------------------------------------------------- the sheet part


def _width(cells: Sequence[Cell]) -> float:
    """A column width from the longest value among the first 500 rows."""
    longest = max((len(str(c.value)) for c in cells[:500] if c.value is not None), default=6)
    return float(min(max(longest, 6) + 2, 60))


def sheet_xml(grid: Sequence[Row], styles: Styles, kept: dict[str, str], selected: bool) -> bytes:
    """The worksheet XML for the grid: inline strings (no sharedStrings edit), frozen header."""
    columns = max((len(r) for r in grid), default=1)
    table_rows = [r for r in grid if len(r) == columns]
    out = [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n',
        f'<worksheet xmlns="{NS_MAIN}" xmlns:r="{NS_REL}">',
        f'<dimension ref="A1:{column_letter(columns - 1)}{max(len(grid), 1)}"/>',
        f'<sheetViews><sheetView{_SELECTED if selected else ""} workbookViewId="0">',
        '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>',
        '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>',
        '<sheetFormatPr defaultRowHeight="15"/><cols>',
    ]
    for index in range(columns):
        cells = [r[index] for r in table_rows]
        out.append(
            f'<col min="{index + 1}" max="{index + 1}" width="{_width(cells)}" customWidth="1"/>'
        )
    out.append("</cols><sheetData>")
    style_attr: dict[int, str] = {}  # by id(): looks are few shared objects, hashing is slow
    letters = [column_letter(i) for i in range(columns)]
    append = out.append  # this loop runs once per cell: 210,000 for a big league
    for number, row in enumerate(grid, start=1):
        if not row:
            continue
        append(f'<row r="{number}">')
        for letter, (value, look) in zip(letters, row, strict=False):
            s = style_attr.get(id(look))
            if s is None:
                style = styles.xf(look)
                s = style_attr[id(look)] = f' s="{style}"' if style else ""
            if type(value) is int:
                append(f'<c r="{letter}{number}"{s}><v>{value}</v></c>')
            elif value is None:
                if s:
                    append(f'<c r="{letter}{number}"{s}/>')
            elif isinstance(value, str):
                append(
                    f'<c r="{letter}{number}"{s} t="inlineStr"><is><t xml:space="preserve">'
                    f"{xml_text(value)}</t></is></c>"
                )
            else:
                append(f'<c r="{letter}{number}"{s}><v>{_number(value)}</v></c>')
        append("</row>")
    out.append("</sheetData>")
    out.extend(kept[tag] for tag in _KEEP_FROM_OLD if tag in kept)
    out.append("</worksheet>")
    return "".join(out).encode("utf-8")


def _kept_elements(old: str) -> dict[str, str]:
    """The elements to keep from the old sheet; they all follow </sheetData>."""
    end = old.rfind("sheetData>")
    tail = old[end:] if end >= 0 else old
    kept = {}
    for tag in _KEEP_FROM_OLD:
        match = re.search(rf"<{tag}\b[^>]*?(?:/>|>.*?</{tag}>)", tail, re.DOTALL)
        if match:
            kept[tag] = match.group(0)
    return kept


# ---------------------------------------------------------------- workbook-level edits


def _insert_before_close(xml: str, tag: str, element: str) -> str:
    match = re.search(rf"</(\w+:)?{tag}>", xml)
    if match is None:
        raise WorkbookError(f"the workbook XML has no </{tag}>")
    return xml[: match.start()] + element + xml[match.start() :]


def _relative(from_part: str, to_part: str) -> str:
    return posixpath.relpath(to_part, posixpath.dirname(from_part))


_CALC_FOLLOWERS = (
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


def _recalc_on_open(xml: str) -> str:
    """Set fullCalcOnLoad="1" on <calcPr> (adding <calcPr> in its schema place if missing)."""
    calc = re.search(r"<(\w+:)?calcPr\b[^>]*?/?>", xml)
    if calc:
        tag = calc.group(0)
        if 'fullCalcOnLoad="1"' in tag:
            return xml
        tag = re.sub(r'\sfullCalcOnLoad="[^"]*"', "", tag)
        tag = re.sub(r"\s*(/?>)$", r' fullCalcOnLoad="1"\1', tag)
        return xml[: calc.start()] + tag + xml[calc.end() :]
    p = _prefix(xml, "workbook")
    followers = [re.search(rf"<{p}{t}[\s>/]", xml) for t in _CALC_FOLLOWERS]
    found = [m.start() for m in followers if m] + [xml.rindex(f"</{p}workbook>")]
    at = min(found)
    return xml[:at] + f'<{p}calcPr fullCalcOnLoad="1"/>' + xml[at:]


class _Edit:
    """The parts a sync changes, computed before anything is written."""

    def __init__(self, package: Package) -> None:
        self.package = package
        self.changed: dict[str, bytes] = {}
        self.dropped: set[str] = set()

    def text(self, part: str) -> str:
        if part in self.changed:
            return self.changed[part].decode("utf-8")
        return self.package.read(part).decode("utf-8")

    def set(self, part: str, text: str | bytes) -> None:
        data = text.encode("utf-8") if isinstance(text, str) else text
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
        if sheet.part in package.formula_free:
            continue  # already read through while checking it: no formulas at all
        tail = b""
        for chunk in package.chunks(sheet.part):
            data = tail + chunk
            if b"<f" in data and literal in data.lower() and formula.search(data):
                return True
            tail = chunk[-4096:]
    return False


def plan_sheet(package: Package, name: str, grid: Sequence[Row]) -> _Edit:
    """Work out every part that writing this grid as the sheet ``name`` changes."""
    edit = _Edit(package)
    workbook = package.workbook_part
    existing = next((s for s in package.sheets if norm(s.name) == norm(name)), None)
    if existing is not None and existing.kind != WORKSHEET_TYPE:
        raise WorkbookError(f"the sheet {existing.name!r} is not a worksheet; rename it")
    rels = dict(package.relationships(workbook))
    styles_part = next((t for k, t in rels.values() if k.endswith("/styles")), None)
    styles = Styles(package.read(styles_part).decode("utf-8") if styles_part else MINIMAL_STYLES)

    kept: dict[str, str] = {}
    selected = False
    had_formulas = False
    if existing is not None and package.has(existing.part):
        old = package.read(existing.part).decode("utf-8")
        kept = _kept_elements(old)
        head = old[: old.find("sheetData")]
        selected = bool(re.search(r'<(?:\w+:)?sheetView\b[^>]*tabSelected="(?:1|true)"', head))
        had_formulas = any(tag in old for tag in ("<f>", "<f ", ":f>", ":f "))
        part = existing.part
    else:
        part = _new_sheet(edit, package, rels, name)
    edit.set(part, sheet_xml(grid, styles, kept, selected))
    if styles_part is None:
        styles_part = posixpath.join(posixpath.dirname(workbook), "styles.xml")
        _add_relationship(
            edit,
            package,
            workbook,
            rels,
            "/styles",
            styles_part,
            "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml",
        )
    edit.set(styles_part, styles.xml)
    if part in edit.changed and _refers_to(package, existing.name if existing else name, part):
        edit.set(workbook, _recalc_on_open(edit.text(workbook)))
    if had_formulas:
        _drop_calc_chain(edit, package, workbook, rels)
    return edit


def _add_relationship(
    edit: _Edit,
    package: Package,
    source: str,
    rels: dict[str, tuple[str, str]],
    kind: str,
    target: str,
    content_type: str,
) -> str:
    ids = {int(m) for r in rels for m in re.findall(r"^rId(\d+)$", r)}
    rel_id = f"rId{max(ids, default=0) + 1}"
    rels_part = package.rels_part(source)
    relationship = (
        f'<Relationship Id="{rel_id}" Type="{NS_REL}{kind}" '
        f'Target="{_attr(_relative(source, target))}"/>'
    )
    edit.set(rels_part, _insert_before_close(edit.text(rels_part), "Relationships", relationship))
    rels[rel_id] = (NS_REL + kind, target)
    override = f'<Override PartName="/{_attr(target)}" ContentType="{content_type}"/>'
    types = "[Content_Types].xml"
    edit.set(types, _insert_before_close(edit.text(types), "Types", override))
    return rel_id


def _new_sheet(edit: _Edit, package: Package, rels: dict[str, tuple[str, str]], name: str) -> str:
    workbook = package.workbook_part
    folder = posixpath.join(posixpath.dirname(workbook), "worksheets")
    number = 1
    while package.has(f"{folder}/sheet{number}.xml"):
        number += 1
    part = f"{folder}/sheet{number}.xml"
    rel_id = _add_relationship(
        edit, package, workbook, rels, "/worksheet", part, WORKSHEET_CONTENT_TYPE
    )
    xml = edit.text(workbook)
    p = _prefix(xml, "sheets")
    declared = re.search(rf'xmlns:(\w+)="{re.escape(NS_REL)}"', xml)
    r = declared.group(1) if declared else "r"
    namespace = "" if declared else f' xmlns:r="{NS_REL}"'
    sheet_id = max((s.sheet_id for s in package.sheets), default=0) + 1
    element = f'<{p}sheet name="{_attr(name)}" sheetId="{sheet_id}" {r}:id="{rel_id}"{namespace}/>'
    edit.set(workbook, _insert_before_close(xml, "sheets", element))
    return part


def _drop_calc_chain(
    edit: _Edit, package: Package, workbook: str, rels: dict[str, tuple[str, str]]
) -> None:
    for rel_id, (kind, target) in rels.items():
        if kind.endswith("/calcChain"):
            rels_part = package.rels_part(workbook)
            text = re.sub(rf'<Relationship\b[^>]*\bId="{rel_id}"[^>]*/>', "", edit.text(rels_part))
            edit.set(rels_part, text)
            types = re.sub(
                rf'<Override\b[^>]*PartName="/{re.escape(target)}"[^>]*/>',
                "",
                edit.text("[Content_Types].xml"),
            )
            edit.set("[Content_Types].xml", types)
            edit.dropped.add(target)


# ---------------------------------------------------------------- writing the file


def owner_files(path: Path) -> tuple[Path, ...]:
    """Excel's owner file for an open workbook: ``~$name.xlsx`` (or ``~$me.xlsx`` for long
    names, where the first two letters are replaced)."""
    return (path.with_name("~$" + path.name), path.with_name("~$" + path.name[2:]))


@dataclass(frozen=True)
class Staged:
    """A complete new workbook written beside the old one, waiting to replace it."""

    path: Path
    temp: Path
    opened: os.stat_result
    parts: tuple[str, ...]

    def commit(self) -> WriteOutcome:
        """Rename the new file over the old one (atomic), unless the old one changed meanwhile.

        Call it after every handle on the old file is closed (Windows cannot replace an open
        file).
        """
        try:
            if _identity(self.path.stat()) != _identity(self.opened):
                raise WorkbookError("the workbook changed while xlrally was working; try again")
            try:
                os.replace(self.temp, self.path)
            except PermissionError:
                raise WorkbookError(
                    "cannot replace the workbook (is it open in Excel or read-only?)"
                ) from None
        except BaseException:
            self.temp.unlink(missing_ok=True)
            raise
        _fsync_folder(self.path.parent)
        return WriteOutcome(True, self.parts)


def stage_sheet(
    path: str | Path, name: str, grid: Sequence[Row], package: Package
) -> Staged | None:
    """Write the workbook with the grid as its sheet ``name`` to a temporary file beside it.

    Returns None when nothing would change. ``package`` is the workbook opened for reading.
    """
    path = Path(path)
    for owner in owner_files(path):
        if owner.exists():
            raise WorkbookError(
                "the workbook is open in Excel (its lock file ~$… is present); close it first"
            )
    edit = plan_sheet(package, name, grid)
    if not edit.changed and not edit.dropped:
        return None
    fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".xlrally", dir=path.parent)
    temp = Path(temp_name)
    try:
        with os.fdopen(fd, "wb") as out, path.open("rb") as source:
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
        shutil.copymode(path, temp)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    parts = tuple(sorted(edit.changed)) + tuple(sorted(edit.dropped))
    return Staged(path, temp, package.opened, parts)


def _identity(stat: os.stat_result) -> tuple[int, int, int]:
    return stat.st_ino, stat.st_mtime_ns, stat.st_size


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # not possible on Windows; the rename is still atomic there
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
