"""Reading FIDE TRF files: hand-made records for every result code, and real files written by
pairing programs (tests/data/trf, with their source and licence).

Expected values come from the rally rule (seed: 100 × points from games played / (rounds −
byes) + games played; only byes leave the divisor) and the TRF standard's code table."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import trf_player

from xlrally.formats.trf import RallyLine, TrfError, last_first, rally_line, read_trf

DATA = Path(__file__).parent.parent / "data" / "trf"
STANDARD_POINTS = {"1": 1, "W": 1, "+": 1, "F": 1, "U": 1, "=": 0.5, "D": 0.5, "H": 0.5}
"""The standard's default points per code (TRF26 tag 162 defaults): W, F and U a point, D and H
a half; used only to check what the pairing programs wrote."""


def test_games_count_with_their_points_and_only_byes_leave_the_divisor() -> None:
    # 1 = 0 are games (1 + 0.5 + 0), W D L games of under one move (1 + 0.5 + 0): 6 games, 3
    # points. U is a bye. - Z and blank are missed rounds: no game, still in the divisor.
    codes = ["1", "=", "0", "W", "D", "L", "U", "-", "Z", ""]
    assert rally_line(codes) == RallyLine(points=3.0, games=6, byes=1)


@pytest.mark.parametrize(
    ("requested", "forfeits", "expected"),
    [
        # H and F asked-for byes leave the divisor by default; + is a bye too (no game played)
        ("bye", "bye", RallyLine(points=1.0, games=2, byes=3)),
        # a club that keeps asked-for byes in the divisor: only the + is a bye
        ("absence", "bye", RallyLine(points=1.0, games=2, byes=1)),
        # a club that counts a forfeit win as a game won: 2 points from 3 games, H F byes
        ("bye", "game", RallyLine(points=2.0, games=3, byes=2)),
    ],
)
def test_club_choices_for_requested_byes_and_forfeit_wins(
    requested: str, forfeits: str, expected: RallyLine
) -> None:
    assert rally_line(["1", "0", "H", "F", "+"], requested, forfeits) == expected


def test_the_seed_examples_from_round_codes() -> None:
    # Example 1: Bobby plays all four rounds and scores three points.
    assert rally_line(["1", "1", "0", "1"]) == RallyLine(3.0, 4, 0)
    # Example 2: José is given a bye in round three, and scores two points in four games.
    assert rally_line(["1", "0", "U", "1", "0"]) == RallyLine(2.0, 4, 1)
    # Example 3: Mikhail, a bye in round five, gone before round six, 1.5 from four rounds.
    assert rally_line(["=", "1", "0", "0", "U", ""]) == RallyLine(1.5, 4, 1)


def test_a_hand_made_file_is_read_column_by_column() -> None:
    text = "\n".join(
        [
            "012 Club Rapidplay",
            "042 2025/12/06",
            "052 2025/12/06",
            "142 3",
            trf_player(1, "Smith, Ann", 1, ["2 w 1", "3 b =", "U"], 2.5),
            trf_player(2, "Jones, Ben", 2, ["1 b 0", "", "3 w +"], 1.0),
            trf_player(3, "Lee, Cat", 3, ["", "1 w =", "2 b -"], 0.5),
        ]
    )
    tournament = read_trf(text, "club.trf")
    assert tournament.version == "TRF26"  # the 142 tag is the 2026 version's
    assert (tournament.name, str(tournament.start), tournament.declared_rounds) == (
        "Club Rapidplay",
        "2025-12-06",
        3,
    )
    assert tournament.played_rounds == 3
    assert [(p.number, p.name, p.rank) for p in tournament.players] == [
        (1, "Smith, Ann", 1),
        (2, "Jones, Ben", 2),
        (3, "Lee, Cat", 3),
    ]
    assert [p.results for p in tournament.players] == [
        ("1", "=", "U"),
        ("0", "", "+"),
        ("", "=", "-"),
    ]


def test_an_unknown_result_code_names_its_line_and_column() -> None:
    text = "012 X\n" + trf_player(1, "Smith, Ann", 1, ["2 w 1", "3 b Q"])
    with pytest.raises(TrfError, match=r"x\.trf line 2, column 109: 'Q' is not a TRF result code"):
        read_trf(text, "x.trf")


def test_a_rank_that_is_not_a_number_names_its_column() -> None:
    line = trf_player(1, "Smith, Ann", 1, ["2 w 1"])
    line = line[:85] + "  x1" + line[89:]
    with pytest.raises(TrfError, match=r"line 1, column 86: the rank must be a whole number"):
        read_trf(line, "x.trf")


def test_a_starting_rank_used_twice_is_refused() -> None:
    text = "\n".join([trf_player(1, "A, B", 1, ["2 w 1"]), trf_player(1, "C, D", 2, ["1 b 0"])])
    with pytest.raises(TrfError, match="line 2: starting rank 1 is used twice"):
        read_trf(text, "x.trf")


def test_a_file_without_player_records_is_not_a_trf() -> None:
    with pytest.raises(TrfError, match="no player records"):
        read_trf("012 Only a name\n", "x.trf")


@pytest.mark.parametrize(
    ("name", "version", "rounds", "played", "players", "start"),
    [
        ("javafo_sample2.trf", "TRF16", 9, 4, 52, "2010-09-24"),  # dates written DD/MM/YYYY
        ("dutch_2025_C5.trf", "TRF16", 3, 2, 6, "None"),
        ("grandmommyscup.trf", "TRF26", 14, 14, 249, "2024-12-01"),
    ],
)
def test_real_files_from_pairing_programs(
    name: str, version: str, rounds: int, played: int, players: int, start: str
) -> None:
    """Each file's own points column (written by the pairing program) equals the standard
    scoring of the codes read from the round columns: the columns are read where the
    programs write them."""
    text = (DATA / name).read_bytes().decode("utf-8-sig")
    tournament = read_trf(text, name)
    assert (tournament.version, tournament.declared_rounds) == (version, rounds)
    assert (tournament.played_rounds, len(tournament.players), str(tournament.start)) == (
        played,
        players,
        start,
    )
    lines = text.splitlines()
    for player in tournament.players:
        written = float(lines[player.line - 1][80:84])
        assert sum(STANDARD_POINTS.get(c, 0) for c in player.results) == written, player.name


def test_the_javafo_sample_has_every_kind_of_round() -> None:
    tournament = read_trf((DATA / "javafo_sample2.trf").read_text("utf-8"), "javafo")
    codes = {c for p in tournament.players for c in p.results}
    assert {"1", "=", "0", "+", "-", "H", "U"} <= codes
    bello = next(p for p in tournament.players if p.name.startswith("Bello"))
    # Bello Castano Diego: a forfeit win, a loss, a half-point bye, a win
    assert bello.results == ("+", "0", "H", "1")
    assert rally_line(bello.results) == RallyLine(points=1.0, games=2, byes=2)


def test_names_are_turned_to_first_name_first() -> None:
    assert last_first("Smith, Ann") == "Ann Smith"
    assert last_first("Gorrochategui Torres, Eugenio") == "Eugenio Gorrochategui Torres"
    assert last_first("Mirzoev Azer") == "Mirzoev Azer"  # no comma: as written
