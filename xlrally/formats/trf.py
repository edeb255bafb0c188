"""Reading a FIDE Tournament Report File (TRF): the results a chess pairing program wrote.

Every FIDE-endorsed pairing program (Swiss-Manager, Vega, JaVaFo-based tools, Tornelo, SwissSys)
and Lichess write this fixed-column text file. Two versions are read, and told apart by their
tags:

* **TRF26**, the current one (FIDE Handbook C.04 Annex 2, "Format of Tournament Report File,
  Version 2026", approved by the FIDE Council on 12 May 2025, in force from 1 September 2025);
  it adds tags such as ``142`` (number of rounds), ``162`` (points per result) and ``240``
  (announced byes);
* **TRF16**, the 2016 version most programs still write, with the TRFx line ``XXR`` (number of
  rounds) that JaVaFo introduced and Tornelo, SwissSys and Lichess write.

Both share the player record, ``001``, which is all xlrally needs (columns are 1-based):

=========  =====================================================================
5-8        starting rank (the number other players' rounds refer to)
15-47      name, ``Lastname, Firstname``
81-84      points (``11.5``)
86-89      final rank (ties allowed)
92-95      round 1: the opponent's starting rank; "``0000`` for bye/absent/not paired; four
           blanks equivalent to ``0000``" (TRF16 and TRF26)
97         round 1: colour, ``w``, ``b``, ``-`` or blank
99         round 1: the result code; round 2 starts at 102, round r at 92 + 10 (r - 1)
=========  =====================================================================

Result codes (letters in any case): ``1`` ``=`` ``0`` a game won, drawn, lost; ``W`` ``D``
``L`` the same for a game that lasted less than one move (not rated, but played); ``+`` ``-``
a forfeit won or lost; ``U`` a pairing-allocated bye; ``H`` ``F`` a half- or full-point bye
(asked for); ``Z`` a zero-point bye (a known absence); blank: not paired, which the standard
makes equivalent to ``Z`` (a late entry's first rounds, a withdrawn player's last).

**A result against no opponent is never a game.** Several programs write byes with a game's
code and the opponent ``0000`` (or blank): ``0000 - =`` a half-point bye, ``0000 - +`` or
``0000 - 1`` the full point of the pairing bye, ``0000 - 0`` or ``0000 - -`` a zero-point bye.
They are read as the bye they are (:data:`NO_OPPONENT`), before anything is counted.

**A damaged file is refused, never half-read**: every record's fields must sit in their
columns (a tab, a line cut short or moved by one character is found there), both players of
each game must name each other with matching results and colours, a record's points column
must equal the points of its rounds, and line ``062`` (the number of players) must match the
records. Each refusal names the line and column. A program that pads names by bytes rather
than characters (so that a name with accents moves the columns after it) is read by bytes,
when the file shows it throughout (see :func:`_records`).

**The program that wrote the file** matters in one place: Lichess writes ``H`` for a round a
player missed by joining late (its exporter maps a late entry to ``H``), not for a bye asked
for; its files name it on line ``032`` (``Lichess``) and give a ``lichess.org`` address on
line ``022``. See :func:`rally_line`.

How each code counts in the rally (:func:`rally_line`) is a club's choice in three places; see
``docs/import.md``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from xlrally.core.errors import XlrallyError
from xlrally.formats.text_file import split_lines
from xlrally.formats.written_dates import AmbiguousDate, read_dates

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
MATCHING = frozenset(
    {
        ("1", "0"),
        ("0", "1"),
        ("=", "="),
        ("W", "L"),
        ("L", "W"),
        ("D", "D"),
        ("+", "-"),
        ("-", "+"),
        ("-", "-"),
        ("0", "0"),
        ("L", "L"),
        ("", ""),
    }
)
"""The results the two players of one game may have: a win and a loss, a draw each, a forfeit
and its win, a double forfeit or double loss (an arbiter's decision), or no result yet."""

DEFAULT_POINTS = {"W": 1.0, "D": 0.5, "L": 0.0, "A": 0.0}
"""TRF26 line 162's defaults: a win (over the board, by forfeit or a full-point bye), a draw
(or a half-point bye), a loss, an absence (a zero-point bye or a forfeit lost); the pairing
bye ``P`` is worth a win unless the line says otherwise."""
_KIND = {
    "1": "W",
    "W": "W",
    "+": "W",
    "F": "W",
    "=": "D",
    "D": "D",
    "H": "D",
    "0": "L",
    "L": "L",
    "-": "A",
    "Z": "A",
    "": "A",
    "U": "P",
}
"""Each code's entry of line 162's point system."""

BYE_RULES = ("bye", "absence")
"""``Requested byes`` (H, F): out of the divisor like a pairing bye, or kept in it."""
FORFEIT_RULES = ("bye", "game")
"""``Forfeit wins`` (+): out of the divisor like a pairing bye, or a game won."""
LICHESS_RULES = ("late entry", "bye")
"""``Lichess H``: a round missed by joining late (in the divisor), or a bye asked for."""

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


@dataclass(frozen=True)
class RallyLine:
    """A player's rally result from their rounds: points from games played, games, byes."""

    points: float
    games: int
    byes: int


def looks_like_trf(text: str) -> bool:
    """True when a line of the text starts with a TRF player record (``001``), whatever the
    line ends."""
    return any(line.startswith("001 ") or line == "001" for line in split_lines(text))


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


def _records(lines: list[tuple[int, str]], source: str) -> list[tuple[int, str]]:
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


def _player(line: str, number: int, source: str) -> TrfPlayer:
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


def _round(player: TrfPlayer, index: int) -> Round:
    return player.rounds[index] if index < len(player.rounds) else Round(0, "", "")


def _column(round_index: int) -> int:
    return 92 + 10 * round_index


def _check_games(players: list[TrfPlayer], source: str) -> None:
    """Both players of each game name each other, with matching results and colours."""
    by_number = {p.number: p for p in players}
    for player in players:
        for index, this in enumerate(player.rounds):
            where = f"{source} line {player.line}, column"
            if not this.opponent:
                continue
            if this.code not in AGAINST_SOMEONE:
                raise TrfError(
                    f"{where} {_column(index) + 7}: round {index + 1} has an opponent "
                    f"({this.opponent}) but the code {this.code!r} is a bye"
                )
            other = by_number.get(this.opponent)
            if other is None or other is player:
                raise TrfError(
                    f"{where} {_column(index)}: round {index + 1}'s opponent {this.opponent} is "
                    + ("the player himself" if other is player else "no player of the file")
                )
            that = _round(other, index)
            colours = {this.colour, that.colour}
            if (
                that.opponent != player.number
                or (this.code, that.code) not in MATCHING
                or (colours <= {"w", "b"} and len(colours) == 1)
            ):
                said = f"{that.opponent or 'nobody'} {that.colour or '-'} {that.code or 'blank'}"
                raise TrfError(
                    f"{where} {_column(index)}: round {index + 1} says {player.name} played "
                    f"{other.name} ({this.colour or '-'} {this.code or 'no result'}), but "
                    f"line {other.line} says {said}: the two records disagree (a line moved, "
                    "cut or wrapped?); export the file again"
                )


def _scoring(tags: Mapping[str, str]) -> dict[str, float]:
    """Line 162's points per result (TRF26), with its defaults."""
    scoring = dict(DEFAULT_POINTS)
    for kind, value in re.findall(r"([WDLAPX])\s*([0-9]+(?:\.[0-9]+)?)", tags.get(SCORING, "")):
        scoring[kind] = float(value)
    scoring.setdefault("P", scoring["W"])
    return scoring


def _blank_rounds(player: TrfPlayer) -> list[int]:
    return [i for i, r in enumerate(player.rounds) if not r.opponent and not r.code]


def _check_points(players: list[TrfPlayer], tags: Mapping[str, str], source: str) -> dict[int, int]:
    """Each record's points column equals the points of its rounds (line 162's system); the
    number of rounds left blank that are half-point byes, by player (see below).

    The pairing bye and the half-point bye are worth what the tournament gave them (clubs give
    the odd player a half point, or nothing): one value of each, the same for every player,
    is accepted. A points column that has half a point (or several) more than the rounds give,
    where as many rounds are blank, counts a half-point bye the program left blank (ICU's files
    do; ICU's own reader reads them so): those rounds are half-point byes. Anything else is a
    damaged record, refused."""
    scoring = _scoring(tags)
    written = [(p, p.points) for p in players if p.points is not None]

    def explained(pairing_bye: float, half_bye: float) -> tuple[dict[int, int], list[str]]:
        values = {**scoring, "P": pairing_bye, "H": half_bye}
        byes: dict[int, int] = {}
        wrong = []
        for player, points in written:
            total = sum(values.get(r.code, values[_KIND.get(r.code, "A")]) for r in player.rounds)
            missing = round((points - total) / 0.5, 6)
            if abs(points - total) <= 0.01:
                continue
            if missing.is_integer() and 0 < missing <= len(_blank_rounds(player)):
                byes[player.number] = int(missing)
                continue
            wrong.append(
                f"{source} line {player.line}, column 81: {player.name} has {points:g} points "
                f"(columns 81-84), but the rounds add up to {total:g}: the record is damaged or "
                "cut short (a line moved, cut or wrapped?); export the file again"
            )
        return byes, wrong

    first = explained(scoring["P"], scoring["D"])
    if not first[0] and not first[1]:
        return {}  # every record adds up as the file's point system says: the usual case
    tries = [first] + [explained(u, h) for u in (1.0, 0.5, 0.0) for h in (0.5, 0.0, 1.0)]
    for byes, wrong in sorted(tries, key=lambda t: len(t[0])):
        if not wrong:
            return byes
    raise TrfError(first[1][0])


def read_trf(text: str, source: str) -> Tournament:
    """Read a TRF file's text (``source`` names it in errors).

    >>> record = "001    1      " + "Smith, Ann".ljust(33) + " " * 33 + " 1.0    1" + "     2 w 1"
    >>> other = "001    2      " + "Lee, Cat".ljust(33) + " " * 33 + " 0.0    2" + "     1 b 0"
    >>> t = read_trf(f"012 Club Rapidplay\\r042 2025/12/06\\rXXR 1\\r{record}\\r{other}", "x.trf")
    >>> t.name, t.start, t.declared_rounds, t.players[0].name, t.players[0].results
    ('Club Rapidplay', datetime.date(2025, 12, 6), 1, 'Smith, Ann', ('1',))
    """
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
    players = [_player(line, number, source) for number, line in _records(records, source)]
    seen: dict[int, int] = {}
    for player in players:
        if player.number in seen:
            raise TrfError(
                f"{source} line {player.line}: starting rank {player.number} is used twice "
                f"(also line {seen[player.number]})"
            )
        seen[player.number] = player.line
    count = tags.get(PLAYER_COUNT, "")
    if count.isascii() and count.isdigit() and int(count) != len(players):
        raise TrfError(
            f"{source} line {tag_lines[PLAYER_COUNT]}: the file says it has {int(count)} "
            f"players (line 062) but holds {len(players)} player records: is it cut short or "
            "joined with another? Export it again"
        )
    _check_games(players, source)
    unwritten = _check_points(players, tags, source)
    players = [
        dataclasses.replace(p, unwritten_byes=unwritten[p.number]) if p.number in unwritten else p
        for p in players
    ]
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
    played = max(
        (
            index + 1
            for p in players
            for index, r in enumerate(p.rounds)
            if (r.opponent and r.code) or r.bye_code == PAIRING_BYE
        ),
        default=0,
    )
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


def is_lichess(tags: Mapping[str, str]) -> bool:
    """Lichess names itself on line 032 and gives its address on line 022 (and 102)."""
    return tags.get(FEDERATION, "").strip().casefold() == "lichess" or any(
        "lichess.org" in tags.get(tag, "").casefold() for tag in (CITY, ARBITER)
    )


def rally_line(
    results: Iterable[str],
    requested_byes: str = "bye",
    forfeit_wins: str = "bye",
    late_h: bool = False,
) -> RallyLine:
    """A player's rally result from their round codes (as :attr:`TrfPlayer.results` gives
    them, a code against no opponent read as its bye), for the rule (Rapidplay Rally seed)

        score = 100 × points from games played / (rounds − byes) + games played

    where only byes leave the divisor: rounds a player missed by arriving late, leaving early
    or failing to turn up (blank, ``Z``, a forfeit lost) stay in it.

    * a game (``1 = 0``, and ``W D L`` for a game of less than one move): its points, one game;
    * ``U``, a pairing-allocated bye: a bye (the seed's "given a bye");
    * ``H``, ``F``, a bye asked for: a bye, or with ``requested_byes="absence"`` a missed round;
      with ``late_h`` (a Lichess file), ``H`` is a round missed by joining late;
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
        elif code == "H" and late_h:
            continue
        elif code == PAIRING_BYE or (code in REQUESTED_BYES and requested_byes == "bye"):
            byes += 1
        elif code == FORFEIT_WIN:
            if forfeit_wins == "game":
                points += 1
                games += 1
            else:
                byes += 1
    return RallyLine(points, games, byes)


TITLES_AFTER = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "v"})
"""What a third part of a name may be that follows the surname (``Smith, John, Jr.``)."""


def name_parts(name: str) -> tuple[str, str, str]:
    """The standard's ``Lastname, Firstname`` split, with a title some programs add after a
    second comma (``Kiese,Matthias,Dr.``): (last, first, title); a name without a comma is
    all ``last``."""
    parts = [" ".join(p.split()) for p in name.split(",")]
    if len(parts) == 1:
        return parts[0], "", ""
    if len(parts) == 2:
        return parts[0], parts[1], ""
    return parts[0], parts[1], ", ".join(p for p in parts[2:] if p)


def last_first(name: str) -> str:
    """The standard's ``Lastname, Firstname`` as a club writes it, ``Firstname Lastname``; a
    title after a second comma before the first name (``Dr. Matthias Kiese``), or after the
    surname for ``Jr.`` and the like; a name without a comma is kept.

    >>> last_first("Smith, Ann"), last_first("Gorrochategui Torres, Eugenio"), last_first("Vigen")
    ('Ann Smith', 'Eugenio Gorrochategui Torres', 'Vigen')
    >>> last_first("Kiese,Matthias,Dr."), last_first("Smith, John, Jr.")
    ('Dr. Matthias Kiese', 'John Smith Jr.')
    """
    if "," not in name:
        return name
    last, first, title = name_parts(name)
    if title.casefold() in TITLES_AFTER:
        return " ".join(p for p in (first, last, title) if p)
    return " ".join(p for p in (title, first, last) if p)


def spellings(name: str) -> tuple[str, ...]:
    """Every way a league may have written a TRF name, the preferred first: first name first,
    as written, ``Lastname, Firstname`` with one space after the comma, and without a title.

    >>> spellings("Griffiths,Ryan Rhys")
    ('Ryan Rhys Griffiths', 'Griffiths,Ryan Rhys', 'Griffiths, Ryan Rhys')
    """
    if "," not in name:
        return (name,)
    last, first, title = name_parts(name)
    found = [last_first(name), name, ", ".join(p for p in (last, first, title) if p)]
    if title:
        found += [" ".join(p for p in (first, last) if p), ", ".join(p for p in (last, first) if p)]
    return tuple(dict.fromkeys(found))
