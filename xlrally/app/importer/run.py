"""``import_file``: the import run as a sync runs, in a memory-limited child process where the
system can fork (:mod:`xlrally.app.isolate`), so that it costs what a sync costs and a reader
that crashes on a hostile sheet takes only the child with it.

Stops: Ctrl-C or SIGTERM (with :func:`~xlrally.app.isolate.stop_on_sigterm`, as the command
line sets it) interrupt the child, which removes its temporary file; the workbook is the old
one, unless the stop came after the new one replaced it (:class:`ImportInterrupted` says
which). A full disk or another write failure is an error like any other, and the old file is
left as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from xlrally.app import isolate
from xlrally.app.importer.incoming import Options
from xlrally.app.importer.report import ImportOutcome
from xlrally.app.importer.write import import_into
from xlrally.app.isolate import Died
from xlrally.app.sync import memory_for, why_died
from xlrally.core.errors import XlrallyError
from xlrally.ooxml.package import file_identity
from xlrally.ooxml.writer import TEMP_SUFFIX, refuse_to_replace, temp_prefix


class ImportInterrupted(Exception):
    """Ctrl-C or SIGTERM during an import; ``written`` says whether the new workbook had
    replaced the old one already."""

    def __init__(self, written: bool) -> None:
        super().__init__("interrupted")
        self.written = written


@dataclass(frozen=True)
class _Task:
    path: Path
    source: str
    data: bytes
    options: Options


def _failed(error: BaseException) -> str:
    """A failure in the user's words (as a sync says it); anything else is raised again."""
    if isinstance(error, XlrallyError):
        return str(error)
    if isinstance(error, MemoryError):
        return "ran out of memory reading the workbook: is a sheet far larger than its data?"
    if isinstance(error, OSError):  # disk full, folder not writable ...
        return f"cannot write the workbook: {error.strerror or error}; it was left as it was"
    raise error


def _in_child(task: _Task) -> tuple[ImportOutcome | None, str]:
    isolate.limit_memory(memory_for(task.path))
    try:
        outcome = import_into(
            task.path, task.source, task.data, task.options, check_area=False, keep=isolate.KEPT
        )
        return outcome, ""
    except (XlrallyError, MemoryError, OSError) as error:
        return None, _failed(error)


def import_file(
    path: str | Path, source: str | Path, options: Options | None = None, data: bytes | None = None
) -> ImportOutcome:
    """Import the event in ``source`` (``data``: its bytes, when it is not a file) into the
    workbook ``path`` and write its standings, in one commit. Raises XlrallyError (nothing
    written) for a bad file, a workbook with problems, an event that already has other
    results, or a failed write; :class:`ImportInterrupted` on Ctrl-C or SIGTERM."""
    options = options or Options()
    path = Path(path)
    if data is None:
        try:
            data = Path(source).read_bytes()
        except OSError as error:
            raise XlrallyError(f"{source}: cannot read the file ({error.strerror})") from None
    refuse_to_replace(path)
    task = _Task(path, str(source), data, options)
    if not isolate.AVAILABLE:
        try:
            return import_into(path, str(source), data, options)
        except (MemoryError, OSError) as error:
            raise XlrallyError(_failed(error)) from None
        except KeyboardInterrupt:
            raise ImportInterrupted(written=False) from None
    before = file_identity(path)
    try:
        [result] = isolate.run_isolated([task], _in_child)
    except isolate.Interrupted:
        _tidy(path)
        raise ImportInterrupted(written=file_identity(path) != before) from None
    if isinstance(result, Died):
        _tidy(path)
        raise XlrallyError("; ".join(why_died(path, result, "import").messages)) from None
    outcome, problem = result
    if outcome is None:
        raise XlrallyError(problem)
    return outcome


def _tidy(path: Path) -> None:
    """Remove the temporary file a child stopped from outside may have left."""
    real = path.resolve()
    for leftover in real.parent.glob(f"{temp_prefix(real)}*{TEMP_SUFFIX}"):
        leftover.unlink(missing_ok=True)
