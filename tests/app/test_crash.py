"""Crash safety: SIGKILL during `xlrally sync` leaves the old file or the complete new one."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from make_workbook import make

from xlrally.ooxml.writer import TEMP_SUFFIX, temp_prefix

KILLS = 24


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_sigkill_at_any_moment_leaves_old_or_new(tmp_path: Path) -> None:
    """Kill the sync at moments spread over its whole run, writing phase included. The result
    folders that killed runs leave in the temporary folder are removed by the next run."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
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
            env=env,
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
            env=env,
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

    assert any(temp.iterdir())  # the killed runs' folders (the parent died before its cleanup)
    again = subprocess.run(
        [sys.executable, "-m", "xlrally", "sync", str(clean)],
        env=env,
        capture_output=True,
        check=False,
    )
    assert again.returncode == 0, again.stderr
    assert list(temp.iterdir()) == []


HOLDING_SYNC = textwrap.dedent(
    """
    import signal, sys
    from pathlib import Path
    from xlrally import cli
    from xlrally.app import batch

    held, marker = sys.argv[1], Path(sys.argv[2])
    real_sync, real_listing = batch._safe_sync, cli.workbook_files

    def hold():
        marker.write_text("holding")  # the test sends the stop once it sees this
        signal.pause()  # until stopped: Ctrl-C, or SIGTERM (from the test, or the parent)

    def sync_or_hold(path, check_area=True, keep=None):
        if path.name == held:
            hold()
        return real_sync(path, check_area, keep)

    def listing_or_hold(paths, recursive):
        if held == "listing":
            hold()
        return real_listing(paths, recursive)

    batch._safe_sync, cli.workbook_files = sync_or_hold, listing_or_hold
    sys.argv = ["xlrally", *sys.argv[3:]]
    cli.main()
    """
)
"""``xlrally`` as a user runs it, except that it waits at one chosen moment until it is
stopped: while it lists the files (before the batch), or once the sync of one chosen file has
begun. So the stop always comes at that moment, whatever the machine's load."""

WAIT_FOR_THE_HOLD = 300
"""Seconds after which a batch that never reached the held file fails the test (a bound for
a broken run, not a timing the test depends on)."""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize(
    "held", ["listing", "club0.xlsx", "club3.xlsx"], ids=["before", "first", "last"]
)
@pytest.mark.parametrize("stop", ["Ctrl-C", "SIGTERM"])
def test_an_interrupted_batch_says_what_it_wrote_and_leaves_no_litter(
    tmp_path: Path, stop: str, held: str
) -> None:
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) or SIGTERM to the
    command alone (``kill``) while the first or the last of four files is being synced by one
    of two workers: exit 130, a summary naming each file's fate (the held file interrupted, the
    others written or not started), every workbook old or new, and no temporary file or folder
    left anywhere. Stopped before the batch (while it lists the files: a stop there once
    escaped as click's `Aborted!`, exit 1), it says that each workbook is old or synced."""
    original = tmp_path / "original.xlsx"
    make(str(original), players=40, events=8)
    old = original.read_bytes()
    work, temp = tmp_path / "run", tmp_path / "tmp"
    work.mkdir()
    temp.mkdir()
    names = [f"club{n}.xlsx" for n in range(4)]
    for name in names:
        (work / name).write_bytes(old)
    marker = tmp_path / "holding"
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDING_SYNC, held, str(marker), "sync", "-j", "2", str(work)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, like a command run in a terminal
        env={**os.environ, "TMPDIR": str(temp)},
    )
    deadline = time.monotonic() + WAIT_FOR_THE_HOLD
    while not marker.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the held file's sync never began"
        time.sleep(0.01)
    if stop == "Ctrl-C":
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGTERM)
    out, err = process.communicate()
    assert process.returncode == 130, err
    assert sorted(p.name for p in work.iterdir()) == names  # no temporary file
    assert list(temp.iterdir()) == []  # no result folder
    if held == "listing":
        assert err.endswith(
            "Interrupted: each workbook is as it was or fully synced (no partial file is left).\n"
        ), err
        assert all(p.read_bytes() == old for p in work.iterdir())
        return
    written = sorted(p.name for p in work.iterdir() if p.read_bytes() != old)
    assert held not in written
    fates = {  # the summary's rows: the file, then its result in the last column
        Path(line.split()[0]).name: line.rsplit("  ", 1)[-1].strip()
        for line in out.splitlines()
        if line.startswith(str(work))
    }
    assert sorted(fates) == names, out
    assert fates[held] == "interrupted", out
    for name in names:
        fate = {"written"} if name in written else {"interrupted", "not started"}
        assert fates[name] in fate, (name, out)
    assert f"Interrupted: {len(written)} file" in err, (written, out, err)
