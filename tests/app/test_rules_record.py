"""The skip record names the exact rules that computed the Standings (issue 32, finding 10):
it held the version string, ``0.1.0`` for every commit, so an upgrade that changes a result
left a file's wrong standings marked "unchanged".

The league: reverse points, three players (1st 3, 2nd 2, 3rd 1). W1: Ann, Bob, Dee; the
Final, weighted 2: Dee, Bob, Ann. Before the Weight column was read, everyone was level on
3 + 1 = 2 + 2 = 1 + 3 = 4 (tied 1=); read, Dee 1 + 3 × 2 = 7, Bob 2 + 2 × 2 = 6, Ann
3 + 1 × 2 = 5.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import shutil
from pathlib import Path

import pytest
from helpers import write_book

from xlrally.app import unchanged
from xlrally.app.stamps import marks
from xlrally.app.sync import sync_file, synced_before
from xlrally.app.unchanged import INPUTS, code_digest, rules
from xlrally.core.league import compute_standings
from xlrally.core.version import __version__
from xlrally.formats.grid import SHEET_NAME, print_setup, standings_grid
from xlrally.formats.workbook import read_league
from xlrally.ooxml.reader import FileSheets
from xlrally.ooxml.writer import stage_sheet

SHEETS = {
    "Settings": [["Setting", "Value"], ["System", "reverse"]],
    "Events": [
        ["Event", "Date", "Weight"],
        ["W1", dt.date(2026, 1, 7), None],
        ["Final", dt.date(2026, 1, 14), 2],
    ],
    "Results": [
        ["Event", "Player", "Rank"],
        ["W1", "Ann", 1],
        ["W1", "Bob", 2],
        ["W1", "Dee", 3],
        ["Final", "Dee", 1],
        ["Final", "Bob", 2],
        ["Final", "Ann", 3],
    ],
}


def synced_by_an_older_xlrally(path: Path) -> None:
    """Write the Standings as an xlrally that did not read Weight did, with the record it
    kept (the version alone, which the newer one shares)."""
    with FileSheets(path) as source:
        league = read_league(source)
        unweighted = tuple(dataclasses.replace(e, weight=None) for e in league.events)
        standings = compute_standings(dataclasses.replace(league, events=unweighted))
        assert [(r.rank_label, r.total) for r in standings.rows] == [("1=", 4)] * 3
        grid = standings_grid(standings)
        old = {"xlrally": __version__, "system": "reverse", "players": 3, "events": 2}
        record = (INPUTS, json.dumps({**old, "warnings": 0}, separators=(",", ":")))
        staged = stage_sheet(
            path,
            SHEET_NAME,
            grid,
            source.package,
            print_setup(standings, grid),
            marks,
            record,
        )
    assert staged is not None
    staged.commit()


def totals(path: Path) -> list[tuple[object, ...]]:
    with FileSheets(path) as sheets:
        rows = [list(row) for row in sheets.values("Standings")]
    return [tuple(row[:3]) for row in rows[1:4]]


def test_an_upgrade_that_changes_a_result_syncs_again(tmp_path: Path) -> None:
    path = write_book(tmp_path / "league.xlsx", SHEETS)
    synced_by_an_older_xlrally(path)
    assert totals(path) == [(1, "Ann", 4), (1, "Bob", 4), (1, "Dee", 4)]
    assert synced_before(path) is None  # not "unchanged": another xlrally's rules wrote it
    assert sync_file(path).result == "written"
    assert totals(path) == [(1, "Dee", 7), (2, "Bob", 6), (3, "Ann", 5)]
    assert sync_file(path).result == "unchanged"


def test_the_record_names_the_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The record holds a digest of xlrally's own code: any change to it (here, as if one
    file of it changed) means a full sync, even under the same version string."""
    path = write_book(tmp_path / "league.xlsx", SHEETS)
    assert sync_file(path).result == "written"
    assert synced_before(path) is not None
    digest = rules()
    assert digest is not None
    assert len(digest) == 64
    monkeypatch.setattr(unchanged, "rules", lambda: "0" * 64)
    assert synced_before(path) is None


def test_the_rules_digest_changes_with_any_module_and_only_with_modules(
    tmp_path: Path,
) -> None:
    """The digest of a copy of the package is the package's own; an edited, added, removed or
    renamed module changes it, a cached ``.pyc`` or another file does not."""
    package = Path(unchanged.__file__).resolve().parents[1]
    copy = tmp_path / "xlrally"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert code_digest(copy) == rules()
    seen = {code_digest(copy)}

    (copy / "core" / "__pycache__").mkdir(exist_ok=True)
    (copy / "core" / "__pycache__" / "numbers.cpython-311.pyc").write_bytes(b"\0" * 16)
    (copy / "core" / "README.txt").write_text("not code")
    assert code_digest(copy) == rules()

    numbers = copy / "core" / "numbers.py"
    numbers.write_bytes(numbers.read_bytes() + b"# one more line\n")
    seen.add(code_digest(copy))
    (copy / "core" / "extra.py").write_text("X = 1\n")
    seen.add(code_digest(copy))
    (copy / "core" / "extra.py").rename(copy / "formats" / "extra.py")
    seen.add(code_digest(copy))
    (copy / "formats" / "extra.py").unlink()
    assert code_digest(copy) in seen  # back to the edited package's
    assert len(seen) == 4


def test_an_upgrade_that_changes_no_result_rewrites_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Other rules (as if xlrally's code changed) that give the same standings: the sync reads
    the file whole, finds the Standings it would write, and leaves the file as it is, record
    and all ("a file whose standings did not change is not written at all"). The next sync
    skips it: the sync remembered it outside the file (tests/app/test_rechecked.py)."""
    path = write_book(tmp_path / "league.xlsx", SHEETS)
    assert sync_file(path).result == "written"
    before = path.read_bytes()
    monkeypatch.setattr(unchanged, "rules", lambda: "0" * 64)
    assert synced_before(path) is None  # not skipped: the rules are not the record's
    assert sync_file(path).result == "unchanged"
    assert path.read_bytes() == before
    assert synced_before(path) is not None
    assert sync_file(path).result == "unchanged"
    assert path.read_bytes() == before
