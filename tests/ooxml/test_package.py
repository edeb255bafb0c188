"""The package checks that run before any sheet reaches python-calamine."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from helpers import RALLY_SHEETS, write_book

from xlrally.core.errors import WorkbookError
from xlrally.ooxml.package import MAX_CELLS, Package, column_number


def with_cell(tmp_path: Path, ref: str) -> Path:
    """The rally workbook with one more cell at ``ref`` on the Results sheet."""
    path = write_book(tmp_path / f"{ref}.xlsx", RALLY_SHEETS)
    with zipfile.ZipFile(path) as z:
        items = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    row = "".join(ch for ch in ref if ch.isdigit())
    with zipfile.ZipFile(path, "w") as z:
        for name, original in items:
            data = original
            if name == "xl/worksheets/sheet3.xml":
                data = data.replace(
                    b"</sheetData>",
                    f'<row r="{row}"><c r="{ref}"><v>1</v></c></row></sheetData>'.encode(),
                )
            z.writestr(name, data)
    return path


@pytest.mark.parametrize(
    ("ref", "refused"),
    [
        ("H1048576", False),  # 8 columns at any length: 8,388,608 cells
        ("I1048576", False),  # 9 × 1,048,576 = 9,437,184 <= 10,000,000
        ("J1048576", True),  # 10 × 1,048,576 > 10,000,000
        ("AA100", False),
        ("XFD1", False),  # 16,384 cells in one row
        ("XFD1048576", True),
        ("ZZ20000", True),  # 702 × 20,000
        ("BA200000", True),
    ],
)
def test_sheet_area_limit(tmp_path: Path, ref: str, refused: bool) -> None:
    """The furthest cell decides the area (rows × columns) a reader would allocate."""
    path = with_cell(tmp_path, ref)
    with Package(path) as package:
        sheet = package.sheet("Results")
        assert sheet is not None
        if refused:
            with pytest.raises(WorkbookError, match=f"xlrally reads at most {MAX_CELLS:,}"):
                package.check_sheet_area(sheet)
        else:
            package.check_sheet_area(sheet)


def test_column_numbers() -> None:
    """A -> 1, Z -> 26, AA -> 27, XFD -> 16384."""
    assert [column_number(c) for c in ("A", "Z", "AA", "XFD")] == [1, 26, 27, 16384]
