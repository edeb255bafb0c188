"""How a cell xlrally writes looks, and how each program that writes cells is told so: one
mapping, from a :class:`Look` to the format properties of each writer, so that a synced
file, a new workbook, a refreshed open workbook in Excel and one in LibreOffice Calc show the
same Standings.

======================  ===========  ============  ========================  ============
a look's                the file     XlsxWriter    xlwings (Excel, open)     LibreOffice
(:class:`Look`)         (styles.xml) (new books)                             Calc
======================  ===========  ============  ========================  ============
``bold``                ``<b/>``     ``bold``      ``font.bold``             ``CharWeight``
``italic``              ``<i/>``     ``italic``    ``font.italic``           ``CharPosture``
``colour`` (``grey``)   ``<color>``  ``font_color`` ``font.color``           ``CharColor``
``number_format``       ``numFmt``   ``num_format`` ``number_format``        ``NumberFormat``
``align``               ``alignment`` ``align``    ``horizontal_alignment``  ``HoriJustify``
======================  ===========  ============  ========================  ============

Each function below gives one writer's properties; a property a look leaves at the program's
default (General, no colour, the default alignment) is left out where the program has a
default, so that what a writer sets is what the look says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

__all__ = [
    "GREY",
    "PLAIN",
    "Look",
    "OoxmlStyle",
    "calc_properties",
    "ooxml_style",
    "xlsxwriter_format",
    "xlwings_properties",
]


@dataclass(frozen=True)
class Look:
    """How a cell looks: font, number format (None = General) and horizontal alignment
    (None = Excel's default: text left, numbers right)."""

    bold: bool = False
    italic: bool = False
    grey: bool = False
    number_format: str | None = None
    align: str | None = None
    """``left``, ``center`` or ``right``."""

    @property
    def colour(self) -> str | None:
        """The font colour as RRGGBB hex, or None for the workbook's default (every writer
        maps a look to its own styles through these fields alone)."""
        return GREY if self.grey else None


GREY = "808080"
"""The colour of dropped scores."""
PLAIN = Look()


class OoxmlStyle(NamedTuple):
    """A look as a cell format of ``styles.xml`` (ECMA-376 Part 1, 18.8): the font's marks
    (``b``, ``i``), its colour as ARGB, the number format code (None: General) and the
    horizontal alignment (None: none given)."""

    marks: tuple[str, ...]
    rgb: str | None
    number_format: str | None
    horizontal: str | None


def ooxml_style(look: Look) -> OoxmlStyle:
    """The file writer's (:mod:`xlrally.ooxml.styles`).

    >>> ooxml_style(Look(italic=True, grey=True, number_format="(0)"))
    OoxmlStyle(marks=('i',), rgb='FF808080', number_format='(0)', horizontal=None)
    """
    marks = ("b",) * look.bold + ("i",) * look.italic
    rgb = f"FF{look.colour}" if look.colour else None
    return OoxmlStyle(marks, rgb, look.number_format, look.align)


def xlsxwriter_format(look: Look) -> dict[str, object]:
    """XlsxWriter's ``add_format`` properties (new workbooks: :mod:`xlrally.excel.template`).

    >>> xlsxwriter_format(Look(bold=True, number_format="0", align="center"))
    {'bold': True, 'italic': False, 'num_format': '0', 'align': 'center'}
    """
    spec: dict[str, object] = {"bold": look.bold, "italic": look.italic}
    if look.colour:
        spec["font_color"] = "#" + look.colour
    if look.number_format:
        spec["num_format"] = look.number_format
    if look.align:
        spec["align"] = look.align
    return spec


def xlwings_properties(look: Look) -> dict[str, object]:
    """The xlwings ``Range`` attributes to set, by their dotted path (the refresh in an open
    workbook, :mod:`xlrally.excel.live`): the colour as an RGB tuple;
    ``horizontal_alignment`` is xlwings' own (0.37.3 and later, every engine).

    >>> xlwings_properties(Look(italic=True, grey=True, align="right"))
    {'font.bold': False, 'font.italic': True, 'font.color': (128, 128, 128), \
'horizontal_alignment': 'right'}
    """
    found: dict[str, object] = {}
    if look.number_format:
        found["number_format"] = look.number_format
    found["font.bold"] = look.bold
    found["font.italic"] = look.italic
    if look.colour:
        found["font.color"] = tuple(int(look.colour[i : i + 2], 16) for i in (0, 2, 4))
    if look.align:
        found["horizontal_alignment"] = look.align
    return found


def calc_properties(look: Look) -> dict[str, object]:
    """LibreOffice Calc's cell properties (a refresh in Calc, :mod:`xlrally.calc`), as the file's
    styles give them: a look with a font (bold, italic or a colour) has the default font with
    those marks and no underline or strike-through (``CharWeight`` 150 bold or 100,
    ``CharPosture`` a ``FontSlant`` name, ``CharColor`` RGB as a number, -1 automatic); a look
    without keeps the cell's font. ``NumberFormat`` is the format code (the document turns it
    into its key), ``HoriJustify`` a ``CellHoriJustify`` name.

    >>> found = calc_properties(Look(bold=True, grey=True, align="center"))
    >>> found["CharWeight"], found["CharColor"], found["HoriJustify"], "NumberFormat" in found
    (150.0, 8421504, 'CENTER', False)
    """
    found: dict[str, object] = {}
    if look.bold or look.italic or look.colour:
        found["CharWeight"] = 150.0 if look.bold else 100.0
        found["CharPosture"] = "ITALIC" if look.italic else "NONE"
        found["CharColor"] = int(look.colour, 16) if look.colour else -1
        found["CharUnderline"] = 0
        found["CharStrikeout"] = 0
    if look.number_format:
        found["NumberFormat"] = look.number_format
    if look.align:
        found["HoriJustify"] = look.align.upper()
    return found
