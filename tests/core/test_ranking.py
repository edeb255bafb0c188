"""Ranking by total and the tie-break chain, as the module docstring of
:mod:`xlrally.core.ranking` states the rule: sorted by (total, each tie-break's key), names
keeping their order among equals (issue 33 made the tie-break keys only for players who share
a total; the order must be the rule's)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from xlrally.core.ranking import TIE_BREAKS, Entry, Score, rank_entries

EVENTS = ["E1", "E2", "E3", "E4"]


@st.composite
def entries(draw: st.DrawFn) -> list[Entry]:
    """Players with few distinct scores (so that totals and tie-break keys often tie)."""
    names = draw(st.lists(st.sampled_from("ABCDEFGHIJ"), unique=True, min_size=1, max_size=10))
    made = []
    for name in names:
        played = draw(st.lists(st.sampled_from(EVENTS), unique=True, max_size=4))
        scores = tuple(
            Score(e, draw(st.sampled_from([0, 1, 2, 2.5]))) for e in EVENTS if e in played
        )
        counted = frozenset(draw(st.lists(st.sampled_from(played), unique=True)) if played else [])
        total = sum(s.value for s in scores if s.event in counted)
        made.append(Entry(name, total, scores, counted))
    return made


def rule_order(rows: list[Entry], chain: tuple[str, ...]) -> list[tuple[str, tuple[object, ...]]]:
    """Each player and their full key, by the rule written out: the total rounded to 9
    places, then for each tie-break, larger first: countback (counted scores, best first),
    recent (the score in each event from the newest, -inf where not played), events (how
    many played), best (the best score); names order players whose keys are all equal."""

    def key(e: Entry) -> tuple[object, ...]:
        parts: list[object] = [round(e.total, 9)]
        by_event = {s.event: round(s.value, 9) for s in e.scores}
        for name in chain:
            if name == "countback":
                parts.append(sorted((by_event[ev] for ev in e.counted), reverse=True))
            elif name == "recent":
                parts.append([by_event.get(ev, float("-inf")) for ev in reversed(EVENTS)])
            elif name == "events":
                parts.append(len(e.scores))
            else:
                parts.append(max(by_event.values(), default=float("-inf")))
        return tuple(parts)

    by_name = sorted(rows, key=lambda e: (e.player.casefold(), e.player))
    ranked = sorted(by_name, key=key, reverse=True)
    return [(e.player, key(e)) for e in ranked]


@given(entries(), st.lists(st.sampled_from(sorted(TIE_BREAKS)), unique=True, max_size=3))
@settings(max_examples=300, deadline=None)
def test_ranking_follows_the_rule(rows: list[Entry], chain: list[str]) -> None:
    """Order, shared ranks and the tie-break that separated each row are the rule's."""
    ranked = rank_entries(rows, tuple(chain), EVENTS)
    expected = rule_order(rows, tuple(chain))
    assert [r.player for r in ranked] == [player for player, _ in expected]
    keys = [key for _, key in expected]
    for index, row in enumerate(ranked):
        above = keys[index - 1] if index else None
        below = keys[index + 1] if index + 1 < len(keys) else None
        assert row.tied == (keys[index] in (above, below))
        first_equal = next(i for i, k in enumerate(keys) if k == keys[index])
        assert row.rank == first_equal + 1
        if above is None or above[0] != keys[index][0]:
            assert row.decided_by is None
        else:
            differ = [
                n for n, a, k in zip(chain, above[1:], keys[index][1:], strict=True) if a != k
            ]
            assert row.decided_by == (TIE_BREAKS[differ[0]] if differ else "tied")
