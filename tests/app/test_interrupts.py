"""A stop (Ctrl-C, SIGTERM) at any moment of :func:`~xlrally.app.isolate.run_isolated` is an
:class:`~xlrally.app.isolate.Interrupted` that says which tasks finished, and leaves no result
folder and no child behind; a folder left by a run that was killed outright (SIGKILL, power
cut) is removed by the next run.

Each stop is sent by the test's own process to itself at a chosen point (``os.kill`` to one's
own process is delivered before it returns; a signal held back is delivered when the mask is
restored), so the moment is fixed, whatever the machine's load.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from xlrally.app import isolate

pytestmark = pytest.mark.skipif(not isolate.AVAILABLE, reason="workers need fork")


@pytest.fixture
def temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The system's temporary folder, for this test: empty at its start."""
    folder = tmp_path / "temp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def stop_here() -> None:
    """Ctrl-C, now (to this process only, as SIGINT from a terminal reaches the parent)."""
    os.kill(os.getpid(), signal.SIGINT)


def square(n: int) -> int:
    return n * n


def no_children_left() -> bool:
    """True if this process has no child process (ended or not) left to wait for."""
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def run_stopped(work: Callable[[int], int], done: Callable[[], None] = lambda: None) -> object:
    """The exception that ends ``run_isolated`` over tasks 1-4 in two workers (any kind: a bare
    KeyboardInterrupt must fail the test, not end the test session)."""
    try:
        isolate.run_isolated([1, 2, 3, 4], work, jobs=2, done=done)
    except BaseException as error:  # (the kind is what is checked)
        return error
    return None


def test_a_stop_held_back_while_the_folder_is_made_leaves_no_folder(
    temp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 5 of issue 28: the folder for the results is made with stops held back; a stop
    that came meanwhile arrives as they are let through, and must be inside the cleanup's reach
    (it once arrived just before it: the folder stayed, and a bare KeyboardInterrupt came out,
    which the command line printed as `Aborted!`, exit 1)."""
    made = tempfile.mkdtemp

    def mkdtemp_then_stop(*args: object, **kwargs: object) -> str:
        folder = made(*args, **kwargs)  # type: ignore[call-overload]
        stop_here()  # held back until the folder is made and noted
        return str(folder)

    monkeypatch.setattr(tempfile, "mkdtemp", mkdtemp_then_stop)
    error = run_stopped(square)
    assert type(error) is isolate.Interrupted, repr(error)
    assert error.results == [None, None, None, None]
    assert list(temp.iterdir()) == []
    assert no_children_left()


def finished(results: list[object]) -> list[int]:
    """The tasks (1-4) whose squares are in ``results``; every other result is a task stopped
    midway or not started."""
    for task, result in zip([1, 2, 3, 4], results, strict=True):
        assert result in (task * task, None) or isinstance(result, isolate.Died), result
    return [task for task, r in zip([1, 2, 3, 4], results, strict=True) if isinstance(r, int)]


def test_a_stop_when_a_result_comes_in(temp: Path) -> None:
    """The parent is told a task is done, then Ctrl-C: that task's result is kept, the others
    are finished, stopped midway or not started. (Which task is done first is the machine's
    choice: the two workers start on tasks 1 and 3 at once.)"""
    error = run_stopped(square, done=stop_here)
    assert type(error) is isolate.Interrupted, repr(error)
    assert finished(error.results) != []
    assert list(temp.iterdir()) == []
    assert no_children_left()


def test_a_stop_when_the_second_worker_reports_first(tmp_path: Path, temp: Path) -> None:
    """The order a loaded machine may choose, made to happen: task 1 (the first worker's)
    waits until task 3 (the second's) is done, so task 3 is reported first; then Ctrl-C:
    task 3's result is kept (an earlier test took the first report to be task 1's, and failed
    when the machine was busy)."""
    three_done = tmp_path / "3 done"

    def square_after_three(n: int) -> int:
        if n == 3:
            three_done.touch()
        while n == 1 and not three_done.exists():
            time.sleep(0.01)  # waiting for a condition, not for a time
        return n * n

    error = run_stopped(square_after_three, done=stop_here)
    assert type(error) is isolate.Interrupted, repr(error)
    assert 3 in finished(error.results)
    assert list(temp.iterdir()) == []
    assert no_children_left()


def stop_the_parent(n: int) -> int:
    """A task that stops its parent (as Ctrl-C in a terminal would) and waits to be stopped."""
    if n == 2:
        os.kill(os.getppid(), signal.SIGINT)
        signal.pause()  # the parent's SIGTERM ends this worker (see workers.start)
    return n * n


def test_a_stop_while_a_task_runs(temp: Path) -> None:
    """Task 2 is running when the parent is stopped: it is reported as interrupted midway."""
    error = run_stopped(stop_the_parent)
    assert type(error) is isolate.Interrupted, repr(error)
    assert error.results[1] == isolate.Died("was interrupted", "SIGINT")
    assert list(temp.iterdir()) == []
    assert no_children_left()


def test_a_stop_during_the_cleanup_keeps_every_result(
    temp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every task is done and the folder is being removed when Ctrl-C comes (held back until
    the cleanup ends): an interrupt that still has every result."""
    remove = shutil.rmtree

    def rmtree_then_stop(path: str, ignore_errors: bool = False) -> None:
        stop_here()
        remove(path, ignore_errors=ignore_errors)

    monkeypatch.setattr(shutil, "rmtree", rmtree_then_stop)
    error = run_stopped(square)
    assert type(error) is isolate.Interrupted, repr(error)
    assert error.results == [1, 4, 9, 16]
    assert list(temp.iterdir()) == []
    assert no_children_left()


def test_a_second_stop_while_the_first_is_handled(temp: Path) -> None:
    """Ctrl-C twice (the second while the workers are being stopped): still one interrupt, the
    finished task's result kept, nothing left."""
    stops: list[int] = []

    def twice() -> None:
        if not stops:
            stops.append(1)
            stop_here()

    original = isolate._end

    def end_with_a_second_stop(worker: isolate.Worker) -> int:
        if len(stops) == 1:
            stops.append(2)
            stop_here()
        return original(worker)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(isolate, "_end", end_with_a_second_stop)
        error = run_stopped(square, done=twice)
    assert len(stops) == 2
    assert type(error) is isolate.Interrupted, repr(error)
    assert finished(error.results) != []  # the one done first: 1 or 3, as the machine goes
    assert list(temp.iterdir()) == []
    assert no_children_left()


KILLED_RUN = textwrap.dedent(
    """
    import os, signal
    from xlrally.app import isolate

    def kill_the_parent(n):
        os.kill(os.getppid(), signal.SIGKILL)  # as the kernel's out-of-memory killer would
        signal.pause()  # the parent's death ends this worker too (PR_SET_PDEATHSIG)

    isolate.run_isolated([1], kill_the_parent)
    """
)


def test_a_folder_left_by_a_killed_run_is_removed_by_the_next(temp: Path) -> None:
    """A run killed outright cannot remove its folder; the next run does, and leaves alone the
    folder of a run still going (its lock is held)."""
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_RUN],
        env={**os.environ, "TMPDIR": str(temp)},
        capture_output=True,
        check=False,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    [left] = list(temp.iterdir())
    assert left.name.startswith(isolate.FOLDER_PREFIX)

    alive = temp / f"{isolate.FOLDER_PREFIX}alive"
    alive.mkdir()
    held = os.open(alive, os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a running batch holds its own
        assert isolate.run_isolated([3], square) == [9]
        assert list(temp.iterdir()) == [alive]
    finally:
        os.close(held)
    assert isolate.run_isolated([3], square) == [9]
    assert list(temp.iterdir()) == []


def test_folders_of_an_older_xlrally_go_once_a_day_old_if_they_hold_only_results(
    temp: Path,
) -> None:
    """Before its folders were locked, xlrally named them ``xlrally-`` and 8 random letters;
    those a killed run left (thousands, on a machine that ran the crash tests) go once they
    are a day old and hold nothing but results. A younger one, one holding anything else and
    anything else named ``xlrally-...`` stay."""
    day_and_a_bit = time.time() - 86400 - 60
    old, young, foreign = (
        temp / "xlrally-05g669c_",
        temp / "xlrally-06a6ao2f",
        temp / "xlrally-notes123",
    )
    for folder in (old, young, foreign):
        folder.mkdir()
        (folder / "0.result").write_bytes(b"")
    (foreign / "notes.txt").write_text("mine")
    download = temp / "xlrally-0.1.0.zip"
    download.write_bytes(b"PK")
    for path in (old, foreign, download):
        os.utime(path, (day_and_a_bit, day_and_a_bit))
    assert isolate.run_isolated([3], square) == [9]
    assert sorted(p.name for p in temp.iterdir()) == sorted(
        p.name for p in (young, foreign, download)
    )
