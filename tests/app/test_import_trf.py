"""`xlrally import` of TRF files as real programs write them: byes against no opponent, CR line
ends, Lichess late entries, dates in every form, names with titles and commas.

Expected scores are worked by hand from the rally seed (100 × points from games played /
(rounds − byes) + games played, decimals dropped; late or early leavers keep their missed
rounds in the divisor, only byes leave it); real files are in tests/data/trf (README.md)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from helpers import trf_player, write_book

from xlrally.app.importer import Options, import_file
from xlrally.cli import cli
from xlrally.core.errors import XlrallyError

DATA = Path(__file__).parent.parent / "data" / "trf"
RALLY = {
    "Settings": [["Setting", "Value"], ["System", "rally"], ["League", "Club Rally"]],
    "Events": [["Event", "Date", "Rounds"]],
    "Results": [["Event", "Player", "Points", "Games", "Byes"]],
}


def league(path: Path, settings: list[list[Any]] | None = None, **sheets: Any) -> Path:
    book: dict[str, Any] = {**RALLY, **sheets}
    if settings:
        book["Settings"] = [*RALLY["Settings"], *settings]
    return write_book(path, book)


def totals(path: Path) -> dict[str, float]:
    result = CliRunner().invoke(cli, ["standings", str(path), "-f", "json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return {p["player"]: p["total"] for p in data["standings"]}


def write_trf(path: Path, lines: list[str], ending: str = "\n") -> Path:
    path.write_bytes(ending.join(lines).encode() + ending.encode())
    return path


def record(number: int, name: str, points: float, rank: int, rounds: list[str]) -> str:
    """A 001 record with each round's ten columns as written (``"  0000 - ="``)."""
    return f"001 {number:4d}      {name:<33.33s}{'':33s}{points:4.1f} {rank:4d}" + "".join(rounds)


def test_a_half_point_bye_against_no_opponent_is_no_drawn_game(tmp_path: Path) -> None:
    """The issue's worked case: 4 rounds, `0000 - =` in round 1, then three losses: the rule
    gives 100 × 0 / (4 − 1) + 3 = 3 (xlrally gave 16, a drawn game: 100 × 0.5 / 4 + 4).
    Her opponent: three wins and a zero-point bye `0000 - 0` in round 1 (absent, in the
    divisor): 100 × 3 / 4 + 3 = 78."""
    book = league(tmp_path / "league.xlsx")
    trf = write_trf(
        tmp_path / "dec.trf",
        [
            "012 Dec 2025",
            "042 2025/12/06",
            "XXR 4",
            record(
                1, "Smith, Ann", 0.5, 2, ["  0000 - =", "     2 w 0", "     2 b 0", "     2 w 0"]
            ),
            record(2, "Lee, Cat", 3, 1, ["  0000 - 0", "     1 b 1", "     1 w 1", "     1 b 1"]),
        ],
    )
    import_file(book, trf)
    assert totals(book) == {"Cat Lee": 78, "Ann Smith": 3}


def test_a_player_whose_only_entry_is_a_zero_point_bye_is_not_imported(tmp_path: Path) -> None:
    """`0000 - 0` then absent: no game played, so no result (was imported with a score)."""
    book = league(tmp_path / "league.xlsx")
    trf = write_trf(
        tmp_path / "dec.trf",
        [
            "012 Dec 2025",
            "042 2025/12/06",
            "XXR 2",
            record(1, "Smith, Ann", 2, 1, ["     2 w 1", "     2 b 1"]),
            record(2, "Lee, Cat", 0, 2, ["     1 b 0", "     1 w 0"]),
            record(3, "Gone, Early", 0, 3, ["  0000 - 0"]),
        ],
    )
    outcome = import_file(book, trf)
    assert "Early Gone played no game: not imported" in outcome.notes
    assert set(totals(book)) == {"Ann Smith", "Cat Lee"}


def test_full_point_byes_stay_byes_when_forfeit_wins_are_games(tmp_path: Path) -> None:
    """`Forfeit wins: game` makes a forfeit won (`+` against an opponent who did not come) a
    game won; a full point against no opponent (`0000 - +`) is the pairing bye, still out of
    the divisor. Ann: 1 1 and `0000 - +` in 3 rounds: 100 × 2 / 2 + 2 = 102 (as a game won:
    100 × 3 / 3 + 3 = 103). Cat: two losses to Ann and a forfeit won from Ben, a game won
    with this setting: 100 × 1 / 3 + 3 = 36. Ben: not paired twice, then forfeited: no game
    played, not imported."""
    book = league(tmp_path / "league.xlsx", [["Forfeit wins", "game"]])
    trf = write_trf(
        tmp_path / "dec.trf",
        [
            "012 Dec 2025",
            "042 2025/12/06",
            "XXR 3",
            record(1, "Smith, Ann", 3, 1, ["     2 w 1", "     2 b 1", "  0000 - +"]),
            record(2, "Lee, Cat", 1, 2, ["     1 b 0", "     1 w 0", "     3 w +"]),
            record(3, "Jones, Ben", 0, 3, ["          ", "          ", "     2 b -"]),
        ],
    )
    import_file(book, trf)
    assert totals(book) == {"Ann Smith": 102, "Cat Lee": 36}


def test_the_gonzaga_classic_scores_its_byes_as_byes(tmp_path: Path) -> None:
    """A real file (icu_tournament's sample): Griffiths,Ryan Rhys, `0000 - =` then 1 1 = 1
    in 5 rounds: 100 × 3.5 / (5 − 1) + 4 = 91 (was 100 × 4 / 5 + 5 = 85). Barbosa,Paulo:
    = 0 0, a forfeit lost (in the divisor) and `0000 - +` (a bye): 100 × 0.5 / 4 + 3 = 15."""
    book = league(tmp_path / "league.xlsx")
    import_file(book, DATA / "icu_gonzaga_classic_2008.trf")
    scores = totals(book)
    assert scores["Ryan Rhys Griffiths"] == 91
    assert scores["Paulo Barbosa"] == 15


def test_a_file_with_cr_line_ends_is_a_trf(tmp_path: Path) -> None:
    """bbpPairings' test input, written with CR line ends as the standard's Remark 1 says,
    was sent to the table reader (`no Player column (the headers are '012 AutoTest ...`).
    Test0006: 1 1 1 = then a forfeit lost (in the divisor) and 1 = 1 1 1 1 in 11 rounds:
    9 points from 10 games: 100 × 9 / 11 + 10 = 91."""
    book = league(tmp_path / "league.xlsx")
    outcome = import_file(book, DATA / "bbp_issue_15.trf")
    assert outcome.results == 180
    assert totals(book)["Test0006 Player0006"] == 91  # no comma: the name as written


def test_the_bunratty_minor_reads_its_blank_half_point_byes(tmp_path: Path) -> None:
    """A real file with `DD.MM.YYYY` dates, `0000 - +` byes, and rounds left blank that its
    points column counts a half point (half-point byes, as ICU's reader reads them). Cooke,
    Peter: blank, = 1 0 1 =: 3 points from 5 games, 1 bye: 100 × 3 / 5 + 5 = 65 (as an
    absence it would be 100 × 3 / 6 + 5 = 55). Kyne-delaney, Andrew: 1, `0000 - +`, 1 1 = 1:
    100 × 4.5 / 5 + 5 = 95."""
    book = league(tmp_path / "league.xlsx")
    outcome = import_file(book, DATA / "icu_bunratty_minor_2011.trf")
    assert any("19 rounds left blank" in note for note in outcome.notes)
    scores = totals(book)
    assert (scores["Peter Cooke"], scores["Andrew Kyne-delaney"]) == (65, 95)
    events = openpyxl.load_workbook(book)["Events"]
    assert events["B2"].value == dt.datetime(2011, 2, 25)


def lichess_line(number: int, user: str, points: float, rounds: list[str]) -> str:
    """A player line as Lichess's exporter lays it out (lila modules/swiss SwissTrf.scala:
    fields right-aligned to end at columns 8, 15 + the name's length, 52, 84, and per round
    95, 97, 99)."""
    bits = [(3, "001"), (8, str(number)), (15 + len(user), user), (52, "1500")]
    bits.append((84, f"{points:.1f}"))
    for index, entry in enumerate(rounds):
        opponent, colour, code = entry.split(",")
        bits += [(95 + 10 * index, opponent), (97 + 10 * index, colour), (99 + 10 * index, code)]
    line = ""
    for end, text in bits:
        line += " " * (end - len(text) - len(line)) + text
    return line


def lichess_file(path: Path, finished: str = "Dec 6, 2025", rounds: int = 3) -> Path:
    return write_trf(
        path,
        [
            "012 Club Swiss",
            "022 https://lichess.org/swiss/abcd1234",
            "032 Lichess",
            "042 Dec 6, 2025",
            f"052 {finished}",
            "062 4",
            "092 Individual: Swiss-System",
            "102 https://lichess.org/swiss",
            f"XXR {rounds}",
            "XXC white1",
            lichess_line(1, "early_bird", 2.5, ["2,w,1", "3,b,1", "4,w,="]),
            lichess_line(2, "steady", 1.5, ["1,b,0", "4,w,1", "3,b,="]),
            lichess_line(3, "latecomer", 1.0, [",,H", "1,w,0", "2,w,="]),
            lichess_line(4, "nightowl", 1.0, [",,H", "2,b,0", "1,b,="]),
        ],
    )


def test_a_lichess_late_entry_keeps_its_missed_round_in_the_divisor(tmp_path: Path) -> None:
    """Lichess writes H for the round a late joiner missed; the seed keeps late joiners'
    missed rounds in the divisor. latecomer: H, a loss, a draw in 3 rounds:
    100 × 0.5 / 3 + 2 = 18 (as a bye: 100 × 0.5 / 2 + 2 = 27). The report says so."""
    book = league(tmp_path / "league.xlsx")
    outcome = import_file(book, lichess_file(tmp_path / "swiss.trf"))
    assert any("a Lichess file: its H" in n and "in the divisor" in n for n in outcome.notes)
    scores = totals(book)
    assert (scores["latecomer"], scores["early_bird"]) == (18, 86)  # 100 × 2.5 / 3 + 3


def test_a_club_may_read_lichess_h_as_a_bye(tmp_path: Path) -> None:
    """Setting `Lichess H: bye`: latecomer 100 × 0.5 / 2 + 2 = 27; the report says which."""
    book = league(tmp_path / "league.xlsx", [["Lichess H", "bye"]])
    outcome = import_file(book, lichess_file(tmp_path / "swiss.trf"))
    assert any("setting Lichess H: bye" in n for n in outcome.notes)
    assert totals(book)["latecomer"] == 27


def test_requested_byes_absence_does_not_change_lichess_late_entries(tmp_path: Path) -> None:
    """`Requested byes` is about byes asked for; Lichess's H is not one: 18 either way."""
    book = league(tmp_path / "league.xlsx", [["Requested byes", "absence"]])
    import_file(book, lichess_file(tmp_path / "swiss.trf"))
    assert totals(book)["latecomer"] == 18


def test_a_lichess_tournament_that_ended_early_is_scored_over_its_rounds(tmp_path: Path) -> None:
    """Lichess ends a Swiss early when it cannot pair more rounds: `XXR 5`, three played,
    and line 052 gives its end. Scored over the three rounds played, and said."""
    book = league(tmp_path / "league.xlsx")
    outcome = import_file(book, lichess_file(tmp_path / "swiss.trf", rounds=5))
    assert any("ended the tournament after 3 of its 5 rounds" in n for n in outcome.notes)
    assert totals(book)["latecomer"] == 18
    unfinished = lichess_file(tmp_path / "running.trf", finished="", rounds=5)
    with pytest.raises(XlrallyError, match="results for 3 of the event's 5 rounds"):
        import_file(league(tmp_path / "other.xlsx"), unfinished)


def two_player_file(path: Path, start: str, end: str = "") -> Path:
    return write_trf(
        path,
        [
            "012 Dec Rapid",
            f"042 {start}",
            *([f"052 {end}"] if end else []),
            "XXR 1",
            trf_player(1, "Smith, Ann", 1, ["2 w 1"], 1),
            trf_player(2, "Lee, Cat", 2, ["1 b 0"], 0),
        ],
    )


@pytest.mark.parametrize(
    "start",
    ["May 29, 2020", "Dec 6, 2025", "6 Dec 2025", "28. 07. 2005", "10.09.13", "2025/12/06"],
)
def test_every_start_date_form_of_real_files_is_read(tmp_path: Path, start: str) -> None:
    """The start dates that were dropped without a word (the issue's list) reach Events."""
    book = league(tmp_path / "league.xlsx")
    outcome = import_file(book, two_player_file(tmp_path / "e.trf", start))
    assert not any("date" in n for n in outcome.notes)
    assert openpyxl.load_workbook(book)["Events"]["B2"].value is not None


def test_an_ambiguous_date_asks_for_date(tmp_path: Path) -> None:
    """06/12/2025 is 6 December or 12 June: refused, asking for --date; with it, imported."""
    book = league(tmp_path / "league.xlsx")
    before = book.read_bytes()
    trf = two_player_file(tmp_path / "e.trf", "06/12/2025")
    with pytest.raises(
        XlrallyError,
        match=r"line 2: the date '06/12/2025' is 6 December 2025 or 12 June 2025 .*--date",
    ):
        import_file(book, trf)
    assert book.read_bytes() == before
    import_file(book, trf, Options(date=dt.date(2025, 12, 6)))
    assert openpyxl.load_workbook(book)["Events"]["B2"].value == dt.datetime(2025, 12, 6)


def test_the_end_date_decides_an_ambiguous_start(tmp_path: Path) -> None:
    """06/12/2025 to 13/12/2025: 13 is no month, so the file writes day first."""
    book = league(tmp_path / "league.xlsx")
    import_file(book, two_player_file(tmp_path / "e.trf", "06/12/2025", "13/12/2025"))
    assert openpyxl.load_workbook(book)["Events"]["B2"].value == dt.datetime(2025, 12, 6)


def test_an_unreadable_date_is_a_warning_naming_its_line(tmp_path: Path) -> None:
    """A date xlrally cannot read is said, the event imported undated (the rally needs no
    date); a Dip Pouch league, which rates events in date order, refuses it."""
    book = league(tmp_path / "league.xlsx")
    trf = two_player_file(tmp_path / "e.trf", "Nikolaus 2025")
    outcome = import_file(book, trf)
    assert any(
        "e.trf line 2: the start date 'Nikolaus 2025' is not a date" in n for n in outcome.notes
    )
    dip = write_book(
        tmp_path / "dip.xlsx",
        {
            "Settings": [["Setting", "Value"], ["System", "dippouch"]],
            "Events": [["Event", "Date"]],
            "Results": [["Event", "Player", "Rank"]],
        },
    )
    with pytest.raises(XlrallyError, match=r"rates events in date order.*--date"):
        import_file(dip, trf)


def test_a_league_that_writes_lastname_comma_firstname_keeps_its_players(tmp_path: Path) -> None:
    """A league listing `Smith, Ann` (and `Lee,Cat` without the space) gets no new player
    from a TRF that writes them `Smith, Ann` and `Lee, Cat` (it got `Ann Smith`)."""
    book = league(
        tmp_path / "league.xlsx",
        Events=[["Event", "Date", "Rounds"], ["Nov", dt.date(2025, 11, 1), 1]],
        Results=[
            ["Event", "Player", "Points", "Games", "Byes"],
            ["Nov", "Smith, Ann", 1, 1, 0],
            ["Nov", "Lee,Cat", 0, 1, 0],
        ],
    )
    outcome = import_file(book, two_player_file(tmp_path / "e.trf", "2025/12/06"))
    assert outcome.new_players == ()
    assert set(totals(book)) == {"Smith, Ann", "Lee,Cat"}


def test_a_title_after_a_second_comma_stays_with_the_name(tmp_path: Path) -> None:
    """`Kiese,Matthias,Dr.` is `Dr. Matthias Kiese` (it became `Matthias,Dr. Kiese`); a
    league that knows him as `Matthias Kiese` keeps him."""
    book = league(tmp_path / "league.xlsx")
    trf = write_trf(
        tmp_path / "e.trf",
        [
            "012 Dec Rapid",
            "042 2025/12/06",
            "XXR 1",
            trf_player(1, "Kiese,Matthias,Dr.", 1, ["2 w 1"], 1),
            trf_player(2, "Lee, Cat", 2, ["1 b 0"], 0),
        ],
    )
    assert import_file(book, trf).new_players == ("Dr. Matthias Kiese", "Cat Lee")
    known = league(
        tmp_path / "known.xlsx",
        Events=[["Event", "Date", "Rounds"], ["Nov", dt.date(2025, 11, 1), 1]],
        Results=[
            ["Event", "Player", "Points", "Games", "Byes"],
            ["Nov", "Matthias Kiese", 1, 1, 0],
        ],
    )
    assert import_file(known, trf).new_players == ("Cat Lee",)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"PK\x03\x04rest", "a zip file .* not results as text"),
        (b"012 Club\n042 2025/12/06\nXXR 4\n", r"looks like a TRF file \(lines 012, 042, XXR\)"),
        (b"Spieler;Platz\nAnn;1\n", "not a FIDE TRF file .* line 1: no Player column"),
    ],
)
def test_a_file_that_is_neither_says_what_it_looks_like(
    tmp_path: Path, content: bytes, message: str
) -> None:
    """Neither a TRF nor a usable table: what it looks like and what was expected."""
    book = league(tmp_path / "league.xlsx")
    source = tmp_path / "results.txt"
    source.write_bytes(content)
    with pytest.raises(XlrallyError, match=message):
        import_file(book, source, Options(rounds=1))


def test_a_paired_round_without_a_result_is_an_unfinished_event(tmp_path: Path) -> None:
    """Round 2 paired, not played: refused unless --rounds 1 scores the round played."""
    book = league(tmp_path / "league.xlsx")
    trf = write_trf(
        tmp_path / "e.trf",
        [
            "012 Dec Rapid",
            "042 2025/12/06",
            record(1, "Smith, Ann", 1, 1, ["     2 w 1", "     2 b  "]),
            record(2, "Lee, Cat", 0, 2, ["     1 b 0", "     1 w  "]),
        ],
    )
    with pytest.raises(XlrallyError, match=r"column 109: round 2 is paired but has no result"):
        import_file(book, trf, Options(rounds=2))
    import_file(book, trf, Options(rounds=1))
    assert totals(book) == {"Ann Smith": 101, "Cat Lee": 1}
