"""A TRF file's lines and its player record (``001``): the tags, the record's columns and
result codes, and each record read into a :class:`TrfPlayer`, or refused where a field is not in
its column (a tab, a line cut short or moved by one character); a program that pads names by
bytes read by bytes when the file shows it throughout (:func:`in_columns`).

The columns (1-based) and codes are the standard's; see :mod:`xlrally.formats.trf`.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from xlrally.core.errors import XlrallyError

PLAYER = "001"
NAME = "012"
CITY = "022"
FEDERATION = "032"
START = "042"
END = "052"
PLAYER_COUNT = "062"
ARBITER = "102"
SCORING = "162"
ROUNDS_TAGS = ("142", "XXR")
"""Number of rounds: TRF26's tag, then TRFx's."""
TRF_LINES = frozenset({"012", "022", "032", "042", "052", "062", "072", "092", "102", "122", "XXR"})
"""Tournament lines every TRF has some of (to tell a TRF without player records)."""
TRF26_TAGS = frozenset({"142", "152", "162", "172", "182", "192", "202", "212", "222", "240"})
"""Tags that only the 2026 version has."""

PLAYED = {"1": 1.0, "W": 1.0, "=": 0.5, "D": 0.5, "0": 0.0, "L": 0.0}
"""Codes of a game played, and the points it scored."""
FORFEIT_WIN, FORFEIT_LOSS, PAIRING_BYE = "+", "-", "U"
REQUESTED_BYES = frozenset("HF")
ABSENT = frozenset({"Z", ""})
CODES = frozenset(PLAYED) | {FORFEIT_WIN, FORFEIT_LOSS, PAIRING_BYE} | REQUESTED_BYES | ABSENT
AGAINST_SOMEONE = frozenset(PLAYED) | {FORFEIT_WIN, FORFEIT_LOSS, ""}
"""Codes a round with an opponent may have (blank: paired, not played yet)."""
NO_OPPONENT = {
    "1": "U",
    "W": "U",
    "+": "U",
    "=": "H",
    "D": "H",
    "0": "Z",
    "L": "Z",
    "-": "Z",
}
"""A game's or forfeit's code written against no opponent, as the bye it is: a full point is
the pairing-allocated bye (written so before the ``U`` code existed), a half point the bye a
player asked for, nothing a known absence. The bye codes themselves are read as they are."""

TAG = re.compile(r"[0-9A-Z#]{3}(?: |$)")
"""What every TRF line starts with: a three-character tag, then a space (``001 ``, ``XXR ``,
``### comment``, a national record's federation ``ESP ``)."""
_NOT_TEXT = frozenset({"Cc", "Zl", "Zp"})
"""Unicode categories no record holds: controls (a tab, a NUL), line and paragraph separators."""
_POINTS = re.compile(r"[0-9]{1,3}(?:\.[0-9])?")


class TrfError(XlrallyError):
    """A line of the file that cannot be read: says the file, line and column."""


@dataclass(frozen=True)
class Round:
    """One round of a record as written: the opponent (0 for none), colour and result code."""

    opponent: int
    colour: str
    """``w``, ``b``, ``-`` or '' (lower-cased)."""
    code: str
    """The result code, upper-cased; '' for blank."""

    @property
    def bye_code(self) -> str:
        """The code as the bye it is when there is no opponent (:data:`NO_OPPONENT`)."""
        return NO_OPPONENT.get(self.code, self.code) if not self.opponent else self.code


@dataclass(frozen=True)
class TrfPlayer:
    """One ``001`` record."""

    number: int
    """Starting rank."""
    name: str
    rank: int | None
    points: float | None
    """The points column (81-84) as written; None when blank."""
    rounds: tuple[Round, ...]
    """Every round written (past the end of the line: none)."""
    line: int
    unwritten_byes: int = 0
    """Rounds left blank that the points column counts as half-point byes (the first ones)."""

    @property
    def results(self) -> tuple[str, ...]:
        """Each round's code as the rally reads it (a code against no opponent as its bye, a
        half-point bye left blank as ``H``), without the blank rounds at the end."""
        codes = [r.bye_code for r in self.rounds]
        for index in [i for i, c in enumerate(codes) if not c][: self.unwritten_byes]:
            codes[index] = "H"
        while codes and not codes[-1]:
            codes.pop()
        return tuple(codes)


def _layout_problem(line: str) -> tuple[int, str] | None:
    """The first column where a player record's fields are not where the standard puts them,
    and what is wrong there; None when every field read is in its column."""

    def blank(first: int, last: int) -> bool:
        return line[first - 1 : last].strip(" ") == ""

    def whole(first: int, last: int) -> bool:
        text = line[first - 1 : last].strip(" ")
        return not text or (text.isascii() and text.isdigit())

    if "\t" in line:
        return line.index("\t") + 1, "a tab (the columns are fixed, padded with spaces)"
    odd = next((i for i, c in enumerate(line) if unicodedata.category(c) in _NOT_TEXT), None)
    if odd is not None:
        return odd + 1, f"a control character or line separator (U+{ord(line[odd]):04X})"
    if not blank(4, 4) or not whole(5, 8) or blank(5, 8):
        return 5, "the starting rank (columns 5-8) is not a number"
    if not blank(80, 80) or not blank(85, 85):
        column = 80 if not blank(80, 80) else 85
        return column, "the points (columns 81-84) do not fit their columns"
    points = line[80:84]
    if points.strip() and _POINTS.fullmatch(points.strip()) is None:
        return 81, f"the points (columns 81-84) are not a number ({points.strip()!r})"
    if not whole(86, 89):
        return 86, f"the rank (columns 86-89) is not a whole number ({line[85:89].strip()!r})"
    for start in range(90, len(line) + 1, 10):
        round_number = (start - 80) // 10
        parts = (
            (start, start + 1, "blank", blank(start, start + 1)),
            (start + 2, start + 5, "the opponent's starting rank", whole(start + 2, start + 5)),
            (start + 6, start + 6, "blank", blank(start + 6, start + 6)),
            (start + 7, start + 7, "the colour", line[start + 6 : start + 7].lower() in "wb- "),
            (start + 8, start + 8, "blank", blank(start + 8, start + 8)),
        )
        for first, last, what, fine in parts:
            if not fine:
                return first, (
                    f"round {round_number}'s columns {first}-{last} should hold {what}, not "
                    f"{line[first - 1 : last]!r}"
                    if first != last
                    else f"round {round_number}'s column {first} should hold {what}, not "
                    f"{line[first - 1]!r}"
                )
        code = line[start + 8 : start + 9].upper().strip(" ")
        if code not in CODES:
            return start + 9, (
                f"{line[start + 8]!r} is not a TRF result code (round {round_number}; the codes "
                "are 1 = 0 W D L + - U H F Z)"
            )
    return None


def _by_bytes(line: str) -> str | None:
    """The record re-read by bytes, for a program that pads names to 33 bytes rather than
    33 characters: each field's bytes decoded on their own. None when that is no better."""
    if line.isascii():
        return None
    data = line.encode("utf-8")
    try:
        fields = [data[:14].decode(), data[14:47].decode(), data[47:].decode()]
    except UnicodeDecodeError:
        return None
    name = fields[1]
    return fields[0] + name + " " * (33 - len(name)) + fields[2]


def in_columns(lines: list[tuple[int, str]], source: str) -> list[tuple[int, str]]:
    """The player records, each in its columns: as written, or re-read by bytes when the file
    pads names by bytes. That is believed only when the file says so throughout: at least two
    records with accents need it, and no record with accents lines up by characters only (a
    name that lost a letter can happen to line up by bytes, so one record is no evidence; a
    record with nothing but blanks after its name, a player who missed every round, lines up
    both ways and says nothing)."""
    problems = {number: _layout_problem(line) for number, line in lines}
    by_bytes = {}
    for number, line in lines:
        alt = _by_bytes(line)
        if alt is not None and _layout_problem(alt) is None:
            by_bytes[number] = alt
    wrong = [number for number, problem in problems.items() if problem is not None]
    accented_fine = [
        n for n, line in lines if not line.isascii() and problems[n] is None and n not in by_bytes
    ]
    if len(wrong) >= 2 and not accented_fine and set(wrong) <= set(by_bytes):
        return [(number, by_bytes.get(number, line)) for number, line in lines]
    if wrong:
        number = wrong[0]
        column, what = problems[number]  # type: ignore[misc]
        why = (
            "; its columns line up only if its name is counted in bytes (as a program that "
            "pads names to 33 bytes writes them), but no other record says this file does"
            if number in by_bytes
            else ""
        )
        raise TrfError(
            f"{source} line {number}, column {column}: {what}{why}; the record does not follow "
            "the TRF columns (was the line edited, moved, cut or wrapped?): export the file "
            "again"
        )
    return lines


def read_player(line: str, number: int, source: str) -> TrfPlayer:
    where = f"{source} line {number}"
    start = int(line[4:8])
    name = " ".join(line[14:47].split())
    if not name:
        raise TrfError(f"{where}, column 15: player {start} has no name")
    rank = int(line[85:89]) if line[85:89].strip() else None
    points = float(line[80:84]) if line[80:84].strip() else None
    rounds = []
    for column in range(92, len(line) + 1, 10):
        opponent = line[column - 1 : column + 3].strip()
        rounds.append(
            Round(
                int(opponent) if opponent else 0,
                line[column + 4 : column + 5].lower().strip(),
                line[column + 6 : column + 7].upper().strip(),
            )
        )
    while rounds and rounds[-1] == Round(0, "", ""):
        rounds.pop()
    return TrfPlayer(start, name, rank, points, tuple(rounds), number)


def round_at(player: TrfPlayer, index: int) -> Round:
    return player.rounds[index] if index < len(player.rounds) else Round(0, "", "")


def round_column(round_index: int) -> int:
    return 92 + 10 * round_index
