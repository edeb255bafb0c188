"""Issue 16: an event's Weight (points systems) and a Dip Pouch event's Value.

Every expected number is worked by hand from the seed formulas, with the working beside it.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from helpers import write_book

from xlrally.app.sync import read_standings
from xlrally.core.errors import LeagueProblems
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings

D = dt.date

# Bobby's season (seed examples): Dec 3 of 4 → ⌊100 × 3 / 4⌋ + 4 = 79; Feb 4 of 6 →
# ⌊100 × 4 / 6⌋ + 6 = 72; May: withdrew after one game with 1 point → ⌊100 × 1 / 5⌋ + 1 = 21.
# Three events held: ⌈(3 + 1) / 2⌉ = 2 scores count.
BOBBY = (
    Result("Dec 2025", "Bobby", points=3, games=4),
    Result("Feb 2026", "Bobby", points=4, games=6),
    Result("May 2026", "Bobby", points=1, games=1),
)


def rally(final_weight: object) -> League:
    events = (
        Event("Dec 2025", D(2025, 12, 6), rounds=4),
        Event("Feb 2026", D(2026, 2, 7), rounds=6),
        Event("May 2026", D(2026, 5, 9), rounds=5, weight=final_weight),
    )
    return League(Settings("rally"), events, BOBBY)


def test_a_weight_on_a_dropped_event_leaves_it_dropped() -> None:
    """May × 2 = 42, still below 72 and 79: 79 + 72 = 151, as without the weight."""
    [row] = compute_standings(rally(2)).rows
    assert row.total == 151
    assert row.counted == {"Dec 2025", "Feb 2026"}
    may = next(s for s in row.scores if s.event == "May 2026")
    assert may.value == 42
    assert may.explain == "100 × 1 / 5 + 1 = 21, × 2 (event weight) = 42"


def test_a_weight_can_make_an_event_count() -> None:
    """May × 4 = 84 beats Feb's 72: 84 + 79 = 163, and Feb is the one dropped."""
    [row] = compute_standings(rally(4)).rows
    assert row.total == 163
    assert row.counted == {"Dec 2025", "May 2026"}


def test_a_weight_of_one_changes_nothing() -> None:
    [row] = compute_standings(rally(1)).rows
    may = next(s for s in row.scores if s.event == "May 2026")
    assert (row.total, may.value, may.explain) == (151, 21, "100 × 1 / 5 + 1 = 21")


def test_a_double_points_poker_final() -> None:
    """Relative Reverse Order (players − rank + 1): Week 1 of 3, Ann 1st: 3. The final (weight
    2) of 3, Ann 2nd: (3 − 2 + 1) × 2 = 4; Cy wins it: 3 × 2 = 6. Ann 3 + 4 = 7, Cy 1 + 6 = 7."""
    events = (
        Event("Week 1", D(2026, 1, 8)),
        Event("Final", D(2026, 1, 15), weight=2),
    )
    places = {"Week 1": ("Ann", "Bea", "Cy"), "Final": ("Cy", "Ann", "Bea")}
    results = tuple(
        Result(event, name, rank=rank)
        for event, order in places.items()
        for rank, name in enumerate(order, start=1)
    )
    standings = compute_standings(League(Settings("reverse"), events, results))
    totals = {row.player: row.total for row in standings.rows}
    assert totals == {"Ann": 7, "Cy": 7, "Bea": 2 + 1 * 2}
    final = next(s for s in standings.rows if s.player == "Ann").scores[1]
    assert final.explain == "rank 2 of 3: (3 − 2 + 1) = 2, × 2 (event weight) = 4"


def stratagem(value: object = None) -> League:
    """Stratagem 2002 (WDD): 31 players, 5 rounds. One player 9th."""
    event = Event("Stratagem 2002", D(2002, 6, 1), rounds=5, players=31, value=value)
    return League(Settings("dippouch"), (event,), (Result("Stratagem 2002", "Ann", rank=9),))


def test_the_stratagem_2002_value_override_reproduces_the_wdd_page() -> None:
    """The rule gives 31 / 3.5 + 2 = 10.857; the WDD page shows 6.43 (31 / 7 + 2, the
    one-round formula). Percentile of 9th of 31: (31 + 0.5 − 9) / 31 × 100 = 72.5806.
    With the value 6.43 set: 40 + 6.43% × (72.5806 − 40) = 40 + 2.0949 = 42.0949.
    Computed: 40 + 10.857% × 32.5806 = 40 + 3.5373 = 43.5373."""
    [row] = compute_standings(stratagem(6.43)).rows
    assert row.total == pytest.approx(42.0949, abs=1e-4)
    assert row.scores[0].explain.startswith("9th of 31, value 6.43 (set in Events): ")
    [computed] = compute_standings(stratagem()).rows
    assert computed.total == pytest.approx(43.5373, abs=1e-4)
    assert "(set in Events)" not in computed.scores[0].explain


@pytest.mark.parametrize(
    ("league", "message"),
    [
        (rally(0), "event 'May 2026': weight must be more than 0, not 0"),
        (rally("double"), "event 'May 2026': weight must be a number, not 'double'"),
        (stratagem(120), "event 'Stratagem 2002': value must be between 0 and 100 (%), not 120"),
        (
            League(
                Settings("dippouch"),
                (Event("E", D(2026, 1, 1), weight=2),),
                (Result("E", "Ann", rank=1),),
            ),
            "event 'E': weight is for points systems: give a Dip Pouch event its Value instead",
        ),
        (
            League(Settings("reverse"), (Event("E", value=6),), (Result("E", "Ann", rank=1),)),
            "event 'E': value is the Dip Pouch tournament value: for points use a Weight",
        ),
    ],
    ids=["zero weight", "text weight", "value over 100", "weight on a rating", "value on points"],
)
def test_bad_weights_and_values_are_refused(league: League, message: str) -> None:
    with pytest.raises(LeagueProblems) as caught:
        compute_standings(league)
    assert [str(p) for p in caught.value.problems] == [message]


def test_the_columns_are_read_from_the_events_sheet(tmp_path: Path) -> None:
    """`Weight` in a rally workbook's Events sheet: May × 4 counts, 84 + 79 = 163 (above)."""
    path = write_book(
        tmp_path / "league.xlsx",
        {
            "Settings": [["Setting", "Value"], ["System", "rally"]],
            "Events": [
                ["Event", "Date", "Rounds", "Weight"],
                ["Dec 2025", D(2025, 12, 6), 4, None],
                ["Feb 2026", D(2026, 2, 7), 6, None],
                ["May 2026", D(2026, 5, 9), 5, 4],
            ],
            "Results": [
                ["Event", "Player", "Points", "Games"],
                *([r.event, r.player, r.points, r.games] for r in BOBBY),
            ],
        },
    )
    assert [row.total for row in read_standings(path).rows] == [163]


def test_a_dip_pouch_value_is_read_and_elsewhere_value_is_left_alone(tmp_path: Path) -> None:
    """`Value` in a Dip Pouch Events sheet is the tournament value (42.0949, worked above); in a
    rally workbook a column of that name may mean anything (a prize's value) and is not read."""
    dip = write_book(
        tmp_path / "dip.xlsx",
        {
            "Settings": [["Setting", "Value"], ["System", "dippouch"]],
            "Events": [
                ["Event", "Date", "Rounds", "Players", "Value"],
                ["Stratagem 2002", D(2002, 6, 1), 5, 31, 6.43],
            ],
            "Results": [["Event", "Player", "Rank"], ["Stratagem 2002", "Ann", 9]],
        },
    )
    assert read_standings(dip).rows[0].total == pytest.approx(42.0949, abs=1e-4)
    club = write_book(
        tmp_path / "club.xlsx",
        {
            "Settings": [["Setting", "Value"], ["System", "rally"]],
            "Events": [["Event", "Rounds", "Value"], ["Dec 2025", 4, "a book token"]],
            "Results": [["Event", "Player", "Points"], ["Dec 2025", "Bobby", 3]],
        },
    )
    assert read_standings(club).rows[0].total == 79  # ⌊100 × 3 / 4⌋ + 4
