"""Run the whole suite again and again with a CPU hog beside it (issue 28): every run must pass
and leave nothing in the temporary directory. `make soak` runs it.

    python tools/soak.py [--runs 10] [--hogs 1] [-- PYTEST ARGS]

A test that depends on timing or load passes on a quiet machine and fails on a busy one; a
test that leaves files behind fills the temporary directory a little at every run. Neither
shows in one run on a developer's machine. So each run here is the README's test command (with
``CI=1``, as `.ci/run` runs it: nothing may skip for want of a program or of the corpus) while
``--hogs`` processes spin the CPU at normal priority, and with ``TMPDIR`` a folder of its own,
empty at the start: after the run, anything in it (a result folder, a staged workbook, a
LibreOffice profile, a worker's file) is named and the soak fails. pytest's own ``tmp_path``
folders are kept apart (``--basetemp``), since pytest keeps them on purpose; what a test
leaves beside its workbook there, the test itself checks.

The soak stops at the first run that fails or leaves something, and prints each run's time, so
that the run that failed can be read (its output is kept in the soak's folder, named at the end).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

HOG = "while True:\n    pass\n"
"""A CPU hog: one process spinning one core, at the same priority as the tests."""


def leftovers(folder: Path) -> list[str]:
    """Everything under ``folder``, as paths relative to it (folders with what they hold)."""
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def _ctrl_c_as_in_a_terminal() -> None:
    """The suite gets Ctrl-C as a terminal gives it, even when the soak was started in the
    background (``soak.py &`` leaves SIGINT ignored, and Python then keeps it so: the stop
    tests would test nothing)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def one_run(number: int, work: Path, pytest_args: list[str]) -> tuple[bool, float, list[str]]:
    """The suite once: passed, seconds, what it left in its temporary directory."""
    temp = work / f"tmp-{number}"
    temp.mkdir()
    base = work / "basetemp"  # pytest empties it at each start
    log = work / f"run-{number}.log"
    env = {**os.environ, "CI": "1", "TMPDIR": str(temp)}
    command = [sys.executable, "-m", "pytest", "-q", "-x", f"--basetemp={base}", *pytest_args]
    start = time.perf_counter()
    with log.open("w", encoding="utf-8") as out:
        done = subprocess.run(
            command,
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            check=False,
            preexec_fn=_ctrl_c_as_in_a_terminal,
        )
    seconds = time.perf_counter() - start
    left = leftovers(temp)
    if not left:
        temp.rmdir()
    return done.returncode == 0, seconds, left


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=10, help="runs of the suite (10)")
    parser.add_argument("--hogs", type=int, default=1, help="CPU hog processes (1)")
    parser.add_argument("pytest_args", nargs="*", help="after --: passed on to pytest")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="xlrally-soak-"))
    hogs = [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(args.hogs)]
    failed = ""
    try:
        for number in range(1, args.runs + 1):
            passed, seconds, left = one_run(number, work, args.pytest_args)
            tail = (work / f"run-{number}.log").read_text(encoding="utf-8").splitlines()[-1:]
            print(
                f"run {number:2d}: {'passed' if passed else 'FAILED'} in {seconds:5.0f} s, "
                f"{len(left)} left in TMPDIR  ({tail[0] if tail else ''})",
                flush=True,
            )
            for path in left[:20]:
                print(f"    left: {path}", flush=True)
            if not passed or left:
                failed = f"run {number} {'failed' if not passed else 'left files'}"
                break
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    if failed:
        raise SystemExit(f"soak: {failed}; its output and folder are in {work}")
    shutil.rmtree(work)
    print(f"soak: {args.runs} runs passed with {args.hogs} CPU hog(s), nothing left in TMPDIR")


if __name__ == "__main__":
    main()
