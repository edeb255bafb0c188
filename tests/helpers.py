"""Workbooks for tests, built with XlsxWriter (never with the code under test)."""

from __future__ import annotations

import copy
import datetime as dt
import io
import os
import shutil
import struct
import subprocess
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import olefile
import pytest
import xlsxwriter

from xlrally.excel.live import MemoryBook
from xlrally.excel.template import league_sheets

Rows = Sequence[Sequence[Any]]
Sheets = dict[str, list[list[Any]]]
"""A workbook as plain rows by sheet name, as tests write it."""


def write_book(path: Path, sheets: Mapping[str, Any], *, vba: bytes | None = None) -> Path:
    """A plain workbook: one sheet per entry, rows from A1 (dates as dates)."""
    open_book(path, sheets, vba=vba).close()
    return path


def open_book(path: Path, sheets: Mapping[str, Any], *, vba: bytes | None = None) -> Any:
    """:func:`write_book`'s XlsxWriter workbook, not yet closed: for a test to add what it
    needs (a formula, a defined name, an active sheet) before closing it."""
    book = xlsxwriter.Workbook(
        str(path), {"strings_to_formulas": False, "strings_to_numbers": False}
    )
    if vba is not None:
        book.add_vba_project(io.BytesIO(vba), is_stream=True)
    date = book.add_format({"num_format": "yyyy-mm-dd"})
    for name, rows in sheets.items():
        sheet = book.add_worksheet(name)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if value is None:
                    continue
                if isinstance(value, dt.date):
                    sheet.write_datetime(r, c, dt.datetime.combine(value, dt.time()), date)
                elif isinstance(value, str):
                    sheet.write_string(r, c, value)
                else:
                    sheet.write(r, c, value)
    return book


def rewrite(path: Path, change: dict[str, bytes], *, keep: bool = True) -> Path:
    """Rewrite parts of a package (``keep`` False: only the parts in ``change``)."""
    items = {}
    if keep:
        with zipfile.ZipFile(path) as z:
            items = {i.filename: z.read(i.filename) for i in z.infolist()}
    items.update(change)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in items.items():
            z.writestr(name, data)
    return path


def parts(path: Path) -> dict[str, bytes]:
    """Every part of a workbook package, uncompressed."""
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


def tiny_png() -> bytes:
    """A valid 1×1 PNG, made by hand (no imaging library needed)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


RALLY_SHEETS: dict[str, Rows] = {
    "Settings": [["Setting", "Value"], ["System", "rally"], ["League", "Club Rally"]],
    "Events": [
        ["Event", "Date", "Rounds"],
        ["Dec 2025", dt.date(2025, 12, 6), 4],
        ["May 2026", dt.date(2026, 5, 9), 5],
    ],
    "Results": [
        ["Event", "Player", "Points", "Games", "Byes"],
        ["Dec 2025", "Bobby", 3, 4, 0],
        ["May 2026", "José", 2, 4, 1],
        ["May 2026", "Bobby", 1, 1, None],
    ],
}
"""Seed examples 1 and 2 plus Bobby's early withdrawal (100 × 1 / 5 + 1 = 21).

Hand-worked: 2 events held -> ⌈3/2⌉ = 2 count. Bobby 79 + 21 = 100; José 54."""


def rally_sheets() -> Sheets:
    """A copy of :data:`RALLY_SHEETS` that a test may change."""
    return {name: [list(row) for row in rows] for name, rows in RALLY_SHEETS.items()}


def plain(rows: list[list[Any]]) -> list[list[Any]]:
    """Sheet values as comparable data: "" as None, whole floats as ints, other numbers to
    the 15 significant digits spreadsheet programs keep (the file writer writes them so),
    trailing blanks (cells, then rows) dropped."""
    out = []
    for row in rows:
        values = [
            None
            if v == ""
            else (int(v) if v.is_integer() else float(f"{v:.15g}"))
            if isinstance(v, float)
            else v
            for v in row
        ]
        while values and values[-1] is None:
            values.pop()
        out.append(values)
    while out and not out[-1]:
        out.pop()
    return out


def vba_module_source(vba_project: bytes, module: str) -> str:
    """The VBA source of one module (MS-OVBA compressed container, decompressed here)."""
    ole = olefile.OleFileIO(vba_project)
    stream = ole.openstream(f"VBA/{module}").read()
    for start in range(len(stream)):
        if stream[start] != 1 or start + 3 > len(stream):
            continue
        header = int.from_bytes(stream[start + 1 : start + 3], "little")
        if header & 0x7000 != 0x3000:
            continue
        try:
            text = _decompress(stream[start:]).decode("latin-1")
        except IndexError:
            continue
        if "Attribute VB_Name" in text:
            return text
    raise AssertionError(f"no source found in module {module}")


def _decompress(data: bytes) -> bytes:
    out = bytearray()
    pos = 1
    while pos < len(data):
        header = int.from_bytes(data[pos : pos + 2], "little")
        pos += 2
        end = pos + (header & 0x0FFF) + 1
        chunk_start = len(out)
        if not header & 0x8000:
            out += data[pos : pos + 4096]
            pos += 4096
            continue
        while pos < min(end, len(data)):
            flags = data[pos]
            pos += 1
            for bit in range(8):
                if pos >= min(end, len(data)):
                    break
                if not flags >> bit & 1:
                    out.append(data[pos])
                    pos += 1
                    continue
                token = int.from_bytes(data[pos : pos + 2], "little")
                pos += 2
                bits = max((len(out) - chunk_start - 1).bit_length(), 4)
                offset = (token >> (16 - bits)) + 1
                for _ in range((token & (0xFFFF >> bits)) + 3):
                    out.append(out[-offset])
    return bytes(out)


def program(*names: str) -> str:
    """The path of a program the test needs (the first of ``names`` found): a test without it
    is skipped here, and fails in CI, where .ci/run installs it."""
    found = next((path for name in names if (path := shutil.which(name))), None)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{names[0]} is not installed (.ci/run installs it)")
        pytest.skip(f"{names[0]} is not installed")
    return found


def npm_package(name: str, version: str, marker: str = "package.json") -> Path:
    """A folder with an npm package installed in node_modules, kept between runs in
    ~/.cache/xlrally (``marker``: a file that shows the install finished)."""
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "xlrally"
    folder = cache / f"{name}-{version}"
    if not (folder / "node_modules" / name / marker).exists():
        folder.mkdir(parents=True, exist_ok=True)
        command = [program("npm"), "install", "--no-audit", "--no-fund", "--prefix", str(folder)]
        subprocess.run(
            [*command, f"{name}@{version}"], check=True, capture_output=True, timeout=600
        )
    return folder


def trf_player(number: int, name: str, rank: int, rounds: Sequence[str], points: float = 0) -> str:
    """A TRF ``001`` record laid out column by column from the standard (FIDE TRF16/TRF26:
    starting rank 5-8, name 15-47, points 81-84, rank 86-89, round r from 92 + 10 (r - 1):
    opponent, colour, result). ``rounds``: ``"3 w 1"`` (opponent 3, white, won), ``"U"`` (a
    bye: opponent 0000, colour -) or ``""`` (not paired: blank)."""
    line = f"001 {number:4d}      {name:<33.33s}{'':33s}{points:4.1f} {rank:4d}"
    assert len(line) == 89
    for entry in rounds:
        if not entry:
            line += " " * 10
        elif " " in entry:
            opponent, colour, code = entry.split()
            line += f"  {opponent:>4s} {colour} {code}"
        else:
            line += f"  0000 - {entry}"
    return line


CALC_CHAIN = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    b'<calcChain xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    b'<c r="A1" i="4"/></calcChain>'
)


def with_calc_chain(path: Path) -> None:
    """Add xl/calcChain.xml as Excel writes it: the part, its content type, its relationship."""
    old = parts(path)
    types = old["[Content_Types].xml"].replace(
        b"</Types>",
        b'<Override PartName="/xl/calcChain.xml" ContentType="application/vnd.openxmlformats-'
        b'officedocument.spreadsheetml.calcChain+xml"/></Types>',
    )
    rels = old["xl/_rels/workbook.xml.rels"].replace(
        b"</Relationships>",
        b'<Relationship Id="rId90" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        b'relationships/calcChain" Target="calcChain.xml"/></Relationships>',
    )
    rewrite(path, {"[Content_Types].xml": types, "xl/_rels/workbook.xml.rels": rels})
    with zipfile.ZipFile(path, "a") as z:
        z.writestr("xl/calcChain.xml", CALC_CHAIN)


def memory_book(system: str) -> MemoryBook:
    """The template's example league of ``system`` as an in-memory workbook (a fresh copy)."""
    return MemoryBook(sheets=copy.deepcopy(league_sheets(system).sheets))
