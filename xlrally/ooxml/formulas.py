"""Formulas whose saved values cannot be trusted: never calculated by the program that saved
them, or calculated to an error.

A reader of a workbook file sees a formula's *cached* value: what the last program to calculate
the workbook stored beside the formula. Excel and LibreOffice always store one. Libraries that
write files without a calculation engine do not: openpyxl stores none at all (a reader sees a
blank cell), others store 0 and set ``<calcPr fullCalcOnLoad="1">`` so that Excel recalculates
on opening. Read as they are, such results score as blanks or zeros with no word, so a sheet
that holds them is refused until the workbook has been opened and saved once by a program that
calculates. A cell holding an error value (``#N/A``, ``#DIV/0!``) is read as blank by the
value reader, so its row would silently score as empty: it is refused too, naming the cell.

The scan uses expat with namespace processing (any prefix), so ``<x:c><x:f>`` counts like
``<c><f>``; it runs only on sheets that contain a formula at all.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from xml.parsers import expat

_SEP = "}"


@dataclass
class FormulaScan:
    """What the formula cells of one sheet hold."""

    formulas: int = 0
    """Formula cells."""
    zeros: int = 0
    """Formula cells whose saved value is 0."""
    uncalculated: str | None = None
    """The reference (``C7``) of the first formula cell with no saved value, if any."""
    error: tuple[str, str] | None = None
    """The first cell holding an error value: its reference and the error (``#N/A``)."""


class _Scanner:
    """expat handlers that fill a :class:`FormulaScan`."""

    def __init__(self) -> None:
        self.scan = FormulaScan()
        self.cell: str | None = None
        self.text_type = self.error_type = False
        self.has_formula = self.has_value = self.in_value = False
        self.value: list[str] = []

    def start(self, name: str, attrs: dict[str, str]) -> None:
        local = name.rpartition(_SEP)[2]
        if local == "c":
            self.cell = attrs.get("r")
            self.text_type = attrs.get("t") in {"str", "s", "inlineStr"}
            self.error_type = attrs.get("t") == "e"
            self.has_formula = self.has_value = False
            self.value.clear()
        elif local == "f":
            self.has_formula = True
        elif local in {"v", "is"}:
            self.has_value = True
            self.in_value = local == "v"

    def end(self, name: str) -> None:
        local = name.rpartition(_SEP)[2]
        if local == "v":
            self.in_value = False
        elif local == "c" and self.error_type and self.scan.error is None:
            self.scan.error = (self.cell or "?", "".join(self.value).strip())
        if local == "c" and self.has_formula:
            self.scan.formulas += 1
            saved = "".join(self.value).strip()
            # <v></v> is a calculated "" in a text cell (t="str"), and no value in a number cell
            if not self.has_value or (saved == "" and not self.text_type):
                self.scan.uncalculated = self.scan.uncalculated or self.cell or "?"
            elif saved in {"0", "0.0"}:
                self.scan.zeros += 1

    def characters(self, data: str) -> None:
        if self.in_value:
            self.value.append(data)


def scan_formulas(chunks: Iterable[bytes]) -> FormulaScan:
    """Count a sheet's formula cells, their zeros, and find the first without a saved value."""
    scanner = _Scanner()
    parser = expat.ParserCreate(namespace_separator=_SEP)
    parser.buffer_text = True
    parser.StartElementHandler = scanner.start
    parser.EndElementHandler = scanner.end
    parser.CharacterDataHandler = scanner.characters
    for chunk in chunks:
        parser.Parse(chunk, False)
    parser.Parse(b"", True)
    return scanner.scan
