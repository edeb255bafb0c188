"""Crash safety: SIGKILL during `xlrally sync` leaves the old file or the complete new one."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from make_workbook import make

from xlrally.ooxml.writer import TEMP_SUFFIX, temp_prefix

KILLS = 24


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_sigkill_at_any_moment_leaves_old_or_new(tmp_path: Path) -> None:
    """Kill the sync at moments spread over its whole run, writing phase included."""
    original = tmp_path / "original.xlsx"
    make(str(original), players=300, events=60)  # 18,000 result rows
    old = original.read_bytes()
    clean = tmp_path / "clean.xlsx"
    shutil.copy(original, clean)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "xlrally", "sync", str(clean)], check=True, capture_output=True
    )
    duration = time.perf_counter() - start
    new = clean.read_bytes()
    assert new != old

    seen = {"old": 0, "new": 0}
    for index in range(KILLS):
        work = tmp_path / f"run{index}"
        work.mkdir()
        target = work / "league.xlsx"
        target.write_bytes(old)
        process = subprocess.Popen(
            [sys.executable, "-m", "xlrally", "sync", str(target)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(duration * (0.5 + 0.7 * index / (KILLS - 1)))  # dense around the write
        process.send_signal(signal.SIGKILL)
        process.wait()
        data = target.read_bytes()
        assert data in (old, new), f"kill {index}: a half-written workbook"
        seen["old" if data == old else "new"] += 1
        leftovers = [p.name for p in work.iterdir() if p.name != "league.xlsx"]
        prefix = temp_prefix(target)  # only this workbook's own temporary file may be left
        assert all(n.startswith(prefix) and n.endswith(TEMP_SUFFIX) for n in leftovers), leftovers
    assert seen["old"] > 0, seen  # some kills landed before the rename
    print(f"kills that left the old file: {seen['old']}, the new file: {seen['new']}")
