"""The custom properties read with the standard library alone (xlrally/ooxml/directory.py):
the same part and the same texts as the package's own XML reading finds, on every real
workbook of the corpus; and a hostile bookkeeping part refused, never expanded."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import defusedxml.ElementTree as SafeET
import pytest

from xlrally.core.errors import WorkbookError
from xlrally.ooxml.directory import SMALL, custom_part, property_text
from xlrally.ooxml.package import Package

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() in {".xlsx", ".xlsm"})

RELS = (
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
    'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
    'officeDocument/2006/relationships/custom-properties" Target="{target}"/></Relationships>'
)
CUSTOM = (
    '<?xml version="1.0"?><Properties xmlns="http://schemas.openxmlformats.org/officeDocument/'
    '2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/'
    'docPropsVTypes">{properties}</Properties>'
)


def package(rels: str, custom: str, part: str = "docProps/custom.xml") -> zipfile.ZipFile:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as z:
        z.writestr("_rels/.rels", rels)
        z.writestr(part, custom)
    return zipfile.ZipFile(data)


def prop(name: str, text: str) -> str:
    return f'<property fmtid="x" pid="2" name="{name}"><vt:lpwstr>{text}</vt:lpwstr></property>'


@pytest.mark.skipif(not FILES, reason="../shared/corpus is not beside the checkout")
def test_every_corpus_workbook_gives_the_same_part_and_texts_as_its_xml_reading() -> None:
    """On each of the corpus's workbooks that the package opens: the custom properties part
    named by the root relationships, and the text of each of its properties (ElementTree's
    ``itertext``, stripped)."""
    with_custom = 0
    for path in FILES:
        try:
            opened = Package(path)
        except WorkbookError:
            continue  # a damaged or refused file: no record to look for
        with opened:
            expected = next(
                (
                    part
                    for kind, part in opened.relationships("").values()
                    if kind.endswith("/custom-properties") and opened.has(part)
                ),
                None,
            )
            assert custom_part(opened.zip) == expected, path
            if expected is None:
                continue
            with_custom += 1
            texts: dict[str, str] = {}
            for element in SafeET.fromstring(opened.read(expected)):
                name = element.get("name")
                if name is not None and name not in texts:  # the first of a name counts
                    texts[name] = "".join(element.itertext()).strip()
            for name, text in texts.items():
                assert property_text(opened.zip, expected, name) == text, (path, name)
    assert with_custom >= 10  # the corpus has 11 workbooks with custom properties


def test_the_first_property_of_a_name_is_read_with_all_its_text() -> None:
    properties = prop("xlrally inputs", " abc <vt:x>def</vt:x> ") + prop("xlrally inputs", "no")
    z = package(RELS.format(target="docProps/custom.xml"), CUSTOM.format(properties=properties))
    assert property_text(z, "docProps/custom.xml", "xlrally inputs") == "abc def"
    assert property_text(z, "docProps/custom.xml", "another") is None


def test_an_absolute_or_relative_target_names_the_part_and_an_absent_part_is_none() -> None:
    custom = CUSTOM.format(properties=prop("a", "1"))
    assert custom_part(
        package(RELS.format(target="/docProps/c.xml"), custom, "docProps/c.xml")
    ) == ("docProps/c.xml")
    assert custom_part(package(RELS.format(target="docProps/c.xml"), custom)) is None


def test_a_document_type_is_refused_not_expanded() -> None:
    """An entity declared in the part could expand a thousandfold at each level (the
    "billion laughs"): refused before any expansion."""
    laughs = (
        '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        + CUSTOM.format(properties=prop("a", "&b;")).split("?>", 1)[1]
    )
    z = package(RELS.format(target="docProps/custom.xml"), laughs)
    with pytest.raises(ValueError, match="document type"):
        property_text(z, "docProps/custom.xml", "a")


def test_a_part_too_big_for_a_record_is_refused() -> None:
    big = CUSTOM.format(properties=prop("a", "x" * SMALL))
    z = package(RELS.format(target="docProps/custom.xml"), big)
    with pytest.raises(ValueError, match="at most"):
        property_text(z, "docProps/custom.xml", "a")
