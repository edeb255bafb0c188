"""Workbooks last written by another xlrally's rules whose Standings these rules found they
would write as they are: remembered outside the workbook, so that the next sync of the
unchanged file is skipped again (issue 33).

A sync leaves a file whose standings did not change as it is, record and all, even when other
rules wrote it (an older or a newer xlrally: :func:`~xlrally.app.stamps.kept_record`). Its
record then still names those rules (:func:`~xlrally.app.unchanged.rules`), so without this
memory every later sync of the file would read it whole again: after each upgrade, every
untouched league of a weekly batch (a past season, say), every week, until someone edits it.

What is kept: one small file per workbook state, ``rechecked/<rules>/<package digest>`` in the
cache folder, holding the record the workbook keeps (its :data:`~xlrally.app.unchanged.INPUTS`
property, but for the digest). A sync skips such a file only when this xlrally's rules, the
package's digest (every part but the record's) and the record are all the ones remembered.

The cache folder is ``XLRALLY_CACHE_DIR`` when set, else the user's cache folder for xlrally as
platformdirs names it (``~/.cache/xlrally`` on Linux, ``~/Library/Caches/xlrally`` on macOS,
``%LOCALAPPDATA%\\xlrally\\Cache`` on Windows). Remembering under new rules removes what other
rules remembered, so it holds one small file per league at most. It is only ever a shortcut:
a folder that cannot be written or an entry that cannot be read means a full sync, never an
error, and nothing in a workbook changes because of it.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from pathlib import Path

CACHE_VARIABLE = "XLRALLY_CACHE_DIR"
"""The environment variable naming the cache folder (tests give each run its own)."""

_DIGEST = re.compile(r"[0-9a-f]{32,64}")
"""A digest in hexadecimal: the rules' (64 digits), the package's (32): nothing else names
a folder or a file here."""


def folder() -> Path | None:
    """Where the rechecked files are remembered: ``rechecked`` in the cache folder; None where
    there is none to name (no platformdirs: Pyodide, where no file is synced)."""
    given = os.environ.get(CACHE_VARIABLE)
    if given:
        return Path(given) / "rechecked"
    try:
        from platformdirs import user_cache_dir
    except ImportError:
        return None
    return Path(user_cache_dir("xlrally", appauthor=False)) / "rechecked"


def holds(rules: str, package: str, note: str) -> bool:
    """Whether these ``rules`` found that they would write the Standings of the workbook whose
    package digest is ``package`` and whose record is ``note``, as it is."""
    top = folder()
    if top is None or not (_DIGEST.fullmatch(rules) and _DIGEST.fullmatch(package)):
        return False
    try:
        return (top / rules / package).read_text(encoding="utf-8") == note
    except (OSError, ValueError):  # none, unreadable, not text: a full sync
        return False


def remember(rules: str, package: str, note: str) -> None:
    """Remember that these ``rules`` write the Standings of that workbook as they are (see
    :func:`holds`); then forget what other rules remembered. Silent when it cannot."""
    top = folder()
    if top is None or not (_DIGEST.fullmatch(rules) and _DIGEST.fullmatch(package)):
        return
    here = top / rules
    written: Path | None = None
    try:
        here.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=here, prefix=".", suffix=".tmp", delete=False
        ) as entry:
            written = Path(entry.name)
            entry.write(note)
        os.replace(written, here / package)  # whole or not at all, beside another worker
        written = None
        others = [f for f in top.iterdir() if f.name != rules and _DIGEST.fullmatch(f.name)]
    except OSError:
        return
    finally:
        if written is not None:
            with contextlib.suppress(OSError):
                written.unlink()
    for other in others:
        shutil.rmtree(other, ignore_errors=True)
