"""The folders of the workers' results: one per run, locked while the run lives, and the
folders of runs killed outright removed by the next run."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from pathlib import Path

FOLDER_PREFIX = "xlrally-work-"
"""The children's results go to a folder ``xlrally-work-<random>`` in the system's temporary
folder, locked (``flock``) by the run that made it for as long as it and its workers live."""


class Folder:
    """The folder of one run's results, and the lock that tells other runs it is in use. (A
    plain class: this module is loaded by the command line's answer for an unchanged file,
    :mod:`xlrally.entry`, where ``dataclasses`` would cost more than the answer.)"""

    __slots__ = ("lock", "path")

    def __init__(self, path: Path, lock: int) -> None:
        self.path = path
        self.lock = lock

    @classmethod
    def make(cls) -> Folder:
        """A new locked folder in the system's temporary folder. It is made under another name
        and renamed once locked, so that no run ever sees it unlocked (:func:`remove_abandoned`
        would take it for one whose run is gone)."""
        import fcntl  # POSIX only, like fork

        temp = Path(tempfile.gettempdir())
        making = Path(tempfile.mkdtemp(prefix="." + FOLDER_PREFIX, dir=temp))
        lock = os.open(making, os.O_RDONLY)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            path = temp / making.name[1:]
            making.rename(path)
        except BaseException:
            os.close(lock)
            shutil.rmtree(making, ignore_errors=True)
            raise
        return cls(path, lock)

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        os.close(self.lock)


ABANDONED_AFTER = 60
"""Seconds after which a folder still being made (``.xlrally-work-*``, renamed within
microseconds of being made) is taken as left by a run killed in between."""


LEGACY_FOLDER = re.compile(r"xlrally-[a-z0-9_]{8}")
"""The result folders xlrally made before it locked them (``tempfile.mkdtemp``'s names)."""
LEGACY_AFTER = 86400
"""Seconds after which such a folder holding only results is taken as left by a killed run."""
_RESULT = re.compile(r"\d+\.result")


def remove_abandoned(temp: Path) -> None:
    """Remove the result folders in ``temp`` that no live run holds locked: those of runs
    killed outright (SIGKILL, the out-of-memory killer, a power cut), which could not remove
    their own. Called by each run before it makes its own folder. An older xlrally's folders,
    which have no lock, go once they are a day old and hold nothing but results."""
    import fcntl

    try:  # names only: a shared temporary folder may hold thousands of others' xlrally-*
        found = [(e.name, e.path) for e in os.scandir(temp) if e.name.startswith(_PREFIXES)]
    except OSError:
        return
    for name, path in found:
        folder = Path(path)
        try:
            if LEGACY_FOLDER.fullmatch(name):
                _remove_legacy(folder)
                continue
            if name.startswith("."):
                if time.time() - folder.stat().st_mtime > ABANDONED_AFTER:
                    shutil.rmtree(folder, ignore_errors=True)
                continue
            if not name.startswith(FOLDER_PREFIX):
                continue
            lock = os.open(folder, os.O_RDONLY)
        except OSError:  # gone meanwhile, or another user's
            continue
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held: its run is alive
            continue
        else:
            shutil.rmtree(folder, ignore_errors=True)
        finally:
            os.close(lock)


_PREFIXES = ("xlrally-", "." + FOLDER_PREFIX)


def _remove_legacy(folder: Path) -> None:
    if not folder.is_dir() or time.time() - folder.stat().st_mtime <= LEGACY_AFTER:
        return
    if all(_RESULT.fullmatch(name) for name in os.listdir(folder)):
        shutil.rmtree(folder, ignore_errors=True)
