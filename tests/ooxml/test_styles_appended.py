"""The new cell formats are written into ``styles.xml`` at once, when its bytes are asked for
(xlrally/ooxml/styles.py, issue 33): the bytes must be those of appending each new entry in
turn, as the writer did before, on the styles parts of real workbooks from many programs.

The oracle appends with the part's own edit calls one entry at a time (append, then the
collection's ``count``), which is what each new font, number format and cell format did.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from xlrally.formats.looks import Look
from xlrally.ooxml.package import NS_MAIN
from xlrally.ooxml.styles import Styles
from xlrally.ooxml.xmlpart import XmlPart

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() in {".xlsx", ".xlsm"})

LOOKS = [
    Look(),
    Look(bold=True),
    Look(number_format="0"),
    Look(italic=True, number_format="0.0"),
    Look(grey=True, number_format='0.0"*"'),
    Look(bold=True, align="center"),
    Look(number_format="yyyy-mm-dd", align="left"),
    Look(grey=True, number_format='0.0"*"'),  # asked again: the same index
    Look(number_format='0 "pts" & <more>'),  # a code that must be escaped
]


class OneByOne(Styles):
    """Styles as the writer kept them before: each new entry appended into the part at once."""

    def _append(self, local: str, markup: str) -> int:
        collection = self._collection(local)
        index = len(collection.children)
        self.part.append_child(collection, markup)
        collection = self.part.root.named(NS_MAIN, local)[0]
        self.part.set_attribute(collection, "count", str(len(collection.children)))
        return index


def styles_parts(limit: int = 150) -> list[tuple[str, bytes]]:
    """The styles.xml of the first ``limit`` corpus workbooks that have one (every program's
    habits: prefixes, self-closing collections, CRLF, BOMs)."""
    found = []
    for path in FILES:
        try:
            with zipfile.ZipFile(path) as z:
                data = z.read("xl/styles.xml")
        except (KeyError, zipfile.BadZipFile):
            continue
        found.append((path.name, data))
        if len(found) == limit:
            break
    return found


@pytest.mark.skipif(not FILES, reason="../shared/corpus is not beside the checkout")
def test_the_formats_written_at_once_are_the_bytes_of_one_by_one() -> None:
    compared = 0
    for name, data in styles_parts():
        try:
            at_once, one_by_one = Styles(data), OneByOne(data)
        except Exception:  # a part xlrally refuses is refused by both alike
            continue
        indexes = [at_once.xf(look) for look in LOOKS]
        assert indexes == [one_by_one.xf(look) for look in LOOKS], name
        assert at_once.data == one_by_one.data, name
        at_once.verify()
        compared += 1
    assert compared >= 100


def test_formats_asked_for_after_the_bytes_were_read_are_written_too() -> None:
    """Bytes asked for, then more formats, then bytes again (an import's edit and the
    Standings' share one Styles)."""
    styles, oracle = Styles(None), OneByOne(None)
    assert styles.xf(Look(bold=True)) == oracle.xf(Look(bold=True))
    assert styles.data == oracle.data
    assert styles.xf(Look(number_format="0.0")) == oracle.xf(Look(number_format="0.0"))
    assert styles.xf(Look(number_format="0.00")) == oracle.xf(Look(number_format="0.00"))
    assert styles.data == oracle.data
    parsed = XmlPart("styles.xml", styles.data)
    [formats] = parsed.root.named(NS_MAIN, "numFmts")
    assert formats.get("", "count") == "1"
    styles.verify()
