"""A file another xlrally's rules wrote, whose Standings these rules write as they are, is read
whole once and left as it is (tests/app/test_rules_record.py); after that it is skipped like
a file these rules wrote, because the sync remembered it outside the file
(xlrally/app/rechecked.py, issue 33). The memory is only a shortcut: a changed file, a
changed record, other rules, or a cache folder that cannot be used all mean a full sync."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import RALLY_SHEETS, parts, rewrite, write_book

from xlrally.app import rechecked, unchanged
from xlrally.app.sync import sync_file, synced_before

OTHER_RULES = "0" * 64
"""The digest of some other xlrally's code."""


def cache() -> Path:
    top = rechecked.folder()
    assert top is not None
    return top


def written_by_other_rules(folder: Path) -> Path:
    """The seed's rally league synced, then its record changed to name other rules, as an
    older xlrally that computed the same standings would have left it. The record's part is
    not in the package's digest, so the package is still as that sync wrote it."""
    path = write_book(folder / "league.xlsx", RALLY_SHEETS)
    assert sync_file(path).result == "written"
    custom = parts(path)["docProps/custom.xml"]
    current = unchanged.rules()
    assert current is not None
    assert current.encode() in custom
    rewrite(path, {"docProps/custom.xml": custom.replace(current.encode(), OTHER_RULES.encode())})
    assert synced_before(path) is None  # not these rules' record
    return path


def test_a_file_other_rules_wrote_is_read_once_then_skipped(tmp_path: Path) -> None:
    path = written_by_other_rules(tmp_path)
    before = path.read_bytes()
    assert sync_file(path).result == "unchanged"  # read whole: these rules write the same
    assert path.read_bytes() == before  # and the file left as it is, record and all
    skipped = synced_before(path)
    assert skipped is not None
    assert (skipped.result, skipped.players, skipped.events) == ("unchanged", 2, 2)
    assert sync_file(path).result == "unchanged"
    assert path.read_bytes() == before


def test_a_change_after_the_recheck_is_synced(tmp_path: Path) -> None:
    """An edit to the workbook (here one space more in its workbook part) changes the
    package's digest: the memory no longer applies."""
    path = written_by_other_rules(tmp_path)
    assert sync_file(path).result == "unchanged"
    assert synced_before(path) is not None
    workbook = parts(path)["xl/workbook.xml"]
    rewrite(path, {"xl/workbook.xml": workbook.replace(b"<sheets>", b"<sheets> ", 1)})
    assert synced_before(path) is None


def test_other_rules_forget_what_these_remembered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second upgrade: the file is read whole again under the newer rules, and what the
    older ones remembered is removed, so the cache holds one entry per league at most."""
    path = written_by_other_rules(tmp_path)
    assert sync_file(path).result == "unchanged"
    current = unchanged.rules()
    assert current is not None
    assert [f.name for f in cache().iterdir()] == [current]

    monkeypatch.setattr(unchanged, "rules", lambda: "1" * 64)
    assert synced_before(path) is None
    assert sync_file(path).result == "unchanged"
    assert synced_before(path) is not None
    assert [f.name for f in cache().iterdir()] == ["1" * 64]


def test_an_entry_for_another_record_does_not_apply(tmp_path: Path) -> None:
    path = written_by_other_rules(tmp_path)
    assert sync_file(path).result == "unchanged"
    current = unchanged.rules()
    assert current is not None
    (entry,) = (cache() / current).iterdir()
    note = entry.read_text(encoding="utf-8")
    assert json.loads(note)["rules"] == OTHER_RULES  # the record the file keeps
    entry.write_text(note.replace('"players":2', '"players":3'), encoding="utf-8")
    assert synced_before(path) is None
    entry.write_bytes(b"\xff\xfe not text")
    assert synced_before(path) is None


def test_a_cache_folder_that_cannot_be_used_costs_a_full_sync_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache 'folder' that is a file (nothing can be made in it, whoever runs the test):
    the sync still leaves the file as it is and says so; the next one reads it whole again."""
    blocked = tmp_path / "not a folder"
    blocked.write_text("")
    monkeypatch.setenv(rechecked.CACHE_VARIABLE, str(blocked))
    path = written_by_other_rules(tmp_path)
    before = path.read_bytes()
    assert sync_file(path).result == "unchanged"
    assert synced_before(path) is None
    assert sync_file(path).result == "unchanged"
    assert path.read_bytes() == before
    assert blocked.read_text() == ""


def test_only_digests_name_entries(tmp_path: Path) -> None:
    """The package's digest comes from the file: a text that is not one is never a path."""
    rechecked.remember("a" * 64, "../escape", "note")
    rechecked.remember("../" + "a" * 61, "b" * 64, "note")
    assert not rechecked.holds("a" * 64, "../escape", "note")
    assert not (cache().parent / "escape").exists()
    rechecked.remember("a" * 64, "b" * 64, "note")
    assert rechecked.holds("a" * 64, "b" * 64, "note")
    assert not rechecked.holds("a" * 64, "b" * 64, "another note")


def test_the_command_line_answers_a_rechecked_file_without_loading_the_sync(
    tmp_path: Path,
) -> None:
    """The real command twice, in fresh processes with the run's cache folder: the first
    reads the file whole (the command line loaded), the second is answered by the entry point
    (xlrally/entry.py) from the memory, loading neither click nor the reading code."""
    path = written_by_other_rules(tmp_path)
    code = "\n".join(
        [
            "import sys",
            "from xlrally import entry",
            "sys.argv = ['xlrally', 'sync', sys.argv[1]]",
            "try:",
            "    entry.main()",
            "except SystemExit:",  # the command line's own exit, code 0 (check=True)
            "    pass",
            "print(sorted(m for m in sys.modules if m in ('click', 'xlrally.ooxml.package')))",
        ]
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", code, str(path)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        for _ in range(2)
    ]
    assert runs[0][0] == f"{path}: unchanged (2 players, 2 events)"
    assert runs[0][-1] == "['click', 'xlrally.ooxml.package']"
    assert runs[1] == [f"{path}: unchanged (2 players, 2 events)", "[]"]


def test_the_cache_folder_is_the_users_by_their_system(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without XLRALLY_CACHE_DIR: platformdirs' user cache folder, which on Linux follows
    XDG_CACHE_HOME (the XDG Base Directory specification)."""
    monkeypatch.delenv(rechecked.CACHE_VARIABLE)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    if sys.platform.startswith("linux"):
        assert rechecked.folder() == tmp_path / "cache" / "xlrally" / "rechecked"
    assert cache().name == "rechecked"
