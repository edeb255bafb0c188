"""The Players sheet: the players listed, their aliases (another spelling of a player's
name) and their sections; an alias that cannot be one player's is a problem at its cell.

Names are one player's when :func:`xlrally.core.players.key` says so, as everywhere: the
reader and the core never disagree on who is who (``J.Smith`` and ``J Smith`` are two names,
warned about as look-alikes, not one).
"""

from __future__ import annotations

import re

from xlrally.core.players import key
from xlrally.formats.cells import text_of
from xlrally.formats.workbook.tables import Book, CellOrigin, Problems, find_table


def read_players(
    book: Book, problems: Problems
) -> tuple[dict[str, str], tuple[str, ...], dict[str, tuple[str, ...]]]:
    """The Players sheet: aliases (another spelling -> the player's name), the names listed,
    and each player's sections (``U1600, Junior``: split at commas and semicolons).

    An alias is an error, naming every cell involved, when it is given for two players, or when
    it is a listed player's name too (which also catches chains: an alias's player is listed,
    so a player that is itself an alias is caught there)."""
    sheet = book.find("Players")
    if sheet is None:
        return {}, (), {}
    table = find_table(sheet, book.rows(sheet), ("player",))
    sections: dict[str, tuple[str, ...]] = {}
    aliases: dict[str, tuple[str, CellOrigin]] = {}  # alias key -> (player, cell of the alias)
    players: dict[str, CellOrigin] = {}  # player key -> the cell where it is first listed
    pairs: list[tuple[str, str, CellOrigin]] = []
    listed: list[str] = []
    kept: dict[str, str] = {}
    for number, values in table.rows:
        player = text_of(table.get(values, "player"))
        alias = text_of(table.get(values, "alias"))
        origin = table.origin(number)
        if alias and not player:
            problems.at(origin, "player", f"alias {alias!r} has no player")
            continue
        if player:
            players.setdefault(key(player), origin)
            listed.append(player)
            named = re.split(r"[,;]", text_of(table.get(values, "section")))
            if any(name.strip() for name in named):
                known = sections.get(player, ())
                sections[player] = tuple(
                    dict.fromkeys([*known, *(n.strip() for n in named if n.strip())])
                )
        if alias:
            pairs.append((alias, player, origin))
    for alias, player, origin in pairs:
        earlier = aliases.get(key(alias))
        if earlier is not None and key(earlier[0]) != key(player):
            problems.at(
                origin,
                "alias",
                f"alias {alias!r} is given for two players: {earlier[0]!r} "
                f"({earlier[1].where('alias')}) and {player!r}; keep one",
            )
            continue
        if key(alias) in players and key(alias) != key(player):
            problems.at(
                origin,
                "alias",
                f"alias {alias!r} is also a player listed at "
                f"{players[key(alias)].where('player')}: one name cannot be two players",
            )
            continue
        if earlier is None:
            aliases[key(alias)] = (player, origin)
            kept[alias] = player
    return kept, tuple(listed), sections
