"""What an import tells: its outcome (:class:`ImportOutcome`), and its refusals in the words
of where each problem is: a cell the workbook had already (``Results!D3``), or the line of the
file that brought it and the cell it would have gone in."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xlrally.app.importer.edits import WrittenSheet
from xlrally.app.importer.incoming import Incoming
from xlrally.app.sync import SyncOutcome
from xlrally.core.errors import Problem, XlrallyError
from xlrally.core.names import norm
from xlrally.core.standings import Standings


@dataclass(frozen=True)
class ImportOutcome:
    """What an import did."""

    event: str
    results: int
    changed: bool
    new_players: tuple[str, ...]
    notes: tuple[str, ...]
    sync: SyncOutcome | None


def existing_problems(problems: Iterable[Problem]) -> XlrallyError:
    listed = [str(p) for p in problems]
    more = f" and {len(listed) - 5} more" if len(listed) > 5 else ""
    return XlrallyError(
        "the workbook has problems already, so nothing was imported; fix them (xlrally check) "
        f"and import again: {'; '.join(listed[:5])}{more}"
    )


def problems_error(
    problems: Iterable[Problem], written: list[WrittenSheet], incoming: Incoming, source: str
) -> XlrallyError:
    """The league's problems, each named where it is: in a cell the import writes (with the
    file's line that brought it) or in one the workbook had already."""
    rows = {(w.name, number): line for w in written for number, line in w.lines.items()}
    mine, theirs = [], []
    for problem in problems:
        origin = problem.origin
        place = (getattr(origin, "sheet", None), getattr(origin, "row", None))
        if place in rows:
            line = rows[place]
            where = f"{source} line {line} ({problem.cell})" if line else f"{problem.cell}"
            mine.append(f"{where}: {problem.message}")
        elif origin is None and problem.event and norm(problem.event) == norm(incoming.name):
            mine.append(str(problem))
        else:
            theirs.append(problem)
    if theirs:
        return existing_problems(theirs)
    return XlrallyError(
        "with the imported results the league has problems, so nothing was written: "
        + "; ".join(mine[:5])
        + (f" and {len(mine) - 5} more" if len(mine) > 5 else "")
    )


def season_notes(season: str | None, standings: Standings, event: str) -> list[str]:
    shown = standings.settings.season
    if season and shown and norm(season) != norm(shown):
        return [
            f"{event!r} is in season {season}; the Standings show season {shown} (the Settings' "
            "Season, or the latest)"
        ]
    return []
