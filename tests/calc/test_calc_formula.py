"""FORMULA_POINTS in real LibreOffice Calc (the extension built from the same function
catalogue as the other functions): the PokerStars page's worked examples, a preset with a cut
given in the formula, a league's own expression, and a bad formula's message as in Excel."""

from __future__ import annotations

from typing import Any

from office import Office, calc, oxt  # noqa: F401 (fixtures: real LibreOffice for the session)

from xlrally.excel import functions


def test_formula_points_in_calc(calc: Office) -> None:
    """163.09, 23.88 and 100.54 (the page's examples); 0 past the top 15%; depth decay at 60%
    (UDisc's 7 for 2nd of 10); ``pot / players`` (160 / 8 = 20); an unknown name's message."""
    rows: list[list[Any]] = [
        [150, 3, 20, '=FORMULA_POINTS("pokerstars";A1;B1;C1)'],
        [900, 25, 0, '=FORMULA_POINTS("pokerstars";A2;B2;C2)'],
        [250, 10, 10, '=FORMULA_POINTS("pokerstars";A3;B3;C3)'],
        [150, 23, 20, '=FORMULA_POINTS("pokerstars";A4;B4;C4)'],
        [10, 2, "", '=FORMULA_POINTS("depth decay";A5;B5;;;;;0.6)'],
        [8, 1, 160, '=FORMULA_POINTS("pot / players";A6;B6;;;;C6)'],
        [16, 4, "", '=FORMULA_POINTS("10 * sqrt(plac)";A7;B7)'],
    ]
    doc = calc("new")
    try:
        calc("put", doc, "Sheet1", rows)
        calc("calculate", doc)
        got = [row[0] for row in calc("values", doc, "Sheet1", "D1:D7")]
    finally:
        calc("close", doc)
    assert got[:6] == [163.09, 23.88, 100.54, 0, 7, 20]
    assert got[6] == functions.formula_points("10 * sqrt(plac)", 16.0, 4.0)
    assert str(got[6]).startswith("#VALUE! formula column 11: unknown name 'plac'")
