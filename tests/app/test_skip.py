"""A sync of a file unchanged since xlrally wrote it reads nothing (issue 15), and any change
of its inputs is always picked up.

The league is helpers.RALLY_SHEETS (seed examples 1 and 2): Bobby 79 + 21 = 100, José 54.
"""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

import openpyxl
import pytest
from helpers import RALLY_SHEETS, open_book, with_calc_chain, write_book

from xlrally.app import batch, unchanged
from xlrally.app.batch import run_batch
from xlrally.app.sync import sync_file, synced_before
from xlrally.ooxml import reader

RESULTS = "xl/worksheets/sheet3.xml"  # XlsxWriter's parts: Settings, Events, Results


def totals(path: Path) -> dict[str, object]:
    """Player -> total, as written on the Standings sheet."""
    sheet = openpyxl.load_workbook(path)["Standings"]
    header = [c.value for c in sheet[1]]
    rows = [[c.value for c in row] for row in sheet.iter_rows(min_row=2)]
    player, total = header.index("Player"), header.index("Total")
    return {row[player]: row[total] for row in rows if row[player]}


def edit_part(path: Path, part: str, old: bytes, new: bytes) -> None:
    """Change one part of the package as a careful program would: every other part keeps its
    bytes (so only this part's CRC and size can give the change away)."""
    with zipfile.ZipFile(path) as z:
        items = [(info, z.read(info.filename)) for info in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data in items:
            if info.filename == part:
                assert old in data
            z.writestr(info, data.replace(old, new) if info.filename == part else data)


def no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on, reading the sheets fails the test: a skipped sync must not read them."""

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("the sheets were read")

    monkeypatch.setattr(reader, "FileSheets", refuse)  # sync imports it from there when reading


def synced(tmp_path: Path) -> Path:
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    assert sync_file(path).result == "written"
    assert totals(path) == {"Bobby": 100, "José": 54}
    return path


def test_an_unchanged_file_is_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = synced(tmp_path)
    before = path.read_bytes()
    no_reading(monkeypatch)
    outcome = sync_file(path)
    assert (outcome.result, outcome.system, outcome.players, outcome.events) == (
        "unchanged",
        "rally",
        2,
        2,
    )
    assert path.read_bytes() == before
    [batch] = run_batch([path], jobs=1)
    assert (batch.result, batch.players) == ("unchanged", 2)


def test_a_batch_s_workers_look_whether_their_files_are_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The looks run in the workers, on every core, not one after another in the parent
    before the first sync starts (issue 33); unchanged files and a new one come out right."""
    looks = tmp_path / "looks"

    def look(path: Path) -> object:
        with looks.open("a") as f:
            f.write(f"{os.getpid()}\n")
        return synced_before(path)

    monkeypatch.setattr(batch, "synced_before", look)
    first = synced(tmp_path)
    files = [Path(shutil.copy(first, tmp_path / f"copy{n}.xlsx")) for n in range(3)]
    files.append(write_book(tmp_path / "new.xlsx", RALLY_SHEETS))
    outcomes = run_batch(files, jobs=2)
    assert [o.result for o in outcomes] == ["unchanged"] * 3 + ["written"]
    pids = looks.read_text().split()
    assert len(pids) == 4
    assert str(os.getpid()) not in pids


def test_a_changed_result_is_picked_up(tmp_path: Path) -> None:
    """Bobby's Dec 2025 points 3 -> 2 of 4 games: 100 × 2 / 4 + 4 = 54, so 54 + 21 = 75."""
    path = synced(tmp_path)
    edit_part(path, RESULTS, b'<c r="C2"><v>3</v></c>', b'<c r="C2"><v>2</v></c>')
    assert sync_file(path).result == "written"
    assert totals(path) == {"Bobby": 75, "José": 54}


def test_changed_settings_are_picked_up(tmp_path: Path) -> None:
    """The league's name is a shared string: only sharedStrings.xml changes."""
    path = synced(tmp_path)
    edit_part(path, "xl/sharedStrings.xml", b">Club Rally<", b">Town Rally<")
    assert sync_file(path).result == "written"
    sheet = openpyxl.load_workbook(path)["Standings"]
    texts = [c.value for row in sheet.iter_rows() for c in row if isinstance(c.value, str)]
    assert any("Town Rally" in t for t in texts)
    assert not any("Club Rally" in t for t in texts)


def test_an_added_sheet_or_a_save_by_another_program_is_picked_up(tmp_path: Path) -> None:
    path = synced(tmp_path)
    book = openpyxl.load_workbook(path)
    book.create_sheet("Notes")["A1"] = "prize giving in June"
    book["Results"].append(["May 2026", "Ann", 4, 5, 0])  # 100 × 4 / 5 + 5 = 85
    book.save(path)
    outcome = sync_file(path)
    assert outcome.result == "written"
    assert totals(path) == {"Bobby": 100, "Ann": 85, "José": 54}


def test_a_file_replaced_by_an_older_copy(tmp_path: Path) -> None:
    """An older copy never synced is read afresh; an older copy xlrally wrote is consistent in
    itself (its Standings are those of its own results), so it is rightly left alone."""
    never_synced = write_book(tmp_path / "backup.xlsx", RALLY_SHEETS)
    path = synced(tmp_path)
    synced_copy = tmp_path / "synced.xlsx"
    shutil.copy(path, synced_copy)
    edit_part(path, RESULTS, b'<c r="C2"><v>3</v></c>', b'<c r="C2"><v>2</v></c>')
    assert sync_file(path).result == "written"
    assert totals(path)["Bobby"] == 75

    shutil.copy(synced_copy, path)
    assert sync_file(path).result == "unchanged"
    assert totals(path)["Bobby"] == 100

    edit_part(path, RESULTS, b'<c r="C2"><v>3</v></c>', b'<c r="C2"><v>2</v></c>')
    assert sync_file(path).result == "written"
    shutil.copy(never_synced, path)
    assert sync_file(path).result == "written"
    assert totals(path)["Bobby"] == 100


def test_a_hand_edit_of_the_standings_is_picked_up(tmp_path: Path) -> None:
    path = synced(tmp_path)
    book = openpyxl.load_workbook(path)
    book["Standings"]["C2"] = 999
    book.save(path)
    outcome = sync_file(path)
    assert outcome.result == "written"
    assert any("by hand" in w for w in outcome.warnings)
    assert totals(path)["Bobby"] == 100


def test_another_xlrally_version_or_a_damaged_record_syncs_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another version's record is not a skip: the file is read whole; its standings are the
    same, so it is not written (issue 32: an upgrade rewrites no file whose standings it
    does not change); a damaged record is written again."""
    path = synced(tmp_path)
    monkeypatch.setattr(unchanged, "__version__", "99.0")
    assert synced_before(path) is None
    before = path.read_bytes()
    assert sync_file(path).result == "unchanged"  # read whole, the same standings: not written
    assert path.read_bytes() == before
    edit_part(path, "docProps/custom.xml", b"players&quot;:2", b"players&quot;:-2")
    assert sync_file(path).result == "written"


def test_warnings_of_a_skipped_file_are_counted_not_lost(tmp_path: Path) -> None:
    """'Bobby' and 'Boby' look alike: the sync that computed says so; a skipped one says how
    many warnings there were and where to see them."""
    sheets = {**RALLY_SHEETS, "Results": [*RALLY_SHEETS["Results"], ["May 2026", "Boby", 1, 4, 0]]}
    path = write_book(tmp_path / "league.xlsx", sheets)
    first = sync_file(path)
    assert first.result == "written"
    assert any("Boby" in w for w in first.warnings)
    again = sync_file(path)
    assert again.result == "unchanged"
    count = len(first.warnings)
    assert again.warnings == (
        f"{count} warning{'s' * (count > 1)} at its last sync, unchanged since: "
        f"`xlrally check {path}` lists them",
    )


def test_a_sync_that_dropped_a_part_is_skipped_next_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old Standings had a formula, so its calcChain went with it: the record of the
    inputs is of the file as written, without that part, and the next sync is skipped."""
    path = tmp_path / "league.xlsx"
    book = open_book(path, RALLY_SHEETS)
    book.add_worksheet("Standings").write_formula("A1", "=1+1", None, 2)
    book.close()
    with_calc_chain(path)
    assert sync_file(path).result == "written"
    with zipfile.ZipFile(path) as z:
        assert "xl/calcChain.xml" not in z.namelist()
    no_reading(monkeypatch)
    assert sync_file(path).result == "unchanged"
