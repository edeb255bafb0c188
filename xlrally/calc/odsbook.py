"""``xlrally new league.ods``: a new league workbook for LibreOffice Calc, with a **Refresh
standings** button on its Settings sheet.

The workbook is the one ``xlrally new league.xlsx`` writes
(:func:`xlrally.excel.template.build_workbook`, with the About sheet worded for Calc),
converted to OpenDocument by LibreOffice itself (``soffice --convert-to ods``, in a profile of
its own), so that its sheets, looks, widths, validations and print setup are what Calc makes of
that ``.xlsx``. Two parts of the converted file are then changed, as XML trees:

* ``content.xml``: the Settings sheet's form gets a push button (OpenDocument's
  ``form:button``) whose action is the URL ``xlrally:refresh`` (``form:button-type="url"``,
  ``xlink:href``), the extension's command, with LibreOffice's property
  ``DispatchURLInternal``: the button then dispatches the URL in the document's own frame, as
  the menu does. Without it LibreOffice opens the URL as a hyperlink (``.uno:OpenHyperlink``,
  ``OClickableImageBaseControl::actionPerformed_Impl`` in
  forms/source/component/clickableimage.cxx), which goes to the current view's frame or the
  desktop. The form opens out of design mode (``form:apply-design-mode="false"``), so a click
  presses the button. It sits where the ``.xlsm``'s button sits: at E2, 160 × 36 pixels.
* ``settings.xml``: the frozen header rows and columns and the active sheet, as the ``.xlsx``
  has them (LibreOffice converting without a window writes no view settings).

No macro is involved, so LibreOffice's macro security does not stop the button; it needs the
extension (``xlrally libreoffice``) in the LibreOffice that opens the file, and does nothing
without it. The new file is written beside the target, read back and checked, then renamed
over it.
"""

from __future__ import annotations

import datetime as dt
import io
import os
import posixpath
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Sequence
from itertools import islice
from pathlib import Path

from defusedxml import ElementTree as SafeET

from xlrally.calc.extension import REFRESH_URL
from xlrally.core.errors import NewBookError
from xlrally.excel.template import build_workbook

BUTTON_NAME = "Refresh standings"
BUTTON_CELL = (4, 1)
"""Column E, row 2 (from 0): beside the settings, as the ``.xlsm``'s button."""
BUTTON_SIZE = (160 / 96, 36 / 96)
"""Inches: 160 × 36 pixels at 96 per inch, the ``.xlsm`` button's size."""
CONVERT_TIMEOUT = 600.0
"""Seconds LibreOffice may take to start with a new profile and convert the workbook."""
MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"
EDITED = frozenset({"content.xml", "settings.xml"})
"""The parts changed in LibreOffice's file; every other is kept byte for byte."""

ABOUT = (
    "Enter events on the Events sheet and results on the Results sheet",
    "(or on a sheet per event named exactly as the event).",
    "Then update the standings: click Refresh standings (Settings sheet), or Tools > Add-Ons >",
    "Refresh standings, in LibreOffice Calc with the xlrally extension (`xlrally libreoffice`).",
    "The Standings sheet belongs to xlrally: it is replaced on every refresh.",
    "Functions (with the extension): =RALLY_SCORE(points; rounds; byes; games),",
    "=NEAU_POINTS(players; buy_in; total; finish), =DIPPOUCH_RATING(...), =BEST_X_TOTAL(...),",
    "=FORMULA_POINTS(formula; players; place; buy_in; ...).",
    "`xlrally sync` reads .xlsx files: File > Save As Excel 2007-365 to sync this league there.",
    "Format and rules: docs/workbook-format.md and docs/scoring.md in the xlrally project.",
)
"""The About sheet of a Calc workbook (the ``.xlsx``'s speaks of Excel and ``xlrally sync``)."""

NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0",
    "form": "urn:oasis:names:tc:opendocument:xmlns:form:1.0",
    "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
    "svg": "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0",
    "xlink": "http://www.w3.org/1999/xlink",
    "xml": "http://www.w3.org/XML/1998/namespace",
    "config": "urn:oasis:names:tc:opendocument:xmlns:config:1.0",
    "main": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "rel": "http://schemas.openxmlformats.org/package/2006/relationships",
}
INCHES = {"in": 1.0, "cm": 1 / 2.54, "mm": 1 / 25.4, "pt": 1 / 72, "pc": 1 / 6, "px": 1 / 96}


def _q(name: str) -> str:
    """``"table:name"`` as ElementTree's ``{uri}name``."""
    prefix, local = name.split(":")
    return f"{{{NS[prefix]}}}{local}"


def soffice() -> str | None:
    """LibreOffice's program: ``soffice`` (or ``libreoffice``) on the PATH, else where its
    installers put it on Windows and macOS."""
    for name in ("soffice", "libreoffice"):
        found = shutil.which(name)
        if found:
            return found
    places = [Path("/Applications/LibreOffice.app/Contents/MacOS/soffice")]
    for root in (os.environ.get("PROGRAMFILES"), os.environ.get("PROGRAMFILES(X86)")):
        if root:
            places.append(Path(root) / "LibreOffice" / "program" / "soffice.exe")
    return next((str(p) for p in places if p.is_file()), None)


def build_ods(path: Path, system: str, created: dt.datetime) -> None:
    """Write the new Calc workbook for ``system`` to ``path`` (see the module's docstring)."""
    program = soffice()
    if program is None:
        msg = (
            "an .ods workbook is made by LibreOffice, which was not found (no soffice on the "
            "PATH): install LibreOffice, or make an .xlsx (`xlrally new league.xlsx`) and open "
            "it in Calc"
        )
        raise NewBookError(msg)
    with tempfile.TemporaryDirectory(prefix="xlrally-new-") as folder:
        work = Path(folder)
        xlsx = work / "league.xlsx"
        build_workbook(xlsx, system, created=created, about=ABOUT)
        converted = convert(program, xlsx, work)
        staged = path.with_name(f".{path.name}.xlrally-tmp")
        try:
            with_button(converted, xlsx, staged)
            verify(staged, converted)
            staged.replace(path)
        finally:
            staged.unlink(missing_ok=True)


def convert(program: str, xlsx: Path, folder: Path) -> Path:
    """``xlsx`` converted to ``.ods`` by LibreOffice, in a profile of its own (a LibreOffice
    the user has open is neither used nor disturbed)."""
    out = folder / "out"
    command = [
        program,
        f"-env:UserInstallation={(folder / 'profile').as_uri()}",
        "--headless",
        "--norestore",
        "--nolockcheck",
        "--convert-to",
        "ods:calc8",
        "--outdir",
        str(out),
        str(xlsx),
    ]
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=CONVERT_TIMEOUT,
            env=environment,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except subprocess.TimeoutExpired:
        msg = f"LibreOffice ({program}) did not finish writing the .ods in {CONVERT_TIMEOUT:.0f} s"
        raise NewBookError(msg) from None
    converted = out / f"{xlsx.stem}.ods"
    if not converted.is_file():
        said = (done.stderr or done.stdout).strip().splitlines()
        reason = said[-1] if said else f"exit code {done.returncode}"
        msg = f"LibreOffice ({program}) did not write the .ods: {reason}"
        raise NewBookError(msg)
    return converted


def with_button(converted: Path, xlsx: Path, out: Path) -> None:
    """Write ``converted`` to ``out`` with the button and the ``.xlsx``'s view settings; every
    other part as it is, in the same order (``mimetype`` first, stored)."""
    frozen, active = view_of(xlsx)
    with zipfile.ZipFile(converted) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == "content.xml":
                data = add_button(data)
            elif info.filename == "settings.xml":
                data = add_views(data, frozen, active)
            target.writestr(info, data, info.compress_type)


def _parsed(data: bytes) -> tuple[ET.Element, dict[str, str]]:
    """The part's tree, and the namespaces its root declares (prefix: URI), which are kept
    when it is written back: LibreOffice reads prefixes inside attribute values too
    (``table:formula="of:=..."``, ``form:control-implementation="ooo:..."``)."""
    declared: dict[str, str] = {}
    for _event, (prefix, uri) in SafeET.iterparse(io.BytesIO(data), events=("start-ns",)):
        declared.setdefault(prefix, uri)
        if prefix and not prefix.startswith("ns"):
            ET.register_namespace(prefix, uri)
    return SafeET.fromstring(data), declared


def _written(root: ET.Element, declared: dict[str, str]) -> bytes:
    """The tree as XML, its root declaring every namespace the part declared (ElementTree
    declares only those its element and attribute names use)."""
    text = ET.tostring(root, encoding="unicode")
    name = re.match(r"<[^\s/>]+", text)
    assert name is not None  # ElementTree writes the root's start tag first
    head = text[: text.index(">")]
    missing = "".join(
        f' xmlns:{prefix}="{uri}"'
        for prefix, uri in declared.items()
        if prefix and f"xmlns:{prefix}=" not in head
    )
    text = text[: name.end()] + missing + text[name.end() :]
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + text).encode()


def _sheet(root: ET.Element, name: str) -> ET.Element:
    for table in root.iter(_q("table:table")):
        if table.get(_q("table:name")) == name:
            return table
    msg = f"LibreOffice's .ods has no {name} sheet"
    raise NewBookError(msg)


def _inches(length: str | None) -> float:
    """An OpenDocument length (``2.2083in``, ``5.6cm``) in inches."""
    for unit, factor in INCHES.items():
        if length and length.endswith(unit):
            return float(length[: -len(unit)]) * factor
    msg = f"LibreOffice's .ods has a length xlrally cannot read: {length!r}"
    raise NewBookError(msg)


def _style_lengths(root: ET.Element, family: str, attribute: str) -> dict[str, float]:
    found = {}
    for style in root.iter(_q("style:style")):
        if style.get(_q("style:family")) == family:
            for properties in style:
                if properties.get(_q(attribute)) is not None:
                    found[style.get(_q("style:name"), "")] = _inches(properties.get(_q(attribute)))
    return found


def _first(elements: Sequence[ET.Element], attribute: str, count: int) -> list[ET.Element]:
    """The first ``count`` columns or rows, each element repeated as its ``attribute`` says."""
    repeated = (e for e in elements for _ in range(int(e.get(_q(attribute), "1"))))
    return list(islice(repeated, count))


def button_place(root: ET.Element, sheet: ET.Element) -> tuple[float, float]:
    """Where cell E2's top left corner is on the sheet, in inches: the widths of columns A-D
    and the height of row 1, as LibreOffice wrote them."""
    widths = _style_lengths(root, "table-column", "style:column-width")
    heights = _style_lengths(root, "table-row", "style:row-height")
    column, row = BUTTON_CELL
    columns = sheet.findall("table:table-column", NS)
    rows = sheet.findall("table:table-row", NS)
    try:
        x = sum(
            widths[c.get(_q("table:style-name"), "")]
            for c in _first(columns, "table:number-columns-repeated", column)
        )
        y = sum(
            heights[r.get(_q("table:style-name"), "")]
            for r in _first(rows, "table:number-rows-repeated", row)
        )
    except KeyError as missing:
        msg = f"LibreOffice's .ods has no size for the Settings sheet's style {missing}"
        raise NewBookError(msg) from None
    return x, y


def add_button(content: bytes) -> bytes:
    """``content.xml`` with the Refresh standings button on the Settings sheet."""
    root, declared = _parsed(content)
    sheet = _sheet(root, "Settings")
    x, y = button_place(root, sheet)
    forms = sheet.find("office:forms", NS)
    if forms is None:
        forms = ET.Element(_q("office:forms"))
        sheet.insert(0, forms)
    forms.set(_q("form:automatic-focus"), "false")
    forms.set(_q("form:apply-design-mode"), "false")  # a click presses the button
    form = ET.SubElement(forms, _q("form:form"))
    form.set(_q("form:name"), "xlrally")
    form.set(_q("form:control-implementation"), "ooo:com.sun.star.form.component.Form")
    button = ET.SubElement(form, _q("form:button"))
    for name, value in (
        ("form:name", "RefreshStandings"),
        ("form:control-implementation", "ooo:com.sun.star.form.component.CommandButton"),
        ("xml:id", "xlrally-refresh"),
        ("form:id", "xlrally-refresh"),
        ("form:label", BUTTON_NAME),
        ("form:button-type", "url"),
        ("office:target-frame", "_self"),
        ("xlink:href", REFRESH_URL),
        ("form:image-position", "center"),
    ):
        button.set(_q(name), value)
    properties = ET.SubElement(button, _q("form:properties"))
    for name, kind, value in (
        ("DefaultControl", "string", "com.sun.star.form.control.CommandButton"),
        ("DispatchURLInternal", "boolean", "true"),  # in the document's frame, not a hyperlink
    ):
        item = ET.SubElement(properties, _q("form:property"))
        item.set(_q("form:property-name"), name)
        item.set(_q("office:value-type"), kind)
        item.set(_q(f"office:{kind}-value"), value)
    shapes = sheet.find("table:shapes", NS)
    if shapes is None:
        shapes = ET.Element(_q("table:shapes"))
        sheet.insert(list(sheet).index(forms) + 1, shapes)
    control = ET.SubElement(shapes, _q("draw:control"))
    width, height = BUTTON_SIZE
    for name, inches in (("svg:width", width), ("svg:height", height), ("svg:x", x), ("svg:y", y)):
        control.set(_q(name), f"{inches:.4f}in")
    control.set(_q("draw:control"), "xlrally-refresh")
    return _written(root, declared)


def view_of(xlsx: Path) -> tuple[dict[str, tuple[int, int]], str]:
    """Each sheet's frozen (columns, rows) and the active sheet's name, from the ``.xlsx``'s
    ``<pane state="frozen">`` and ``<workbookView activeTab>`` (ECMA-376 part 1, 18.3.1.66
    and 18.2.30)."""
    with zipfile.ZipFile(xlsx) as book:
        workbook = SafeET.fromstring(book.read("xl/workbook.xml"))
        links = SafeET.fromstring(book.read("xl/_rels/workbook.xml.rels"))
        targets = {
            r.get("Id"): r.get("Target", "") for r in links.iter(f"{{{NS['rel']}}}Relationship")
        }
        names = []
        frozen = {}
        for sheet in workbook.iter(_q("main:sheet")):
            name = sheet.get("name", "")
            names.append(name)
            target = posixpath.normpath(posixpath.join("xl", targets[sheet.get(_q("r:id"))]))
            part = SafeET.fromstring(book.read(target.lstrip("/")))
            for pane in part.iter(_q("main:pane")):
                if pane.get("state") in {"frozen", "frozenSplit"}:
                    columns = int(float(pane.get("xSplit", "0")))
                    rows = int(float(pane.get("ySplit", "0")))
                    frozen[name] = (columns, rows)
        view = workbook.find("main:bookViews/main:workbookView", NS)
        active = int(view.get("activeTab", "0")) if view is not None else 0
    return frozen, names[active] if 0 <= active < len(names) else names[0]


def _item(parent: ET.Element, name: str, kind: str, value: str) -> None:
    item = ET.SubElement(parent, _q("config:config-item"))
    item.set(_q("config:name"), name)
    item.set(_q("config:type"), kind)
    item.text = value


def add_views(settings: bytes, frozen: dict[str, tuple[int, int]], active: str) -> bytes:
    """``settings.xml`` with one view: each sheet's frozen panes and the active sheet, in the
    configuration items LibreOffice reads (``HorizontalSplitMode`` 2 = frozen at
    ``HorizontalSplitPosition`` columns, ``VerticalSplit...`` for rows; ``ActiveSplitRange``
    the pane the cursor is in: 2 lower left, 3 lower right)."""
    root, declared = _parsed(settings)
    views_set = next(
        (
            s
            for s in root.iter(_q("config:config-item-set"))
            if s.get(_q("config:name")) == "ooo:view-settings"
        ),
        None,
    )
    if views_set is None:
        holder = root.find("office:settings", NS)
        if holder is None:
            holder = ET.SubElement(root, _q("office:settings"))
        views_set = ET.Element(_q("config:config-item-set"))
        views_set.set(_q("config:name"), "ooo:view-settings")
        holder.insert(0, views_set)
    for old in views_set.findall("config:config-item-map-indexed", NS):
        views_set.remove(old)
    views = ET.SubElement(views_set, _q("config:config-item-map-indexed"))
    views.set(_q("config:name"), "Views")
    view = ET.SubElement(views, _q("config:config-item-map-entry"))
    _item(view, "ViewId", "string", "view1")
    tables = ET.SubElement(view, _q("config:config-item-map-named"))
    tables.set(_q("config:name"), "Tables")
    for name, (columns, rows) in frozen.items():
        entry = ET.SubElement(tables, _q("config:config-item-map-entry"))
        entry.set(_q("config:name"), name)
        _item(entry, "CursorPositionX", "int", str(columns))
        _item(entry, "CursorPositionY", "int", str(rows))
        _item(entry, "HorizontalSplitMode", "short", "2" if columns else "0")
        _item(entry, "VerticalSplitMode", "short", "2" if rows else "0")
        _item(entry, "HorizontalSplitPosition", "int", str(columns))
        _item(entry, "VerticalSplitPosition", "int", str(rows))
        _item(entry, "ActiveSplitRange", "short", "3" if columns and rows else "2")
        _item(entry, "PositionLeft", "int", "0")
        _item(entry, "PositionRight", "int", str(columns))
        _item(entry, "PositionTop", "int", "0")
        _item(entry, "PositionBottom", "int", str(rows))
    _item(view, "ActiveTable", "string", active)
    return _written(root, declared)


def verify(staged: Path, converted: Path) -> None:
    """The staged file is an OpenDocument spreadsheet (``mimetype`` first and stored), has
    the button on its Settings sheet, and holds every other part of LibreOffice's file as it
    was; else NewBookError (and the target is left as it was)."""
    with zipfile.ZipFile(staged) as new, zipfile.ZipFile(converted) as old:
        first = new.infolist()[0]
        if (first.filename, first.compress_type) != ("mimetype", zipfile.ZIP_STORED):
            problem: str | None = "its first part is not the stored mimetype"
        elif new.read("mimetype") != MIMETYPE:
            problem = "it is not a spreadsheet"
        elif new.namelist() != old.namelist():
            problem = "its parts are not LibreOffice's"
        elif any(
            new.read(n) != old.read(n)
            for n in old.namelist()
            if n not in {"content.xml", "settings.xml"}
        ):
            problem = "a part changed that should not"
        else:
            sheet = _sheet(SafeET.fromstring(new.read("content.xml")), "Settings")
            hrefs = [b.get(_q("xlink:href")) for b in sheet.iter(_q("form:button"))]
            SafeET.fromstring(new.read("settings.xml"))
            found = hrefs == [REFRESH_URL]
            problem = None if found else "the Settings sheet has no Refresh button"
    if problem is not None:
        msg = f"the .ods written was not right ({problem}); nothing was changed"
        raise NewBookError(msg)
