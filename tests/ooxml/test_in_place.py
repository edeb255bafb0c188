"""Writing cells into a sheet the user owns: the writers' habits (prefixes, rows and cells without
``r``, ``<sheetData/>``), range extension, and real sheets from ../shared/corpus, whose every
other cell must read back as before (openpyxl, an independent reader)."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
import zlib
from pathlib import Path

import openpyxl
import pytest

from xlrally.core.errors import WorkbookError
from xlrally.ooxml.in_place import (
    NeedsParse,
    Rows,
    SheetCells,
    StreamedSheet,
    extend_sheet,
    extend_table,
)
from xlrally.ooxml.rawzip import RawZipWriter
from xlrally.ooxml.xmlpart import XmlPart

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"


def write(sheet: str, writes: dict[int, dict[int, object]], like: int | None = None) -> str:
    part = XmlPart("sheet.xml", sheet.encode())
    return SheetCells(part).write(writes, like, lambda: 9).decode()  # type: ignore[arg-type]


def test_a_new_row_goes_between_the_rows_around_it_with_the_style_above() -> None:
    sheet = (
        f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" s="2"><v>1</v></c></row>'
        '<row r="5"><c r="A5"><v>5</v></c></row></sheetData></worksheet>'
    )
    assert write(sheet, {3: {0: 3, 1: "x"}}, like=1) == (
        f'<worksheet xmlns="{MAIN}"><sheetData><row r="1"><c r="A1" s="2"><v>1</v></c></row>'
        '<row r="3"><c r="A3" s="2"><v>3</v></c><c r="B3" t="inlineStr"><is>'
        '<t xml:space="preserve">x</t></is></c></row>'
        '<row r="5"><c r="A5"><v>5</v></c></row></sheetData></worksheet>'
    )


def test_an_existing_row_keeps_its_other_cells_and_its_own_styles() -> None:
    sheet = (
        f'<worksheet xmlns="{MAIN}"><sheetData><row r="2" ht="20" customHeight="1">'
        '<c r="A2" s="4" t="s"><v>0</v></c><c r="C2" s="7"><f>A2*2</f><v>0</v></c>'
        "</row></sheetData></worksheet>"
    )
    assert write(sheet, {2: {1: 2.5, 2: None}}) == (
        f'<worksheet xmlns="{MAIN}"><sheetData><row r="2" ht="20" customHeight="1">'
        '<c r="A2" s="4" t="s"><v>0</v></c><c r="B2"><v>2.5</v></c><c r="C2" s="7"/>'
        "</row></sheetData></worksheet>"
    )


def test_a_prefixed_sheet_gets_prefixed_cells() -> None:
    # the OpenXML SDK writes <x:worksheet xmlns:x="...">
    sheet = f'<x:worksheet xmlns:x="{MAIN}"><x:sheetData/></x:worksheet>'
    assert write(sheet, {1: {0: "Ann", 1: dt.date(2024, 1, 1)}}) == (
        f'<x:worksheet xmlns:x="{MAIN}"><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr">'
        '<x:is><x:t xml:space="preserve">Ann</x:t></x:is></x:c><x:c r="B1" s="9"><x:v>45292</x:v>'
        "</x:c></x:row></x:sheetData></x:worksheet>"
    )


def test_rows_and_cells_without_r_keep_their_places() -> None:
    # r is optional: a row without it follows the row before, a cell the cell before
    sheet = (
        f'<worksheet xmlns="{MAIN}"><sheetData><row><c><v>1</v></c><c><v>2</v></c></row>'
        "<row><c><v>3</v></c></row></sheetData></worksheet>"
    )
    out = write(sheet, {2: {2: 9}, 3: {0: 4}})
    assert out == (
        f'<worksheet xmlns="{MAIN}"><sheetData><row><c><v>1</v></c><c><v>2</v></c></row>'
        '<row r="2"><c r="A2"><v>3</v></c><c r="C2"><v>9</v></c></row>'
        '<row r="3"><c r="A3"><v>4</v></c></row></sheetData></worksheet>'
    )


def test_text_is_never_a_formula_and_bad_characters_are_escaped() -> None:
    sheet = f'<worksheet xmlns="{MAIN}"><sheetData/></worksheet>'
    out = write(sheet, {1: {0: "=1+1 & <b>\x07"}})
    assert '<t xml:space="preserve">=1+1 &amp; &lt;b&gt;_x0007_</t>' in out
    assert "<f>" not in out


def test_ranges_over_the_last_row_are_carried_down_and_others_kept() -> None:
    sheet = (
        f'<worksheet xmlns="{MAIN}" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
        '<dimension ref="A1:E10"/><sheetData/><autoFilter ref="A1:E10"/>'
        '<conditionalFormatting sqref="C2:C10 H1:H3"><cfRule type="x" priority="1"/>'
        '</conditionalFormatting><dataValidations count="2"><dataValidation sqref="B2:B10"/>'
        '<dataValidation sqref="D2:D100"/></dataValidations>'
        "<extLst><ext><x14:dataValidations xmlns:x14='u'><x14:dataValidation>"
        "<xm:sqref>E2:E10</xm:sqref></x14:dataValidation></x14:dataValidations></ext></extLst>"
        "</worksheet>"
    )
    out = extend_sheet(sheet.encode(), "s.xml", Rows(header=1, last=10), 12, widest=5).decode()
    assert '<dimension ref="A1:F12"/>' in out
    assert '<autoFilter ref="A1:E12"/>' in out
    assert 'sqref="C2:C12 H1:H3"' in out
    assert '<dataValidation sqref="B2:B12"/>' in out
    assert '<dataValidation sqref="D2:D100"/>' in out  # already covers the new rows
    assert "<xm:sqref>E2:E12</xm:sqref>" in out


def test_a_table_with_a_totals_row_is_refused() -> None:
    table = f'<table xmlns="{MAIN}" name="T" displayName="Scores" ref="A1:E11" totalsRowCount="1"/>'
    with pytest.raises(
        WorkbookError, match="the Excel table 'Scores' on 'Results' has a totals row"
    ):
        extend_table(table.encode(), "t.xml", "Results", Rows(1, 11), 13)


def test_a_table_elsewhere_on_the_sheet_is_left_alone() -> None:
    table = f'<table xmlns="{MAIN}" name="T" ref="H1:I3"><autoFilter ref="H1:I3"/></table>'
    assert extend_table(table.encode(), "t.xml", "Results", Rows(1, 10), 12) == table.encode()


def _corpus_books() -> list[Path]:
    """Every workbook of the smaller projects and every tenth of XlsxWriter's (saved by Excel)."""
    found = sorted(
        p
        for p in CORPUS.rglob("*")
        if p.suffix.lower() in {".xlsx", ".xlsm"} and p.stat().st_size < 2**20
    )
    xlsxwriter = [p for p in found if "xlsxwriter" in p.parts]
    return [p for p in found if "xlsxwriter" not in p.parts] + xlsxwriter[::10]


def _values(data: bytes) -> dict[str, dict[str, object]] | None:
    """Every sheet's values by cell, or None for a file openpyxl cannot read or one with a
    sheet too big to list here (some are made to test limits: a cell at XFD1048576)."""
    try:
        book = openpyxl.load_workbook(io.BytesIO(data))
    except Exception:  # a file openpyxl cannot read is not this test's subject
        return None
    if any(ws.max_row * ws.max_column > 100_000 for ws in book.worksheets):
        return None
    return {
        ws.title: {
            c.coordinate: _comparable(c.value)
            for row in ws.iter_rows()
            for c in row
            if c.value is not None
        }
        for ws in book.worksheets
    }


def _comparable(value: object) -> object:
    """A cell value that compares by content (openpyxl's array formulas compare by identity)."""
    if isinstance(value, str | int | float | bool | dt.datetime | dt.date | dt.time | dt.timedelta):
        return value
    return (type(value).__name__, sorted(vars(value).items()))


@pytest.mark.skipif(not CORPUS.exists(), reason="../shared/corpus is not beside the checkout")
def test_real_sheets_take_new_cells_and_keep_every_other_value() -> None:
    """In the first worksheet of each real workbook: a value written into its first row and a
    new row (text that looks like a formula, a number, a date) after its last. openpyxl must
    read the new values, and every other cell as it read it before."""
    tried = 0
    for path in _corpus_books():
        data = path.read_bytes()
        before = _values(data)
        if not before:
            continue
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            book = openpyxl.load_workbook(io.BytesIO(data))
            sheet = book.worksheets[0]
            title, last, width = sheet.title, sheet.max_row, sheet.max_column
            part = _first_sheet_part(z)
            if part is None:
                continue
            new = z.read(part)
            try:
                new = SheetCells(XmlPart(part, new)).write(
                    {1: {width: "added"}, last + 1: {0: "=Bob", 1: 2.5, 2: dt.date(2024, 1, 1)}},
                    None,
                    lambda: 0,
                )
            except WorkbookError:
                continue  # a part with no sheetData (a chart sheet's stand-in): not a sheet
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as w:
                for info in z.infolist():
                    w.writestr(info.filename, new if info.filename == part else z.read(info))
        after = _values(out.getvalue())
        assert after is not None, path
        expected = dict(before[title])
        letter = openpyxl.utils.get_column_letter
        expected[f"{letter(width + 1)}1"] = "added"
        expected[f"A{last + 1}"] = "=Bob"
        expected[f"B{last + 1}"] = 2.5
        expected[f"C{last + 1}"] = 45292  # the serial: style 0 is General
        assert after[title] == expected, path
        assert {k: v for k, v in after.items() if k != title} == {
            k: v for k, v in before.items() if k != title
        }, path
        tried += 1
    assert tried > 150, tried


def _first_sheet_part(z: zipfile.ZipFile) -> str | None:
    """The part of the workbook's first sheet (by the workbook's order)."""
    from lxml import etree

    names = z.namelist()
    rels_name = next((n for n in names if n.endswith("workbook.xml.rels")), None)
    book_name = next((n for n in names if n.endswith("workbook.xml") and "_rels" not in n), None)
    if rels_name is None or book_name is None:
        return None
    rels = {r.get("Id"): r.get("Target") for r in etree.fromstring(z.read(rels_name))}
    first = etree.fromstring(z.read(book_name)).find(f"{{{MAIN}}}sheets/{{{MAIN}}}sheet")
    if first is None:
        return None
    target = rels.get(
        first.get("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id")
    )
    if target is None:
        return None
    folder = rels_name.rsplit("_rels", 1)[0]
    part = target.lstrip("/") if target.startswith("/") else folder + target
    return part if part in names else None


def both_ways(
    sheet: bytes, writes: dict[int, dict[int, object]], like: int | None, extent: Rows
) -> tuple[bytes, bytes]:
    """The part written whole (parsed: SheetCells, then extend_sheet, as the import did) and as
    a stream (StreamedSheet): the two must be the same bytes."""
    new_last = max(*writes, extent.last)
    widest = max(c for row in writes.values() for c in row)
    whole = SheetCells(XmlPart("s.xml", sheet)).write(writes, like, lambda: 9)  # type: ignore[arg-type]
    whole = extend_sheet(whole, "s.xml", extent, new_last, widest)
    streamed = StreamedSheet("s.xml", sheet).write(
        writes,  # type: ignore[arg-type]
        like,
        lambda: 9,
        extent,
        new_last,
        widest,
    )
    return whole, streamed.joined()


TYPICAL = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<worksheet xmlns="{MAIN}" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">'
    '<dimension ref="A1:E4"/><sheetViews><sheetView workbookViewId="0"/></sheetViews>'
    '<sheetData><row r="1" spans="1:5"><c r="A1" t="s"><v>0</v></c></row>'
    '<row r="2" ht="18" customHeight="1"><c r="A2" s="3"><v>2</v></c><c r="C2" s="4"><v>1</v></c></row>'
    '<row r="3"><c r="A3" s="3"><v>3</v></c><c r="B3" t="s"><v>1</v></c><c r="C3" s="4"/></row>'
    '<row r="4" s="2" customFormat="1"><c r="A4" s="3"><v>4</v></c><c r="B4" t="inlineStr">'
    '<is><t>x</t></is></c></row><row r="9" s="5"/><row r="12"><c r="A12" s="6"/></row>'
    '</sheetData><autoFilter ref="A1:E4"/><conditionalFormatting sqref="C2:C4">'
    '<cfRule type="x" priority="1"/></conditionalFormatting><dataValidations count="1">'
    '<dataValidation sqref="B2:B4"/></dataValidations><extLst><ext><x14:dataValidations '
    "xmlns:x14='u'><x14:dataValidation><xm:sqref>E2:E4</xm:sqref></x14:dataValidation>"
    "</x14:dataValidations></ext></extLst></worksheet>"
).encode()


@pytest.mark.parametrize(
    "writes",
    [
        {5: {0: 5, 1: "Ann"}, 6: {0: 6, 1: "=Bob", 2: dt.date(2024, 1, 1)}},  # appended
        {9: {0: 9}, 10: {0: 10, 4: 1.5}, 13: {1: "z"}},  # over and between empty styled rows
        {2: {1: "new", 2: None}, 3: {0: None}, 5: {0: 1}},  # rewritten (a replace) and appended
        {4: {6: "wide"}},  # a cell beyond the last column: the dimension grows
    ],
)
def test_the_streamed_editor_writes_the_same_bytes_as_the_whole_parse(
    writes: dict[int, dict[int, object]],
) -> None:
    """Rows appended after the last, written over empty rows below it, rewritten in the middle,
    widened: byte for byte what the whole parse writes, with every range carried over."""
    whole, streamed = both_ways(TYPICAL, writes, 4, Rows(header=1, last=4))
    assert streamed == whole


def test_a_prefixed_sheet_streams_the_same() -> None:
    """The OpenXML SDK's `x:` prefix, on the rows found and written."""
    sheet = (
        f'<x:worksheet xmlns:x="{MAIN}"><x:dimension ref="A1:B2"/><x:sheetData>'
        '<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>h</x:t></x:is></x:c></x:row>'
        '<x:row r="2"><x:c r="A2" s="1"><x:v>1</x:v></x:c></x:row></x:sheetData></x:worksheet>'
    ).encode()
    whole, streamed = both_ways(sheet, {3: {0: 2, 1: "b"}}, 2, Rows(1, 2))
    assert streamed == whole
    assert b'<x:row r="3"><x:c r="A3" s="1"><x:v>2</x:v></x:c>' in streamed


@pytest.mark.parametrize(
    "sheet",
    [
        f'<worksheet xmlns="{MAIN}"><sheetData><row><c><v>1</v></c></row></sheetData></worksheet>',
        f'<worksheet xmlns="{MAIN}"><sheetData><!-- a note --><row r="1"/></sheetData></worksheet>',
        f'<worksheet xmlns="{MAIN}"><sheetData/></worksheet>',
    ],
    ids=["rows without r", "a comment", "empty"],
)
def test_what_the_stream_cannot_read_is_parsed_whole(sheet: str) -> None:
    """Rows numbered by their position, comments, an empty sheet: the whole parse does it."""
    with pytest.raises(NeedsParse):
        StreamedSheet("s.xml", sheet.encode()).write({2: {0: 1}}, 1, lambda: 9, Rows(1, 1), 2, 0)


def test_a_streamed_part_is_compressed_as_the_zip_writer_compresses_it() -> None:
    """Piece by piece, the same deflate stream as the joined part at the writer's level."""
    rows = "".join(f'<row r="{n}"><c r="A{n}"><v>{n}</v></c></row>' for n in range(1, 60_000))
    sheet = f'<worksheet xmlns="{MAIN}"><sheetData>{rows}</sheetData></worksheet>'.encode()
    edit = StreamedSheet("s.xml", sheet).write(
        {60_000: {0: 1}}, 59_999, lambda: 9, Rows(1, 59_999), 60_000, 0
    )
    joined = edit.joined()
    assert len(joined) > 2**20  # the fast level of a big part
    packed = edit.pack()
    out = io.BytesIO()
    RawZipWriter(out).add(zipfile.ZipInfo("s.xml"), joined)
    raw = out.getvalue()
    assert raw[30 + len("s.xml") :] == packed.data
    assert (packed.crc, packed.size) == (zlib.crc32(joined), len(joined))


@pytest.mark.skipif(not CORPUS.exists(), reason="../shared/corpus is not beside the checkout")
def test_real_sheets_stream_to_the_same_bytes() -> None:
    """The first worksheet of each real workbook, a row appended after its last row with
    values and its first row rewritten: the stream writes what the whole parse writes."""
    streamed = 0
    for path in _corpus_books():
        try:
            with zipfile.ZipFile(path) as z:
                part = _first_sheet_part(z)
                if part is None:
                    continue
                data = z.read(part)
        except (zipfile.BadZipFile, OSError, ValueError):
            continue  # a damaged file: not this test's subject
        try:
            cells = SheetCells(XmlPart(part, data))
        except WorkbookError:
            continue
        filled = [n for n, row in cells.rows.items() if row.named(MAIN, "c")]
        if not filled:
            continue
        last = max(filled)
        writes: dict[int, dict[int, object]] = {
            min(filled): {0: "first"},
            last + 1: {0: "=Bob", 1: 2.5, 2: dt.date(2024, 1, 1)},
        }
        try:
            whole, stream = both_ways(data, writes, last, Rows(min(filled), last))
        except NeedsParse:
            continue
        assert stream == whole, path
        streamed += 1
    assert streamed > 150, streamed
