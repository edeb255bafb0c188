"""Each round of a TRF record as the rally counts it: every opponent and result combination the
standard allows, byes written against no opponent, Lichess's late entries, and the checks that
both players of a game agree.

The standard's words (FIDE TRF16 and TRF26, player section, round results): the opponent is
"Starting-rank number of scheduled opponent; `0000` for bye/absent/not paired; four blanks
equivalent to `0000`"; the colour "`-` bye or not paired; blank ≡ `-`"; the result codes are
`-` forfeit loss, `+` forfeit win, `W` `D` `L` a win, draw, loss of a game that lasted less than
one move, `1` `=` `0` win, draw, loss, `H` half-point-bye, `F` full-point-bye, `U`
pairing-allocated bye, `Z` zero-point-bye (known absence), blank equivalent to `Z`.

The rally's rule (seed 000): score = 100 × points from games played / (rounds − byes) + games
played, decimals dropped; "late or early leavers keep the missed rounds in the divisor; only
byes leave it" (Example 3: Mikhail, a bye in round five, gone before round six)."""

from __future__ import annotations

import pytest
from helpers import trf_player

from xlrally.formats.trf import RallyLine, TrfError, rally_line, read_trf


def record(number: int, name: str, points: float, rank: int, rounds: list[str]) -> str:
    """A 001 record with each round's ten columns given as written (``"  0000 - ="``)."""
    line = f"001 {number:4d}      {name:<33.33s}{'':33s}{points:4.1f} {rank:4d}"
    return line + "".join(rounds)


def first_round(opponent: str, colour: str, code: str) -> tuple[str, ...]:
    """The codes as the rally reads them of a player whose round 1 is written as given, and
    who then beats player 2 in round 2 (player 2 is there to make the file whole)."""
    one = f"  {opponent:>4s} {colour} {code}"
    standard = {"1": 1, "W": 1, "+": 1, "F": 1, "U": 1, "=": 0.5, "D": 0.5, "H": 0.5}
    text = "\n".join(
        [
            "XXR 2",
            record(1, "Smith, Ann", standard.get(code, 0) + 1, 1, [one, "     2 w 1"]),
            record(2, "Lee, Cat", 0, 2, ["  0000 - Z", "     1 b 0"]),
        ]
    )
    return read_trf(text, "x.trf").players[0].results


@pytest.mark.parametrize("opponent", ["0000", "    "])  # "four blanks equivalent to 0000"
@pytest.mark.parametrize(
    ("code", "read_as"),
    [
        # a game's or forfeit's code against no opponent is the bye it is, never a game
        ("=", "H"),  # a half point without a game: the half-point bye a player asked for
        ("D", "H"),
        ("1", "U"),  # a full point without a game: the pairing-allocated bye
        ("W", "U"),
        ("+", "U"),
        ("0", "Z"),  # nothing: a known absence (a zero-point bye)
        ("L", "Z"),
        ("-", "Z"),
        # the bye codes are what they say
        ("H", "H"),
        ("F", "F"),
        ("U", "U"),
        ("Z", "Z"),
        (" ", ""),  # not paired
    ],
)
def test_a_result_against_no_opponent_is_a_bye_of_its_kind(
    opponent: str, code: str, read_as: str
) -> None:
    """Finding 1: `0000 - =` was read as a drawn game; each code with no opponent."""
    assert first_round(opponent, "-", code) == (read_as, "1")


@pytest.mark.parametrize("colour", ["-", " "])  # "blank ≡ -"
def test_the_colour_of_a_bye_may_be_blank(colour: str) -> None:
    """The standard lets the colour of a bye be `-` or blank."""
    assert first_round("0000", colour, "=") == ("H", "1")


@pytest.mark.parametrize(
    ("codes", "expected", "score"),
    [
        # The worked case: 4 rounds, a half-point bye written 0000 - = in round 1, then
        # three losses: 100 × 0 / (4 − 1) + 3 = 3 (a drawn game would give 100 × 0.5 / 4 + 4 = 16).
        (["H", "0", "0", "0"], RallyLine(0.0, 3, 1), 3),
        # 0000 - + is the pairing bye's point, not a forfeit won: out of the divisor, no game.
        # 1 1 0 and the bye: 100 × 2 / 3 + 3 = 69.
        (["1", "1", "0", "U"], RallyLine(2.0, 3, 1), 69),
        # 0000 - 0: absent, in the divisor: 1 = 0 and the absence: 100 × 1.5 / 4 + 3 = 40.
        (["1", "=", "0", "Z"], RallyLine(1.5, 3, 0), 40),
    ],
)
def test_hand_worked_rally_lines_of_byes_written_against_no_opponent(
    codes: list[str], expected: RallyLine, score: int
) -> None:
    """The rally's rule applied by hand to the codes as read."""
    line = rally_line(codes)
    assert line == expected
    assert int(100 * line.points / (4 - line.byes) + line.games) == score


def test_a_full_point_bye_against_no_opponent_stays_a_bye_when_forfeits_are_games() -> None:
    """With `Forfeit wins = game`, a forfeit won is a game won; a full point without an
    opponent is no forfeit (nobody forfeited against nobody): still a bye."""
    codes = first_round("0000", "-", "+")
    assert rally_line(codes, forfeit_wins="game") == RallyLine(1.0, 1, 1)
    against_someone = read_trf(
        "\n".join(
            [
                record(1, "Smith, Ann", 1, 1, ["     2 w +"]),
                record(2, "Lee, Cat", 0, 2, ["     1 b -"]),
            ]
        ),
        "x.trf",
    )
    assert rally_line(against_someone.players[0].results, forfeit_wins="game") == RallyLine(
        1.0, 1, 0
    )


def test_a_player_whose_only_entry_is_a_zero_point_bye_played_no_game() -> None:
    """`0000 - 0` then absent: no game, so nothing to score (the import leaves him out)."""
    text = "\n".join(
        [
            record(1, "Smith, Ann", 1, 1, ["     2 w 1", "  0000 - U"]),
            record(2, "Lee, Cat", 0, 2, ["     1 b 0", "          "]),
            record(3, "Gone, Early", 0, 3, ["  0000 - 0"]),
        ]
    )
    gone = read_trf(text, "x.trf").players[2]
    assert rally_line(gone.results).games == 0


def test_lichess_h_is_a_late_entry_in_the_divisor() -> None:
    """Lichess writes H for a round a player missed by joining late (its exporter maps a late
    entry to H); with ``late_h`` it stays in the divisor, as the seed keeps a late joiner's
    missed rounds: H 1 1 0 → 100 × 2 / 4 + 3 = 53 (as a bye: 100 × 2 / 3 + 3 = 69)."""
    late = rally_line(["H", "1", "1", "0"], late_h=True)
    assert late == RallyLine(2.0, 3, 0)
    assert int(100 * late.points / 4 + late.games) == 53
    assert rally_line(["H", "1", "1", "0"]) == RallyLine(2.0, 3, 1)


def lichess_line(number: int, user: str, rating: int, points: float, rounds: list[str]) -> str:
    """A player line laid out as Lichess's exporter lays it out (lila, modules/swiss,
    SwissTrf.scala: each field right-aligned to end at its column: the number at 8, the user
    name at 15 + its length, the rating at 52, the points at 84, and per round the opponent at
    95, the colour at 97 and the result at 99, ten columns on per round)."""
    bits = [(3, "001"), (8, str(number)), (15 + len(user), user), (52, str(rating))]
    bits.append((84, f"{points:.1f}"))
    for index, entry in enumerate(rounds):
        opponent, colour, code = entry.split(",")
        step = 10 * index
        bits += [(95 + step, opponent), (97 + step, colour), (99 + step, code)]
    line = ""
    for end, text in bits:
        line += " " * (end - len(text) - len(line)) + text
    return line


LICHESS = "\n".join(
    [
        "012 Club Swiss",
        "022 https://lichess.org/swiss/abcd1234",
        "032 Lichess",
        "042 Dec 6, 2025",
        "052 Dec 6, 2025",
        "062 3",
        "092 Individual: Swiss-System",
        "102 https://lichess.org/swiss",
        "XXR 3",
        "XXC white1",
        lichess_line(1, "early_bird", 1900, 2.0, ["2,w,1", "3,b,1", ",,U"]),
        lichess_line(2, "steady", 1800, 1.0, ["1,b,0", ",,U", "3,w,1"]),
        lichess_line(3, "latecomer", 1700, 0.5, [",,H", "1,w,0", "2,b,0"]),
    ]
)


def test_a_lichess_file_is_known_by_its_lines_032_and_022() -> None:
    """Lichess names itself on line 032 and gives a lichess.org address on 022; its start date
    is written as Java's medium date (``Dec 6, 2025``); its points count a late entry's H as a
    half point (its scoring)."""
    tournament = read_trf(LICHESS, "lichess.trf")
    assert tournament.program == "Lichess"
    assert str(tournament.start) == "2025-12-06"
    late = tournament.players[2]
    assert (late.name, late.results) == ("latecomer", ("H", "0", "0"))


def test_another_file_with_h_is_no_lichess_file() -> None:
    """Line 032 is a federation elsewhere."""
    text = LICHESS.replace("032 Lichess", "032 ENG").replace("lichess.org", "example.org")
    assert read_trf(text, "x.trf").program == ""


@pytest.mark.parametrize(
    ("second", "message"),
    [
        # both players must name each other ...
        ("     3 b 0", r"Lee, Cat \(w 1\), but line 2 says 3 b 0: the two records disagree"),
        # ... with results that go together (a win and a loss, a draw each)
        ("     1 b 1", r"round 1 says Smith, Ann played Lee, Cat \(w 1\), but line 2 says 1 b 1"),
        ("     1 b =", "the two records disagree"),
        # ... and the other colour
        ("     1 w 0", "the two records disagree"),
        # a round one player has and the other does not (a record cut short)
        ("", "but line 2 says nobody - blank"),
    ],
)
def test_the_two_players_of_a_game_must_agree(second: str, message: str) -> None:
    """A game is written twice, once in each player's record: the file checks itself."""
    text = "\n".join(
        [
            record(1, "Smith, Ann", 1, 1, ["     2 w 1"]),
            record(2, "Lee, Cat", 0, 2, [second] if second else []),
        ]
    )
    with pytest.raises(TrfError, match=message):
        read_trf(text, "x.trf")


def test_an_opponent_who_is_not_in_the_file_is_refused() -> None:
    """A round may only name a starting rank of the file."""
    text = "\n".join(
        [record(1, "Smith, Ann", 1, 1, ["     3 w 1"]), record(2, "Lee, Cat", 0, 2, [])]
    )
    with pytest.raises(TrfError, match="column 92: round 1's opponent 3 is no player of the file"):
        read_trf(text, "x.trf")


def test_a_bye_code_with_an_opponent_is_refused() -> None:
    """H, F, U and Z are byes: a round with an opponent cannot be one."""
    text = "\n".join(
        [record(1, "Smith, Ann", 0.5, 1, ["     2 w H"]), record(2, "Lee, Cat", 0.5, 2, [])]
    )
    with pytest.raises(TrfError, match=r"line 1, column 99: round 1 has an opponent \(2\)"):
        read_trf(text, "x.trf")


def test_matching_results_of_both_sides() -> None:
    """Every pair the two sides of one game may have: 1-0, =-=, W-L, D-D, +-, a double
    forfeit, a double loss."""
    pairs = [("1", "0"), ("=", "="), ("W", "L"), ("D", "D"), ("+", "-"), ("-", "-"), ("0", "0")]
    worth = {"1": 1, "W": 1, "+": 1, "=": 0.5, "D": 0.5}
    for mine, theirs in pairs:
        text = "\n".join(
            [
                record(1, "Smith, Ann", worth.get(mine, 0), 1, [f"     2 w {mine}"]),
                record(2, "Lee, Cat", worth.get(theirs, 0), 2, [f"     1 b {theirs}"]),
            ]
        )
        players = read_trf(text, "x.trf").players
        assert [p.results for p in players] == [(mine,), (theirs,)]


def test_the_points_column_must_equal_the_rounds() -> None:
    """A record whose points (columns 81-84) are not those of its rounds is damaged."""
    text = "\n".join(
        [
            record(1, "Smith, Ann", 2, 1, ["     2 w 1"]),
            record(2, "Lee, Cat", 0, 2, ["     1 b 0"]),
        ]
    )
    with pytest.raises(
        TrfError, match=r"line 1, column 81: Smith, Ann has 2 points .* add up to 1"
    ):
        read_trf(text, "x.trf")


def test_a_pairing_bye_worth_half_a_point_is_the_tournaments_choice() -> None:
    """Clubs may give the odd player half a point: one value for the bye, for every player."""
    text = "\n".join(
        [
            record(1, "Smith, Ann", 1.5, 1, ["     2 w 1", "  0000 - U"]),
            record(2, "Lee, Cat", 0.5, 2, ["     1 b 0", "  0000 - U"]),
        ]
    )
    assert [p.results for p in read_trf(text, "x.trf").players] == [("1", "U"), ("0", "U")]


def test_a_half_point_the_rounds_do_not_give_is_a_blank_half_point_bye() -> None:
    """ICU's files leave a half-point bye blank and count it in the points column (ICU's own
    reader reads them so): 1.5 points from a win and a blank round is a half-point bye there;
    1 point more than the rounds give, with one blank round, is not."""
    text = "\n".join(
        [
            record(1, "Smith, Ann", 1.5, 1, ["     2 w 1", "       -  "]),
            record(2, "Lee, Cat", 0, 2, ["     1 b 0"]),
        ]
    )
    assert read_trf(text, "x.trf").players[0].results == ("1", "H")
    with pytest.raises(TrfError, match="has 2 points"):
        read_trf(text.replace(" 1.5    1", " 2.0    1"), "x.trf")


def test_the_declared_number_of_players_must_be_the_records() -> None:
    """Line 062 says how many players the file has: a file cut after a record is caught."""
    text = "\n".join(
        [
            "062 3",
            record(1, "Smith, Ann", 1, 1, ["     2 w 1"]),
            record(2, "Lee, Cat", 0, 2, ["     1 b 0"]),
        ]
    )
    with pytest.raises(TrfError, match=r"line 1: the file says it has 3 players \(line 062\)"):
        read_trf(text, "x.trf")


def test_a_paired_round_without_a_result_is_read_as_pending() -> None:
    """A round paired but not played yet (in-tournament exchange): no result on either side."""
    text = "\n".join(
        [
            record(1, "Smith, Ann", 1, 1, ["     2 w 1", "     2 b  "]),
            record(2, "Lee, Cat", 0, 2, ["     1 b 0", "     1 w  "]),
        ]
    )
    tournament = read_trf(text, "x.trf")
    assert tournament.played_rounds == 1
    assert tournament.players[0].rounds[1].opponent == 2


def test_the_helper_writes_the_standards_columns() -> None:
    """The test helper's layout is the standard's (rank 5-8, name 15-47, points 81-84, rank
    86-89, round 1 from 92): a hand-made record reads back as written."""
    line = trf_player(12, "Smith, Ann", 3, ["7 w 1", "U", ""], 2)
    assert (line[4:8], line[14:24], line[80:84], line[85:89]) == (
        "  12",
        "Smith, Ann",
        " 2.0",
        "   3",
    )
    assert line[89:109] == "     7 w 1  0000 - U"
