"""The name shown is the one the treasurer meant (issue 32, findings 4 and 7): the Players
sheet's spelling, else a cased spelling the results use most; ``Grant, Oliver`` (copied from
a pairing printout) is ``Oliver Grant``, warned about, or matched when the league says so.

Reverse points throughout (a field of n: 1st n points ... last 1), so that totals are easy to
work by hand.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from helpers import write_book

from xlrally.app.sync import read_standings
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.players import flipped, shown_name
from xlrally.formats.grid import standings_grid

WEEKS = tuple(Event(f"W{n}", dt.date(2026, 1, 7 * n)) for n in range(1, 4))


def league(rows: list[tuple[str, str, int]], **kwargs: object) -> League:
    """(event, player, rank) rows."""
    settings = kwargs.pop("settings", Settings("reverse"))
    results = tuple(Result(e, p, rank=r) for e, p, r in rows)
    return League(settings, WEEKS, results, **kwargs)  # type: ignore[arg-type]


def shown(standings_league: League) -> list[tuple[str, float]]:
    return [(row.player, row.total) for row in compute_standings(standings_league).rows]


def test_the_players_sheet_spelling_is_the_name_shown() -> None:
    """Mikhail's first result was typed `` mikhail  tal ``; the Players sheet lists him
    ``Mikhail Tal``: that is the name everywhere. W1: Mikhail 2, Ann 1; W2: Mikhail 1 of 1:
    Mikhail 3, Ann 1."""
    rows = [("W1", " mikhail  tal ", 1), ("W1", "Ann", 2), ("W2", "mikhail tal", 1)]
    assert shown(league(rows)) == [("mikhail tal", 3), ("Ann", 1)]  # as typed, without a list
    assert shown(league(rows, players=("Mikhail Tal", "Ann"))) == [("Mikhail Tal", 3), ("Ann", 1)]


def test_without_a_list_a_cased_spelling_used_most_is_shown() -> None:
    """``ann lee`` (W1), ``Ann Lee`` (W2), ``ANN LEE`` (W3), once each: a spelling with
    capitals and small letters before one all small or all capitals: ``Ann Lee``. W1 1st of 2
    is 2 points, W2 and W3 alone 1 each: 4."""
    rows = [("W1", "ann lee", 1), ("W1", "Bo", 2), ("W2", "Ann Lee", 1), ("W3", "ANN LEE", 1)]
    assert shown(league(rows))[0] == ("Ann Lee", 4)


def test_the_rule_for_the_name_shown() -> None:
    """Listed first; then cased before not; then used most; then entered first."""
    assert shown_name([("ann lee", 5), ("Ann Lee", 1)]) == "Ann Lee"
    assert shown_name([("Ann LEE", 1), ("Ann Lee", 2)]) == "Ann Lee"
    assert shown_name([("Ann Lee", 1), ("Ann LEE", 1)]) == "Ann Lee"
    assert shown_name([("Ann Lee", 9)], listed="ANN LEE") == "ANN LEE"
    assert shown_name([("ann lee", 1), ("ANN LEE", 2)]) == "ANN LEE"


def test_a_surname_first_name_is_warned_about() -> None:
    """``Grant, Oliver`` (W2) beside ``Oliver Grant`` (W1): two players by default, and a
    warning that says why they look alike."""
    rows = [("W1", "Oliver Grant", 1), ("W2", "Grant, Oliver", 1)]
    standings = compute_standings(league(rows))
    assert [(row.player, row.total) for row in standings.rows] == [
        ("Grant, Oliver", 1),
        ("Oliver Grant", 1),
    ]
    assert [w for w in standings.warnings if "Grant" in w] == [
        "'Oliver Grant' (1 result, first in W1) and 'Grant, Oliver' (1 result, first in W2) "
        "look like the same player, written surname first: if they are one player, add an alias "
        "in the Players sheet, or set Comma names to surname first in Settings; if two, list "
        "both names there"
    ]


def test_a_surname_first_name_is_matched_when_the_league_says_so() -> None:
    """``Comma names: surname first``: ``Grant, Oliver`` is Oliver Grant, 1 + 1 = 2."""
    rows = [("W1", "Oliver Grant", 1), ("W2", "Grant, Oliver", 1)]
    settings = Settings("reverse", comma_names="surname first")
    standings = compute_standings(league(rows, settings=settings))
    assert [(row.player, row.total) for row in standings.rows] == [("Oliver Grant", 2)]
    assert not [w for w in standings.warnings if "Grant" in w]


def test_what_is_flipped() -> None:
    """One comma with words on both sides; a suffix after it is not a first name."""
    assert flipped("Grant, Oliver") == "Oliver Grant"
    assert flipped("  Grant ,Oliver  ") == "Oliver Grant"
    assert flipped("John Smith, Jr.") is None
    assert flipped("Kiese, Matthias, Dr.") is None
    assert flipped("Oliver Grant") is None
    assert flipped("Grant,") is None


def test_the_players_sheet_spelling_reaches_the_sheet(tmp_path: Path) -> None:
    path = write_book(
        tmp_path / "league.xlsx",
        {
            "Settings": [
                ["Setting", "Value"],
                ["System", "reverse"],
                ["Comma names", "surname first"],
            ],
            "Events": [
                ["Event", "Date"],
                ["W1", dt.date(2026, 1, 7)],
                ["W2", dt.date(2026, 1, 14)],
            ],
            "Results": [
                ["Event", "Player", "Rank"],
                ["W1", " mikhail  tal ", 1],
                ["W2", "Tal, Mikhail", 1],
            ],
            "Players": [["Player"], ["Mikhail Tal"]],
        },
    )
    grid = [[c.value for c in row] for row in standings_grid(read_standings(path))]
    assert grid[1][:3] == [1, "Mikhail Tal", 2]
