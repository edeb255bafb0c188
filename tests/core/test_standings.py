"""Best-N, ranking, ties and tie-breaks, with hand-worked tables."""

from __future__ import annotations

import datetime as dt

import pytest

from xlrally.core.errors import XlrallyError
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.ranking import (
    Entry,
    Score,
    best_n,
    parse_tie_breaks,
    rank_entries,
)


def entry(player: str, *scores: tuple[str, float], counted: int | None = None) -> Entry:
    """An entry whose total is its best ``counted`` scores."""
    all_scores = tuple(Score(event, value) for event, value in scores)
    chosen = best_n(all_scores, counted)
    return Entry(
        player, sum(s.value for s in chosen), all_scores, frozenset(s.event for s in chosen)
    )


def table(rows: tuple[object, ...]) -> list[tuple[str, str, str | None]]:
    return [(r.rank_label, r.player, r.decided_by) for r in rows]  # type: ignore[attr-defined]


def test_best_n_takes_highest_and_earlier_on_equal() -> None:
    """Best 2 of 60, 70, 60: 70 then the earlier 60."""
    chosen = best_n([Score("A", 60), Score("B", 70), Score("C", 60)], 2)
    assert [s.event for s in chosen] == ["B", "A"]


def test_best_n_skips_ineligible_scores() -> None:
    """A score that can never count (worth 0) is not chosen even when it is the highest."""
    chosen = best_n([Score("A", 90, eligible=False), Score("B", 10)], None)
    assert [s.event for s in chosen] == ["B"]


def test_equal_totals_share_rank_and_next_rank_skips() -> None:
    """Standard competition ranking: 1, 2=, 2=, 4; tied rows listed by name."""
    rows = rank_entries(
        [
            entry("Cy", ("A", 50)),
            entry("Bo", ("A", 50)),
            entry("Al", ("A", 90)),
            entry("Di", ("A", 10)),
        ]
    )
    assert table(rows) == [
        ("1", "Al", None),
        ("2=", "Bo", None),  # separated from Al by total
        ("2=", "Cy", "tied"),
        ("4", "Di", None),
    ]


def test_countback_over_counted_scores() -> None:
    """Both 150 from best 2; Bo's counted 100 + 50 beats Al's 80 + 70 on the best score."""
    rows = rank_entries(
        [
            entry("Al", ("A", 80), ("B", 70), ("C", 10), counted=2),
            entry("Bo", ("A", 100), ("B", 50), counted=2),
        ],
        ["countback"],
        ["A", "B", "C"],
    )
    assert table(rows) == [("1", "Bo", None), ("2", "Al", "countback")]


def test_most_recent_event_breaks_tie() -> None:
    """Both 100; in the latest event C, Al scored 60 and Bo 40."""
    rows = rank_entries(
        [entry("Bo", ("A", 60), ("C", 40)), entry("Al", ("B", 40), ("C", 60))],
        ["recent"],
        ["A", "B", "C"],
    )
    assert table(rows) == [("1", "Al", None), ("2", "Bo", "most recent event")]


def test_most_recent_absent_player_loses() -> None:
    """Equal totals; Bo did not play the latest event, so Al is ahead."""
    rows = rank_entries([entry("Bo", ("A", 50)), entry("Al", ("B", 50))], ["recent"], ["A", "B"])
    assert table(rows) == [("1", "Al", None), ("2", "Bo", "most recent event")]


def test_more_events_then_best_single_score() -> None:
    """Chain 'events, best': equal totals and events, so the best single score decides."""
    rows = rank_entries(
        [
            entry("Al", ("A", 50), ("B", 50)),
            entry("Bo", ("A", 70), ("B", 30)),
            entry("Cy", ("A", 100)),
        ],
        ["events", "best"],
        ["A", "B"],
    )
    assert table(rows) == [
        ("1", "Bo", None),
        ("2", "Al", "best single score"),
        ("3", "Cy", "more events played"),
    ]


def test_chain_that_cannot_separate_leaves_a_tie() -> None:
    """Identical scores: still tied after every criterion, recorded as 'tied'."""
    rows = rank_entries(
        [entry("Bo", ("A", 50)), entry("Al", ("A", 50))],
        ["countback", "recent", "events", "best"],
        ["A"],
    )
    assert table(rows) == [("1=", "Al", None), ("1=", "Bo", "tied")]


def test_totals_compare_without_float_noise() -> None:
    """0.1 + 0.2 and 0.3 are the same total (a tie, not 1 and 2)."""
    rows = rank_entries([entry("Al", ("A", 0.1), ("B", 0.2)), entry("Bo", ("A", 0.3))])
    assert [r.rank_label for r in rows] == ["1=", "1="]


def test_parse_tie_breaks_spellings() -> None:
    """Settings may spell criteria in words."""
    assert parse_tie_breaks(" Count back , More events played,best score ") == (
        "countback",
        "events",
        "best",
    )
    assert parse_tie_breaks("") == ()
    with pytest.raises(XlrallyError, match="unknown tie break 'age'"):
        parse_tie_breaks("age")


def test_a_long_shared_place_lists_its_first_places_and_its_last() -> None:
    """Eight players sharing 2nd-9th score the average of those places' points (here 10 down
    to 3: 52 / 8 = 6.5); the working lists the first five and the last, not every place (a
    tie of thousands would fill the sheet)."""
    from xlrally.core.adjustments import SharedPlace
    from xlrally.core.ranking import Score

    places = tuple(Score("W1", points, None) for points in (10, 9, 8, 7, 6, 5, 4, 3))
    assert SharedPlace(2, 8, places, 6.5).explain == (
        "2nd-9th shared by 8: average of 10 (2nd), 9 (3rd), 8 (4th), 7 (5th), 6 (6th), "
        "… 2 more places and 3 (9th) = 6.5"
    )
    assert SharedPlace(2, 3, places[:3], 9).explain == (
        "2nd-4th shared by 3: average of 10 (2nd), 9 (3rd) and 8 (4th) = 9"
    )


# ---------------------------------------------------------------- tie-break: most recent event


def test_recent_absent_from_the_latest_event_is_below_a_zero_in_it() -> None:
    """``recent`` compares the scores in the latest event held: a player who played it and
    scored 0 has a score there; one who was absent has none, and is below. (A rule that took
    absence as 0 would tie them, and list them by name: Al first.)"""
    rows = rank_entries(
        [
            Entry("Al", 50, (Score("A", 50),), frozenset({"A"})),
            Entry("Bo", 50, (Score("A", 50), Score("B", 0)), frozenset({"A", "B"})),
        ],
        ["recent"],
        ["A", "B"],
    )
    assert [(r.rank_label, r.player, r.decided_by) for r in rows] == [
        ("1", "Bo", None),
        ("2", "Al", "most recent event"),
    ]


def test_recent_in_a_league_a_player_who_scored_0_in_the_last_event() -> None:
    """Rally, best ⌈(2 + 1) / 2⌉ = 2 of the 2 events held (A, then B). Al: A 2 of 4 games,
    ⌊100 × 2 / 4⌋ + 4 = 54, absent from B. Bo: A the same 54, and entered B but played no
    game: ⌊100 × 0 / 4⌋ + 0 = 0. Both 54; Bo has a score in B, Al none: Bo is ahead."""
    events = (Event("A", dt.date(2026, 1, 10), rounds=4), Event("B", dt.date(2026, 2, 7), rounds=4))
    results = (
        Result("A", "Al", points=2, games=4),
        Result("A", "Bo", points=2, games=4),
        Result("B", "Bo", points=0, games=0),
    )
    league = League(Settings("rally", tie_breaks=("recent",)), events, results)
    rows = compute_standings(league).rows
    assert [(r.rank_label, r.player, r.total) for r in rows] == [("1", "Bo", 54), ("2", "Al", 54)]
    assert rows[1].decided_by == "most recent event"


# ---------------------------------------------------------------- tie-break: best single score


def test_best_single_score_counts_a_score_that_was_not_counted() -> None:
    """``best``: the best single score, counted or not. Al's best, 90, is not counted (an
    event that cannot count, as a Dip Pouch event of value 0); Bo's best is 70. Equal totals:
    Al is ahead on 90 > 70 (over counted scores only it would be Bo, 70 > 60)."""
    rows = rank_entries(
        [
            Entry("Al", 120, (Score("A", 90, eligible=False), Score("B", 60), Score("C", 60)),
                  frozenset({"B", "C"})),
            Entry("Bo", 120, (Score("A", 70), Score("B", 50)), frozenset({"A", "B"})),
        ],
        ["best"],
        ["A", "B", "C"],
    )  # fmt: skip
    assert [(r.player, r.decided_by) for r in rows] == [("Al", None), ("Bo", "best single score")]
