"""Reading FIDE TRF files: hand-made records for every result code, and real files written by
pairing programs (tests/data/trf, with their source and licence).

Expected values come from the rally rule (seed: 100 × points from games played / (rounds −
byes) + games played; only byes leave the divisor) and the TRF standard's code table."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import trf_player

from xlrally.formats.trf import (
    RallyLine,
    TrfError,
    last_first,
    looks_like_trf,
    rally_line,
    read_trf,
    spellings,
)

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
    with pytest.raises(
        TrfError, match=r"line 1, column 86: the rank \(columns 86-89\) is not a whole number"
    ):
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


REAL_FILES = [
    # name, version, declared rounds, played, players, start
    ("bbp_issue_15.trf", "TRF16", None, 11, 180, "None"),  # CR-only line ends
    ("icu_gonzaga_classic_2008.trf", "TRF16", None, 5, 12, "2008-02-01"),
    ("icu_bunratty_minor_2011.trf", "TRF16", None, 6, 103, "2011-02-25"),  # 25.02.2011
]


@pytest.mark.parametrize(("name", "version", "rounds", "played", "players", "start"), REAL_FILES)
def test_real_files_with_cr_line_ends_and_byes_against_no_opponent(
    name: str, version: str, rounds: int | None, played: int, players: int, start: str
) -> None:
    """Three more real files (tests/data/trf/README.md): each is read whole, and its points
    column agrees with its rounds (the reader checks it)."""
    tournament = read_trf((DATA / name).read_text("utf-8"), name)
    assert (tournament.version, tournament.declared_rounds) == (version, rounds)
    assert (tournament.played_rounds, len(tournament.players)) == (played, players)
    assert str(tournament.start) == start


def test_the_gonzaga_byes_are_byes_not_games() -> None:
    """Griffiths,Ryan Rhys: `0000 - =` in round 1 (a half-point bye), then 1 1 = 1: 3.5 points
    from 4 games, one bye (was read as a drawn game: 4 points from 5). Barbosa,Paulo: = 0 0, a
    forfeit lost and `0000 - +` (the pairing bye: 12 players, one withdrew)."""
    tournament = read_trf((DATA / "icu_gonzaga_classic_2008.trf").read_text(), "gonzaga")
    by_name = {p.name: p for p in tournament.players}
    assert rally_line(by_name["Griffiths,Ryan Rhys"].results) == RallyLine(3.5, 4, 1)
    assert rally_line(by_name["Barbosa,Paulo"].results) == RallyLine(0.5, 3, 1)


def test_the_bunratty_blank_half_point_byes() -> None:
    """Cooke, Peter: round 1 blank, the points column 3.5 where = 1 0 1 = give 3: the blank
    round is the half-point bye (3 points from 5 games, 1 bye); Mulqueen-Danaher, Darragh:
    `0000 - +` in round 4, the pairing bye of a field of 103."""
    tournament = read_trf((DATA / "icu_bunratty_minor_2011.trf").read_text(), "bunratty")
    by_name = {p.name: p for p in tournament.players}
    assert rally_line(by_name["Cooke, Peter"].results) == RallyLine(3.0, 5, 1)
    assert rally_line(by_name["Mulqueen-Danaher, Darragh"].results) == RallyLine(1.0, 5, 1)


TWO_PLAYERS = [
    "012 Club Rapidplay",
    "042 2025/12/06",
    "XXR 1",
    trf_player(1, "Smith, Ann", 1, ["2 w 1"], 1),
    trf_player(2, "Lee, Cat", 2, ["1 b 0"], 0),
]


@pytest.mark.parametrize(
    "ending", ["\r", "\n", "\r\n", "mixed", "\ufeff\r\n"], ids=["CR", "LF", "CRLF", "mixed", "BOM"]
)
def test_every_line_end_and_a_byte_order_mark(ending: str) -> None:
    """The standard's Remark 1: "each line shall have a CR as last character"; programs also
    write LF and CRLF, some a byte order mark. Recognising a TRF does not depend on them."""
    if ending == "mixed":
        text = "012 Club Rapidplay\r042 2025/12/06\nXXR 1\r\n" + "\r".join(TWO_PLAYERS[3:])
    elif ending.startswith("\ufeff"):
        text = "\ufeff" + "\r\n".join(TWO_PLAYERS)
    else:
        text = ending.join(TWO_PLAYERS) + ending
    assert looks_like_trf(text)
    tournament = read_trf(text, "x.trf")
    assert (tournament.name, str(tournament.start)) == ("Club Rapidplay", "2025-12-06")
    assert [p.results for p in tournament.players] == [("1",), ("0",)]


def test_a_name_filling_its_33_columns_keeps_its_last_letter() -> None:
    """Columns 15-47 are 33 characters, all of them the name."""
    name = "Gorrochategui Torres, Eugenio Jos"
    assert len(name) == 33
    text = "\n".join(
        [trf_player(1, name, 1, ["2 w 1"], 1), trf_player(2, "Lee, Cat", 2, ["1 b 0"], 0)]
    )
    assert read_trf(text, "x.trf").players[0].name == name


@pytest.mark.parametrize(
    ("name", "club_writes"),
    [
        ("Smith, Ann", "Ann Smith"),
        ("Griffiths,Ryan Rhys", "Ryan Rhys Griffiths"),  # no space after the comma (ICU)
        ("Kiese,Matthias,Dr.", "Dr. Matthias Kiese"),  # a title after a second comma
        ("Smith, John, Jr.", "John Smith Jr."),  # a suffix after the surname
        ("Mirzoev Azer", "Mirzoev Azer"),  # no comma: as written
        ("latecomer", "latecomer"),  # a Lichess user name
    ],
)
def test_names_with_titles_keep_them_in_their_place(name: str, club_writes: str) -> None:
    """`Kiese,Matthias,Dr.` was turned into `Matthias,Dr. Kiese`."""
    assert last_first(name) == club_writes


def test_every_spelling_a_league_may_use_for_a_trf_name() -> None:
    """The league may write the standard's form, with or without the space, or drop a title."""
    assert spellings("Kiese,Matthias,Dr.") == (
        "Dr. Matthias Kiese",
        "Kiese,Matthias,Dr.",
        "Kiese, Matthias, Dr.",
        "Matthias Kiese",
        "Kiese, Matthias",
    )
    assert spellings("Smith, Ann") == ("Ann Smith", "Smith, Ann")


def shifted(line: str) -> str:
    """The record with one character more in the name: every column after it moves."""
    return line[:20] + "x" + line[20:]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        # a name one character longer: round 1's code lands in column 100
        (shifted, r"line 4, column 85: the points \(columns 81-84\) do not fit"),
        # a tab where spaces were (an editor's "smart" indentation)
        (lambda line: line.replace("      ", "\t", 1), r"line 4, column 9: a tab"),
        # a Unicode digit where the rank is (what some keyboards type for ²)
        (lambda line: line[:88] + "²" + line[89:], r"column 86: the rank \(columns 86-89\)"),
        # a round's result moved one column to the right
        (lambda line: line[:98] + " " + line[98:], "column 100: round 2's columns 100-101 should"),
    ],
)
def test_a_record_out_of_its_columns_is_refused(damage: object, message: str) -> None:
    """Finding 9: a record that moved turned games into absences; the fixed columns catch it,
    naming the line and column."""
    lines = list(TWO_PLAYERS)
    lines[3] = damage(lines[3])  # type: ignore[operator]
    with pytest.raises(TrfError, match=message):
        read_trf("\n".join(lines), "x.trf")


def test_a_wrapped_line_is_refused() -> None:
    """A mail program wrapped a long record: the rest of it is no TRF line."""
    long_record = trf_player(1, "Smith, Ann", 1, ["2 w 1", "2 b 0", "2 w 1"], 2)
    other = trf_player(2, "Lee, Cat", 2, ["1 b 0", "1 w 1", "1 b 0"], 1)
    text = "\n".join([long_record[:76], "  " + long_record[76:], other])
    with pytest.raises(TrfError, match=r"line 2: .* is not a TRF line"):
        read_trf(text, "x.trf")


def test_a_record_cut_short_is_refused() -> None:
    """A truncated file: the last record lost its last round, which its opponent still has."""
    text = "\n".join(
        [
            trf_player(1, "Smith, Ann", 1, ["2 w 1", "2 b 0"], 1),
            trf_player(2, "Lee, Cat", 2, ["1 b 0", "1 w 1"], 1)[:-10],
        ]
    )
    with pytest.raises(TrfError, match="the two records disagree"):
        read_trf(text, "x.trf")


def by_bytes(line: str) -> str:
    """The record as a program that pads names to 33 bytes, not characters, writes it."""
    extra = len(line[14:47].rstrip().encode("utf-8")) - len(line[14:47].rstrip())
    return line[: 47 - extra] + line[47:]


def test_a_program_that_pads_names_by_bytes_is_read_by_bytes() -> None:
    """`José` is 5 bytes in UTF-8: a program that pads names to 33 bytes leaves every later
    column one character to the left. When every record with accents does so, the file is
    read by bytes, whole."""
    text = "\n".join(
        [
            by_bytes(trf_player(1, "Capablanca, José", 1, ["2 w 1"], 1)),
            by_bytes(trf_player(2, "Müller, Zoë", 2, ["1 b 0"], 0)),
        ]
    )
    players = read_trf(text, "x.trf").players
    assert [(p.name, p.results, p.rank) for p in players] == [
        ("Capablanca, José", ("1",), 1),
        ("Müller, Zoë", ("0",), 2),
    ]


def test_a_record_that_lines_up_both_ways_is_no_evidence_against_bytes() -> None:
    """A player who missed every round has nothing after his points but blanks, so his record
    lines up by characters and by bytes alike: it says nothing about the file, which is still
    read by bytes when its other accented records need it (found by the import's fuzz test:
    such a file was refused)."""
    text = "\n".join(
        [
            by_bytes(trf_player(1, "Capablanca, José", 1, ["2 w 1"], 1)),
            by_bytes(trf_player(2, "Müller, Zoë", 2, ["1 b 0"], 0)),
            by_bytes(trf_player(3, "Nguyen, Åsa", 3, [""], 0)),
        ]
    )
    players = read_trf(text, "x.trf").players
    assert [(p.name, p.results, p.rank) for p in players] == [
        ("Capablanca, José", ("1",), 1),
        ("Müller, Zoë", ("0",), 2),
        ("Nguyen, Åsa", (), 3),
    ]


def test_one_record_lining_up_by_bytes_is_no_evidence() -> None:
    """`Müller` that lost its `M` lines up by bytes (`ü` is two) in a file padded by
    characters: one record is no evidence that the file pads by bytes, so it is refused (read
    by bytes it would import a new player `üller`); so is a file whose other accented record
    lines up by characters."""
    lost = trf_player(1, "Müller, Eve", 1, ["2 w 1"], 1)
    lost = lost[:14] + lost[15:]  # the M gone, every column after it one to the left
    text = "\n".join([lost, trf_player(2, "Jones, Ann", 2, ["1 b 0"], 0)])
    with pytest.raises(TrfError, match=r"line 1, .* counted in bytes .* no other record says"):
        read_trf(text, "x.trf")
    mixed = "\n".join(
        [
            by_bytes(trf_player(1, "Capablanca, José", 1, ["2 w 1"], 1)),
            trf_player(2, "Müller, Zoë", 2, ["1 b 0"], 0),
        ]
    )
    with pytest.raises(TrfError, match="line 1, "):
        read_trf(mixed, "x.trf")
