"""The consistency checks that refuse a damaged TRF file, never half-read it: each starting
rank once, line ``062`` (the number of players) matching the records, both players of each game
naming each other with matching results and colours, and a record's points column equal to the
points of its rounds (line ``162``'s point system). Each refusal names the line and column.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from xlrally.formats.trf.records import (
    AGAINST_SOMEONE,
    PLAYER_COUNT,
    SCORING,
    TrfError,
    TrfPlayer,
    round_at,
    round_column,
)

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


def check_games(players: list[TrfPlayer], source: str) -> None:
    """Both players of each game name each other, with matching results and colours."""
    by_number = {p.number: p for p in players}
    for player in players:
        for index, this in enumerate(player.rounds):
            where = f"{source} line {player.line}, column"
            if not this.opponent:
                continue
            if this.code not in AGAINST_SOMEONE:
                raise TrfError(
                    f"{where} {round_column(index) + 7}: round {index + 1} has an opponent "
                    f"({this.opponent}) but the code {this.code!r} is a bye"
                )
            other = by_number.get(this.opponent)
            if other is None or other is player:
                raise TrfError(
                    f"{where} {round_column(index)}: round {index + 1}'s opponent "
                    f"{this.opponent} is "
                    + ("the player himself" if other is player else "no player of the file")
                )
            that = round_at(other, index)
            colours = {this.colour, that.colour}
            if (
                that.opponent != player.number
                or (this.code, that.code) not in MATCHING
                or (colours <= {"w", "b"} and len(colours) == 1)
            ):
                said = f"{that.opponent or 'nobody'} {that.colour or '-'} {that.code or 'blank'}"
                raise TrfError(
                    f"{where} {round_column(index)}: round {index + 1} says {player.name} played "
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


def check_points(players: list[TrfPlayer], tags: Mapping[str, str], source: str) -> dict[int, int]:
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


def check_starting_ranks(players: list[TrfPlayer], source: str) -> None:
    """Each starting rank is one record's."""
    seen: dict[int, int] = {}
    for player in players:
        if player.number in seen:
            raise TrfError(
                f"{source} line {player.line}: starting rank {player.number} is used twice "
                f"(also line {seen[player.number]})"
            )
        seen[player.number] = player.line


def check_player_count(
    players: list[TrfPlayer], tags: Mapping[str, str], tag_lines: Mapping[str, int], source: str
) -> None:
    """Line ``062``, where the file has it, says as many players as it holds records."""
    count = tags.get(PLAYER_COUNT, "")
    if count.isascii() and count.isdigit() and int(count) != len(players):
        raise TrfError(
            f"{source} line {tag_lines[PLAYER_COUNT]}: the file says it has {int(count)} "
            f"players (line 062) but holds {len(players)} player records: is it cut short or "
            "joined with another? Export it again"
        )
