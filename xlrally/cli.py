"""The ``xlrally`` command line: new, sync, import, standings, check, publish, button, lite,
libreoffice.

A thin layer, one client of the Python API (:mod:`xlrally.api`, all of xlrally it calls): it
takes the arguments, calls the verb, and turns problems into
``Error: <file>: <sheet>!<cell>: <problem>`` lines with exit code 1. The API is imported inside
the commands so that ``xlrally --help`` starts fast.
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from xlrally.app.stops import SYNC_INTERRUPTED
from xlrally.core.words import plural
from xlrally.formats.terminal import visible

if TYPE_CHECKING:
    from xlrally.api import ImportOutcome, Standings, SyncOutcome


def echo(message: str, *, err: bool = False, nl: bool = True) -> None:
    """Print a line for a person: its control characters shown as escapes (``\\x1b``), so a
    name or a file name read from a workbook cannot drive the terminal
    (:mod:`xlrally.formats.terminal`)."""
    click.echo(visible(message), err=err, nl=nl)


def fail(lines: Iterable[str]) -> NoReturn:
    """Print each line as ``Error: ...`` on stderr and exit with code 1."""
    for line in lines:
        echo(f"Error: {line}", err=True)
    sys.exit(1)


def workbook_files(paths: Iterable[str], recursive: bool) -> Iterator[Path]:
    """The workbook files named, and those in the folders named (:func:`xlrally.api.workbooks`)."""
    from xlrally.api import workbooks

    return workbooks(paths, recursive)


def _parse_date(_ctx: object, _param: object, value: str | None) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a date like 2026-05-31") from None


AS_OF = click.option(
    "--as-of",
    callback=_parse_date,
    metavar="DATE",
    help="Only events up to this date (YYYY-MM-DD) count.",
)
SEASON = click.option(
    "--season",
    metavar="NAME",
    help="The season to show, when events name seasons (default: Settings', else the latest).",
)
RECURSIVE = click.option(
    "--recursive", "-r", is_flag=True, help="Look for workbooks in subfolders too."
)
"""Options of more than one command."""


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="xlrally")
def cli() -> None:
    """League, rally and rating standings for workbooks kept in Excel.

    Results go in the workbook's sheets; xlrally scores them and writes the Standings sheet.
    Systems: rally (chess Rapidplay Rally), absolute, reverse, neau (poker league points),
    dippouch (Dip Pouch rating for Diplomacy).
    """


class SystemChoice(click.Choice):  # type: ignore[type-arg]  # generic from click 8.2
    """The systems of the registry (:data:`xlrally.api.SYSTEMS`), as they are when
    the command runs (a system registered later is offered too)."""

    def __init__(self) -> None:
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        from xlrally.api import SYSTEMS

        return tuple(SYSTEMS)

    @choices.setter
    def choices(self, _value: object) -> None:
        """Set by click's own constructor; the registry decides."""


@cli.command()
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--system",
    "-s",
    type=SystemChoice(),
    default="rally",
    show_default=True,
    help="Scoring system of the new league.",
)
@click.option("--force", is_flag=True, help="Overwrite PATH if it exists.")
def new(path: Path, system: str, force: bool) -> None:
    """Make a new league workbook at PATH with example data.

    A .xlsm PATH gets a "Refresh standings" button (needs xlwings in Excel) and a small
    Python module of the same name beside it, which the button runs. A .ods PATH is the
    workbook for LibreOffice Calc, with a button for the xlrally extension (made by
    LibreOffice: it must be installed).
    """
    from xlrally.api import NewBookError, new_league

    if path.exists() and not force:
        fail([f"{path}: already exists (use --force to overwrite)"])
    try:
        made = new_league(path, system)
    except NewBookError as error:
        fail([f"{path}: {error}"])
    for item in made:
        echo(f"wrote {item}")


@cli.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def button(path: Path) -> None:
    """Write the Python module the "Refresh standings" button of PATH runs.

    For a .xlsm made by `xlrally new` and then renamed or copied: its button looks for a
    module named after the workbook, beside it.
    """
    from xlrally.api import NewBookError, write_button_module

    module = path.with_suffix(".py")
    try:
        write_button_module(path)
    except FileExistsError:
        fail([f"{module}: already exists; the button of {path.name} runs it"])
    except NewBookError as error:
        fail([f"{path}: {error}"])
    except OSError as error:
        fail([f"{module}: cannot write it: {error.strerror}"])
    echo(f"wrote {module}")


@cli.command()
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--requirement",
    metavar="LINE",
    help="Install xlrally in Lite from this requirements line (`xlrally` once it is on the "
    "package index, or the https address of its wheel on a server that sends CORS headers) "
    "instead of carrying it in main.py.",
)
def lite(folder: Path, requirement: str | None) -> None:
    """Write main.py and requirements.txt for xlwings Lite into FOLDER.

    Paste both into the xlwings Lite editor of a league workbook: the Excel functions and the
    refresh_standings script then work in Excel on Windows, macOS and the web.
    """
    from xlrally.api import write_lite

    try:
        written = write_lite(folder, requirement)
    except OSError as error:
        fail([f"{folder}: cannot write it: {error.strerror}"])
    for item in written:
        echo(f"wrote {item}")


@cli.command()
@click.argument("out", required=False, default="xlrally.oxt", type=click.Path(path_type=Path))
def libreoffice(out: Path) -> None:
    """Write the LibreOffice extension to OUT (default xlrally.oxt).

    Built from this installed xlrally: the Excel functions for Calc and Tools > Add-Ons >
    Refresh standings. Add it in LibreOffice with Tools > Extension Manager > Add
    (docs/libreoffice.md).
    """
    from xlrally.api import libreoffice_extension

    try:
        libreoffice_extension(out)
    except OSError as error:
        fail([f"{out}: cannot write it: {error.strerror}"])
    echo(f"wrote {out}")


def _failure(outcome: SyncOutcome) -> str:
    if not outcome.problems:
        return outcome.result
    return f"failed ({plural(len(outcome.problems), 'problem')})"


def _totals(outcomes: list[SyncOutcome]) -> str:
    """``26 files: 20 written, 2 unchanged, 4 failed`` (each kind that occurred)."""
    kinds = ("written", "unchanged", "failed", "interrupted", "not started")
    counts = [(kind, sum(o.result == kind for o in outcomes)) for kind in kinds]
    shown = ", ".join(f"{count} {kind}" for kind, count in counts if count)
    return f"{plural(len(outcomes), 'file')}: {shown}"


def _summary(outcomes: list[SyncOutcome]) -> None:
    """The batch summary: a rich table on a terminal, aligned plain text otherwise (logs)."""
    header = ("File", "System", "Players", "Events", "Result")
    rows = [
        (str(o.path), o.system, str(o.players), str(o.events), o.result)
        if o.ok and o.system
        else (str(o.path), "", "", "", _failure(o))
        for o in outcomes
    ]
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        table = Table(title="xlrally sync")
        for column in header:
            table.add_column(column, overflow="fold")
        for row in rows:
            table.add_row(*(Text(visible(cell)) for cell in row))
        Console().print(table)
        Console().print(_totals(outcomes))
        return
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        echo("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    echo(_totals(outcomes))


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@RECURSIVE
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1, 64),
    default=None,
    help="Files synced at once (default: the number of cores).",
)
def sync(paths: tuple[str, ...], recursive: bool, jobs: int | None) -> None:
    """Compute standings and write the Standings sheet into each workbook, in place.

    PATHS are workbook files or folders of them. Only the Standings sheet (and what must
    change with it) is rewritten; everything else in the file stays byte-for-byte. A file
    whose standings did not change is not written at all. A bad file is reported and left
    untouched, and the others are still synced; the exit code is 1 if any file failed.
    """
    try:  # Ctrl-C or SIGTERM at any moment: exit 130 (the batch's own stop names each file's fate)
        from xlrally.api import stop_on_sigterm

        with stop_on_sigterm():
            _sync(paths, recursive, jobs)
    except KeyboardInterrupt:  # before or after the batch
        echo(SYNC_INTERRUPTED, err=True)
        sys.exit(130)


def _sync(paths: tuple[str, ...], recursive: bool, jobs: int | None) -> None:
    from xlrally.api import BatchInterrupted, shown_warnings, sync_all

    files = list(dict.fromkeys(workbook_files(paths, recursive)))  # each file once
    if not files:
        fail(["no workbook files (.xlsx, .xlsm) found"])
    try:
        outcomes = sync_all(files, jobs, progress=sys.stderr.isatty() and len(files) > 1)
    except BatchInterrupted as stop:
        _summary(stop.outcomes)
        written = sum(o.result == "written" for o in stop.outcomes)
        echo(
            f"Interrupted: {plural(written, 'file')} written before the stop; the others are "
            "unchanged (no partial file is left).",
            err=True,
        )
        sys.exit(130)
    for o in outcomes:
        for warning in shown_warnings(o.warnings):
            echo(f"Warning: {o.path}: {warning}", err=True)
    if len(outcomes) == 1 and outcomes[0].ok:
        o = outcomes[0]
        echo(f"{o.path}: {o.result} ({plural(o.players, 'player')}, {plural(o.events, 'event')})")
    elif len(outcomes) > 1:
        _summary(outcomes)
    failed = [line for o in outcomes for line in o.problems]
    if failed:
        fail(failed)


def _mapping(_ctx: object, _param: object, values: tuple[str, ...]) -> dict[str, str]:
    found = {}
    for value in values:
        header, sep, column = value.partition("=")
        if not sep or not header.strip() or not column.strip():
            raise click.BadParameter(f"{value!r} is not HEADER=COLUMN (e.g. Pos=Rank)")
        found[header.strip()] = column.strip()
    return found


@cli.command(name="import")
@click.argument("league", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("file", type=click.Path(allow_dash=True, dir_okay=False))
@click.option("--event", metavar="NAME", help="The event's name (default: the file's).")
@click.option("--date", callback=_parse_date, metavar="DATE", help="The event's date (YYYY-MM-DD).")
@click.option(
    "--rounds",
    type=click.IntRange(1, 99),
    help="The event's rounds (default: the file's); to score an unfinished TRF event.",
)
@click.option(
    "--column",
    "columns",
    multiple=True,
    callback=_mapping,
    metavar="HEADER=COLUMN",
    help="A table's header that names a workbook column otherwise (e.g. Pos=Rank); repeat.",
)
@click.option("--replace", is_flag=True, help="Replace the event's results if it has some.")
@click.option(
    "--season",
    metavar="NAME",
    help="The event's season, when events name seasons (default: found from its date).",
)
def import_(
    league: Path,
    file: str,
    event: str | None,
    date: dt.date | None,
    rounds: int | None,
    columns: dict[str, str],
    replace: bool,
    season: str | None,
) -> None:
    """Import one event's results from FILE into the LEAGUE workbook, with its standings.

    FILE is a FIDE TRF file from a chess pairing program (Swiss-Manager, Vega, Tornelo,
    Lichess ...) or a table: CSV from a poker timer or tournament tool, or text pasted from a
    web page or spreadsheet (- reads it from standard input). The results are added to the
    Results sheet (or the event's own sheet), the event to Events, and the Standings written,
    in one atomic replace; nothing else in the workbook changes.
    """
    from xlrally.api import ImportInterrupted, XlrallyError, import_results, stop_on_sigterm

    data = sys.stdin.buffer.read() if file == "-" else None
    source = "standard input" if file == "-" else file
    try:
        with stop_on_sigterm():
            outcome = import_results(
                league,
                source,
                event=event,
                date=date,
                rounds=rounds,
                columns=columns,
                replace=replace,
                season=season,
                data=data,
            )
    except XlrallyError as error:
        fail([f"{league}: {error}"])
    except (ImportInterrupted, KeyboardInterrupt) as stop:
        if isinstance(stop, ImportInterrupted) and stop.written:
            said = "the import had been written before the stop (the workbook is the new one)"
        else:
            said = "the workbook was left as it was (no temporary file is left)"
        echo(f"Interrupted: {league}: {said}.", err=True)
        sys.exit(130)
    _imported(league, outcome)


def _imported(league: Path, outcome: ImportOutcome) -> None:
    """What an import did: its notes, the results written, new players, the standings."""
    from xlrally.api import shown_warnings

    for note in outcome.notes:
        echo(f"Note: {note}", err=True)
    if outcome.changed:
        echo(f"{league}: imported {plural(outcome.results, 'result')} of {outcome.event!r}")
    if outcome.new_players:
        echo(f"New players: {', '.join(outcome.new_players)}")
    sync = outcome.sync
    if sync is not None:
        for warning in shown_warnings(sync.warnings):
            echo(f"Warning: {league}: {warning}", err=True)
        echo(
            f"{league}: standings {sync.result} ({plural(sync.players, 'player')}, "
            f"{plural(sync.events, 'event')})"
        )


@cli.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(["table", "csv", "json"]),
    default="table",
    show_default=True,
    help="Output format.",
)
@AS_OF
@SEASON
@click.option(
    "--section",
    metavar="NAME",
    help="Only the players of this section (Players sheet), ranked among themselves.",
)
def standings(
    path: Path, fmt: str, as_of: dt.date | None, season: str | None, section: str | None
) -> None:
    """Print the standings of a workbook without writing anything."""
    from xlrally.api import FileProblems, as_csv, as_json_text, as_text, read_shown

    def shown(table: Standings) -> str:
        if fmt == "json":
            return as_json_text(table) + "\n"
        if fmt == "csv":
            return as_csv(table)
        return as_text(table) + "\n"

    try:
        text = read_shown(path, shown, as_of=as_of, season=season, section=section)
    except FileProblems as error:
        fail(error.messages)
    if fmt == "table" or sys.stdout.isatty():
        echo(text, nl=False)
    else:  # JSON or CSV for a program: the names as written (color: click strips none)
        click.echo(text, nl=False, color=True)


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@RECURSIVE
@click.option(
    "--all", "all_warnings", is_flag=True, help="Every warning (default: the first 20 per file)."
)
def check(paths: tuple[str, ...], recursive: bool, all_warnings: bool) -> None:
    """Report every problem in each workbook (file, sheet and cell) without writing."""
    from xlrally.api import FileProblems, check, shown_warnings

    problems: list[str] = []
    for path in workbook_files(paths, recursive):
        try:
            found = check(path)
        except FileProblems as error:
            problems.extend(error.messages)
            continue
        warnings = list(found.warnings) if all_warnings else shown_warnings(found.warnings)
        for warning in [*warnings, *found.button]:
            echo(f"Warning: {path}: {warning}", err=True)
        for line in found.newcomers:
            echo(f"{path}: {line}")
        players, events = plural(found.players, "player"), plural(found.events, "event")
        echo(f"{path}: ok ({players}, {events})")
    if problems:
        fail(problems)


@cli.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    help="HTML file to write (default: PATH with .html).",
)
@AS_OF
@SEASON
@click.option(
    "--top",
    type=click.IntRange(min=0),
    help="Players shown with every event and their working (default 200); the others by "
    "rank and total only. 0: everyone in full.",
)
def publish(
    path: Path, output: Path | None, as_of: dt.date | None, season: str | None, top: int | None
) -> None:
    """Write the standings as one self-contained HTML page (table, chart, working)."""
    from xlrally.api import TOP, FileProblems, publish

    shown = TOP if top is None else top or None
    target = output or path.with_suffix(".html")
    try:
        publish(path, target, as_of=as_of, season=season, top=shown)
    except FileProblems as error:
        fail(error.messages)
    except OSError as error:
        fail([f"{target}: cannot write the page: {error.strerror or error}"])
    echo(f"wrote {target}")


def main() -> None:
    """Entry point of the ``xlrally`` script."""
    cli(prog_name="xlrally")
