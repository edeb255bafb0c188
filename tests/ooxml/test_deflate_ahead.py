"""A big new part deflated in a thread as soon as it is set (rawzip.pack_ahead, issue 33): the
file written is byte for byte the one deflated at writing, and a part set again is written
with its last contents."""

from __future__ import annotations

import shutil
import zlib
from pathlib import Path

import pytest
from helpers import RALLY_SHEETS, write_book

from xlrally.app.sync import sync_file
from xlrally.ooxml import edit as edit_module
from xlrally.ooxml import rawzip
from xlrally.ooxml.edit import Edit
from xlrally.ooxml.package import Package


def test_a_sync_deflating_ahead_writes_the_same_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every changed part deflated ahead (the test workbook's are small) against none."""
    source = write_book(tmp_path / "rally.xlsx", RALLY_SHEETS)
    ahead, plain = tmp_path / "ahead.xlsx", tmp_path / "plain.xlsx"
    shutil.copyfile(source, ahead)
    shutil.copyfile(source, plain)
    written: list[str] = []
    add_packed = rawzip.RawZipWriter.add_packed

    def recorded(self: rawzip.RawZipWriter, info: object, packed: rawzip.Packed) -> None:
        written.append(getattr(info, "filename", ""))
        add_packed(self, info, packed)  # type: ignore[arg-type]

    monkeypatch.setattr(rawzip.RawZipWriter, "add_packed", recorded)
    monkeypatch.setattr(edit_module, "AHEAD_FROM", 0)
    assert sync_file(ahead).result == "written"
    assert "xl/worksheets/sheet4.xml" in written  # the new Standings sheet
    assert "docProps/custom.xml" in written
    monkeypatch.setattr(edit_module, "AHEAD_FROM", 2**62)
    written.clear()
    assert sync_file(plain).result == "written"
    assert written == []
    assert ahead.read_bytes() == plain.read_bytes()


def test_a_part_set_again_is_written_with_its_last_contents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(edit_module, "AHEAD_FROM", 0)
    path = write_book(tmp_path / "rally.xlsx", RALLY_SHEETS)
    with Package(path) as package:
        edit = Edit(package)
        edit.set("xl/new.xml", b"<first/>" * 1000)
        edit.set("xl/new.xml", b"<second/>" * 1000)
        packed = edit.deflated("xl/new.xml")
        assert packed is not None
        assert zlib.decompress(packed.data, -15) == b"<second/>" * 1000
        assert packed.crc == zlib.crc32(b"<second/>" * 1000)
        monkeypatch.setattr(edit_module, "AHEAD_FROM", 2**62)  # small: deflated when written
        edit.set("xl/new.xml", b"<small/>")
        assert edit.deflated("xl/new.xml") is None
