"""Player identity: which spellings are one player, and which look like one but are not merged.

* Names match after trimming, collapsing inner spaces and case-folding (``" john  SMITH"`` is
  ``"John Smith"``).
* An alias table maps other spellings to one player (``"Jon Smith" -> "John Smith"``).
* Likely duplicates are reported as warnings and never merged: names equal but for accents and
  punctuation (``José`` / ``Jose``, ``O'Neil`` / ``ONeil``), or with the same surname and
  matching first initial where one side gives only the initial (``J Smith`` / ``John Smith``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache


@lru_cache(maxsize=65536)
def key(name: str) -> str:
    """The matching key of a name: trimmed, inner spaces collapsed, case-folded.

    >>> key("  John   SMITH ") == key("john smith")
    True
    """
    return " ".join(name.split()).casefold()


def tidy(name: str) -> str:
    """A name as shown: trimmed with inner spaces collapsed."""
    return " ".join(name.split())


_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv", "v", "junior", "senior"})
"""What may follow a comma in a name written first name first (``John Smith, Jr.``)."""


def flipped(name: str) -> str | None:
    """A name written surname first (``Grant, Oliver``, as pairing programs and printouts
    list players) as first name first (``Oliver Grant``); None for any other name: no comma,
    more than one, a side left blank, or a suffix after it (``John Smith, Jr.``).

    >>> flipped("Grant, Oliver"), flipped("Oliver Grant"), flipped("John Smith, Jr.")
    ('Oliver Grant', None, None)
    """
    surname, comma, first = name.partition(",")
    if not comma or "," in first or not surname.strip() or not first.strip():
        return None
    if first.strip().rstrip(".").casefold() in _SUFFIXES:
        return None
    return tidy(f"{first} {surname}")


def _cased(name: str) -> bool:
    """Written with capitals and small letters (not all small, not all capitals)."""
    return name != name.lower() and name != name.upper()


def shown_name(spellings: Iterable[tuple[str, int]], listed: str | None = None) -> str:
    """The name shown for a player: the Players sheet's spelling (``listed``); else, of the
    spellings their results use (``(spelling, results)`` in the order entered), one written
    with capitals and small letters before one all small or all capitals (``Mikhail Tal``
    before ``mikhail tal``), then the one used most, then the first entered. Each tidied.

    >>> shown_name([(" mikhail  tal ", 3), ("Mikhail Tal", 1)])
    'Mikhail Tal'
    >>> shown_name([("Mikhail Tal", 1)], listed="Mikhail TAL")
    'Mikhail TAL'
    """
    if listed is not None:
        return tidy(listed)
    counts: dict[str, int] = {}
    for spelling, results in spellings:
        shown = tidy(spelling)
        counts[shown] = counts.get(shown, 0) + results
    order = {name: n for n, name in enumerate(counts)}
    return max(counts, key=lambda name: (_cased(name), counts[name], -order[name]))


def _loose(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", key(name))
    return "".join(c for c in decomposed if c.isalnum() or c == " ").strip()


@dataclass(frozen=True)
class Roster:
    """Canonical players and their aliases: alias key -> canonical display name.
    ``surname_first``: a name written ``Grant, Oliver`` is Oliver Grant (:func:`flipped`)."""

    aliases: Mapping[str, str] = field(default_factory=dict)
    surname_first: bool = False

    def spelling(self, name: str) -> str:
        """The spelling this name stands for: its alias's player, or, surname first, the
        name first name first."""
        k = key(name)
        if k in self.aliases:
            return self.aliases[k]
        turned = flipped(name) if self.surname_first else None
        if turned is None:
            return name
        return self.aliases.get(key(turned), turned)

    def resolve(self, name: str) -> str:
        """The key of the player this spelling means (after aliases)."""
        return key(self.spelling(name))

    def display(self, name: str) -> str:
        """The name to show for this spelling: the canonical one if it is an alias."""
        return tidy(self.spelling(name))


def likely_duplicates(names: Iterable[str]) -> list[tuple[str, str]]:
    """Pairs of distinct players whose names look like the same person (never merged).

    Only names sharing a surname (last word, loosely compared) are compared, so this stays fast
    for thousands of players.

    A name written surname first (``Grant, Oliver``) is compared first name first.

    >>> likely_duplicates(["J Smith", "John Smith", "Jane Doe", "José Silva", "Jose Silva"])
    [('J Smith', 'John Smith'), ('José Silva', 'Jose Silva')]
    >>> likely_duplicates(["Oliver Grant", "Grant, Oliver"])
    [('Oliver Grant', 'Grant, Oliver')]
    """
    by_surname: dict[str, list[tuple[str, list[str]]]] = {}
    seen: set[str] = set()
    for name in names:
        shown = tidy(name)
        if key(shown) in seen:
            continue
        seen.add(key(shown))
        words = _loose(flipped(shown) or shown).split()  # Grant, Oliver as Oliver Grant
        by_surname.setdefault(words[-1] if words else "", []).append((shown, words))
    found: list[tuple[int, int, int]] = []  # (surname group, first index, second index)
    for rank, group in enumerate(by_surname.values()):
        found.extend((rank, i, j) for i, j in _matching_pairs(group))
    found.sort()
    groups = list(by_surname.values())
    return [(groups[g][i][0], groups[g][j][0]) for g, i, j in found]


def _matching_pairs(group: list[tuple[str, list[str]]]) -> list[tuple[int, int]]:
    """Index pairs (i < j) of one surname's names that look alike, without comparing every pair:
    alike names are equal when loosely spelled, or share a first letter where one first name is
    an initial, so names are blocked by their loose words and by their first letter."""
    pairs: set[tuple[int, int]] = set()
    same: dict[tuple[str, ...], list[int]] = {}
    by_letter: dict[str, list[int]] = {}
    initials: list[int] = []
    for index, (_, words) in enumerate(group):
        same.setdefault(tuple(words), []).append(index)
        if len(words) >= 2:
            by_letter.setdefault(words[0][0], []).append(index)
            if len(words[0]) == 1:
                initials.append(index)
    for indices in same.values():
        pairs.update((a, b) for n, a in enumerate(indices) for b in indices[n + 1 :])
    for index in initials:
        letter = group[index][1][0][0]
        pairs.update((min(index, o), max(index, o)) for o in by_letter[letter] if o != index)
    return sorted(pairs)


def likely_typos(names: Iterable[str]) -> list[tuple[str, str]]:
    """Pairs of distinct players whose names differ by one typing slip in one word, the other
    words equal: one letter added, dropped, changed, or two neighbours swapped (a
    Damerau-Levenshtein distance of 1), in a word of at least 3 letters and no digits
    (``Oliver Gran`` / ``Oliver Grant``, ``Jon Smith`` / ``John Smith``, ``Hanna`` /
    ``Hannah``). Compared loosely
    (case, accents and punctuation aside); pairs :func:`likely_duplicates` finds are left out.

    Linear in the number of names: the one-slip neighbours are found among the distinct words
    only (a few thousand, however many players), each word filed under every spelling of it
    with one letter deleted (the symmetric-delete idea of SymSpell, Wolf Garbe 2012); then each
    name looks up its neighbours' names.

    >>> likely_typos(["Oliver Grant", "Oliver Gran", "Owen Hughes", "Owen Hughs", "Ann Lee"])
    [('Oliver Grant', 'Oliver Gran'), ('Owen Hughes', 'Owen Hughs')]
    """
    shown: dict[tuple[str, ...], int] = {}
    display: list[str] = []
    for name in names:
        words = tuple(_loose(tidy(name)).split())
        if words and words not in shown:
            shown[words] = len(display)
            display.append(tidy(name))
    # Only words of letters: 'Player 0001' and 'Player 0002', 'Team 1' and 'Team 7' are
    # numbered on purpose, not mistyped.
    neighbours = _one_slip_neighbours(
        {w for words in shown for w in words if len(w) >= 3 and w.isalpha()}
    )
    pairs: set[tuple[int, int]] = set()
    for words, index in shown.items():
        for position, word in enumerate(words):
            for other in neighbours.get(word, ()):
                partner = shown.get((*words[:position], other, *words[position + 1 :]))
                if partner is not None:
                    pairs.add((min(index, partner), max(index, partner)))
    return [(display[i], display[j]) for i, j in sorted(pairs)]


def _one_slip_neighbours(words: set[str]) -> dict[str, list[str]]:
    """For each word, the others one typing slip away (Damerau-Levenshtein distance 1)."""
    filed: dict[str, list[str]] = {}
    for word in words:
        for variant in {word, *(word[:i] + word[i + 1 :] for i in range(len(word)))}:
            filed.setdefault(variant, []).append(word)
    neighbours: dict[str, list[str]] = {}
    for group in filed.values():
        for n, a in enumerate(group):
            for b in group[n + 1 :]:
                if _one_slip(a, b) and b not in neighbours.get(a, ()):
                    neighbours.setdefault(a, []).append(b)
                    neighbours.setdefault(b, []).append(a)
    return neighbours


def _one_slip(x: str, y: str) -> bool:
    """Whether two distinct words are a Damerau-Levenshtein distance of 1 apart."""
    if len(x) == len(y):
        slips = [i for i in range(len(x)) if x[i] != y[i]]
        if len(slips) == 1:
            return True  # one letter changed
        swapped = len(slips) == 2 and slips[1] == slips[0] + 1
        return swapped and (x[slips[0]], x[slips[1]]) == (y[slips[1]], y[slips[0]])
    if abs(len(x) - len(y)) != 1:
        return False
    short, long = (x, y) if len(x) < len(y) else (y, x)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
