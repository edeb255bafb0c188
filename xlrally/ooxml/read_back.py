"""The cells an import wrote, read back by the real reader before anything is committed.

An import writes a few rows into a big sheet. Reading the whole new workbook back to check
them would cost as much as the import itself; instead the cells written (their markup, byte for
byte as written, with the workbook's own styles and date system) are put in a small package of
their own and read by python-calamine, the reader every sync uses. What it reads there is what
a sync will read in those cells: a number under a date format reads as a date, text stays
text. The import scores the league with these values (so that its standings are the next
sync's), and refuses a cell that does not read back as the value it was given.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping, Sequence
from typing import cast

import python_calamine

from xlrally.core.errors import WorkbookError
from xlrally.formats.cells import Value
from xlrally.ooxml.package import NS_MAIN, NS_REL

_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships'
    '+xml"/><Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.styles+xml"/>{sheets}</Types>'
)
_SHEET_TYPE = (
    '<Override PartName="/xl/worksheets/sheet{n}.xml" ContentType="application/vnd.'
    'openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
)
_P = "xlrallyreadback"
"""The prefix of the elements around the cells (the cells keep the sheet's own)."""
_PACKAGE_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.'
    'org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats'
    '.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)


def small_book(
    styles: bytes, sheets: Sequence[bytes], date1904: bool, shared_strings: bytes | None = None
) -> io.BytesIO:
    """A workbook package of the given sheets' XML (named ``s1``, ``s2`` ...), with a
    workbook's styles, date system and shared strings, for python-calamine to read as it
    reads that workbook (stored, not deflated: it is read once, at once)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as package:
        overrides = "".join(_SHEET_TYPE.format(n=i) for i in range(1, len(sheets) + 1))
        package.writestr("[Content_Types].xml", _TYPES.format(sheets=overrides))
        package.writestr("_rels/.rels", _PACKAGE_RELS)
        listed = "".join(
            f'<sheet name="s{i}" sheetId="{i}" r:id="rId{i}"/>' for i in range(1, len(sheets) + 1)
        )
        properties = '<workbookPr date1904="1"/>' if date1904 else ""
        package.writestr(
            "xl/workbook.xml",
            f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{NS_MAIN}" '
            f'xmlns:r="{NS_REL}">{properties}<sheets>{listed}</sheets></workbook>',
        )
        links = "".join(
            f'<Relationship Id="rId{i}" Type="{NS_REL}/worksheet" '
            f'Target="worksheets/sheet{i}.xml"/>'
            for i in range(1, len(sheets) + 1)
        )
        links += f'<Relationship Id="rId0" Type="{NS_REL}/styles" Target="styles.xml"/>'
        if shared_strings is not None:
            links += (
                f'<Relationship Id="rIdS" Type="{NS_REL}/sharedStrings" '
                'Target="sharedStrings.xml"/>'
            )
            package.writestr("xl/sharedStrings.xml", shared_strings)
        package.writestr(
            "xl/_rels/workbook.xml.rels",
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
            f'openxmlformats.org/package/2006/relationships">{links}</Relationships>',
        )
        package.writestr("xl/styles.xml", styles)
        for i, xml in enumerate(sheets, start=1):
            package.writestr(f"xl/worksheets/sheet{i}.xml", xml)
    out.seek(0)
    return out


def read_back(
    styles: bytes,
    sheets: Mapping[str, tuple[str, Mapping[int, Mapping[int, str]]]],
    date1904: bool,
) -> dict[str, dict[int, dict[int, Value]]]:
    """The values python-calamine reads in each cell written: ``sheets`` maps a sheet's name to
    the namespace declarations its cells need (``xmlns="..."``, ``xmlns:x="..."``) and its
    cells' markup by row and 0-based column. Returns the values by sheet, row and column."""
    names = list(sheets)
    xmls = []
    for name in names:
        declared, rows = sheets[name]
        body = "".join(
            f'<{_P}:row r="{number}">{"".join(rows[number][c] for c in sorted(rows[number]))}'
            f"</{_P}:row>"
            for number in sorted(rows)
        )
        xmls.append(
            f'<?xml version="1.0" encoding="UTF-8"?><{_P}:worksheet xmlns:{_P}="{NS_MAIN}" '
            f"{declared}><{_P}:sheetData>{body}</{_P}:sheetData></{_P}:worksheet>".encode()
        )
    out = small_book(styles, xmls, date1904)
    found: dict[str, dict[int, dict[int, Value]]] = {}
    try:
        book = python_calamine.CalamineWorkbook.from_filelike(out)
        for i, name in enumerate(names, start=1):
            sheet = book.get_sheet_by_name(f"s{i}")
            values = cast(list[list[Value]], sheet.to_python(skip_empty_area=True))
            top, left = sheet.start or (0, 0)
            rows = sheets[name][1]
            found[name] = {
                number: {
                    column: _at(values, number - 1 - top, column - left) for column in rows[number]
                }
                for number in rows
            }
    except python_calamine.CalamineError as error:
        raise WorkbookError(f"the cells written cannot be read back ({error})") from None
    return found


def _at(values: list[list[Value]], row: int, column: int) -> Value:
    if 0 <= row < len(values) and 0 <= column < len(values[row]):
        value = values[row][column]
        return None if value == "" else value
    return None
