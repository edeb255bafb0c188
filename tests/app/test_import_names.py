"""The import's warnings about new players that look like known ones: comparing a few new names
only with the known names that share a word with them (or are one word) finds every pair that
comparing them with everyone finds (`likely_duplicates` pairs share a surname, `likely_typos`
pairs all words but one)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from xlrally.app.importer.incoming import Incoming
from xlrally.app.importer.names import matching, resolve
from xlrally.core.players import key, likely_duplicates, likely_typos

WORDS = ["Ann", "Anne", "Ben", "José", "Jose", "J", "Smith", "Smyth", "Smit", "Lee", "Li", "O'Neil"]
WORDS += ["ONeil", "Grant", "Gran", "Müller", "Muller", "Hughes", "Hughs", "Zoë", "Zoe", "Kim"]
NAMES = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)


@settings(derandomize=True, database=None, max_examples=200, deadline=None)
@given(
    known=st.lists(NAMES, min_size=45, max_size=70, unique_by=key), new=st.lists(NAMES, max_size=2)
)
def test_a_few_new_names_are_compared_with_every_name_they_could_look_like(
    known: list[str], new: list[str]
) -> None:
    """The warnings with the comparison narrowed are those of comparing with everyone."""
    fresh = [n for n in dict.fromkeys(new, None) if matching(n) not in {matching(k) for k in known}]
    fresh = list({key(n): n for n in fresh}.values())
    incoming = Incoming(
        "E",
        None,
        None,
        tuple({"player": n} for n in fresh),
        tuple((n,) for n in fresh),
    )
    _, found_new, warnings = resolve(incoming, {matching(k): k for k in known}, {})
    everyone = list(dict.fromkeys([*known, *found_new]))
    keys = {key(n) for n in found_new}
    expected = [
        (a, b) if key(a) in keys else (b, a)
        for a, b in likely_duplicates(everyone) + likely_typos(everyone)
        if (key(a) in keys) != (key(b) in keys)
    ]
    said = [f"new player {n!r} looks like {o!r} (0 results)" for n, o in expected]
    assert [w.split(": if they")[0] for w in warnings] == said
