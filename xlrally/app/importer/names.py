"""The file's names as the league knows them: its players, spellings and aliases, and the new
players (warned about when they look like a known one: a misspelling caught at the door)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

from xlrally.app.importer.incoming import Incoming
from xlrally.core.errors import XlrallyError
from xlrally.core.model import League
from xlrally.core.players import key, likely_duplicates, likely_typos, tidy
from xlrally.core.words import plural
from xlrally.ooxml.in_place import Written

_COMMA = re.compile(r"\s*,\s*")


def matching(name: str) -> str:
    """The key a name is matched by on import: as the league matches names (case and spaces
    ignored), and a comma with or without spaces around it the same (``Smith,Ann`` is
    ``Smith, Ann``, as pairing programs write the standard's ``Lastname, Firstname``)."""
    return key(_COMMA.sub(", ", name))


def _words(name: str) -> list[str]:
    """A name's words as :func:`~xlrally.core.players.likely_typos` and
    :func:`~xlrally.core.players.likely_duplicates` compare them: case, accents and
    punctuation aside."""
    folded = key(name)
    if folded.isascii():
        return _NOT_ASCII_WORD.sub("", folded).split()
    decomposed = unicodedata.normalize("NFKD", folded)
    return "".join(c for c in decomposed if c.isalnum() or c == " ").split()


_NOT_ASCII_WORD = re.compile(r"[^0-9a-z ]")
"""What is not a letter, digit or space in a case-folded ASCII name."""


def known_names(league: League, written: Iterable[str]) -> dict[str, str]:
    """Every name the league knows by :func:`matching` key -> the player's name: the names of
    its results (``written``, as the cells hold them), the Players sheet's and its aliases'."""
    known = {matching(p): tidy(p) for p in written if p}
    known.update({matching(p): tidy(p) for p in league.players})
    known.update({matching(alias): tidy(player) for alias, player in league.aliases.items()})
    return known


def resolve(
    incoming: Incoming, known: Mapping[str, str], counts: Mapping[str, int]
) -> tuple[tuple[dict[str, Written], ...], tuple[str, ...], tuple[str, ...]]:
    """The results with each name as the league knows it, the new players, and warnings for
    new names that look like known ones. ``counts``: results per player (by :func:`key`)."""
    resolved = []
    new = []
    seen: dict[str, str] = {}
    for values, spellings in zip(incoming.results, incoming.spellings, strict=True):
        name = next((known[k] for s in spellings if (k := matching(s)) in known), None)
        if name is None:
            name = str(values["player"])
            new.append(name)
        if key(name) in seen:
            raise XlrallyError(
                f"{name} is in the file twice ({seen[key(name)]!r} and {spellings[0]!r})"
            )
        seen[key(name)] = spellings[0]
        resolved.append({**values, "player": name})
    fresh = {key(n) for n in new}
    warnings: list[str] = []
    if not new:
        return tuple(resolved), (), ()
    # A known name can look like a new one only if they share a word (a surname, or all words
    # but the one mistyped), or both are one word: with a few new names among many, the
    # others need not be compared.
    alike = list(known.values())
    if len(new) * 20 < len(alike):
        words = {w for n in new for w in _words(n)}
        alike = [n for n in alike if len(_words(n)) == 1 or words & set(_words(n))]
    everyone = list(dict.fromkeys([*alike, *new]))
    for a, b in likely_duplicates(everyone) + likely_typos(everyone):
        if (key(a) in fresh) == (key(b) in fresh):
            continue
        newcomer, old = (a, b) if key(a) in fresh else (b, a)
        warnings.append(
            f"new player {newcomer!r} looks like {old!r} "
            f"({plural(counts.get(key(old), 0), 'result')}): "
            f"if they are one player, put {newcomer!r} as an Alias of {old!r} in Players"
        )
    return tuple(resolved), tuple(new), tuple(warnings)
