"""Every error class xlrally raises, in one place; each message names what was wrong and where.

The user's words come from one path: a :class:`Problem` says where it is (its :attr:`cell`)
and what is wrong; :class:`LeagueProblems` lists them; :class:`FileProblems` puts the file in
front (``file: Sheet!Cell: problem``). No edge parses a message's text.

The core never knows about files or cells. A result or event may carry an *origin* (any object
with a ``where(field)`` method, supplied by the edge that read it); a :class:`Problem` uses it to
name the cell, e.g. ``Results!C7``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


class Origin(Protocol):
    """Where an input row came from; ``where("byes")`` answers e.g. ``"Results!D7"``."""

    def where(self, field: str | None = None) -> str: ...


class XlrallyError(Exception):
    """Base class of every error xlrally raises for a user's mistake."""


class ScoringError(XlrallyError, ValueError):
    """One value that cannot be scored, e.g. ``byes (4) must be less than rounds (4)``.

    ``field`` names the input field at fault (``"byes"``), so that an edge can point at its cell.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class Problem:
    """A problem found while scoring a league, with enough context to find it."""

    message: str
    event: str | None = None
    player: str | None = None
    field: str | None = None
    origin: Origin | None = None

    @property
    def cell(self) -> str | None:
        """Where the problem is, e.g. ``Results!D7``; None when the input came from no cell."""
        return self.origin.where(self.field) if self.origin is not None else None

    def __str__(self) -> str:
        if self.origin is not None:
            return f"{self.cell}: {self.message}"
        context = ", ".join(
            part
            for part in (
                f"event {self.event!r}" if self.event else "",
                f"player {self.player!r}" if self.player else "",
            )
            if part
        )
        return f"{context}: {self.message}" if context else self.message


class LeagueProblems(XlrallyError):
    """Every problem found in a league at once, so that a treasurer can fix them in one go."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class WorkbookError(XlrallyError):
    """The file cannot be read as a workbook (missing, locked, encrypted, corrupt, hostile),
    or cannot be written safely."""


class NewBookError(XlrallyError):
    """A new workbook cannot be made (bad name, xlwings missing ...)."""


class FileProblems(XlrallyError):
    """Every problem of one file, each line ``file: Sheet!Cell: problem``."""

    def __init__(self, path: Path, lines: list[str] | tuple[str, ...]) -> None:
        self.path = path
        self.messages = tuple(f"{path}: {line}" for line in lines)
        super().__init__("\n".join(self.messages))

    @classmethod
    def of(cls, path: Path, error: XlrallyError) -> FileProblems:
        """The problems of ``error`` as lines about ``path``."""
        if isinstance(error, FileProblems):
            return error
        if isinstance(error, LeagueProblems):
            return cls(path, [str(p) for p in error.problems])
        return cls(path, [str(error)])
