"""The .xlsx/.xlsm package (a zip of XML parts): opened safely, read with limits.

Everything here is checked before any part is handed to a parser: the file is a zip (not an
encrypted or old binary workbook), parts are not absurdly large or compressed, the XML parts
we parse have no DTD (so no entity bombs or external entities), and the cells of a sheet cover
a bounded area (a 2 KB file with one cell at XFD1048576 would make a reader allocate gigabytes).
"""

from __future__ import annotations

import datetime as dt
import os
import posixpath
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.parsers import expat

import defusedxml.ElementTree as SafeET

from xlrally.core.errors import WorkbookError
from xlrally.formats.cells import DATE_1904, EXCEL_EPOCH
from xlrally.ooxml import constants
from xlrally.ooxml.constants import NS_PKG_REL, NS_STRICT_MAIN
from xlrally.ooxml.directory import resolved
from xlrally.ooxml.formulas import scan_formulas

NS_MAIN = constants.NS_MAIN
NS_REL = constants.NS_REL
WORKSHEET_TYPE = constants.WORKSHEET_TYPE
"""The names a package's parts use most, kept here too (their home: :mod:`~.constants`)."""

MAX_FILE_BYTES = 256 * 2**20
"""Largest workbook file read (compressed)."""
MAX_PART_BYTES = 512 * 2**20
"""Largest uncompressed part (a 200,000-row results sheet is about 30 MB)."""
MAX_TOTAL_BYTES = 1024 * 2**20
"""Largest sum of the uncompressed parts."""
MAX_CELLS = 20 * 1_048_576
"""Largest area (rows × columns up to the furthest cell) of a sheet that is read: 20 columns
down to Excel's last row (a results sheet of Excel's every row fits), in every path (issue 33:
the Python paths refused a 10-column sheet reaching row 1,048,576 that the command line read)."""
MAX_PARTS = 10_000

MAX_ROWS = 1_048_576
NARROW_COLUMNS = 8
"""Columns A..H: a sheet no wider than this is safe at any length."""
_WIDE_REF = re.compile(rb' r="([I-Z][A-Z]{0,2}|[A-H][A-Z]{1,2})[0-9]')
"""A cell reference right of column H (I..Z, or two or three letters)."""
_ROW_NUMBER = re.compile(rb' r="[A-Z]{0,3}([0-9]{1,7})"')
_IMPLICIT_CELL = re.compile(rb"<c(?:\s(?![^>]*\br=)[^>]*)?/?>")
"""A complete <c> tag without an r attribute."""
_DTD = re.compile(rb"<!(DOCTYPE|ENTITY)", re.IGNORECASE)


def refuse_area(sheet: str, max_row: int, max_col: int) -> None:
    """Refuse a sheet whose cells reach further than :data:`MAX_CELLS` allows."""
    if max_row * max_col > MAX_CELLS:
        raise WorkbookError(
            f"{sheet}: cells reach row {max_row:,} and column {max_col:,}, an area of "
            f"{max_row * max_col:,} cells; xlrally reads at most {MAX_CELLS:,}"
        )


def refuse_dtd(head: bytes, where: str) -> None:
    """Refuse XML whose first 4 KB declare a DTD or entities (entity bombs, external
    entities): the one check every XML part xlrally reads goes through."""
    if _DTD.search(head[:4096]):
        raise WorkbookError(f"{where}: XML with a DTD or entities is not allowed")


_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


@dataclass(frozen=True)
class SheetRef:
    """A sheet as listed in xl/workbook.xml."""

    name: str
    rel_id: str
    part: str  # e.g. "xl/worksheets/sheet1.xml"
    kind: str  # relationship type (worksheet, chartsheet, ...)


def identity(status: os.stat_result) -> tuple[int, int, int]:
    """What tells one version of a file from another: its inode (a rename over it), size and
    modification time."""
    return status.st_ino, status.st_size, status.st_mtime_ns


def file_identity(path: str | Path) -> tuple[int, int, int] | None:
    """The :func:`identity` of the file at ``path`` now (None if it cannot be looked at)."""
    try:
        return identity(Path(path).stat())
    except OSError:
        return None


def uncompressed_size(path: str | Path) -> int:
    """The sum of the sizes the zip directory gives for the package's parts, uncompressed;
    0 for a file that is not a zip (opening it says what is wrong)."""
    try:
        with zipfile.ZipFile(path) as package:
            return sum(info.file_size for info in package.infolist())
    except (OSError, zipfile.BadZipFile, ValueError):
        return 0


def column_number(letters: bytes | str) -> int:
    """A1-style column letters to a 1-based number: A -> 1, XFD -> 16384."""
    number = 0
    for ch in letters.decode() if isinstance(letters, bytes) else letters:
        number = number * 26 + ord(ch) - 64
    return number


def _check_file(path: Path) -> None:
    if not path.exists():
        raise WorkbookError("file not found")
    if not path.is_file():
        raise WorkbookError("not a file")
    size = path.stat().st_size
    if size == 0:
        raise WorkbookError("the file is empty")
    if size > MAX_FILE_BYTES:
        raise WorkbookError(f"the file is {size // 2**20} MB; xlrally reads at most 256 MB")
    try:
        with path.open("rb") as f:
            head = f.read(8)
    except PermissionError:
        raise WorkbookError("permission denied (is the file locked or read-only?)") from None
    except OSError as error:
        raise WorkbookError(f"cannot read the file: {error.strerror}") from None
    if head.startswith(_OLE_MAGIC):
        data = path.read_bytes()
        if "EncryptedPackage".encode("utf-16-le") in data:
            raise WorkbookError(
                "the workbook is password-protected (encrypted); remove the password and try again"
            )
        raise WorkbookError("this is an old binary workbook (.xls); save it as .xlsx and try again")
    if not head.startswith(b"PK"):
        if path.suffix.lower() in _TEXT_SUFFIXES:
            raise WorkbookError(
                f"this is a text file ({path.suffix.lower()}), not a workbook: open it in Excel or "
                "LibreOffice and save it as an Excel Workbook (.xlsx), or paste its rows into a "
                "workbook made by 'xlrally new'"
            )
        raise WorkbookError("not an Excel workbook (.xlsx or .xlsm): it is not a zip package")


_TEXT_SUFFIXES = (".csv", ".tsv", ".txt")
_TRUE = {"1", "true"}
_CALCULATE = "open and save it in Excel or LibreOffice first, then sync again"
_SAVE_AS_XLSX = "save it as an Excel Workbook (.xlsx or .xlsm) and sync that file"


def parse_xml(data: bytes, part: str) -> Any:
    """Parse a small XML part, refusing DTDs, entities and external references."""
    refuse_dtd(data, part)
    try:
        return SafeET.fromstring(data)
    except Exception as error:  # defusedxml raises several kinds
        raise WorkbookError(f"{part}: damaged XML ({error})") from None


class Package:
    """An open workbook package with its sheet list; use as a context manager."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        _check_file(self.path)
        self.opened = self.path.stat()
        """The file's status when opened: a write refuses to replace a file changed since."""
        try:
            self.zip = zipfile.ZipFile(self.path)
        except zipfile.BadZipFile:
            raise WorkbookError("the file is damaged (not a complete zip package)") from None
        except OSError as error:
            raise WorkbookError(f"cannot read the file: {error.strerror}") from None
        self._formulas: dict[str, bool] = {}
        """Sheet part -> whether it holds any formula, for the sheets looked at so far."""
        self._formulas_checked: set[str] = set()
        """Sheet parts whose formulas passed :meth:`check_formulas` (a sheet tried as columns,
        then read as rows, is checked once)."""
        self._keeping: set[str] = set()
        self._kept: dict[str, bytes] = {}
        """Sheet parts whose bytes a pass over them kept for one :meth:`read` (:meth:`keep`)."""
        self._relationships: dict[str, dict[str, tuple[str, str]]] = {}
        """Part -> its relationships, as parsed (:meth:`relationships`)."""
        try:
            self._check_sizes()
            self.workbook_part = self._workbook_part()
            self.sheets = self._sheets()
        except BaseException:
            self.zip.close()
            raise

    def __enter__(self) -> Package:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        self.zip.close()

    def _check_sizes(self) -> None:
        infos = self.zip.infolist()
        if len(infos) > MAX_PARTS:
            raise WorkbookError(f"the package has {len(infos)} parts; at most {MAX_PARTS}")
        total = 0
        for info in infos:
            if info.flag_bits & 0x1:
                raise WorkbookError("the package is encrypted")
            # Only absolute sizes: a legal sheet of a million blank formatted rows compresses
            # far beyond 200:1, and chunks() enforces the limit whatever the header claims.
            if info.file_size > MAX_PART_BYTES:
                raise WorkbookError(
                    f"{info.filename}: {info.file_size // 2**20} MB uncompressed; xlrally reads "
                    "parts up to 512 MB (refusing a possible zip bomb)"
                )
            total += info.file_size
        if total > MAX_TOTAL_BYTES:
            raise WorkbookError(f"the parts add up to {total // 2**20} MB; at most 1024 MB")

    def changed(self) -> bool:
        """Whether the file on disk is no longer the one opened (saved or replaced since)."""
        return file_identity(self.path) != identity(self.opened)

    def unreadable(self, problem: str) -> WorkbookError:
        """The error for a part that cannot be read: ``problem``, unless the file changed while
        it was read (someone saved it meanwhile), which is no damage and worth a retry."""
        if self.changed():
            return WorkbookError(
                "the file changed while xlrally was reading it (saved by someone or something "
                "else meanwhile); nothing was written: sync it again"
            )
        return WorkbookError(problem)

    def has(self, part: str) -> bool:
        try:
            self.zip.getinfo(part)
        except KeyError:
            return False
        return True

    def listed(self, part: str) -> tuple[int, int]:
        """The part's CRC-32 and uncompressed size as the package's directory lists them."""
        info = self.zip.getinfo(part)
        return info.CRC, info.file_size

    def chunks(self, part: str, size: int = 2**20) -> Iterator[bytes]:
        """The part's bytes in chunks, stopping at MAX_PART_BYTES whatever the header says."""
        read = 0
        try:
            with self.zip.open(part) as f:
                while chunk := f.read(size):
                    read += len(chunk)
                    if read > MAX_PART_BYTES:
                        raise WorkbookError(f"{part}: more than 512 MB uncompressed")
                    yield chunk
        except KeyError:
            raise WorkbookError(f"the package has no part {part}") from None
        except WorkbookError:
            raise
        except Exception as error:  # BadZipFile, EOFError, zlib.error ... of a damaged stream
            raise self.unreadable(f"{part}: damaged ({error})") from None

    def read(self, part: str) -> bytes:
        kept = self._kept.pop(part, None)
        return kept if kept is not None else b"".join(self.chunks(part))

    def keep(self, part: str) -> None:
        """Have the next whole pass over this sheet part's XML (the formula or area check that
        a read of its values makes, :meth:`has_formulas`, :meth:`check_sheet_area`) keep its
        bytes for one :meth:`read`: a big sheet that the caller edits (an import's Results)
        is decompressed once for both, not twice. A pass that stops early keeps nothing."""
        self._keeping.add(part)

    def xml(self, part: str) -> Any:
        try:
            return parse_xml(self.read(part), part)
        except WorkbookError as error:
            raise self.unreadable(str(error)) from None

    def rels_part(self, part: str) -> str:
        folder, name = posixpath.split(part)
        return posixpath.join(folder, "_rels", name + ".rels")

    def relationships(self, part: str) -> dict[str, tuple[str, str]]:
        """rId -> (type, target part) for a part ('' for the package). Each part's are parsed
        once (the package does not change while it is open): a sync asks for the package's
        own half a dozen times."""
        if part not in self._relationships:
            self._relationships[part] = self._parsed_relationships(part)
        return dict(self._relationships[part])

    def workbook_related(self, kind: str) -> str | None:
        """The workbook's part of the relationship type ending in ``kind`` (``/styles``,
        ``/sharedStrings``), or None when it has none."""
        rels = self.relationships(self.workbook_part).values()
        return next((target for k, target in rels if k.endswith(kind)), None)

    def _parsed_relationships(self, part: str) -> dict[str, tuple[str, str]]:
        rels = self.rels_part(part) if part else "_rels/.rels"
        if not self.has(rels):
            return {}
        folder = posixpath.dirname(part)
        found = {}
        for rel in self.xml(rels).findall(f"{{{NS_PKG_REL}}}Relationship"):
            target = rel.get("Target", "")
            if rel.get("TargetMode") == "External":
                continue
            found[rel.get("Id", "")] = (rel.get("Type", ""), resolved(folder, target))
        return found

    def _workbook_part(self) -> str:
        for kind, target in self.relationships("").values():
            if kind.endswith("/officeDocument"):
                if target.endswith(".bin"):
                    raise WorkbookError(
                        "this is a binary workbook (.xlsb), which xlrally cannot read: in Excel, "
                        f"File > Save As, {_SAVE_AS_XLSX}"
                    )
                return target
        if self.has("mimetype") and b"opendocument" in self.read("mimetype"):
            raise WorkbookError(
                "this is an OpenDocument spreadsheet (.ods), which xlrally cannot read: in "
                f"LibreOffice, File > Save As, {_SAVE_AS_XLSX}"
            )
        raise WorkbookError("not an Excel workbook: the package has no workbook part")

    def _sheets(self) -> list[SheetRef]:
        root = self.xml(self.workbook_part)
        if root.tag == f"{{{NS_STRICT_MAIN}}}workbook":
            raise WorkbookError(
                "the workbook is saved as Strict Open XML, which xlrally cannot read: in Excel, "
                "File > Save As, choose 'Excel Workbook' (not 'Strict Open XML Spreadsheet') and "
                "sync that file"
            )
        properties = root.find(f"{{{NS_MAIN}}}workbookPr")
        self.date1904 = properties is not None and properties.get("date1904") in _TRUE
        """Dates count from 1904-01-01 (old Mac Excel), not 1899-12-30."""
        calc = root.find(f"{{{NS_MAIN}}}calcPr")
        self.recalc_on_open = calc is not None and calc.get("fullCalcOnLoad") in _TRUE
        """The program that saved the file asks for every formula to be recalculated on opening:
        the values saved with the formulas may never have been calculated."""
        rels = self.relationships(self.workbook_part)
        sheets = []
        for sheet in root.iter(f"{{{NS_MAIN}}}sheet"):
            rel_id = sheet.get(f"{{{NS_REL}}}id", "")
            kind, part = rels.get(rel_id, ("", ""))
            sheets.append(SheetRef(sheet.get("name", ""), rel_id, part, kind))
        return sheets

    @property
    def epoch(self) -> dt.date:
        """Day 0 of the workbook's serial dates: 1899-12-30, or 1904-01-01 in the 1904 system."""
        return DATE_1904 if self.date1904 else EXCEL_EPOCH

    def sheet(self, name: str) -> SheetRef | None:
        return next((s for s in self.sheets if s.name == name), None)

    def check_sheet_area(self, sheet: SheetRef) -> None:
        """Refuse a sheet whose cells may cover more than MAX_CELLS (rows × columns).

        Any sheet whose cells stay within columns A..H is safe whatever its rows (1,048,576 × 8
        < MAX_CELLS), so a first pass only looks for cells right of H (a fast regex that finds
        nothing in a typical results sheet). Only a wider sheet gets the exact, slower scan of
        every cell reference. Cells without a reference (allowed, rare) count as wide.
        """
        max_col = NARROW_COLUMNS
        cells = 0
        formulas = False
        for data in self._overlapping_chunks(sheet):
            formulas = formulas or b"<f" in data
            max_col = max([max_col, *(column_number(c) for c in set(_WIDE_REF.findall(data)))])
            tags = data.count(b"<c ") + data.count(b"<c>")
            cells += tags
            if tags != data.count(b'<c r="') and _IMPLICIT_CELL.search(data):
                max_col = max(max_col, cells)
        self._formulas[sheet.part] = formulas
        if MAX_ROWS * max_col <= MAX_CELLS:
            return
        max_row = 0
        for data in self._overlapping_chunks(sheet):
            rows = [int(r) for r in _ROW_NUMBER.findall(data)]
            max_row = max([max_row, data.count(b"<row"), *rows])
        refuse_area(sheet.name, max_row, max_col)

    def has_formulas(self, sheet: SheetRef) -> bool:
        """Whether the sheet holds any formula (one pass over its XML, remembered)."""
        if sheet.part not in self._formulas:
            self._formulas[sheet.part] = any(b"<f" in d for d in self._overlapping_chunks(sheet))
        return self._formulas[sheet.part]

    def check_formulas(self, sheet: SheetRef) -> None:
        """Refuse a sheet whose formulas were never calculated (:mod:`xlrally.ooxml.formulas`):
        one without a saved value, or every one saved as 0 in a file that asks to be
        recalculated on opening; or with a cell holding an error value."""
        if sheet.part in self._formulas_checked or not self.has_formulas(sheet):
            return
        try:
            scan = scan_formulas(self.chunks(sheet.part))
        except expat.ExpatError as error:
            raise WorkbookError(f"{sheet.name}: damaged XML ({error})") from None
        if scan.uncalculated is not None:
            raise WorkbookError(
                f"{sheet.name}!{scan.uncalculated}: this formula has no calculated value (the "
                f"file was last saved by a program that does not calculate formulas); {_CALCULATE}"
            )
        if scan.error is not None:
            cell, value = scan.error
            raise WorkbookError(
                f"{sheet.name}!{cell}: the cell holds the error {value}: correct the formula "
                "behind it (or wrap it in IFERROR), then sync again"
            )
        if self.recalc_on_open and scan.formulas and scan.zeros == scan.formulas:
            raise WorkbookError(
                f"{sheet.name}: every formula here shows 0 and the file asks to be recalculated "
                f"when opened, so the values were never calculated; {_CALCULATE}"
            )
        self._formulas_checked.add(sheet.part)

    def check_head(self, sheet: SheetRef) -> None:
        """Refuse a sheet whose XML starts with a DTD (entity bombs, external entities)."""
        refuse_dtd(next(self.chunks(sheet.part, 4096), b""), sheet.name)

    def _overlapping_chunks(self, sheet: SheetRef) -> Iterator[bytes]:
        """The sheet's XML in chunks, each starting with the end of the one before."""
        tail = b""
        keeping = sheet.part in self._keeping
        pieces = []
        for index, chunk in enumerate(self.chunks(sheet.part)):
            if index == 0:
                refuse_dtd(chunk, sheet.name)
            if keeping:
                pieces.append(chunk)
            data = tail + chunk
            yield data
            tail = data[-32:]
        if keeping:  # the whole part was read (not when the pass stops at a formula)
            self._keeping.discard(sheet.part)
            self._kept[sheet.part] = b"".join(pieces)

    def check_shared_strings(self) -> None:
        for kind, part in self.relationships(self.workbook_part).values():
            if kind.endswith("/sharedStrings"):
                refuse_dtd(next(self.chunks(part), b""), part)
