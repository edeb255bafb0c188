"""A TRF file's text read into a :class:`Tournament`: its lines told apart (tags, player
records, comments), each record read in its columns (:mod:`~.records`), the file checked whole
(:mod:`~.checks`), then the number of rounds, the rounds played and the dates."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from xlrally.formats.text_file import split_lines
from xlrally.formats.trf.checks import (
    check_games,
    check_player_count,
    check_points,
    check_starting_ranks,
)
from xlrally.formats.trf.records import (
    ARBITER,
    CITY,
    END,
    FEDERATION,
    NAME,
    PAIRING_BYE,
    PLAYER,
    ROUNDS_TAGS,
    START,
    TAG,
    TRF26_TAGS,
    TrfError,
    TrfPlayer,
    in_columns,
    read_player,
)
from xlrally.formats.written_dates import AmbiguousDate, read_dates


@dataclass(frozen=True)
class Tournament:
    """What xlrally takes from a TRF file."""

    name: str
    start: dt.date | None
    end: dt.date | None
    declared_rounds: int | None
    """From ``142`` or ``XXR``; None when the file does not say."""
    played_rounds: int
    """The last round in which a game, a forfeit or a pairing bye is recorded."""
    players: tuple[TrfPlayer, ...]
    version: str
    """``TRF26`` or ``TRF16``."""
    program: str = ""
    """``Lichess`` when Lichess wrote the file ('' for any other program)."""
    dates: str = ""
    """Why no start date was read, when the file gives one that cannot be (for a warning)."""
    ambiguous: bool = False
    """The start date can be read two ways (day and month swapped): never guessed."""


def looks_like_trf(text: str) -> bool:
    """True when a line of the text starts with a TRF player record (``001``), whatever the
    line ends."""
    return any(line.startswith("001 ") or line == "001" for line in split_lines(text))


def read_trf(text: str, source: str) -> Tournament:
    """Read a TRF file's text (``source`` names it in errors).

    >>> record = "001    1      " + "Smith, Ann".ljust(33) + " " * 33 + " 1.0    1" + "     2 w 1"
    >>> other = "001    2      " + "Lee, Cat".ljust(33) + " " * 33 + " 0.0    2" + "     1 b 0"
    >>> t = read_trf(f"012 Club Rapidplay\\r042 2025/12/06\\rXXR 1\\r{record}\\r{other}", "x.trf")
    >>> t.name, t.start, t.declared_rounds, t.players[0].name, t.players[0].results
    ('Club Rapidplay', datetime.date(2025, 12, 6), 1, 'Smith, Ann', ('1',))
    """
    tags, tag_lines, records = _lines(text, source)
    players = [read_player(line, number, source) for number, line in in_columns(records, source)]
    check_starting_ranks(players, source)
    check_player_count(players, tags, tag_lines, source)
    check_games(players, source)
    unwritten = check_points(players, tags, source)
    players = [
        dataclasses.replace(p, unwritten_byes=unwritten[p.number]) if p.number in unwritten else p
        for p in players
    ]
    declared = _declared_rounds(tags, tag_lines, source)
    played = _played_rounds(players)
    start, end, why, ambiguous = _dates(tags, tag_lines, source)
    return Tournament(
        name=tags.get(NAME, ""),
        start=start,
        end=end,
        declared_rounds=declared,
        played_rounds=played,
        players=tuple(players),
        version="TRF26" if TRF26_TAGS & tags.keys() else "TRF16",
        program="Lichess" if is_lichess(tags) else "",
        dates=why,
        ambiguous=ambiguous,
    )


def _lines(text: str, source: str) -> tuple[dict[str, str], dict[str, int], list[tuple[int, str]]]:
    """The file's tags (the first line of each), the line each is on, and its player records
    with their line numbers; comments and blank lines skipped, a line with no tag refused."""
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    records: list[tuple[int, str]] = []
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        tag = line[:3]
        if line.startswith("###"):  # a comment (TRF26, Remark 1)
            continue
        if TAG.match(line) is None:
            raise TrfError(
                f"{source} line {number}: {line[:20]!r} is not a TRF line (each starts with a "
                "three-character tag such as 001 or 012, then a space): was a long line "
                "wrapped, or the file cut?"
            )
        if tag == PLAYER:
            records.append((number, line))
        elif tag not in tags and not tag.startswith("#"):
            tags[tag] = line[4:].strip()
            tag_lines[tag] = number
    if not records:
        raise TrfError(f"{source}: no player records (lines starting 001); is it a TRF file?")
    return tags, tag_lines, records


def _declared_rounds(
    tags: Mapping[str, str], tag_lines: Mapping[str, int], source: str
) -> int | None:
    """The number of rounds from ``142`` or ``XXR`` (the first there is); None when neither."""
    declared = None
    for tag in ROUNDS_TAGS:
        if tags.get(tag):
            value = tags[tag].split()[0]
            if not (value.isascii() and value.isdigit()):
                raise TrfError(
                    f"{source} line {tag_lines[tag]}: the number of rounds ({tag}) is not a "
                    f"number: {value!r}"
                )
            declared = int(value)
            break
    return declared


def _played_rounds(players: list[TrfPlayer]) -> int:
    """The last round in which a game, a forfeit or a pairing bye is recorded."""
    return max(
        (
            index + 1
            for p in players
            for index, r in enumerate(p.rounds)
            if (r.opponent and r.code) or r.bye_code == PAIRING_BYE
        ),
        default=0,
    )


def _dates(
    tags: Mapping[str, str], tag_lines: Mapping[str, int], source: str
) -> tuple[dt.date | None, dt.date | None, str, bool]:
    """The start and end dates (lines 042 and 052), and why no start date was read when the
    file gives one that cannot be, and whether it reads two ways."""
    start = end = None
    why, ambiguous = "", False
    try:
        start, end = read_dates([tags.get(START, ""), tags.get(END, "")])
    except AmbiguousDate as error:
        why, ambiguous = f"{source} line {tag_lines.get(START, 0)}: the date {error}", True
    if start is None and not why and tags.get(START):
        why = (
            f"{source} line {tag_lines[START]}: the start date {tags[START]!r} is not a date "
            "xlrally reads"
        )
    return start, end, why, ambiguous


def is_lichess(tags: Mapping[str, str]) -> bool:
    """Lichess names itself on line 032 and gives its address on line 022 (and 102)."""
    return tags.get(FEDERATION, "").strip().casefold() == "lichess" or any(
        "lichess.org" in tags.get(tag, "").casefold() for tag in (CITY, ARBITER)
    )
