"""The temporary files a write leaves beside a workbook while it works: their names, and the
removal of those a power cut left behind. The standard library alone, so that the command
line's answer for an unchanged file (:mod:`xlrally.entry`) can clean up as a sync does without
loading the writer."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

TEMP_SUFFIX = ".xlrally-tmp"
"""Temporary files are ``.~<8 hex digits of the name>-<random>.xlrally-tmp`` beside the
workbook: short whatever its name, and findable for that workbook. A later sync removes any
such file older than an hour (left by a power cut)."""


def temp_prefix(path: Path) -> str:
    """The start of the names of the temporary files written for this workbook."""
    return ".~" + hashlib.sha1(path.name.encode("utf-8", "surrogateescape")).hexdigest()[:8] + "-"


def clean_stale_temporaries(folder: Path, older_than: float = 3600) -> None:
    """Remove xlrally's temporary files left in ``folder`` by a sync that could not clean up
    (called once per folder by a batch, not once per file)."""
    limit = time.time() - older_than
    try:
        for leftover in folder.glob(f".~*{TEMP_SUFFIX}"):
            if leftover.stat().st_mtime < limit:
                leftover.unlink()
    except OSError:
        pass  # a folder xlrally cannot list or clean: the sync itself will say what is wrong
