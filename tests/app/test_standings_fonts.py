"""The Standings' fonts come from their own looks, never from the workbook's base font (issue
28, finding 3: a base font that is bold, italic or coloured by the theme leaking into the new
fonts was caught only by the corpus tests, which skip without ../shared/corpus).

The base font (``<fonts>``' first, every unstyled cell's) here is bold, italic and coloured
with theme colour 3 in 12-point Cambria. The Standings must look as in a plain workbook: the
header and totals bold, plain cells neither bold nor italic, the dropped score italic and grey
(808080), and no cell in a colour the look did not ask for (ECMA-376 §18.8.22: a font without
``<color>`` is shown in the automatic colour).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
from helpers import parts, rewrite, write_book
from test_write_safety import THREE_EVENTS

from xlrally.app.sync import sync_file

XLSXWRITER_BASE_FONT = (
    b'<font><sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/>'
    b'<scheme val="minor"/></font>'
)
LOUD_BASE_FONT = (
    b'<font><b/><i/><sz val="12"/><color theme="3"/><name val="Cambria"/><family val="1"/></font>'
)


def looks(path: Path) -> dict[str, tuple[Any, ...]]:
    """Each Standings cell with a value: value, bold, italic, and its colour as written
    (``rgb FF808080``, ``theme 3``, or None for no colour)."""
    sheet = openpyxl.load_workbook(path)["Standings"]
    found = {}
    for row in sheet.iter_rows():
        for cell in row:
            if cell.value is None:
                continue
            colour = cell.font.color
            written = None
            if colour is not None:
                written = f"theme {colour.theme}" if colour.type == "theme" else f"rgb {colour.rgb}"
            found[cell.coordinate] = (cell.value, bool(cell.font.b), bool(cell.font.i), written)
    return found


def test_a_loud_base_font_does_not_leak_into_the_standings(tmp_path: Path) -> None:
    plain = write_book(tmp_path / "plain.xlsx", THREE_EVENTS)
    loud = write_book(tmp_path / "loud.xlsx", THREE_EVENTS)
    styles = parts(loud)["xl/styles.xml"]
    assert styles.count(XLSXWRITER_BASE_FONT) == 1
    rewrite(loud, {"xl/styles.xml": styles.replace(XLSXWRITER_BASE_FONT, LOUD_BASE_FONT)})
    assert sync_file(plain).result == "written"
    assert sync_file(loud).result == "written"

    expected = looks(plain)
    got = looks(loud)
    assert got.keys() == expected.keys()
    for ref, (value, bold, italic, _) in expected.items():
        assert got[ref][:3] == (value, bold, italic), ref
    colours = {ref: look[3] for ref, look in got.items()}
    assert set(colours.values()) == {None, "rgb FF808080"}, colours
    assert [ref for ref, c in colours.items() if c] == ["G2"]  # Bobby's dropped 21, grey
    assert got["G2"][:3] == (21, False, True)
    assert got["A1"][:3] == ("Rank", True, False)  # the header: bold, not italic
    assert got["B2"][:3] == ("Bobby", False, False)  # a name: plain
