"""Issue 18: rules whose deliberate breaking no test noticed (mutants that survived), each now
checked against its rule, with the numbers worked by hand.

Dip Pouch (seed: percentile (N + 0.5 − place) / N × 100; value N / 7 + 2 for a one-round
event, 20 for a World Championship, 0 before 2001; new = old + value% × (percentile − old)).
"""

from __future__ import annotations

import datetime as dt

import pytest

from xlrally.core.errors import LeagueProblems
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.formats.cells import DATE_1904, to_bool, to_date

D = dt.date


def rating(events: tuple[Event, ...], places: dict[str, int], as_of: D | None = None) -> float:
    results = tuple(Result(event, "Ann", rank=place) for event, place in places.items())
    [row] = compute_standings(League(Settings("dippouch"), events, results), as_of).rows
    return row.total


def test_events_listed_out_of_date_order_are_rated_in_date_order() -> None:
    """A (2005, 7 players, one round: value 3), Ann 1st: percentile (7.5 − 1) / 7 = 92.857;
    B (2006, same), Ann 7th: (7.5 − 7) / 7 = 7.143. In date order: 40 + 3% × 52.857 = 41.5857,
    then 41.5857 + 3% × (7.143 − 41.5857) = 40.5524. (The order listed, B first, would give
    40.6296.)"""
    later = Event("B", D(2006, 1, 1), rounds=1, players=7)
    earlier = Event("A", D(2005, 1, 1), rounds=1, players=7)
    assert rating((later, earlier), {"A": 1, "B": 7}) == pytest.approx(40.5524, abs=1e-4)


def test_a_world_championship_is_worth_20() -> None:
    """8 players, Ann 1st: percentile (8.5 − 1) / 8 = 93.75; value 20: 40 + 20% × 53.75 =
    50.75 (as an ordinary event, 8 / 3.5 + 2 = 4.29, it would be 42.30)."""
    wc = Event("WDC", D(2010, 8, 1), players=8, world_championship=True)
    assert rating((wc,), {"WDC": 1}) == pytest.approx(50.75)


def test_2001_is_the_first_year_that_counts() -> None:
    """An event of 2001 counts (7 players, one round: value 3; Ann 1st: 41.5857); one of
    2000 is worth 0 (rating stays 40)."""
    assert rating((Event("E", D(2001, 1, 1), rounds=1, players=7),), {"E": 1}) == pytest.approx(
        41.5857, abs=1e-4
    )
    assert rating((Event("E", D(2000, 12, 31), rounds=1, players=7),), {"E": 1}) == 40


def test_as_of_includes_the_day_itself() -> None:
    """`--as-of 2005-01-01` includes an event of that date (41.5857, above); the day before
    leaves it out: nothing is rated, so nobody is listed."""
    event = Event("A", D(2005, 1, 1), rounds=1, players=7)
    assert rating((event,), {"A": 1}, as_of=D(2005, 1, 1)) == pytest.approx(41.5857, abs=1e-4)
    results = (Result("A", "Ann", rank=1),)
    before = compute_standings(League(Settings("dippouch"), (event,), results), D(2004, 12, 31))
    assert before.rows == ()


@pytest.mark.parametrize(
    ("serial", "day"),
    [
        (45292, D(2024, 1, 1)),  # Excel shows 45292 as 1 January 2024
        (1, D(1900, 1, 1)),
        (59, D(1900, 2, 28)),
        (61, D(1900, 3, 1)),  # after Lotus's phantom 29 February 1900 (serial 60)
    ],
)
def test_excel_serial_dates_are_the_calendar_dates_excel_shows(serial: int, day: D) -> None:
    assert to_date(float(serial)) == day


def test_the_1904_date_system() -> None:
    """In a 1904-system workbook serial 0 is 1 January 1904, and 43830 is 1 January 2024
    (45292 − 1,462 days)."""
    assert to_date(43830.0, epoch=DATE_1904) == D(2024, 1, 1)


@pytest.mark.parametrize("text", ["x", "X", "yes", "Y", "TRUE", "1"])
def test_yes_marks(text: str) -> None:
    """A World Championship column may be marked with x, yes, y, TRUE or 1."""
    assert to_bool(text, "world championship") is True


# ---------------------------------------------------------------- the league and tie-breaks


def problems(league: League) -> list[str]:
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(league)
    return [str(p) for p in caught.value.problems]


def test_one_missing_rank_is_an_error_not_an_unranked_event() -> None:
    """An event is "not ranked" only when no result has a rank yet; one missing is a mistake."""
    results = (
        Result("W1", "Ann", rank=1),
        Result("W1", "Bea", rank=None),
        Result("W1", "Cy", rank=2),
    )
    assert problems(League(Settings("reverse"), (Event("W1"),), results)) == [
        "event 'W1', player 'Bea': rank is missing"
    ]


def test_a_players_own_buy_in_beats_the_events() -> None:
    """Neau, 2 players, event buy-in 20; Ann paid 40 (her own Buy-in), no re-buys, 1st:
    √(2 × 40 × 40 / 40) / 2 = √80 / 2 = 4.4721 (with the event's 20 it would be √40 / 2 =
    3.1623). Bea, 2nd at 20: √(2 × 20 × 20 / 20) / 3 = 2.1082."""
    results = (Result("N1", "Ann", rank=1, buy_in=40), Result("N1", "Bea", rank=2))
    standings = compute_standings(League(Settings("neau"), (Event("N1", buy_in=20),), results))
    totals = {row.player: row.total for row in standings.rows}
    assert totals == pytest.approx({"Ann": 80**0.5 / 2, "Bea": 40**0.5 / 3})


def test_a_faulty_event_is_reported_once_and_not_scored() -> None:
    """Players 'many' is refused on the event; its results are not scored (which would report
    the same field again for every result)."""
    results = (Result("W1", "Ann", rank=1), Result("W1", "Bea", rank=2))
    assert problems(League(Settings("reverse"), (Event("W1", players="many"),), results)) == [
        "event 'W1': players must be a number, not 'many'"
    ]


def tie(
    scores_a: list[float], scores_b: list[float], tie_break: str, best: int | None
) -> list[str]:
    """Ann and Bea in a rally of three 4-round events (W1-W3, their points in order); the
    standings as rank labels."""
    events = tuple(Event(f"W{n}", D(2026, 1, n), rounds=4) for n in range(1, 4))
    results = []
    for player, scores in (("Ann", scores_a), ("Bea", scores_b)):
        for n, points in enumerate(scores, start=1):
            results.append(Result(f"W{n}", player, points=points))
    settings = Settings("rally", best_x=best, tie_breaks=(tie_break,))
    league = League(
        settings, tuple(Event(e.name, e.date, rounds=4) for e in events), tuple(results)
    )
    return [f"{r.rank_label} {r.player}" for r in compute_standings(league).rows]


def test_countback_compares_the_counted_scores_only() -> None:
    """Best 2 count. Ann 4, 2, 0.5 points → 104, 54, 16 (⌊100 × p / 4⌋ + 4); Bea 4, 2, 1.5 →
    104, 54, 41. Both count 104 + 54 = 158; the counted scores are the same, so countback
    cannot part them (over all scores, Bea's dropped 41 would put her first)."""
    assert tie([4, 2, 0.5], [4, 2, 1.5], "countback", 2) == ["1= Ann", "1= Bea"]


def test_more_events_counts_events_played_not_counted() -> None:
    """Best 1 counts. Ann 104 and 4 (0 points) in 2 events; Bea 104 in 1. Both total 104;
    Ann played more events, so she is first."""
    assert tie([4, 0], [4], "events", 1) == ["1 Ann", "2 Bea"]


def test_between_equal_scores_the_earlier_event_counts() -> None:
    """Best 1 counts, Ann scores 79 in both events. "Zeta" was held first (1 January),
    "Alpha" later: Zeta's is the one counted, whatever the names' order."""
    events = (Event("Alpha", D(2026, 2, 1), rounds=4), Event("Zeta", D(2026, 1, 1), rounds=4))
    results = (Result("Alpha", "Ann", points=3), Result("Zeta", "Ann", points=3))
    [row] = compute_standings(League(Settings("rally", best_x=1), events, results)).rows
    assert row.counted == {"Zeta"}


# ---- found by the mutation run of 2026-11-30 (the core's own functions, called directly)


def test_rating_history_takes_an_event_on_the_as_of_day() -> None:
    """`--as-of 2006-01-01` means "as it stood at the end of that day": an event dated that day
    counts (7 players, one round: value 3; Ann 1st: 40 + 3% × (92.857 − 40) = 41.5857)."""
    from xlrally.core.systems.dippouch import DipEvent, rating_history

    event = DipEvent("A", D(2006, 1, 1), 7, 1, False, {"ann": 1})
    [step] = rating_history([event], as_of=D(2006, 1, 1))["ann"]
    assert step.after == pytest.approx(41.5857, abs=1e-4)
    assert rating_history([event], as_of=D(2005, 12, 31)) == {}


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (1, "1st"),
        (10, "10th"),
        (11, "11th"),
        (20, "20th"),
        (21, "21st"),
        (111, "111th"),
        (112, "112th"),
        (211, "211th"),
        (1001, "1001st"),
    ],
)
def test_ordinals_in_english(n: int, text: str) -> None:
    """11-13 of every hundred take "th" (111th, 211th), other endings in 1, 2, 3 do not."""
    from xlrally.core.systems.dippouch import ordinal

    assert ordinal(n) == text


def test_the_least_each_number_may_be() -> None:
    """A placement, a field, rounds and an events cap start at 1; a buy-in is more than 0."""
    from xlrally.core.errors import ScoringError
    from xlrally.core.systems.dippouch import percentile, tournament_value
    from xlrally.core.systems.poker import neau_points
    from xlrally.core.systems.rally import events_counted

    with pytest.raises(ScoringError, match="rank must be at least 1"):
        percentile(0, 10)
    with pytest.raises(ScoringError, match="players must be at least 1"):
        tournament_value(0)
    with pytest.raises(ScoringError, match="rounds must be at least 1"):
        tournament_value(10, rounds=0)
    with pytest.raises(ScoringError, match="events cap must be at least 1"):
        events_counted(3, 0)
    with pytest.raises(ScoringError, match="buy-in must be more than 0"):
        neau_points(10, 0, None, 1)


def test_the_smallest_allowed_numbers_are_allowed() -> None:
    """An events cap of 1 counts ⌈(1 + 1) / 2⌉ = 1 event; a buy-in of 1 (10 players, no
    re-buys, 1st): √(10 × 1 × 1) / 2 = 1.5811; a one-round event of 1 player: 1 / 7 + 2."""
    from xlrally.core.systems.dippouch import tournament_value
    from xlrally.core.systems.poker import neau_points
    from xlrally.core.systems.rally import events_counted

    assert events_counted(5, 1) == 1
    assert neau_points(10, 1, None, 1) == pytest.approx(1.5811, abs=1e-4)
    assert tournament_value(1, rounds=1) == pytest.approx(1 / 7 + 2)


def test_a_look_alike_is_warned_about_unless_both_names_are_listed() -> None:
    """Players lists 'Oliver Grant' only: 'Oliver Gran' in the results may be a typo of him,
    so it is warned about, with each spelling's results counted (3 and 1)."""
    events = tuple(Event(f"W{n}", D(2026, 1, n)) for n in range(1, 5))
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


def test_numbers_of_other_kinds_follow_the_same_rules() -> None:
    """The functions take any real number, not only Python's int and float (a library may
    hand over its own kind): a Fraction stands for them here. The same bounds hold: the least
    allowed is allowed, a whole number is whole, and infinity is refused by name."""
    from fractions import Fraction

    from xlrally.core.errors import ScoringError
    from xlrally.core.numbers import real, whole

    assert whole(Fraction(1), "rounds", minimum=1) == 1
    assert whole(Fraction(0), "byes") == 0
    assert real(Fraction(3, 2), "points") == Fraction(3, 2)
    with pytest.raises(ScoringError) as caught:
        whole(Fraction(0), "rounds", minimum=1)
    assert (caught.value.message, caught.value.field) == (
        "rounds must be at least 1, not 0",
        "rounds",
    )
    with pytest.raises(ScoringError) as caught:
        real(float("inf"), "points")
    assert (caught.value.message, caught.value.field) == (
        "points must be a finite number, not inf",
        "points",
    )
    with pytest.raises(ScoringError) as caught:
        real(float("nan"), "total")
    assert caught.value.message == "total must be a finite number, not nan"
