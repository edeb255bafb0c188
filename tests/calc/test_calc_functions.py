"""The Excel functions in real LibreOffice Calc, with the extension installed as a user does:
the seeds' worked cases typed as formulas give the seeds' numbers, 1,000 random rows of each
function (ranges in, arrays out) equal what the Excel functions compute, and a bad row shows
the same text as in Excel."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from office import Office, calc, oxt  # noqa: F401 (fixtures: real LibreOffice for the session)

from xlrally.excel import functions

SEEDS = json.loads((Path(__file__).parent.parent / "data" / "seed_cases.json").read_text("utf-8"))
ROWS = 1000


@contextmanager
def sheet(calc: Office, rows: list[list[Any]]) -> Iterator[int]:
    """A new Calc document with ``rows`` typed from A1 (texts starting with = are formulas)."""
    doc = calc("new")
    try:
        calc("put", doc, "Sheet1", rows)
        yield doc
    finally:
        calc("close", doc)


def computed(calc: Office, rows: list[list[Any]], address: str) -> list[list[Any]]:
    with sheet(calc, rows) as doc:
        calc("calculate", doc)
        values: list[list[Any]] = calc("values", doc, "Sheet1", address)
        return values


# ---------------------------------------------------------------- the seeds' worked cases


def test_rally_seed_cases(calc: Office) -> None:
    """The rally rule book's examples: Bobby 79, José 54, Mikhail 34; events counted 1 to 5."""
    scores = SEEDS["rally_event_score"]["cases"]
    counted = SEEDS["rally_events_counted"]["cases"]
    rows: list[list[Any]] = [
        [c["points"], c["rounds"], c["byes"], c["games"], f"=RALLY_SCORE(A{i};B{i};C{i};D{i})"]
        for i, c in enumerate(scores, start=1)
    ]
    rows += [
        [held, "", "", "", f"=RALLY_BEST_N(A{i})"]
        for i, (held, _) in enumerate(counted, start=len(rows) + 1)
    ]
    got = computed(calc, rows, f"E1:E{len(rows)}")
    assert [r[0] for r in got] == [c["score"] for c in scores] + [n for _, n in counted]


def test_poker_seed_cases(calc: Office) -> None:
    """Absolute Points and Relative Reverse Order by rank, and Neau's three cases, from the
    league structures page."""
    absolute, reverse = SEEDS["absolute_points"], SEEDS["relative_reverse_order"]
    a, r = absolute["settings"], reverse["settings"]
    neau = SEEDS["neau_points"]["cases"]
    rows: list[list[Any]] = []
    for i in range(1, 8):
        points = a["points"][i - 1] if i <= len(a["points"]) else ""
        bonus = a["bonus"][i - 1] if i <= len(a["bonus"]) else ""
        rows.append(
            [
                i,
                points,
                bonus,
                f"=ABSOLUTE_POINTS(A{i};$B$1:$B$5;{a['participating']};$C$1:$C$3)",
                f"=REVERSE_POINTS(A{i};{r['players']};{r['multiplier']};{r['participating']};$C$1:$C$3)"
                if i <= r["players"]
                else "",
            ]
        )
    for case in neau:
        rows.append(
            ["", "", "", f"=NEAU_POINTS({case['a']};{case['b']};{case['c']};{case['d']})", ""]
        )
    got = computed(calc, rows, "D1:E10")
    assert [row[0] for row in got[:7]] == [absolute["by_rank"][str(i)] for i in range(1, 8)]
    assert [row[1] for row in got[:5]] == [reverse["by_rank"][str(i)] for i in range(1, 6)]
    assert [round(row[0], 7) for row in got[7:]] == [c["points"] for c in neau]


def test_dippouch_seed_cases(calc: Office) -> None:
    """The Dip Pouch page's worked example (88.46, value 15, 55 → 60.019) and Stratagem 2002's
    percentiles and value."""
    example, stratagem = SEEDS["dippouch"]["worked_example"], SEEDS["dippouch"]["stratagem_2002"]
    table = stratagem["placement_to_percentile_2dp"]
    rows: list[list[Any]] = [
        [f"=DIPPOUCH_PERCENTILE({example['placement']};{example['players']})"],
        [f"=DIPPOUCH_VALUE({example['players']};3)"],
        [f"=DIPPOUCH_RATING({example['placement']};{example['players']};3;;;{example['old']})"],
        [f"=DIPPOUCH_VALUE({stratagem['players']};{stratagem['rounds']};FALSE();2002)"],
        *([f"=DIPPOUCH_PERCENTILE({place};{stratagem['players']})"] for place in table),
    ]
    got = [row[0] for row in computed(calc, rows, f"A1:A{len(rows)}")]
    assert round(got[0], 2) == example["percentile"]
    assert got[1] == example["value"]
    assert round(got[2], 3) == example["new"]
    assert round(got[3], 9) == stratagem["tournament_value"]
    assert [round(v, 2) for v in got[4:]] == list(table.values())


def test_prize_share_and_best_x_in_calc(calc: Office) -> None:
    """Hand-worked: prizes 50, 30, 20.01 with places 2 and 3 shared: (30 + 20.01) / 2 = 25.005,
    rounded down to the cent 25.00; the best 2 of 50, 60, 70 are 130."""
    rows: list[list[Any]] = [
        [50, "=PRIZE_SHARE(A1:A3;2;2)", 50, 60, 70, "=BEST_X_TOTAL(C1:E1;2)"],
        [30],
        [20.01],
    ]
    assert computed(calc, rows, "B1:F1") == [[25.0, 50.0, 60.0, 70.0, 130.0]]


# ---------------------------------------------------------------- 1,000 random rows


def blank_or(rng: random.Random, share: float, value: Callable[[], Any]) -> Any:
    return None if rng.random() < share else value()


def _rally(rng: random.Random) -> list[Any]:
    rounds = rng.randint(1, 9)
    byes = blank_or(
        rng, 0.3, lambda: float(rng.randint(0, min(rounds, 3)))
    )  # byes = rounds: a bad row
    played = rounds - int(byes or 0)
    points = rng.randint(0, 2 * max(played, 0) + 1) / 2  # one over the most: a bad row
    games = blank_or(rng, 0.5, lambda: float(rng.randint(0, max(played, 0))))
    return [points, float(rounds), byes, games]


def _neau(rng: random.Random) -> list[Any]:
    players = rng.randint(2, 60)
    buy_in = rng.randint(500, 10000) / 100
    expense = blank_or(rng, 0.5, lambda: buy_in * rng.randint(1, 3))
    return [float(players), buy_in, expense, float(rng.randint(0, players))]  # finish 0: bad


def _absolute(rng: random.Random) -> list[Any]:
    return [
        float(rng.randint(0, 10)),  # rank 0: a bad row
        float(rng.randint(5, 12)),
        float(rng.choice([0, 2])),
        blank_or(rng, 0.5, lambda: 3.0),
    ]


def _reverse(rng: random.Random) -> list[Any]:
    players = rng.randint(2, 12)
    return [
        float(rng.randint(1, players + 1)),
        float(players),
        rng.choice([1.0, 1.5]),
        float(rng.randint(0, 3)),
    ]


def _year(rng: random.Random) -> Any:
    return rng.choice([None, float(rng.randint(1995, 2025)), float(rng.randint(36000, 46000))])


CELLWISE: dict[str, tuple[Callable[[random.Random], list[Any]], str]] = {
    # name: (one random row of inputs, the arguments: a letter is that input column's range)
    "RALLY_SCORE": (_rally, "A;B;C;D"),
    "RALLY_BEST_N": (
        lambda rng: [
            float(rng.randint(-1, 20)),
            blank_or(rng, 0.5, lambda: float(rng.randint(0, 12))),
        ],
        "A;B",
    ),
    "NEAU_POINTS": (_neau, "A;B;C;D"),
    "ABSOLUTE_POINTS": (_absolute, "A;$H$1:$H$5;5;$I$1:$I$3;B;C;D"),
    "REVERSE_POINTS": (_reverse, "A;B;C;D;$I$1:$I$3"),
    "DIPPOUCH_PERCENTILE": (
        lambda rng: [float(rng.randint(0, 12)), float(rng.randint(2, 11))],
        "A;B",
    ),
    "DIPPOUCH_VALUE": (
        lambda rng: [
            float(rng.randint(0, 80)),
            rng.choice([None, 1.0, 3.0]),
            rng.choice([None, True, False]),
            _year(rng),
        ],
        "A;B;C;D",
    ),
    "PRIZE_SHARE": (
        lambda rng: [
            float(rng.randint(0, 6)),
            blank_or(rng, 0.4, lambda: float(rng.randint(1, 3))),
            rng.choice([None, 1.0, 0.01, 0.05]),
        ],
        "$H$1:$H$5;A;B;C",
    ),
}
TABLES: list[list[Any]] = [[25, 3], [20, 2], [15, 1], [10, ""], [5, ""]]
"""Columns H and I: a points table (and prizes) and a bonus table, the seed's."""


def excel_cell(value: Any) -> Any:
    """What Calc holds for an input as xlwings hands it to the Excel function."""
    return "" if value is None else float(value) if isinstance(value, bool) else value


def range_of(letter: str) -> str:
    return f"{letter}1:{letter}{ROWS}"


@pytest.mark.parametrize("name", list(CELLWISE))
def test_random_rows_equal_the_excel_functions(calc: Office, name: str) -> None:
    """1,000 random rows, bad ones among them, computed by one array formula over the ranges,
    equal the Excel function's results row by row (the same numbers, the same problem texts)."""
    make, arguments = CELLWISE[name]
    rng = random.Random(f"calc-{name}")
    inputs = [make(rng) for _ in range(ROWS)]
    letters = "ABCDE"[: len(inputs[0])]
    formula_args = ";".join(
        range_of(part) if part in letters else part for part in arguments.split(";")
    )
    rows = [
        [excel_cell(v) for v in row] + [""] * (7 - len(row)) + (TABLES[i] if i < 5 else [])
        for i, row in enumerate(inputs)
    ]
    with sheet(calc, rows) as doc:
        calc("array", doc, "Sheet1", range_of("F"), f"={name}({formula_args})")
        calc("calculate", doc)
        got = [row[0] for row in calc("values", doc, "Sheet1", range_of("F"))]
    columns = {letter: [[row[i]] for row in inputs] for i, letter in enumerate(letters)}
    tables = {"$H$1:$H$5": [[t[0]] for t in TABLES], "$I$1:$I$3": [[t[1]] for t in TABLES[:3]]}
    excel_args = [
        columns[p] if p in columns else tables[p] if p in tables else float(p)
        for p in arguments.split(";")
    ]
    expected = [row[0] for row in getattr(functions, name.lower())(*excel_args)]
    assert [float(e) if isinstance(e, int) else e for e in expected] == got
    assert any(isinstance(e, str) and e.startswith("#VALUE!") for e in expected), "no bad row"
    assert sum(isinstance(e, int | float) for e in expected) > ROWS // 2


@pytest.mark.parametrize("name", list(CELLWISE))
def test_random_rows_typed_once_a_row_equal_the_excel_functions(calc: Office, name: str) -> None:
    """The same 1,000 random rows, the function typed once a row (a row that repeats one before
    answered from the answers kept, xlrally/calc/calls.py), equal the Excel function's results row by
    row, bad rows too; rows with an empty cell are left out (Calc hands an add-in an empty cell
    given alone as 0: test_an_empty_cell_given_alone_arrives_as_0)."""
    make, arguments = CELLWISE[name]
    rng = random.Random(f"calc-{name}")
    inputs = [make(rng) for _ in range(ROWS)]
    letters = "ABCDE"[: len(inputs[0])]
    rows = []
    for i, row in enumerate(inputs, start=1):
        cells = ";".join(f"{part}{i}" if part in letters else part for part in arguments.split(";"))
        rows.append(
            [excel_cell(v) for v in row]
            + [""] * (5 - len(row))
            + [f"={name}({cells})"]
            + [""]
            + (TABLES[i - 1] if i <= 5 else [])
        )
    got = [row[0] for row in computed(calc, rows, range_of("F"))]
    tables = {"$H$1:$H$5": [[t[0]] for t in TABLES], "$I$1:$I$3": [[t[1]] for t in TABLES[:3]]}
    compute = getattr(functions, name.lower())
    full = [i for i, row in enumerate(inputs) if None not in row]
    for i in full:
        args = [
            inputs[i][letters.index(p)] if p in letters else tables[p] if p in tables else float(p)
            for p in arguments.split(";")
        ]
        expected = compute(*args)
        assert (float(expected) if isinstance(expected, int) else expected) == got[i], (name, i)
    texts = sum(isinstance(got[i], str) and got[i].startswith("#VALUE!") for i in full)
    assert texts > 0, "no bad row"
    assert len(full) > ROWS // 4
    if name in ("RALLY_SCORE", "RALLY_BEST_N"):  # rows repeat: answers kept are handed back
        assert len({tuple(inputs[i]) for i in full}) < len(full)


def test_random_best_x_totals_equal_excels(calc: Office) -> None:
    """BEST_X_TOTAL over a 1,000 × 5 block of scores (blanks and texts among them), one x per
    row (a bad one sometimes), equals the Excel function row by row."""
    rng = random.Random("calc-BEST_X_TOTAL")
    scores = [
        [rng.choice([None, "absent", float(rng.randint(0, 100))]) for _ in range(5)]
        for _ in range(ROWS)
    ]
    xs = [rng.choice([None, 1.0, 2.0, 3.0, 0.0]) for _ in range(ROWS)]
    rows = [
        [excel_cell(v) for v in row] + [excel_cell(x)] for row, x in zip(scores, xs, strict=True)
    ]
    with sheet(calc, rows) as doc:
        calc("array", doc, "Sheet1", range_of("G"), f"=BEST_X_TOTAL(A1:E{ROWS};F1:F{ROWS})")
        calc("calculate", doc)
        got = [row[0] for row in calc("values", doc, "Sheet1", range_of("G"))]
    expected = [row[0] for row in functions.best_x_total(scores, [[x] for x in xs])]
    assert [float(e) if isinstance(e, int) else e for e in expected] == got
    assert any(isinstance(e, str) and e.startswith("#VALUE!") for e in expected)


def test_random_dippouch_ratings_equal_excels(calc: Office) -> None:
    """DIPPOUCH_RATING of 1,000 players' placements over four events (blanks where a player
    missed one), from a start rating or 40, equals the Excel function player by player."""
    rng = random.Random("calc-DIPPOUCH_RATING")
    sizes, rounds = [31.0, 65.0, 12.0, 7.0], [5.0, 3.0, 1.0, 2.0]
    places = [
        [None if rng.random() < 0.3 else float(rng.randint(1, int(n))) for n in sizes]
        for _ in range(ROWS)
    ]
    starts = [blank_or(rng, 0.5, lambda: float(rng.randint(30, 60))) for _ in range(ROWS)]
    rows: list[list[Any]] = [[*sizes, "", ""], [*rounds, "", ""]]
    for i, (row, start) in enumerate(zip(places, starts, strict=True), start=3):
        given = "" if start is None else f";;;E{i}"  # an empty cell would arrive as 0
        rows.append(
            [excel_cell(v) for v in row]
            + [excel_cell(start), f"=DIPPOUCH_RATING(A{i}:D{i};$A$1:$D$1;$A$2:$D$2{given})"]
        )
    got = [row[0] for row in computed(calc, rows, f"F3:F{ROWS + 2}")]
    expected = [
        functions.dippouch_rating([row], [sizes], [rounds], None, None, start)
        for row, start in zip(places, starts, strict=True)
    ]
    assert expected == got


# ---------------------------------------------------------------- bad rows


@pytest.mark.parametrize(
    ("formula", "call"),
    [
        ("=RALLY_SCORE(1;4;4)", lambda: functions.rally_score(1.0, 4.0, 4.0)),
        ('=RALLY_SCORE("three";4)', lambda: functions.rally_score("three", 4.0)),
        ("=NEAU_POINTS(10;20;40;0)", lambda: functions.neau_points(10.0, 20.0, 40.0, 0.0)),
        ("=DIPPOUCH_PERCENTILE(9;8)", lambda: functions.dippouch_percentile(9.0, 8.0)),
        (
            "=PRIZE_SHARE(A2:A3;1;1;0)",
            lambda: functions.prize_share([[50.0], [30.0]], 1.0, 1.0, 0.0),
        ),
        ('=DIPPOUCH_VALUE(10;1;"maybe")', lambda: functions.dippouch_value(10.0, 1.0, "maybe")),
    ],
)
def test_a_bad_row_shows_the_text_excel_shows(
    calc: Office, formula: str, call: Callable[[], Any]
) -> None:
    """The problem text in the cell is the Excel function's, word for word."""
    expected = call()
    assert isinstance(expected, str)
    assert expected.startswith("#VALUE! ")
    [[got]] = computed(calc, [[formula], [50], [30]], "A1")
    assert got == expected


def test_an_empty_cell_given_alone_arrives_as_0(calc: Office) -> None:
    """Where Calc differs (docs/libreoffice.md): Calc hands an add-in an empty cell given
    alone as 0 (a range's empty cells come as blanks), so a formula on an empty row shows
    the problem with a 0 where Excel shows a blank; the range form gives the blank."""
    rows: list[list[Any]] = [["", "", "=RALLY_SCORE(A1;B1)", "=RALLY_SCORE(A1:A1;B1:B1)"]]
    assert computed(calc, rows, "C1:D1") == [["#VALUE! rounds must be at least 1, not 0", ""]]
    assert functions.rally_score(None, None) == ""  # what Excel shows
