"""Whether a workbook is as xlrally's last write left it, and what that sync found: from the
zip's directory and the record kept in a custom document property, without reading a sheet.

Unchanged means every part of the package has the name, size and CRC-32 that xlrally's last
write gave it (the digest recorded then, :data:`INPUTS`), and the very same rules wrote it (the
digest of xlrally's code, :func:`rules`). Any edit, a new sheet, a save by Excel or
LibreOffice (which rewrite every part) or another xlrally means a full sync. A copy of an older
synced file is its own consistent whole: its Standings are those of its own results.

This module loads only the standard library and :mod:`xlrally.ooxml.directory`, so that the
command line answers ``xlrally sync FILE`` for an unchanged file (:mod:`xlrally.entry`) before
click or any of the reading, scoring and writing code is loaded (issue 33: at 10,000 results
those imports were most of the answer's time).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import zipfile
from pathlib import Path

from xlrally.core.version import __version__
from xlrally.core.words import plural
from xlrally.ooxml.directory import custom_part, digest_but, property_text

TYPE_CHECKING = False  # as typing's, without loading typing (see xlrally/__init__.py)
if TYPE_CHECKING:
    from xlrally.core.standings import Standings

INPUTS = "xlrally inputs"
"""The custom document property recording the package digest of the file xlrally wrote and
what that sync found (so that a sync of the unchanged file can be skipped)."""


class LastSync:
    """What the sync that left the file as it is found: the league's system, its players and
    events, and a warning when it had warnings (their count; ``xlrally check`` lists them). A
    plain class: a named tuple or a dataclass would load ``typing`` or ``inspect`` here."""

    __slots__ = ("events", "players", "system", "warnings")

    def __init__(self, system: str, players: int, events: int, warnings: tuple[str, ...]) -> None:
        self.system = system
        self.players = players
        self.events = events
        self.warnings = warnings


@functools.cache
def rules() -> str | None:
    """A digest of the exact rules that compute and write the Standings: xlrally's own code,
    every module of the package (the league's settings are in the workbook, whose digest the
    record holds too). The version string alone named no rules: it was ``0.1.0`` for every
    commit, and an upgrade that changed a result left the old standings "unchanged" (issue 32).
    None when the code cannot be read (then nothing is skipped)."""
    return code_digest(Path(__file__).resolve().parents[1])


def code_digest(package: Path) -> str | None:
    """SHA-256 of the version, then of each module's path (relative, ``/``-separated) and
    bytes, folder by folder in name order: any edit, new, removed or renamed module changes
    it; the bytecode Python caches (``__pycache__``) does not. ``os.walk``, not
    ``Path.rglob``: 1 ms against 2.5 ms for the package's 150 modules, in the answer to an
    unchanged file (issue 33). None when a module cannot be read."""
    digest = hashlib.sha256(__version__.encode())
    try:
        for folder, subfolders, files in os.walk(package, onerror=_raise):
            subfolders[:] = sorted(f for f in subfolders if f != "__pycache__")
            where = os.path.relpath(folder, package).replace(os.sep, "/")
            prefix = "" if where == "." else f"{where}/"
            for name in sorted(files):
                if name.endswith(".py"):
                    with open(os.path.join(folder, name), "rb") as module:
                        digest.update(f"{prefix}{name}".encode() + b"\0")
                        digest.update(module.read() + b"\0")
    except OSError:
        return None
    return digest.hexdigest()


def _raise(error: OSError) -> None:
    """``os.walk``'s ``onerror``: a folder that cannot be listed is not skipped silently."""
    raise error


def stamp(standings: Standings) -> str:
    """What a sync records beside the digest of the file it wrote (custom property
    :data:`INPUTS`): the rules that computed it (:func:`rules`), and enough for the summary of
    a skipped sync."""
    facts = {
        "xlrally": __version__,
        "rules": rules(),
        "system": standings.system,
        "players": len(standings.rows),
        "events": len(standings.held),
        "warnings": len(standings.warnings),
    }
    return json.dumps(facts, separators=(",", ":"))


def record_as_written(package: zipfile.ZipFile) -> tuple[str, str, dict[str, object]] | None:
    """The last sync's record (:func:`stamp`): the package's digest it holds, its note as
    stored and as read, when the package is still as that sync wrote it (the digest of its
    parts but the record's own unchanged); None when there is none, it is unreadable or the
    package changed since. A bookkeeping part that cannot be read is a :class:`ValueError`
    (:mod:`~xlrally.ooxml.directory`)."""
    part = custom_part(package)
    stored = property_text(package, part, INPUTS) if part is not None else None
    if part is None or stored is None:
        return None
    written, _, note = stored.partition(" ")
    if written != digest_but(package, part):
        return None
    try:
        facts = json.loads(note)
    except ValueError:
        return None
    return (written, note, facts) if isinstance(facts, dict) else None


def recorded(package: zipfile.ZipFile) -> dict[str, object] | None:
    """What the last sync recorded, when the package is still as that sync wrote it and these
    very rules wrote it (this xlrally's code, :func:`rules`), or found since that they write
    its Standings as they are (:mod:`~xlrally.app.rechecked`); else None."""
    record = record_as_written(package)
    if record is None:
        return None
    written, note, facts = record
    current = rules()
    if current is None:
        return None
    if facts.get("xlrally") == __version__ and facts.get("rules") == current:
        return facts
    from xlrally.app.rechecked import holds  # only for a file other rules wrote

    return facts if holds(current, written, note) else None


def remember_held(written: str, note: str) -> None:
    """Remember, outside the file, that these rules write the Standings of the file whose
    package digest is ``written`` and whose record (other rules') is ``note``, as it holds
    them: its next sync is then skipped (:mod:`~xlrally.app.rechecked`)."""
    current = rules()
    if current is not None:
        from xlrally.app.rechecked import remember

        remember(current, written, note)


def last_sync(path: str | Path) -> LastSync | None:
    """What the last sync of the file found, when nothing changed since (see the module
    docstring); None when it must be synced (or cannot be looked at: the sync says why)."""
    path = Path(path)
    try:
        if not path.is_file():
            return None
        with zipfile.ZipFile(path) as package:
            facts = recorded(package)
    except (OSError, ValueError, zipfile.BadZipFile):
        return None
    if facts is None:
        return None
    system = facts.get("system")
    keys = ("players", "events", "warnings")
    numbers = [n for k in keys if type(n := facts.get(k)) is int and n >= 0]
    if not isinstance(system, str) or len(numbers) != len(keys):
        return None
    players, events, warned = numbers
    warnings: tuple[str, ...] = ()
    if warned:
        warnings = (
            f"{plural(warned, 'warning', grouped=True)} at its last sync, unchanged since: "
            f"`xlrally check {path}` lists them",
        )
    return LastSync(system, players, events, warnings)
