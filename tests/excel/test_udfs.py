"""The Excel functions: seed cases, arrays, errors per cell, and xlwings' real conversion."""

from __future__ import annotations

import datetime as dt
import importlib
import inspect
import keyword
import re
import sys
import types
from collections.abc import Iterator
from decimal import Decimal
from typing import Any
from unittest import mock

import pytest
import xlwings
from conftest import SEED

import udfs
from xlrally.excel import arguments

FUNCTIONS = [getattr(udfs, name) for name in udfs.__all__]

NEAU_10_20_1 = 5 * 2**0.5
"""Neau's formula for 10 players, buy-in 20, no re-buys, 1st: √(10 × 20 × 20 / 20) / 2 = √200 / 2
= 7.0711 (a seed case)."""


# ---------------------------------------------------------------- direct calls


@pytest.mark.parametrize("case", SEED["rally_event_score"]["cases"], ids=lambda c: c["name"])
def test_rally_score_seed_cases(case: dict[str, Any]) -> None:
    """Excel sends floats; the score is the seed's."""
    args = (float(case["points"]), float(case["rounds"]), float(case["byes"]), float(case["games"]))
    assert udfs.RALLY_SCORE(*args) == case["score"]


def test_rally_score_column_with_blank_and_bad_rows() -> None:
    """A column spills a column; a blank row is blank; a bad row shows its own error."""
    got = udfs.RALLY_SCORE(
        [[3.0], [None], [1.0], [1.5]],
        [[4.0], [None], [4.0], [6.0]],
        [[None], [None], [4.0], [1.0]],
        [[None], [None], [None], [4.0]],
    )
    assert got == [[79], [""], ["#VALUE! byes (4) must be less than rounds (4)"], [34]]


def test_prize_share_splits_the_places_a_tie_covers() -> None:
    """Prizes 50, 30, 20: 1st alone 50; two sharing 2nd get (30 + 20) / 2 = 25; three sharing
    1st get (50 + 30 + 20) / 3 = 33.333… rounded down to the cent, 33.33; to whole pounds, 33.
    Place 0 is no place."""
    prizes = [[50.0], [30.0], [20.0]]
    assert udfs.PRIZE_SHARE(prizes, [[1.0], [2.0], [1.0]], [[1.0], [2.0], [3.0]]) == [
        [50],
        [25],
        [33.33],
    ]
    assert udfs.PRIZE_SHARE(prizes, 1.0, 3.0, 1.0) == 33
    assert udfs.PRIZE_SHARE(prizes, 0.0) == "#VALUE! place must be at least 1, not 0"


def test_a_full_column_with_one_bad_row() -> None:
    """No blank row (the functions' fast path): the bad row still shows its own error and the
    others score. Seed formula: 100 × 3 / 4 + 4 = 79; 100 × 1.5 / (6 − 1) + 4 = 34."""
    got = udfs.RALLY_SCORE(
        [[3.0], [1.0], [1.5]],
        [[4.0], [4.0], [6.0]],
        [[None], [4.0], [1.0]],
        [[None], [None], [4.0]],
    )
    assert got == [[79], ["#VALUE! byes (4) must be less than rounds (4)"], [34]]


def test_a_two_by_two_range_keeps_its_rows() -> None:
    """Cells come back where they were: 100 × p / 4 + 4 for p = 4, 3 / 2, 0."""
    assert udfs.RALLY_SCORE([[4.0, 3.0], [2.0, 0.0]], 4.0) == [[104, 79], [54, 4]]


def test_single_values_repeat_across_a_range() -> None:
    """rounds = 4 for every row; 0 points is a score (4 games: 4), not a blank."""
    assert udfs.RALLY_SCORE([[4.0, 3.0, 2.0, 0.0, None]], 4.0) == [[104, 79, 54, 4, ""]]


@pytest.fixture
def lite(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run the functions as in xlwings Lite (Pyodide), where desktop Excel sends blanks as 0."""
    monkeypatch.setattr(arguments, "LITE", True)


def test_lite_blank_rows_arrive_as_zeros(lite: None) -> None:
    """In Lite a row of zeros in every range is blank."""
    assert udfs.RALLY_SCORE([[3.0], [0.0]], [[4.0], [0.0]]) == [[79], [""]]
    assert udfs.NEAU_POINTS([[10.0], [0.0]], 20.0, [[0.0], [0.0]], [[1.0], [0.0]]) == [
        [NEAU_10_20_1],
        [""],
    ]


def test_zeros_are_values_in_classic_excel() -> None:
    """Classic Excel sends blanks as None, so a 0 is a 0: 0 points in 4 rounds scores the 4
    games (seed: 100 × 0 / 4 + 4), one input gives one answer, and a 0 where a value is
    required is flagged rather than blanked."""
    assert udfs.RALLY_SCORE([[3.0], [0.0]], 4.0, [[0.0], [0.0]]) == [[79], [4]]
    assert udfs.RALLY_SCORE(0.0, 4.0, 0.0) == 4
    assert udfs.REVERSE_POINTS([[1.0], [0.0]], 8.0)[1] == ["#VALUE! rank must be at least 1, not 0"]
    assert udfs.DIPPOUCH_PERCENTILE(1.0, 0.0) == "#VALUE! players must be at least 1, not 0"


def test_zeros_are_values_in_lite_too_when_one_input_is_given(lite: None) -> None:
    assert udfs.RALLY_SCORE([[3.0], [0.0]], 4.0, [[0.0], [0.0]]) == [[79], [4]]
    assert udfs.RALLY_SCORE(0.0, 4.0, 0.0) == 4


def test_shapes_must_match() -> None:
    """Two ranges of different shapes: one error, not a guess."""
    assert udfs.RALLY_SCORE([[1.0], [2.0]], [[4.0], [4.0], [4.0]]) == (
        "#VALUE! ranges must have the same shape (2×1 and 3×1)"
    )


def test_rally_best_n() -> None:
    """The seed's table, with a custom cap."""
    held = [[float(h)] for h, _ in SEED["rally_events_counted"]["cases"]]
    assert udfs.RALLY_BEST_N(held) == [[c] for _, c in SEED["rally_events_counted"]["cases"]]
    assert udfs.RALLY_BEST_N(11.0, 11.0) == 6


def test_best_x_total() -> None:
    """Per row: the x largest numbers, blanks and text ignored (hand-worked)."""
    scores = [[79.0, None, 54.0, 34.0], ["absent", 26.0, None, None], [None, None, None, None]]
    assert udfs.BEST_X_TOTAL(scores, 2.0) == [[133.0], [26.0], [""]]
    assert udfs.BEST_X_TOTAL(scores) == [[167.0], [26.0], [""]]
    assert udfs.BEST_X_TOTAL(scores, [[1.0], [1.0], [1.0]]) == [[79.0], [26.0], [""]]
    assert (
        udfs.BEST_X_TOTAL([[1.0, 2.0]], -1.0)
        == "#VALUE! x must be a whole number of at least 1, not -1.0"
    )


@pytest.mark.parametrize("case", SEED["neau_points"]["cases"])
def test_neau_points_seed_cases(case: dict[str, float]) -> None:
    """Neau's formula matches the seed cases."""
    got = udfs.NEAU_POINTS(float(case["a"]), float(case["b"]), float(case["c"]), float(case["d"]))
    assert got == pytest.approx(case["points"], abs=5e-8)


def test_neau_blank_total_is_the_buy_in() -> None:
    """A blank total expense means no re-buys; in classic Excel a 0 is a (wrong) value."""
    assert udfs.NEAU_POINTS(10.0, 20.0, None, 1.0) == pytest.approx(NEAU_10_20_1)
    assert udfs.NEAU_POINTS(10.0, 20.0, 0.0, 1.0) == (
        "#VALUE! total_expense (0) must not be below the buy-in (20)"
    )


def test_neau_blank_total_arrives_as_zero_in_lite(lite: None) -> None:
    assert udfs.NEAU_POINTS(10.0, 20.0, 0.0, 1.0) == pytest.approx(NEAU_10_20_1)


def test_absolute_points_seed_table() -> None:
    """25/20/15/10/5 + 5 participating + 3/2/1 bonus: 33 27 21 15 10 5 5."""
    ranks = [[float(r)] for r in range(1, 8)]
    got = udfs.ABSOLUTE_POINTS(
        ranks, [[25.0], [20.0], [15.0], [10.0], [5.0]], 5.0, [[3.0, 2.0, 1.0]]
    )
    assert got == [[v] for v in SEED["absolute_points"]["by_rank"].values()]


def test_absolute_player_count_points() -> None:
    """8 players × 2 to rank 3 (seed's example): rank 3 gets 16 more, rank 4 none."""
    got = udfs.ABSOLUTE_POINTS([[3.0], [4.0]], [[0.0]], None, None, 8.0, 2.0, 3.0)
    assert got == [[16.0], [0.0]]
    assert (
        udfs.ABSOLUTE_POINTS(1.0, [[10.0]], None, None, None, 2.0)
        == "#VALUE! players is needed for player-count points"
    )


def test_per_row_settings_may_be_ranges() -> None:
    """Participating points per row (a range) next to a single multiplier (hand-worked):
    rank 1 of 5: 5 × 1 + 2 = 7; rank 2: 4 × 1 + 0 = 4."""
    assert udfs.REVERSE_POINTS([[1.0], [2.0]], 5.0, None, [[2.0], [0.0]]) == [[7.0], [4.0]]
    assert udfs.ABSOLUTE_POINTS([[1.0], [2.0]], [[10.0], [5.0]], [[1.0], [None]]) == [[11.0], [5.0]]


def test_reverse_points_seed_table() -> None:
    """5 players, ×1.5, 2 participating, 3/2/1 bonus: 12.5 10 7.5 5 3.5."""
    got = udfs.REVERSE_POINTS(
        [[1.0], [2.0], [3.0], [4.0], [5.0]], 5.0, 1.5, 2.0, [[3.0], [2.0], [1.0]]
    )
    assert got == [[v] for v in SEED["relative_reverse_order"]["by_rank"].values()]


def test_dippouch_percentile_and_value() -> None:
    """Stratagem 2002: percentiles and value 31 / 3.5 + 2; a date or serial works as the year."""
    published = SEED["dippouch"]["stratagem_2002"]["placement_to_percentile_2dp"]
    got = udfs.DIPPOUCH_PERCENTILE([[float(p)] for p in published], 31.0)
    assert [round(row[0], 2) for row in got] == list(published.values())
    value = SEED["dippouch"]["stratagem_2002"]["tournament_value"]
    assert udfs.DIPPOUCH_VALUE(31.0, 5.0, False, dt.datetime(2002, 1, 5)) == pytest.approx(value)
    assert udfs.DIPPOUCH_VALUE(31.0, 5.0, None, 37261.0) == pytest.approx(
        value
    )  # 2002-01-05 serial
    assert udfs.DIPPOUCH_VALUE(200.0, 3.0, None, 1999.0) == 0
    assert udfs.DIPPOUCH_VALUE(30.0, 3.0, True, 1999.0) == 20


def test_dippouch_rating_one_step_is_the_seed_example() -> None:
    """Start 55, 8th of 65, multi-round: 60.019."""
    got = udfs.DIPPOUCH_RATING(8.0, 65.0, 3.0, None, None, 55.0)
    assert round(got, 3) == SEED["dippouch"]["worked_example"]["new"]


def test_dippouch_rating_over_events_in_order() -> None:
    """Three events, the blank one skipped. Each: 7 players, one round: value 7 / 7 + 2 = 3.
    1st: percentile (7.5 − 1) / 7 × 100 = 92.857, rating 40 + 3% × 52.857 = 41.5857; then 7th:
    (7.5 − 7) / 7 × 100 = 7.143, rating 41.5857 + 3% × (7.143 − 41.5857) = 40.5524."""
    got = udfs.DIPPOUCH_RATING(
        [[1.0], [None], [7.0]], 7.0, 1.0, None, [[2005.0], [2005.0], [2006.0]]
    )
    assert got == pytest.approx(40.5524, abs=1e-4)
    assert (
        udfs.DIPPOUCH_RATING([[1.0], [9.0]], 8.0)
        == "#VALUE! event 2: placements (9) must be between 1 and players (8)"
    )


# ---------------------------------------------------------------- names and help


RESERVED_VBA = {
    "and",
    "as",
    "boolean",
    "byref",
    "byval",
    "call",
    "case",
    "const",
    "date",
    "dim",
    "do",
    "double",
    "each",
    "else",
    "end",
    "error",
    "exit",
    "false",
    "for",
    "function",
    "get",
    "goto",
    "if",
    "in",
    "integer",
    "is",
    "let",
    "like",
    "long",
    "loop",
    "me",
    "mod",
    "new",
    "next",
    "not",
    "nothing",
    "null",
    "on",
    "option",
    "or",
    "private",
    "public",
    "resume",
    "select",
    "set",
    "single",
    "static",
    "step",
    "string",
    "sub",
    "then",
    "to",
    "true",
    "type",
    "until",
    "variant",
    "wend",
    "while",
    "with",
    "xor",
}


@pytest.mark.parametrize("function", FUNCTIONS, ids=lambda f: f.__name__)
def test_names_are_valid_vba_and_not_cells(function: Any) -> None:
    """Function and argument names are VBA identifiers, not reserved, not like a cell (AB1)."""
    names = [function.__name__, *inspect.signature(function).parameters]
    for name in names:
        assert re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,254}", name), name
        assert name.casefold() not in RESERVED_VBA, name
        assert not keyword.iskeyword(name)
        assert not re.fullmatch(r"[A-Za-z]{1,3}[0-9]+", name), name  # would read as a cell


# ---------------------------------------------------------------- xlwings' real classic decorators


XL_ERRORS = {2000: "#NULL!", 2007: "#DIV/0!", 2015: "#VALUE!", 2023: "#REF!", 2029: "#NAME?"}
XL_ERRORS |= {2036: "#NUM!", 2042: "#N/A"}
"""Excel's cell error values (Microsoft, "Cell Error Values": xlErrDiv0 = 2007 ...)."""


def com_error(text: str) -> int:
    """How COM hands an error cell to Python: the VARIANT's SCODE 0x800A0000 + the xlErr
    number, as a signed 32-bit int (CVErr, VT_ERROR)."""
    number = next(n for n, t in XL_ERRORS.items() if t == text)
    return (0x800A0000 | number) - 2**32


class ComValues:
    """The value cleaning of xlwings' Windows engine (xlwings._xlwindows.Engine), which cannot
    be imported here (it loads Windows DLLs), written from its documented behaviour: blanks
    become None on the way in, error cells None or (``err_to_str``) their text, None becomes ""
    on the way out, numbers stay floats."""

    name = "excel"
    type = "desktop"

    @staticmethod
    def clean_value_data(
        data: Any, datetime_builder: Any, empty_as: Any, number_builder: Any, err_to_str: Any
    ) -> Any:
        errors = {com_error(text): text for text in XL_ERRORS.values()}

        def clean(value: Any) -> Any:
            if value in ("", None):
                return empty_as
            if number_builder is not None and isinstance(value, float):
                return number_builder(value)
            if isinstance(value, int) and value in errors:
                return errors[value] if err_to_str else None
            return value

        return [[clean(c) for c in row] for row in data]

    @staticmethod
    def prepare_xl_data_element(x: Any, date_format: Any) -> Any:
        return "" if x is None else x


@pytest.fixture(scope="module")
def classic() -> Iterator[tuple[types.ModuleType, types.ModuleType]]:
    """udfs decorated by xlwings' Windows decorators, with pywin32 stubbed (no Excel here)."""
    stubs = {
        name: types.ModuleType(name)
        for name in ("pythoncom", "pywintypes", "win32com", "win32com.client")
    }
    stubs["win32com.client"].Dispatch = lambda *a, **k: None  # type: ignore[attr-defined]
    stubs["pythoncom"].CoInitialize = lambda: None  # type: ignore[attr-defined]
    stubs["win32com"].client = stubs["win32com.client"]  # type: ignore[attr-defined]
    with mock.patch.dict(sys.modules, stubs):
        sys.modules.pop("xlwings.udfs", None)
        real = importlib.import_module("xlwings.udfs")
        with mock.patch.multiple(xlwings, func=real.xlfunc, arg=real.xlarg, ret=real.xlret):
            sys.modules.pop("udfs", None)
            decorated = importlib.import_module("udfs")
        had_excel = "excel" in xlwings.engines.engines_by_name
        if not had_excel:
            xlwings.engines.add(xlwings.main.Engine(impl=ComValues()))
        yield decorated, real
        if not had_excel:
            engine = xlwings.engines.engines_by_name.pop("excel")
            xlwings.engines.engines.remove(engine)
    sys.modules["udfs"] = udfs


MISSING = object()


def excel_call(real: types.ModuleType, function: Any, *args: Any) -> Any:
    """Call as xlwings' call_udf does: convert each argument, call, convert the result."""
    info = function.__xlfunc__
    values = []
    for i, arg in enumerate(args):
        arg_info = info["args"][i]
        if arg is MISSING:
            values.append(arg_info.get("optional"))
        else:
            values.append(real.conversion.read(None, arg, arg_info["options"]))
    for arg_info in info["args"][len(args) :]:
        values.append(arg_info.get("optional"))
    return real.conversion.write(function(*values), None, info["ret"]["options"])


def test_classic_conversion_scalars_and_ranges(
    classic: tuple[types.ModuleType, types.ModuleType],
) -> None:
    """Excel sends 4 as 4.0, a blank as None and a range as a tuple of row tuples."""
    module, real = classic
    assert excel_call(real, module.RALLY_SCORE, 3.0, 4.0) == [[79]]
    column = excel_call(
        real, module.RALLY_SCORE, ((3.0,), (None,), (1.0,)), 4.0, ((0.0,), (None,), (4.0,))
    )
    assert column == [[79], [""], ["#VALUE! byes (4) must be less than rounds (4)"]]
    assert excel_call(
        real, module.RALLY_SCORE, ((2.0, 1.5),), ((5.0, 6.0),), ((1.0, 1.0),), ((4.0, 4.0),)
    ) == [[54, 34]]
    totals = excel_call(real, module.BEST_X_TOTAL, ((79.0, None, 54.0), (None, 26.0, "n/a")), 1.0)
    assert totals == [[79.0], [26.0]]
    rating = excel_call(real, module.DIPPOUCH_RATING, ((8.0,),), 65.0, 3.0, MISSING, MISSING, 55.0)
    assert round(rating[0][0], 3) == 60.019


def test_error_cells_are_passed_on_with_the_argument(
    classic: tuple[types.ModuleType, types.ModuleType],
) -> None:
    """A row whose points cell holds #N/A is not a blank row: it shows the error (the other
    rows still compute: 100 × 3 / 4 + 4 = 79)."""
    module, real = classic
    column = excel_call(real, module.RALLY_SCORE, ((3.0,), (com_error("#N/A"),)), 4.0)
    assert column == [[79], ["#N/A in points"]]
    total = excel_call(real, module.BEST_X_TOTAL, ((79.0, com_error("#DIV/0!")),), 1.0)
    assert total == [["#DIV/0! in scores"]]
    rating = excel_call(real, module.DIPPOUCH_RATING, ((8.0,),), com_error("#REF!"))
    assert rating == [["#REF! in players"]]


def test_best_x_total_spills_natively(
    classic: tuple[types.ModuleType, types.ModuleType],
) -> None:
    """No legacy array resizing (xlwings' ``expand``, which overwrites cells): the result is a
    plain array that Excel 365 spills by itself."""
    module, _ = classic
    for name in udfs.__all__:
        assert "expand" not in getattr(module, name).__xlfunc__["ret"]["options"], name


def test_numbers_stored_as_text_count_as_in_the_sync() -> None:
    """Seed example 1 with its numbers typed as text (docs/workbook-format.md accepts them)."""
    assert udfs.RALLY_SCORE("3", " 4 ") == 79
    assert udfs.BEST_X_TOTAL([["79", 54.0, "n/a"]], "1") == 79
    assert udfs.RALLY_SCORE("three", 4.0) == "#VALUE! points must be a number, not 'three'"


def test_classic_metadata_gives_wizard_help(
    classic: tuple[types.ModuleType, types.ModuleType],
) -> None:
    """Every function has a one-line description and every argument its own (what Excel shows)."""
    module, _ = classic
    for name in udfs.__all__:
        info = getattr(module, name).__xlfunc__
        assert info["ret"]["doc"], name
        assert "\n" not in info["ret"]["doc"].strip(), name
        for arg in info["args"]:
            assert not arg["doc"].startswith("Positional argument"), (name, arg["name"])
            assert len(arg["doc"]) <= 255
            assert arg["options"].get("err_to_str") is True, (name, arg["name"])  # #N/A seen
        assert info["category"] == "xlrally"


# ---------------------------------------------------------------- currency cells (Decimal)
# On Windows, xlwings hands currency- and accounting-formatted cells over as decimal.Decimal
# (pywin32's VT_CY; xlwings issues #65 and #640). They are numbers like any other.


def test_decimal_inputs_give_the_seed_answers() -> None:
    """Seed example 1 (100 × 3 / 4 + 4 = 79), Neau's seed case (√(10 × 20 × 20/20) / 2 =
    7.0710678), seed example 2 with a Decimal bye (100 × 2 / 4 + 4 = 54)."""
    assert udfs.RALLY_SCORE(Decimal("3"), Decimal("4")) == 79
    assert udfs.RALLY_SCORE([[Decimal("2")]], 5.0, [[Decimal("1")]]) == 54  # 1×1 range: a value
    case = SEED["neau_points"]["cases"][0]
    got = udfs.NEAU_POINTS(10.0, Decimal("20.00"), Decimal("20.00"), 1.0)
    assert got == pytest.approx(case["points"])


def test_best_x_total_counts_decimal_scores() -> None:
    """Best 2 of 25, 54, 10 (the 25 a currency cell) is 25 + 54 = 79, not 54 + 10."""
    assert udfs.BEST_X_TOTAL([[Decimal("25"), 54.0, 10.0]], 2.0) == 79


def test_decimal_inputs_in_the_other_functions() -> None:
    """Hand-worked: reverse order (10 − 1 + 1) × 1 = 10; absolute points for rank 2 of the
    table 10, 6, 3 is 6; percentile (10 + 0.5 − 1) / 10 × 100 = 95; value 20 for a World
    Championship; best-N of 14 events held is 5."""
    assert udfs.REVERSE_POINTS(1.0, Decimal("10")) == 10
    assert udfs.ABSOLUTE_POINTS(2.0, [[Decimal("10")], [Decimal("6")], [Decimal("3")]]) == 6
    assert udfs.DIPPOUCH_PERCENTILE(1.0, Decimal("10")) == pytest.approx(95)
    assert udfs.DIPPOUCH_VALUE(Decimal("30"), 3.0, True, 2005.0) == 20
    assert udfs.RALLY_BEST_N(Decimal("14")) == 5
