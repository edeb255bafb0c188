"""How a TRF player's rounds count in the rally: points from games played, games, byes, with
the club's three choices (requested byes, forfeit wins, Lichess's ``H``); see
``docs/import.md``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xlrally.formats.trf.records import FORFEIT_WIN, PAIRING_BYE, PLAYED, REQUESTED_BYES

BYE_RULES = ("bye", "absence")
"""``Requested byes`` (H, F): out of the divisor like a pairing bye, or kept in it."""
FORFEIT_RULES = ("bye", "game")
"""``Forfeit wins`` (+): out of the divisor like a pairing bye, or a game won."""
LICHESS_RULES = ("late entry", "bye")
"""``Lichess H``: a round missed by joining late (in the divisor), or a bye asked for."""


@dataclass(frozen=True)
class RallyLine:
    """A player's rally result from their rounds: points from games played, games, byes."""

    points: float
    games: int
    byes: int


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
