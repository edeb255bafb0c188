"""Crash safety: SIGKILL during `xlrally sync` leaves the old file or the complete new one."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from make_workbook import make

from xlrally.ooxml.writer import TEMP_SUFFIX, temp_prefix

KILLS = 24
WAIT_FOR_THE_HOLD = 300
"""Seconds after which a command that never reached the moment a test holds it at fails the
test (a bound for a broken run, not a timing the test depends on)."""


HOLD_BEFORE_THE_RENAME = textwrap.dedent(
    """
    import os, signal, stat, sys
    from pathlib import Path

    marker = Path(sys.argv[1])
    real_fsync = os.fsync

    def fsync_or_hold(fd):
        real_fsync(fd)
        if stat.S_ISREG(os.fstat(fd).st_mode):  # the new file, complete, not yet renamed
            marker.write_text("holding")  # the test kills the sync once it sees this
            signal.pause()

    os.fsync = fsync_or_hold
    sys.argv = ["xlrally", *sys.argv[2:]]
    from xlrally.cli import main
    main()
    """
)
"""``xlrally`` as a user runs it, except that the worker waits once the new workbook is
written beside the old one and flushed to disk, just before it would replace the old one."""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_sigkill_at_any_moment_leaves_old_or_new(tmp_path: Path) -> None:
    """Kill the sync at moments spread over its whole run, writing phase included, and once
    surely between the new file's last byte and the rename: the workbook is always the old
    file or the complete new one. The result folders that killed runs leave in the temporary
    folder are removed by the next run."""
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

    def killed(
        name: str, command: list[str], wait: Callable[[subprocess.Popen[bytes]], None]
    ) -> bytes:
        """The workbook after ``command`` (an xlrally sync of it) is killed once ``wait``
        returns; only the workbook's own temporary file may be left beside it."""
        work = tmp_path / name
        work.mkdir()
        target = work / "league.xlsx"
        target.write_bytes(old)
        process = subprocess.Popen(
            [*command, str(target)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
        )
        wait(process)
        process.send_signal(signal.SIGKILL)
        process.wait()
        data = target.read_bytes()
        assert data in (old, new), f"{name}: a half-written workbook"
        leftovers = [p.name for p in work.iterdir() if p.name != "league.xlsx"]
        prefix = temp_prefix(target)
        assert all(n.startswith(prefix) and n.endswith(TEMP_SUFFIX) for n in leftovers), leftovers
        return data

    # Moments spread over the run (a sleep: where each kill lands depends on the load, and
    # every outcome is checked, whichever it is).
    sync = [sys.executable, "-m", "xlrally", "sync"]
    seen = {"old": 0, "new": 0}
    for index in range(KILLS):
        moment = duration * (0.5 + 0.7 * index / (KILLS - 1))  # dense around the write

        def after_a_while(_: subprocess.Popen[bytes], moment: float = moment) -> None:
            time.sleep(moment)

        data = killed(f"run{index}", sync, after_a_while)
        seen["old" if data == old else "new"] += 1
    print(f"kills that left the old file: {seen['old']}, the new file: {seen['new']}")

    # The moment that matters most, made to happen: the new file complete, not yet renamed.
    marker = tmp_path / "holding"

    def until_held(process: subprocess.Popen[bytes]) -> None:
        deadline = time.monotonic() + WAIT_FOR_THE_HOLD
        while not marker.exists():
            assert process.poll() is None, "the sync ended without reaching the rename"
            assert time.monotonic() < deadline, "the sync never reached the rename"
            time.sleep(0.01)

    holding = [sys.executable, "-c", HOLD_BEFORE_THE_RENAME, str(marker), "sync"]
    assert killed("held", holding, until_held) == old
    [left] = [p for p in (tmp_path / "held").iterdir() if p.name != "league.xlsx"]
    assert left.read_bytes() == new  # the new file was complete: only the rename was missing

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
    real_sync, real_listing = batch.full_sync, cli.workbook_files

    def hold():
        # until stopped: Ctrl-C, or SIGTERM (from the test, or the parent). The stops are
        # blocked, then waited for: a stop that came before pause() would have been missed,
        # and the run left waiting for ever.
        stops = {signal.SIGINT, signal.SIGTERM}
        signal.pthread_sigmask(signal.SIG_BLOCK, stops)
        marker.write_text("holding")  # the test sends the stop once it sees this
        signal.raise_signal(signal.sigwait(stops))  # pending again, for its handler
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)

    def sync_or_hold(path, check_area=True, keep=None):
        if path.name == held:
            hold()
        if "!" + path.name == held:  # the stop breaks a library's lock on its way out
            try:
                hold()
            except KeyboardInterrupt:
                raise RuntimeError("release unlocked lock")
        return real_sync(path, check_area, keep)

    def listing_or_hold(paths, recursive):
        if held == "listing":
            hold()
        return real_listing(paths, recursive)

    batch.full_sync, cli.workbook_files = sync_or_hold, listing_or_hold
    sys.argv = ["xlrally", *sys.argv[3:]]
    cli.main()
    """
)
"""``xlrally`` as a user runs it, except that it waits at one chosen moment until it is
stopped: while it lists the files (before the batch), or once the sync of one chosen file has
begun. So the stop always comes at that moment, whatever the machine's load. ``!name``: the
stop comes out of that sync as the RuntimeError a library's broken lock gave (seen once a
test of Ctrl-C was made deterministic: the file was reported "failed", an internal error)."""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize(
    "held",
    ["listing", "club0.xlsx", "club3.xlsx", "!club3.xlsx"],
    ids=["before", "first", "last", "last, a lock broken"],
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
    held = held.lstrip("!")
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
