"""A file another program saves while xlrally syncs it is reported as that (issue 32, finding
13): two programs saving at once lost nothing, but 49 of 60 refusals said
"``<part>``: damaged zip entry" instead of "changed by another program while xlrally worked".
The other program saves at a fixed moment here (as the sync begins writing the new file), not
after a sleep: by renaming a new file over it (as Excel and LibreOffice save), or by writing
the same file again in place (as a script with ``open(path, "wb")`` does).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import BinaryIO
from zipfile import ZipInfo

import openpyxl
import pytest
from helpers import RALLY_SHEETS, write_book

from xlrally.app.sync import sync_file
from xlrally.ooxml import rawzip

CHANGED = "the workbook was changed by another program while xlrally was working; sync it again"


def _saved_again_elsewhere(path: Path, folder: Path) -> bytes:
    """The bytes another program would save: the league with one result more (openpyxl)."""
    other = shutil.copy(path, folder / "other.xlsx")
    book = openpyxl.load_workbook(other)
    book["Results"].append(["May 2026", "Ann", 1, 4, 0])
    book.save(other)
    return Path(other).read_bytes()


@pytest.mark.parametrize(
    ("how", "when"),
    [
        ("renamed over", "staging"),  # before xlrally opens the file to copy its parts
        ("renamed over", "copying"),  # while it copies them
        ("written in place", "copying"),
    ],
)
def test_a_save_meanwhile_is_called_a_change_not_damage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str, when: str
) -> None:
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    newer = _saved_again_elsewhere(path, tmp_path)
    saved: list[str] = []

    def save() -> None:
        if saved:
            return
        saved.append(how)
        if how == "renamed over":
            (tmp_path / "saving.xlsx").write_bytes(newer)
            os.replace(tmp_path / "saving.xlsx", path)
        else:
            with path.open("r+b") as f:
                f.write(newer)
                f.truncate()

    real_copy, real_temp = rawzip.RawZipWriter.copy, tempfile.mkstemp

    def copy(self: rawzip.RawZipWriter, source: BinaryIO, info: ZipInfo) -> None:
        if when == "copying":
            save()
        real_copy(self, source, info)

    def temporary(prefix: str, suffix: str, dir: Path) -> tuple[int, str]:
        if when == "staging":
            save()
        return real_temp(prefix=prefix, suffix=suffix, dir=dir)

    monkeypatch.setattr(rawzip.RawZipWriter, "copy", copy)  # the class the writer uses
    monkeypatch.setattr(tempfile, "mkstemp", temporary)
    outcome = sync_file(path)
    assert saved == [how]
    assert outcome.problems == (f"{path}: {CHANGED}",)
    assert path.read_bytes() == newer  # the other program's save is what stays
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".xlrally-tmp"] == []
