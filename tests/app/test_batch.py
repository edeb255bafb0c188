"""Batch sync without fork (as on Windows): a process pool, every sheet checked before reading."""

from __future__ import annotations

import os
import signal
import stat
import time
from pathlib import Path

import pytest
from helpers import RALLY_SHEETS, write_book
from test_hostile import far_cell

from xlrally.app import batch, isolate
from xlrally.app.sync import SyncOutcome
from xlrally.ooxml.writer import TEMP_SUFFIX


@pytest.mark.parametrize("jobs", [1, 2], ids=["in this process", "process pool"])
def test_fallback_without_fork(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int) -> None:
    """Good files are synced; the hostile one is refused by the area check, naming the sheet."""
    monkeypatch.setattr(isolate, "AVAILABLE", False)
    good = write_book(tmp_path / "good.xlsx", RALLY_SHEETS)
    bad = far_cell(tmp_path / "bad.xlsx")
    outcomes = batch.run_batch([good, bad], jobs=jobs)
    assert [o.result for o in outcomes] == ["written", "failed"]
    assert outcomes[1].problems[0].startswith(f"{bad}: Results: cells reach row 1,048,576")


def test_isolated_batch_keeps_order_and_names_the_bad_sheet(tmp_path: Path) -> None:
    """With fork: the child reading the hostile sheet dies; the parent explains why."""
    files = [far_cell(tmp_path / "a.xlsx"), write_book(tmp_path / "b.xlsx", RALLY_SHEETS)]
    outcomes = batch.run_batch(files, jobs=2)
    assert [o.path for o in outcomes] == files
    assert outcomes[0].problems[0].startswith(f"{files[0]}: Results: cells reach row 1,048,576")
    assert outcomes[1].result == "written"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.skipif(not isolate.AVAILABLE, reason="workers need fork")
def test_a_killed_worker_costs_only_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six files, two workers: the worker syncing c.xlsx is killed from outside (as the
    kernel's out-of-memory killer would); c.xlsx is reported as stopped and left as it was,
    and the files after it are synced by a new worker."""
    files = [write_book(tmp_path / f"{name}.xlsx", RALLY_SHEETS) for name in "abcdef"]
    before = files[2].read_bytes()
    real_sync = batch._safe_sync

    def killed_on_c(
        path: Path, check_area: bool = True, keep: list[object] | None = None
    ) -> SyncOutcome:
        if path.name == "c.xlsx":
            os.kill(os.getpid(), signal.SIGKILL)
        return real_sync(path, check_area, keep)

    monkeypatch.setattr(batch, "_safe_sync", killed_on_c)
    outcomes = batch.run_batch(files, jobs=2)
    assert [o.result for o in outcomes] == ["written", "written", "failed"] + ["written"] * 3
    assert "stopped by SIGKILL" in outcomes[2].problems[0]
    assert files[2].read_bytes() == before


def test_stale_temporary_files_are_cleaned_once_per_folder(tmp_path: Path) -> None:
    """A temporary file left by a power cut (older than an hour) is removed by the next batch
    in its folder; a fresh one (another sync may be writing it) is left alone."""
    good = write_book(tmp_path / "good.xlsx", RALLY_SHEETS)
    stale = tmp_path / f".~0123abcd-old{TEMP_SUFFIX}"
    fresh = tmp_path / f".~0123abcd-new{TEMP_SUFFIX}"
    for leftover in (stale, fresh):
        leftover.write_bytes(b"partial")
    two_hours_ago = time.time() - 7200
    os.utime(stale, (two_hours_ago, two_hours_ago))
    assert [o.result for o in batch.run_batch([good], jobs=1)] == ["written"]
    assert not stale.exists()
    assert fresh.exists()


@pytest.mark.skipif(not isolate.AVAILABLE, reason="workers need fork")
def test_a_worker_killed_before_its_rename_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker syncing the file is killed (as the out-of-memory killer would) once its new
    workbook is written and flushed, before the rename: the parent reports it, the workbook is
    as it was, and the temporary file the worker left is removed."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    before = path.read_bytes()
    parent, real_fsync = os.getpid(), os.fsync

    def fsync_then_killed(fd: int) -> None:
        real_fsync(fd)
        if os.getpid() != parent and stat.S_ISREG(os.fstat(fd).st_mode):  # the new workbook
            os.kill(os.getpid(), signal.SIGKILL)

    monkeypatch.setattr(os, "fsync", fsync_then_killed)
    [outcome] = batch.run_batch([path], jobs=1)
    assert outcome.result == "failed"
    assert "stopped by SIGKILL" in outcome.problems[0]
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["league.xlsx"]
