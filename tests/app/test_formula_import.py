"""A night's results from a poker timer's CSV into a formula league made by `xlrally new`:
the Knockouts and Re-buys land as numbers, Knocked out by as text, and the standings score
them (the school formula and 10 a knockout, worked by hand)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl

from xlrally.app.importer import Options, import_file
from xlrally.app.sync import read_standings
from xlrally.excel.template import build_workbook


def test_a_timers_csv_with_knockouts_into_a_formula_league(tmp_path: Path) -> None:
    """The template's league (10 a knockout, 10 for the leader) with its Formula set to
    ``school``. After its two weeks Ben leads: Ann 10 × √150 + 20 = 142.47 and 10 × √(40 / 6)
    = 25.82, 168.29; Ben 10 × √75 = 86.60 and 10 × √40 + 10 + 10 (Ann, then the leader) =
    83.25, 169.85. A night of 4: Ben wins and knocks out Ann and Cy (named in Eliminated by),
    no bounty (he is the leader): 10 × √4 / √1 = 20 + 2 × 10 = 40; Ann 2nd, one re-buy,
    knocked out Di: 10 × √4 / √2 = 14.14 + 10 = 24.14; Cy 3rd 11.55; Di 4th 10."""
    league = tmp_path / "league.xlsx"
    build_workbook(league, "formula")
    book = openpyxl.load_workbook(league)  # the test's own copy, made before xlrally reads it
    settings = book["Settings"]
    for row in settings.iter_rows(min_row=2):
        if row[0].value == "Formula":
            row[1].value = "school"
    book.save(league)
    night = tmp_path / "night.csv"
    night.write_text(
        "Pos;Name;KOs;Eliminated by;Rebuys\n1;Ben;2;;\n2;Ann;;Ben;1\n3;Cy;;Ben;\n4;Di;;Ann;\n",
        encoding="utf-8",
    )
    outcome = import_file(
        league, night, Options(event="Night 3", date=dt.date(2026, 4, 19), columns={"Pos": "Rank"})
    )
    assert outcome.event == "Night 3"
    results = openpyxl.load_workbook(league)["Results"]
    header = [c.value for c in next(results.iter_rows(max_row=1))]
    rows = [
        dict(zip(header, (c.value for c in r), strict=False)) for r in results.iter_rows(min_row=2)
    ]
    ann = next(r for r in rows if r["Event"] == "Night 3" and r["Player"] == "Ann")
    assert (ann["Re-buys"], ann["Knocked out by"]) == (1, "Ben")
    ben = next(r for r in rows if r["Event"] == "Night 3" and r["Player"] == "Ben")
    assert ben["Knockouts"] == 2
    standings = read_standings(league)
    night3 = {r.player: r.score("Night 3") for r in standings.rows}
    assert night3["Ben"] is not None
    assert night3["Ben"].explain == "place 1 of 4: 10 × √4 / √1 = 20 + 2 KOs × 10 = 40"
    values = {p: round(s.value, 2) for p, s in night3.items() if s is not None}
    assert values == {"Ben": 40, "Ann": 24.14, "Cy": 11.55, "Di": 10}
