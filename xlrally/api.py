"""xlrally for Python programs: every verb of the command line as a function (the command line
is one client of this module, as sqlite-utils' is of its library).

The verbs: :func:`new_league`, :func:`sync` (and :func:`sync_all` for many files on every
core), :func:`import_results`, :func:`read_standings` (and :func:`read_shown`, which runs it
as the command line does, in a memory-limited child), :func:`check`, :func:`publish`;
:func:`write_button_module`, :func:`write_lite`, :func:`libreoffice_extension`. The outputs:
:func:`as_json`, :func:`as_json_text`, :func:`as_csv`, :func:`as_text`, :func:`as_page`.

Errors are the user's words, with the file first: a workbook that cannot be read or scored
raises :class:`~xlrally.core.errors.FileProblems` (``messages``: one ``file: Sheet!Cell:
problem`` line each); :func:`sync` never raises for a bad file (its outcome lists the
problems, and the file is left as it was). See the README's "Python" section.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import importlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from xlrally.app.batch import BatchInterrupted, run_batch
from xlrally.app.isolate import stop_on_sigterm
from xlrally.app.sync import SyncOutcome, last_saved, read_isolated, sync_file
from xlrally.app.sync import read_standings as read_file
from xlrally.core.errors import FileProblems, NewBookError, XlrallyError
from xlrally.formats.top import TOP

if TYPE_CHECKING:
    from xlrally.app.importer import ImportInterrupted, ImportOutcome
    from xlrally.core.standings import Standings
    from xlrally.core.systems import SYSTEMS
    from xlrally.formats.page import standings_page as as_page
    from xlrally.formats.report import as_csv, as_json
    from xlrally.formats.report import as_table as as_text
    from xlrally.formats.report import json_text as as_json_text
    from xlrally.formats.shown import shown_warnings

# The code behind each verb is imported when the verb is first called, and the names below
# when first asked for (issue 33): `xlrally sync` of an unchanged file, which needs none of
# it, then loads only the look at the file.
_LAZY: dict[str, tuple[str, str]] = {
    "ImportInterrupted": ("xlrally.app.importer", "ImportInterrupted"),
    "ImportOutcome": ("xlrally.app.importer", "ImportOutcome"),
    "SYSTEMS": ("xlrally.core.systems", "SYSTEMS"),
    "Standings": ("xlrally.core.standings", "Standings"),
    "as_csv": ("xlrally.formats.report", "as_csv"),
    "as_json": ("xlrally.formats.report", "as_json"),
    "as_json_text": ("xlrally.formats.report", "json_text"),
    "as_page": ("xlrally.formats.page", "standings_page"),
    "as_text": ("xlrally.formats.report", "as_table"),
    "shown_warnings": ("xlrally.formats.shown", "shown_warnings"),
}


def __getattr__(name: str) -> Any:
    """A name of :data:`_LAZY`, imported from its module when first asked for (and kept)."""
    if name in _LAZY:
        module, attribute = _LAZY[name]
        value = getattr(importlib.import_module(module), attribute)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'xlrally.api' has no attribute {name!r}")


__all__ = [
    "SYSTEMS",
    "TOP",
    "WORKBOOK_SUFFIXES",
    "BatchInterrupted",
    "Checked",
    "FileProblems",
    "ImportInterrupted",
    "ImportOutcome",
    "NewBookError",
    "Standings",
    "SyncOutcome",
    "XlrallyError",
    "as_csv",
    "as_json",
    "as_json_text",
    "as_page",
    "as_text",
    "check",
    "import_results",
    "libreoffice_extension",
    "new_league",
    "publish",
    "read_shown",
    "read_standings",
    "shown_warnings",
    "stop_on_sigterm",
    "sync",
    "sync_all",
    "workbooks",
    "write_button_module",
    "write_lite",
]

T = TypeVar("T")

WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")


def new_league(path: str | Path, system: str = "rally") -> list[Path]:
    """Make a new league workbook at ``path`` with the system's example league (a ``.xlsm``
    gets a Refresh standings button and, beside it, the module the button runs); returns what
    was written. Raises :class:`NewBookError`."""
    from xlrally.app.newbook import make_new

    return make_new(Path(path), system)


def write_button_module(path: str | Path) -> Path:
    """Write the module the Refresh standings button of ``path`` runs (a copied or renamed
    ``.xlsm``); returns it. Raises :class:`NewBookError` when the workbook has no button or
    cannot have one that works, FileExistsError when the module is there already, OSError
    when it cannot be written."""
    from xlrally.app.newbook import has_refresh_button, write_companion

    path = Path(path)
    if not has_refresh_button(path):
        msg = "has no Refresh standings button (make one with `xlrally new NAME.xlsm`)"
        raise NewBookError(msg)
    module = path.with_suffix(".py")
    if module.exists():
        raise FileExistsError(module)
    return write_companion(path)


def write_lite(folder: str | Path, requirement: str | None = None) -> list[Path]:
    """Write main.py and requirements.txt for xlwings Lite into ``folder``
    (:func:`xlrally.excel.lite.write_lite`)."""
    from xlrally.excel.lite import write_lite as write

    return write(Path(folder), requirement)


def libreoffice_extension(out: str | Path = "xlrally.oxt") -> Path:
    """Write the LibreOffice extension to ``out`` (:func:`xlrally.calc.extension.build`)."""
    from xlrally.calc.extension import build

    build(Path(out))
    return Path(out)


def workbooks(paths: Iterable[str | Path], recursive: bool = False) -> Iterator[Path]:
    """The workbook files named, and those in the folders named (``recursive``: and in their
    subfolders), in natural order (club_2 before club_10), skipping Excel's ``~$`` files."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found = path.rglob("*") if recursive else path.iterdir()
            for child in sorted(found, key=_natural):
                if (
                    child.is_file()
                    and child.suffix.lower() in WORKBOOK_SUFFIXES
                    and not child.name.startswith(("~$", "."))
                ):
                    yield child
        else:
            yield path


def _natural(path: Path) -> tuple[tuple[int, str | int], ...]:
    """Sort key that puts club_2 before club_10 (numbers compared as numbers)."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part.casefold())
        for part in re.split(r"(\d+)", str(path))
        if part
    )


def sync(path: str | Path) -> SyncOutcome:
    """Compute the workbook's standings and write its Standings sheet, in place (only that
    sheet and what must change with it; the file is verified before it replaces the old
    one). Never raises for a bad file: ``problems`` lists what is wrong, and the file is left
    as it was. A file unchanged since xlrally wrote it is not read again."""
    return sync_file(path)


def sync_all(
    paths: Sequence[str | Path], jobs: int | None = None, progress: bool = False
) -> list[SyncOutcome]:
    """:func:`sync` for many files, on every core (``jobs``: at most this many at once), each
    in a memory-limited worker where the system can fork; outcomes in the order given.
    Raises :class:`BatchInterrupted` on Ctrl-C (its ``outcomes`` say what became of each)."""
    return run_batch([Path(p) for p in paths], jobs, progress)


def import_results(
    path: str | Path,
    source: str | Path,
    *,
    event: str | None = None,
    date: dt.date | None = None,
    rounds: int | None = None,
    columns: Mapping[str, str] | None = None,
    replace: bool = False,
    season: str | None = None,
    data: bytes | None = None,
) -> ImportOutcome:
    """Import one event's results from ``source`` (a FIDE TRF file or a table: CSV, or text
    pasted from a page; ``data``: its bytes, when it is not a file) into the workbook and
    write its standings, in one atomic replace. ``columns`` maps a table's own headers to the
    workbook's (``{"Pos": "Rank"}``); ``season``: the event's season, when events name seasons
    (default: found from its date). Raises :class:`~xlrally.core.errors.XlrallyError`
    (nothing written) for a bad file, a workbook with problems, or an event that has other
    results already (unless ``replace``); :class:`ImportInterrupted` on Ctrl-C (``written``
    says whether the new workbook was in place already).
    """
    from xlrally.app.importer import Options, import_file

    options = Options(event, date, rounds, dict(columns or {}), replace, season)
    return import_file(path, source, options, data)


def read_standings(
    path: str | Path,
    *,
    as_of: dt.date | None = None,
    season: str | None = None,
    section: str | None = None,
) -> Standings:
    """The standings of a workbook, writing nothing: of the events up to ``as_of``, of one
    ``season`` (when events name seasons: default the Settings', else the latest), of one
    ``section``'s players ranked among themselves. Raises :class:`FileProblems`."""
    return in_section(read_file(path, as_of, season), section, path)


def read_shown(
    path: str | Path,
    show: Callable[[Standings], T],
    *,
    command: str = "standings",
    as_of: dt.date | None = None,
    season: str | None = None,
    section: str | None = None,
) -> T:
    """``show(read_standings(path, ...))``, run as the command line runs it: where the system
    can fork, in a memory-limited child, so that reading costs no more than a sync; only what
    ``show`` returns comes back. ``command`` is the one named if the child is stopped.
    Raises :class:`FileProblems`, and KeyboardInterrupt on Ctrl-C."""
    return read_isolated(
        path, lambda table: show(in_section(table, section, path)), command, as_of, season
    )


def in_section(standings: Standings, section: str | None, path: str | Path) -> Standings:
    """The standings of ``section`` (None: all of them); a section the Players sheet does
    not name raises :class:`FileProblems` listing those it does."""
    if section is None:
        return standings
    from xlrally.core.names import norm
    from xlrally.core.sections import of_section, section_names

    names = section_names(standings)
    if norm(section) not in {norm(name) for name in names}:
        listed = ", ".join(names) or "none (the Players sheet's Section column names them)"
        raise FileProblems(Path(path), [f"no section {section!r}; the sections are: {listed}"])
    return of_section(standings, section)


@dataclass(frozen=True)
class Checked:
    """What :func:`check` found in a workbook that has no problems."""

    players: int
    events: int
    warnings: tuple[str, ...]
    """Every warning about the league."""
    newcomers: tuple[str, ...]
    """Each scored event's first-timers (``new in W2: Cy``): a misspelt name shows there."""
    button: tuple[str, ...] = ()
    """What would stop its Refresh standings button from running (a renamed copy)."""


def check(path: str | Path) -> Checked:
    """Every problem of the workbook (raised as :class:`FileProblems`, each at its cell) or
    what it holds and the warnings, writing nothing (run as :func:`read_shown` runs)."""

    from xlrally.app.newbook import button_warnings
    from xlrally.formats.report import newcomers

    def found(table: Standings) -> Checked:
        news = tuple(newcomers(table))
        return Checked(len(table.rows), len(table.held), table.warnings, news)

    checked = read_shown(path, found, command="check")
    return dataclasses.replace(checked, button=tuple(button_warnings(Path(path))))


def publish(
    path: str | Path,
    output: str | Path | None = None,
    *,
    as_of: dt.date | None = None,
    season: str | None = None,
    top: int | None = TOP,
) -> Path:
    """Write the standings as one self-contained HTML page (``output``: default ``path``
    with ``.html``; ``top``: the players shown in full, None everyone); returns it. Raises
    :class:`FileProblems`, OSError when the page cannot be written."""
    from xlrally.formats.page import standings_page

    updated = last_saved(path)
    page = read_shown(
        path,
        lambda table: standings_page(table, updated, top),
        command="publish",
        as_of=as_of,
        season=season,
    )
    target = Path(output) if output is not None else Path(path).with_suffix(".html")
    target.write_text(page, encoding="utf-8")
    return target
