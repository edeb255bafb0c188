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
when the file shows it throughout (see :func:`~.records.in_columns`).

**The program that wrote the file** matters in one place: Lichess writes ``H`` for a round a
player missed by joining late (its exporter maps a late entry to ``H``), not for a bye asked
for; its files name it on line ``032`` (``Lichess``) and give a ``lichess.org`` address on
line ``022``. See :func:`rally_line`.

How each code counts in the rally (:func:`rally_line`) is a club's choice in three places; see
``docs/import.md``.

One module per job: :mod:`~.records` (the lines' tags, the player record's columns and codes,
each record read or refused), :mod:`~.checks` (the consistency checks that refuse a damaged
file), :mod:`~.reading` (the file read whole: :func:`read_trf`), :mod:`~.rally` (how the rounds
count in the rally) and :mod:`~.names` (the standard's names as a league writes them). The
names below are the format's public API.
"""

from xlrally.formats.trf.checks import DEFAULT_POINTS, MATCHING
from xlrally.formats.trf.names import TITLES_AFTER, last_first, name_parts, spellings
from xlrally.formats.trf.rally import (
    BYE_RULES,
    FORFEIT_RULES,
    LICHESS_RULES,
    RallyLine,
    rally_line,
)
from xlrally.formats.trf.reading import Tournament, is_lichess, looks_like_trf, read_trf
from xlrally.formats.trf.records import (
    ABSENT,
    AGAINST_SOMEONE,
    CODES,
    FORFEIT_LOSS,
    FORFEIT_WIN,
    NO_OPPONENT,
    PAIRING_BYE,
    PLAYED,
    REQUESTED_BYES,
    ROUNDS_TAGS,
    TAG,
    TRF26_TAGS,
    TRF_LINES,
    Round,
    TrfError,
    TrfPlayer,
)

__all__ = [
    "ABSENT",
    "AGAINST_SOMEONE",
    "BYE_RULES",
    "CODES",
    "DEFAULT_POINTS",
    "FORFEIT_LOSS",
    "FORFEIT_RULES",
    "FORFEIT_WIN",
    "LICHESS_RULES",
    "MATCHING",
    "NO_OPPONENT",
    "PAIRING_BYE",
    "PLAYED",
    "REQUESTED_BYES",
    "ROUNDS_TAGS",
    "TAG",
    "TITLES_AFTER",
    "TRF26_TAGS",
    "TRF_LINES",
    "RallyLine",
    "Round",
    "Tournament",
    "TrfError",
    "TrfPlayer",
    "is_lichess",
    "last_first",
    "looks_like_trf",
    "name_parts",
    "rally_line",
    "read_trf",
    "spellings",
]
