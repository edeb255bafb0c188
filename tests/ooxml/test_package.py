"""The package checks that run before any sheet reaches python-calamine."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import RALLY_SHEETS, write_book

from xlrally.core.errors import WorkbookError
from xlrally.ooxml import package as package_module
from xlrally.ooxml.package import MAX_CELLS, Package, column_number
from xlrally.ooxml.reader import FileSheets


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
        ("J1048576", False),  # 10 columns to Excel's last row (issue 33)
        ("T1048576", False),  # 20 × 1,048,576 = 20,971,520 = MAX_CELLS
        ("U1048576", True),  # 21 × 1,048,576 > MAX_CELLS
        ("AA100", False),
        ("XFD1", False),  # 16,384 cells in one row
        ("XFD1048576", True),
        ("ZZ20000", False),  # 702 × 20,000 = 14,040,000
        ("ZZ30000", True),  # 702 × 30,000 = 21,060,000
        ("BA200000", False),  # 53 × 200,000 = 10,600,000
        ("BA400000", True),  # 53 × 400,000 = 21,200,000
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


@pytest.mark.parametrize("check_area", [True, False])
def test_the_area_limit_is_the_same_in_a_child_that_skips_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check_area: bool
) -> None:
    """A reader in an isolated child (no check before the read) refuses the same sheets as
    one in this process, with the same message: here a limit of 100 cells and a cell at K10
    (10 rows × 11 columns)."""
    monkeypatch.setattr(package_module, "MAX_CELLS", 100)
    path = with_cell(tmp_path, "K10")
    refused = pytest.raises(WorkbookError, match="Results: cells reach row 10 and column 11")
    with FileSheets(path, check_area) as source, refused:
        source.values("Results")
    small = with_cell(tmp_path, "J10")
    with FileSheets(small, check_area) as source:
        assert len(source.values("Results")) == 10


@pytest.mark.parametrize("check_area", [True, False])
def test_a_kept_part_is_decompressed_once_for_its_check_and_one_read(
    tmp_path: Path, check_area: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27: an import's Results XML, decompressed by the check that reading its values
    makes, is kept for the import's own read (the same bytes), once; a later read decompresses
    it again, and a part not asked to be kept is never held."""
    path = write_book(tmp_path / "book.xlsx", RALLY_SHEETS)
    with FileSheets(path, check_area) as sheets:
        package = sheets.package
        results = package.sheet("Results")
        assert results is not None
        whole = b"".join(package.chunks(results.part))
        package.keep(results.part)
        sheets.values("Results")
        sheets.values("Events")
        assert set(package._kept) == {results.part}
        passes: list[str] = []

        def chunks(part: str) -> Iterator[bytes]:
            passes.append(part)
            yield whole

        monkeypatch.setattr(package, "chunks", chunks)
        assert package.read(results.part) == whole
        assert passes == []
        assert package.read(results.part) == whole
        assert passes == [results.part]
