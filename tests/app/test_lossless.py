"""The lossless corpus: workbooks with everything treasurers' files hold, synced; every part
but the Standings sheet and its companions stays byte-identical."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
import xlsxwriter
from helpers import RALLY_SHEETS, parts, tiny_png

from xlrally.app.newbook import xlwings_vba_project
from xlrally.app.sync import sync_file

RIBBON_REL = "http://schemas.microsoft.com/office/2007/relationships/ui/extensibility"
SIGNATURE_REL = "http://schemas.microsoft.com/office/2006/relationships/vbaProjectSignature"
RIBBON = (
    b'<customUI xmlns="http://schemas.microsoft.com/office/2009/07/customui"><ribbon><tabs>'
    b'<tab id="league" label="League"><group id="g" label="Standings"><button id="refresh" '
    b'label="Refresh" onAction="SampleCall"/></group></tab></tabs></ribbon></customUI>'
)


def base(path: Path, vba: bool = False) -> tuple[xlsxwriter.Workbook, dict[str, object]]:
    book = xlsxwriter.Workbook(str(path))
    if vba:
        book.add_vba_project(io.BytesIO(xlwings_vba_project()), is_stream=True)
        book.set_vba_name("ThisWorkbook")
    sheets = {}
    for name, rows in RALLY_SHEETS.items():
        sheet = book.add_worksheet(name)
        if vba:
            sheet.set_vba_name()
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if value is not None:
                    sheet.write(r, c, value.isoformat() if hasattr(value, "isoformat") else value)
        sheets[name] = sheet
    return book, sheets


def add_parts(
    path: Path, extra: dict[str, bytes], edits: dict[str, Callable[[bytes], bytes]]
) -> None:
    with zipfile.ZipFile(path) as z:
        items = {i.filename: z.read(i.filename) for i in z.infolist()}
    for name, edit in edits.items():
        items[name] = edit(items.get(name, b""))
    items.update(extra)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in items.items():
            z.writestr(name, data)


def signed_vba(path: Path) -> Path:
    """A macro workbook with a (stand-in) VBA signature part, as Excel links it."""
    book, _ = base(path, vba=True)
    book.close()
    add_parts(
        path,
        {
            "xl/_rels/vbaProject.bin.rels": (
                b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="'
                b'http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" '
                b'Type="'
                + SIGNATURE_REL.encode()
                + b'" Target="vbaProjectSignature.bin"/></Relationships>'
            ),
            "xl/vbaProjectSignature.bin": b"\x30\x82signature-bytes" * 64,
        },
        {
            "[Content_Types].xml": lambda t: t.replace(
                b"</Types>",
                b'<Override PartName="/xl/vbaProjectSignature.bin" ContentType="application/'
                b'vnd.ms-office.vbaProjectSignature"/></Types>',
            )
        },
    )
    return path


def custom_ribbon(path: Path) -> Path:
    """A workbook with a customUI14 ribbon part linked from the package relationships."""
    book, _ = base(path)
    book.close()
    add_parts(
        path,
        {"customUI/customUI14.xml": RIBBON},
        {
            "_rels/.rels": lambda t: t.replace(
                b"</Relationships>",
                b'<Relationship Id="rIdUI" Type="'
                + RIBBON_REL.encode()
                + b'" Target="customUI/customUI14.xml"/></Relationships>',
            )
        },
    )
    return path


def rich_content(path: Path) -> Path:
    """Charts, an image, sparklines, a dynamic-array formula, comments and a table."""
    book, sheets = base(path)
    summary = book.add_worksheet("Summary")
    summary.write_dynamic_array_formula("A1:A3", "=SORT(Results!C2:C4)", None, 1)
    summary.write_formula("B1", "=SUM(Results!C2:C4)", None, 6)
    summary.write_row("D1", [1, 3, 2, 5])
    summary.add_sparkline("H1", {"range": "Summary!D1:G1"})
    summary.write_comment("B1", "Total points so far")
    summary.insert_image("C5", "logo.png", {"image_data": io.BytesIO(tiny_png())})
    for kind in ("column", "line"):
        chart = book.add_chart({"type": kind})
        chart.add_series({"values": "=Results!$C$2:$C$4"})
        summary.insert_chart("J2" if kind == "column" else "J20", chart)
    sheets["Results"].add_table("H1:I3", {"columns": [{"header": "Club"}, {"header": "Town"}]})  # type: ignore[attr-defined]
    sheets["Results"].write_comment("A1", "One row per player per event")  # type: ignore[attr-defined]
    book.define_name("Points", "=Results!$C$2:$C$4")
    book.close()
    return path


CORPUS = {
    "signed VBA project": signed_vba,
    "custom ribbon": custom_ribbon,
    "charts, images, sparklines, dynamic arrays, comments, tables": rich_content,
}


@pytest.mark.parametrize("name", list(CORPUS))
def test_every_other_part_is_byte_identical(tmp_path: Path, name: str) -> None:
    """Only the new Standings part, styles, workbook.xml, its rels and content types change,
    and the fingerprint of the Standings is kept in docProps/custom.xml (made if missing, with
    its package relationship)."""
    suffix = ".xlsm" if "VBA" in name else ".xlsx"
    path = CORPUS[name](tmp_path / f"book{suffix}")
    before = parts(path)
    assert sync_file(path).result == "written"
    after = parts(path)
    changed = {n for n in set(before) | set(after) if before.get(n) != after.get(n)}
    new_parts = set(after) - set(before) - {"docProps/custom.xml"}
    assert len(new_parts) == 1
    assert next(iter(new_parts)).startswith("xl/worksheets/sheet")
    assert changed - new_parts - {"docProps/custom.xml"} <= {
        "xl/styles.xml",
        "xl/workbook.xml",
        "xl/_rels/workbook.xml.rels",
        "[Content_Types].xml",
        "_rels/.rels",
    }
    assert set(before) <= set(after)
    # what changed in the shared parts is only additions
    for part in (changed - new_parts) & set(before):
        old, new = before[part].decode(), after[part].decode()
        assert len(new) > len(old)
    assert sync_file(path).result == "unchanged"


def test_chart_on_the_old_standings_sheet_is_kept(tmp_path: Path) -> None:
    """A chart the treasurer placed on Standings survives a sync (its drawing link is kept)."""
    book, _ = base(tmp_path / "chart.xlsx")
    standings = book.add_worksheet("Standings")
    chart = book.add_chart({"type": "bar"})
    chart.add_series({"values": "=Standings!$C$2:$C$3", "categories": "=Standings!$B$2:$B$3"})
    standings.insert_chart("K2", chart)
    book.close()
    before = parts(tmp_path / "chart.xlsx")
    assert sync_file(tmp_path / "chart.xlsx").result == "written"
    after = parts(tmp_path / "chart.xlsx")
    sheet_xml = next(
        v for k, v in after.items() if k.startswith("xl/worksheets/sheet") and b"Working" in v
    )
    assert b'<drawing r:id="rId1"/>' in sheet_xml
    assert after["xl/charts/chart1.xml"] == before["xl/charts/chart1.xml"]
    assert after["xl/drawings/drawing1.xml"] == before["xl/drawings/drawing1.xml"]
