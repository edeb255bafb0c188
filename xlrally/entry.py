"""The ``xlrally`` command's entry point: ``xlrally sync FILE`` of a workbook unchanged since
xlrally last wrote it is answered here, before the command line (:mod:`xlrally.cli`, click)
is loaded; everything else goes to the command line.

The answer is the command line's own, word for word: any warning the last sync counted, then
``FILE: unchanged (N players, M events)``, exit code 0. It tidies up as a sync does first:
the temporary files of an abandoned write beside the workbook (a batch's first step) and the
result folders of runs killed outright (each isolated run's first step). A file that must be
synced, a folder, an option or more than one file: the command line does it all, as before.
At 10,000 results the answer took 80 ms of CPU, 0.31x a full sync, most of it loading click
and the package; here it loads the standard library and a few small modules (issue 33,
docs/performance.md).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


def main() -> None:
    """Run ``xlrally`` with the arguments it was given."""
    if not _answered(sys.argv[1:]):
        from xlrally.cli import main as command_line

        command_line()


def _answered(arguments: list[str]) -> bool:
    """Whether ``arguments`` are ``sync FILE`` of an unchanged workbook, now answered."""
    if len(arguments) != 2 or arguments[0] != "sync" or arguments[1].startswith("-"):
        return False
    from xlrally.app.stops import SYNC_INTERRUPTED, stop_on_sigterm

    try:
        with stop_on_sigterm():  # as the command line's sync
            return _answer(Path(arguments[1]))
    except KeyboardInterrupt:
        print(SYNC_INTERRUPTED, file=sys.stderr)
        sys.exit(130)


def _answer(path: Path) -> bool:
    """Tidy up beside ``path`` and in the temporary folder as a sync does, then print what the
    command line would of an unchanged file; False (nothing printed) when it is not one."""
    from xlrally.app.result_folders import remove_abandoned
    from xlrally.app.unchanged import last_sync
    from xlrally.core.words import plural
    from xlrally.formats.shown import shown_warnings
    from xlrally.formats.terminal import visible
    from xlrally.ooxml.temporaries import clean_stale_temporaries

    clean_stale_temporaries(path.resolve().parent)
    last = last_sync(path)
    if last is None:
        return False
    if hasattr(os, "fork"):  # the sweep each isolated run makes first, where runs are forked
        remove_abandoned(Path(tempfile.gettempdir()))
    summary = f"{plural(last.players, 'player')}, {plural(last.events, 'event')}"
    lines = [(f"Warning: {path}: {w}", sys.stderr) for w in shown_warnings(last.warnings)]
    lines.append((f"{path}: unchanged ({summary})", sys.stdout))
    shown = [(visible(line), stream) for line, stream in lines]
    if not all(_printable(line, stream.encoding) for line, stream in shown):
        return False  # click has its own way with a stream that cannot take the name
    for line, stream in shown:
        print(line, file=stream, flush=True)
    return True


def _printable(line: str, encoding: str | None) -> bool:
    """Whether a stream of this encoding can take ``line`` as it is (a file name in an ASCII
    terminal may not)."""
    try:
        line.encode(encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True
