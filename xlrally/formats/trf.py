"""Reading a FIDE Tournament Report File (TRF): the results a chess pairing program wrote.

Every FIDE-endorsed pairing program (Swiss-Manager, Vega, JaVaFo-based tools, Tornelo, SwissSys)
writes this fixed-column text file. Two versions are read, and told apart by their tags:

* **TRF26**, the current one (FIDE Handbook C.04 Annex 2, "Format of Tournament Report File,
  Version 2026", approved by the FIDE Council on 12 May 2025, in force from 1 September 2025);
  it adds tags such as ``142`` (number of rounds), ``162`` (points per result) and ``240``
  (announced byes);
* **TRF16**, the 2016 version most programs still write, with the TRFx line ``XXR`` (number of
  rounds) that JaVaFo introduced and Tornelo and SwissSys write.

Both share the player record, ``001``, which is all xlrally needs (columns are 1-based):

=========  =====================================================================
5-8        starting rank (the number other players' rounds refer to)
15-47      name, ``Lastname, Firstname``
81-84      points (``11.5``)
86-89      final rank (ties allowed)
92-95      round 1: the opponent's starting rank, ``0000`` or blank for none
97         round 1: colour, ``w``, ``b`` or ``-``
99         round 1: the result code; round 2 starts at 102, round r at 92 + 10 (r - 1)
=========  =====================================================================

Result codes (letters in any case): ``1`` ``=`` ``0`` a game won, drawn, lost; ``W`` ``D``
``L`` the same for a game that lasted less than one move (not rated, but played); ``+`` ``-``
a forfeit won or lost; ``U`` a pairing-allocated bye; ``H`` ``F`` a half- or full-point bye
(asked for); ``Z`` a zero-point bye (a known absence); blank: not paired, which the standard
makes equivalent to ``Z`` (a late entry's first rounds, a withdrawn player's last).

How each code counts in the rally (:func:`rally_line`) is a club's choice in two places; see
``docs/import.md``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass

from xlrally.core.errors import XlrallyError

PLAYER = "001"
NAME = "012"
START = "042"
END = "052"
ROUNDS_TAGS = ("142", "XXR")
"""Number of rounds: TRF26's tag, then TRFx's."""
TRF26_TAGS = frozenset({"142", "152", "162", "172", "182", "192", "202", "212", "222", "240"})
"""Tags that only the 2026 version has."""

PLAYED = {"1": 1.0, "W": 1.0, "=": 0.5, "D": 0.5, "0": 0.0, "L": 0.0}
"""Codes of a game played, and the points it scored."""
FORFEIT_WIN, FORFEIT_LOSS, PAIRING_BYE = "+", "-", "U"
REQUESTED_BYES = frozenset("HF")
ABSENT = frozenset({"Z", " ", ""})
CODES = frozenset(PLAYED) | {FORFEIT_WIN, FORFEIT_LOSS, PAIRING_BYE} | REQUESTED_BYES | ABSENT

BYE_RULES = ("bye", "absence")
"""``Requested byes`` (H, F): out of the divisor like a pairing bye, or kept in it."""
FORFEIT_RULES = ("bye", "game")
"""``Forfeit wins`` (+): out of the divisor like a pairing bye, or a game won."""


class TrfError(XlrallyError):
    """A line of the file that cannot be read: says the file, line and column."""


@dataclass(frozen=True)
class TrfPlayer:
    """One ``001`` record."""

    number: int
    """Starting rank."""
    name: str
    rank: int | None
    results: tuple[str, ...]
    """The result code of each round ('' past the end of the line), upper-cased."""
    line: int


@dataclass(frozen=True)
class Tournament:
    """What xlrally takes from a TRF file."""

    name: str
    start: dt.date | None
    end: dt.date | None
    declared_rounds: int | None
    """From ``142`` or ``XXR``; None when the file does not say."""
    played_rounds: int
    """The last round in which any game, forfeit or pairing bye is recorded."""
    players: tuple[TrfPlayer, ...]
    version: str
    """``TRF26`` or ``TRF16``."""


@dataclass(frozen=True)
class RallyLine:
    """A player's rally result from their rounds: points from games played, games, byes."""

    points: float
    games: int
    byes: int


def _field(line: str, first: int, last: int) -> str:
    """Columns ``first`` to ``last`` (1-based, inclusive), stripped."""
    return line[first - 1 : last].strip()


def _date(text: str) -> dt.date | None:
    """A date as the standard writes it (``YYYY/MM/DD``), or as programs do (``DD/MM/YYYY``,
    ``DD.MM.YYYY``, ISO); None when it is none of these."""
    text = text.strip()
    for pattern in ("%Y/%m/%d", "%d/%m/%Y", "%d.%m.%Y", "%Y-%m-%d", "%y/%m/%d"):
        try:
            return dt.datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    return None


def _whole(line: str, first: int, last: int, what: str, where: str) -> int | None:
    text = _field(line, first, last)
    if not text:
        return None
    if not text.isdigit():
        raise TrfError(f"{where}, column {first}: {what} must be a whole number, not {text!r}")
    return int(text)


def _player(line: str, number: int, source: str) -> TrfPlayer:
    where = f"{source} line {number}"
    start = _whole(line, 5, 8, "the starting rank", where)
    if start is None:
        raise TrfError(f"{where}, column 5: a player record without its starting rank")
    name = " ".join(_field(line, 15, 47).split())
    if not name:
        raise TrfError(f"{where}, column 15: player {start} has no name")
    rank = _whole(line, 86, 89, "the rank", where)
    results = []
    for column in range(99, len(line) + 1, 10):
        code = line[column - 1].upper()
        if code not in CODES:
            raise TrfError(
                f"{where}, column {column}: {line[column - 1]!r} is not a TRF result code "
                f"(round {(column - 89) // 10}; the codes are 1 = 0 W D L + - U H F Z)"
            )
        results.append(code.strip())
    while results and not results[-1]:
        results.pop()
    return TrfPlayer(start, name, rank, tuple(results), number)


def read_trf(text: str, source: str) -> Tournament:
    """Read a TRF file's text (``source`` names it in errors).

    >>> record = "001    1      " + "Smith, Ann".ljust(33) + " " * 33 + " 1.0    1" + "     2 w 1"
    >>> t = read_trf("012 Club Rapidplay\\n042 2025/12/06\\nXXR 1\\n" + record, "x.trf")
    >>> t.name, t.start, t.declared_rounds, t.players[0].name, t.players[0].results
    ('Club Rapidplay', datetime.date(2025, 12, 6), 1, 'Smith, Ann', ('1',))
    """
    tags: dict[str, str] = {}
    players: list[TrfPlayer] = []
    for number, line in enumerate(text.splitlines(), start=1):
        tag = line[:3]
        if tag == PLAYER:
            players.append(_player(line, number, source))
        elif tag and tag not in tags and not tag.startswith("#"):
            tags[tag] = line[4:].strip()
    if not players:
        raise TrfError(f"{source}: no player records (lines starting 001); is it a TRF file?")
    seen: dict[int, int] = {}
    for player in players:
        if player.number in seen:
            raise TrfError(
                f"{source} line {player.line}: starting rank {player.number} is used twice "
                f"(also line {seen[player.number]})"
            )
        seen[player.number] = player.line
    declared = None
    for tag in ROUNDS_TAGS:
        if tags.get(tag):
            value = tags[tag].split()[0]
            if not value.isdigit():
                raise TrfError(f"{source}: the number of rounds ({tag}) is not a number: {value!r}")
            declared = int(value)
            break
    played = max(
        (
            r
            for p in players
            for r, code in enumerate(p.results, start=1)
            if code in PLAYED or code in {FORFEIT_WIN, FORFEIT_LOSS, PAIRING_BYE}
        ),
        default=0,
    )
    return Tournament(
        name=tags.get(NAME, ""),
        start=_date(tags.get(START, "")),
        end=_date(tags.get(END, "")),
        declared_rounds=declared,
        played_rounds=played,
        players=tuple(players),
        version="TRF26" if TRF26_TAGS & tags.keys() else "TRF16",
    )


def rally_line(
    results: Iterable[str], requested_byes: str = "bye", forfeit_wins: str = "bye"
) -> RallyLine:
    """A player's rally result from their round codes, for the rule (Rapidplay Rally seed)

        score = 100 × points from games played / (rounds − byes) + games played

    where only byes leave the divisor: rounds a player missed by arriving late, leaving early
    or failing to turn up (blank, ``Z``, a forfeit lost) stay in it.

    * a game (``1 = 0``, and ``W D L`` for a game of less than one move): its points, one game;
    * ``U``, a pairing-allocated bye: a bye (the seed's "given a bye");
    * ``H``, ``F``, a bye asked for: a bye, or with ``requested_byes="absence"`` a missed round;
    * ``+``, a forfeit won: a bye (there was no game; the player was there and ready, as with
      ``U``), or with ``forfeit_wins="game"`` a game won;
    * ``-``, ``Z``, blank: a missed round (no points, no game, still in the divisor).

    The seed's Example 3 (Mikhail: a bye in round 5 of 6, gone before round 6, 1.5 from four
    games):

    >>> rally_line(["1", "0", "=", "0", "U", ""])
    RallyLine(points=1.5, games=4, byes=1)
    """
    points, games, byes = 0.0, 0, 0
    for code in results:
        if code in PLAYED:
            points += PLAYED[code]
            games += 1
        elif code == PAIRING_BYE or (code in REQUESTED_BYES and requested_byes == "bye"):
            byes += 1
        elif code == FORFEIT_WIN:
            if forfeit_wins == "game":
                points += 1
                games += 1
            else:
                byes += 1
    return RallyLine(points, games, byes)


def last_first(name: str) -> str:
    """The standard's ``Lastname, Firstname`` as a club writes it, ``Firstname Lastname``; a
    name without a comma is kept.

    >>> last_first("Smith, Ann"), last_first("Gorrochategui Torres, Eugenio"), last_first("Vigen")
    ('Ann Smith', 'Eugenio Gorrochategui Torres', 'Vigen')
    """
    if "," not in name:
        return name
    last, first = (part.strip() for part in name.split(",", 1))
    return " ".join(p for p in (first, last) if p)


def looks_like_trf(text: str) -> bool:
    """True when the text has TRF player records (``001`` at the start of a line)."""
    return re.search(r"^001 ", text, re.MULTILINE) is not None
