"""Look-alike names: one-letter typos are warned about (never merged), also at scale."""

from __future__ import annotations

import datetime as dt
import random
import string
from pathlib import Path

import pytest

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.players import _one_slip, likely_duplicates, likely_typos

CENSUS = Path(__file__).resolve().parents[1] / "data" / "census_1990_names.txt"


def census(kind: str) -> list[str]:
    return [
        line.split()[1]
        for line in CENSUS.read_text(encoding="utf-8").splitlines()
        if line.startswith(kind + " ")
    ]


@pytest.mark.parametrize(
    ("right", "typed"),
    [
        ("Oliver Grant", "Oliver Gran"),  # a letter dropped (issue 13)
        ("Owen Hughes", "Owen Hughs"),
        ("John Smith", "Jon Smith"),
        ("Hannah Berg", "Hanna Berg"),
        ("Tom Kowalski", "Tom Kowalsky"),  # a letter changed
        ("Maria Lopez", "Mraia Lopez"),  # two neighbours swapped
        ("Ann Lee", "Ann Leee"),  # a letter added
    ],
)
def test_one_slip_is_a_likely_typo(right: str, typed: str) -> None:
    assert likely_typos([right, "Somebody Else", typed]) == [(right, typed)]


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Ann Lee", "Ann Lim"),  # two letters apart
        ("Al Smith", "Ed Smith"),  # short first names: too little to go on
        ("Oliver Grant", "Olive Grunt"),  # a slip in each word
        ("Mary Ann Smith", "Mary Smith"),  # a word more
    ],
)
def test_different_names_are_not(one: str, other: str) -> None:
    assert likely_typos([one, other]) == []


def typo(name: str, rnd: random.Random) -> str:
    """One random typing slip in one word of ``name`` (of 3 letters or more)."""
    words = name.split()
    position = rnd.choice([i for i, w in enumerate(words) if len(w) >= 3])
    word = words[position]
    i = rnd.randrange(len(word))
    letter = rnd.choice(string.ascii_lowercase)
    kind = rnd.choice(["drop", "add", "change", "swap"])
    if kind == "drop":
        word = word[:i] + word[i + 1 :]
    elif kind == "add":
        word = word[:i] + letter + word[i:]
    elif kind == "change":
        word = word[:i] + letter + word[i + 1 :]
    elif i < len(word) - 1:
        word = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    words[position] = word
    return " ".join(words)


def test_random_one_slip_typos_in_random_leagues_are_warned() -> None:
    """Issue 13's property: in random leagues of 300 real-looking names (1990 US Census first
    names and surnames), a random one-slip typo of one player's name is warned about (as a
    typo or a look-alike) in at least 95% of the cases where it is a new name at all."""
    rnd = random.Random(2026)
    first, last = census("first"), census("last")
    warned = tried = 0
    for _ in range(400):
        # sorted: a set's order changes with each process's string hashing, the draws must not
        names = sorted({f"{rnd.choice(first)} {rnd.choice(last)}" for _ in range(300)})
        right = rnd.choice([n for n in names if max(map(len, n.split())) >= 3])
        typed = typo(right, rnd)
        if typed.casefold() in {n.casefold() for n in names}:
            continue  # the slip made another player's name (or none): nothing to see
        tried += 1
        pairs = likely_typos([*names, typed]) + likely_duplicates([*names, typed])
        warned += any({right, typed} == set(pair) for pair in pairs)
    print(f"warned about {warned} of {tried} random typos")
    assert tried > 350
    assert warned >= 0.95 * tried


def test_the_typo_check_compares_words_not_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 11/13: checks must stay linear (100,000 players). The word comparisons of the
    typo check depend on the distinct words, not on the number of players: ten times the
    players over the same words make no more comparisons (counted, not timed)."""
    from xlrally.core import players

    calls = 0
    original = players._one_slip

    def counting(x: str, y: str) -> bool:
        nonlocal calls
        calls += 1
        return original(x, y)

    monkeypatch.setattr(players, "_one_slip", counting)
    rnd = random.Random(7)
    first, last = census("first")[:200], census("last")[:300]
    everyone = sorted({f"{f} {m}. {s}" for f in first for m in "ABCDEFGHJK" for s in last})
    rnd.shuffle(everyone)
    few = everyone[:5_000]
    many = everyone[:50_000]
    assert {w for n in few for w in n.split()} == {w for n in many for w in n.split()}
    likely_typos(few)
    with_few, calls = calls, 0
    likely_typos(many)
    assert calls == with_few


def test_numbered_names_are_not_typos() -> None:
    """'Player 0001' / 'Player 0002' and 'Guest 1' / 'Guest 7' are numbered on purpose."""
    assert likely_typos(["Player 0001", "Player 0002", "Guest 1", "Guest 7", "Team A1"]) == []


@pytest.mark.parametrize(
    ("x", "y", "slip"),
    [
        ("grant", "grent", True),  # one letter changed
        ("grant", "gran", True),  # one dropped
        ("gran", "grant", True),  # one added
        ("grant", "grnat", True),  # two neighbours swapped
        ("grant", "gratn", True),  # the last two swapped
        ("karon", "narok", False),  # first and last swapped: two slips, not neighbours
        ("abcd", "badc", False),  # two swaps
        ("grant", "grunty", False),  # a letter changed and one added
        ("ab", "abcd", False),  # two added
        ("grant", "gnart", False),  # r and n trade places across the a: two changes
    ],
)
def test_one_slip_is_a_damerau_levenshtein_distance_of_1(x: str, y: str, slip: bool) -> None:
    """The definition in likely_typos' docstring, case by case (Damerau 1964: insertion,
    deletion, substitution, or transposition of two adjacent letters)."""
    assert _one_slip(x, y) is slip
    assert _one_slip(y, x) is slip


def test_a_name_listed_twice_is_one_name_and_the_names_after_it_are_still_compared() -> None:
    assert likely_duplicates(["John Smith", "john  smith", "J Smith", "!!!", "Ann Lee"]) == [
        ("John Smith", "J Smith")
    ]


def test_a_look_alike_is_warned_about_unless_both_names_are_listed() -> None:
    """Players lists 'Oliver Grant' only: 'Oliver Gran' in the results may be a typo of him,
    so it is warned about, with each spelling's results counted (3 and 1)."""
    events = tuple(Event(f"W{n}", dt.date(2026, 1, n)) for n in range(1, 5))
    ranks = [("W1", "Oliver Grant"), ("W2", "Oliver Grant"), ("W3", "Oliver Grant")]
    results = tuple(Result(e, p, rank=1) for e, p in [*ranks, ("W4", "Oliver Gran")])
    league = League(Settings("reverse"), events, results, players=("Oliver Grant",))
    assert compute_standings(league).warnings == (
        "'Oliver Grant' (3 results, first in W1) and 'Oliver Gran' (1 result, first in W4) "
        "differ by one letter: if they are one player, add an alias in the Players sheet; if "
        "two, list both names there",
    )
    both = League(Settings("reverse"), events, results, players=("Oliver Grant", "Oliver Gran"))
    assert compute_standings(both).warnings == ()
