"""Crash safety: SIGKILL during `xlrally sync` leaves the old file or the complete new one."""

from __future__ import annotations

import os
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

    # Kills that surely land while the new file is being written: as soon as its temporary
    # file appears (and a few milliseconds later). The temporary file left behind proves the
    # kill came before the rename; the workbook must still be the old one or the new one.
    during = 0
    for index in range(6):
        work = tmp_path / f"write{index}"
        work.mkdir()
        target = work / "league.xlsx"
        target.write_bytes(old)
        prefix = temp_prefix(target)
        process = subprocess.Popen(
            [sys.executable, "-m", "xlrally", "sync", str(target)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.perf_counter() + 10 * duration
        while process.poll() is None and time.perf_counter() < deadline:
            if any(p.name.startswith(prefix) for p in work.iterdir()):
                break
            time.sleep(0.0005)
        time.sleep(0.003 * index)
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert target.read_bytes() in (old, new), f"write kill {index}: a half-written workbook"
        during += any(p.name.startswith(prefix) for p in work.iterdir())
    assert during > 0, "no kill landed while the new file was being written"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("stop", ["Ctrl-C", "SIGTERM"])
def test_an_interrupted_batch_says_what_it_wrote_and_leaves_no_litter(
    tmp_path: Path, stop: str
) -> None:
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) or SIGTERM to the
    command alone (``kill``), at moments spread over a batch: exit 130, a summary naming each
    file's fate, every workbook old or new, and no temporary file or folder left anywhere."""
    original = tmp_path / "original.xlsx"
    make(str(original), players=800, events=100)  # about a second per file
    old = original.read_bytes()
    stops, codes = 0, []
    for index in range(3):
        work = tmp_path / f"run{index}"
        temp = tmp_path / f"tmp{index}"
        work.mkdir()
        temp.mkdir()
        for n in range(4):
            (work / f"club{n}.xlsx").write_bytes(old)
        process = subprocess.Popen(
            [sys.executable, "-m", "xlrally", "sync", "-j", "2", str(work)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own process group, like a command run in a terminal
            env={**os.environ, "TMPDIR": str(temp)},
        )
        time.sleep(0.4 + 0.5 * index)
        if stop == "Ctrl-C":
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(signal.SIGTERM)
        out, err = process.communicate()
        codes.append((process.returncode, err[-300:]))
        written = sorted(p.name for p in work.iterdir() if p.read_bytes() != old)
        assert sorted(p.name for p in work.iterdir()) == [f"club{n}.xlsx" for n in range(4)]
        assert list(temp.iterdir()) == []  # no child's result folder left
        if process.returncode == 0:
            continue  # the batch finished before the stop arrived
        if process.returncode < 0:  # stopped before xlrally's handler was set, or after
            continue
        stops += 1
        assert process.returncode == 130, err
        assert f"Interrupted: {len(written)} file" in err, (written, out, err)
        for name in written:
            assert any(
                line.startswith(str(work / name)) and "written" in line for line in out.splitlines()
            )
    assert stops > 0, f"no batch was stopped midway (exit codes and errors: {codes})"
