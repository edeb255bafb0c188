"""What a new workbook offers for the treasurer and what it takes (issue 34): the settings with
their help, and (Neau's example, which has buy-ins and a re-buy) a Ledger sheet whose Item
column offers the vocabulary. Read back with openpyxl, never through xlrally's reader."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from xlrally.app.sync import read_standings, sync_file
from xlrally.excel.template import LEDGER_ITEMS, build_workbook
from xlrally.formats.workbook.settings import SETTINGS


def settings_rows(path: Path) -> dict[str, str]:
    sheet = openpyxl.load_workbook(path)["Settings"]
    return {
        str(row[0]): str(row[2]) for row in sheet.iter_rows(min_row=2, values_only=True) if row[0]
    }


def test_every_league_is_offered_what_it_takes(tmp_path: Path) -> None:
    """What it takes and Events left, with their help, for every system (Dip Pouch too)."""
    for system in ("rally", "dippouch"):
        build_workbook(tmp_path / f"{system}.xlsx", system)
        rows = settings_rows(tmp_path / f"{system}.xlsx")
        assert rows["What it takes"] == "yes: what the events to come can change for each player"
        assert rows["Events left"].startswith("how many events are still to come")


def test_leagues_with_prize_money_are_offered_the_money_settings(tmp_path: Path) -> None:
    """The rally and poker leagues (they list a Pot) get every money setting; a Dip Pouch list
    (no prize money) none of them."""
    build_workbook(tmp_path / "absolute.xlsx", "absolute")
    build_workbook(tmp_path / "dippouch.xlsx", "dippouch")
    money = {s.name for s in SETTINGS if s.money}
    assert money <= settings_rows(tmp_path / "absolute.xlsx").keys()
    assert not money & settings_rows(tmp_path / "dippouch.xlsx").keys()


def test_the_neau_example_has_a_ledger_that_reconciles(tmp_path: Path) -> None:
    """Neau's example night: the buy-ins and Ben's re-buy (20 + 20 + 20 + 20 = 80), half paid
    out on the night (25 + 15), the box counted at 40: the pot (50% of 80). The Item column
    offers the vocabulary and takes free text."""
    path = tmp_path / "neau.xlsx"
    build_workbook(path, "neau")
    book = openpyxl.load_workbook(path)
    ledger = book["Ledger"]
    rows = list(ledger.iter_rows(values_only=True))
    assert rows[0] == ("Date", "Player", "Item", "Amount", "Event")
    assert [r[2] for r in rows[1:]] == [
        "Buy-in",
        "Buy-in",
        "Re-buy",
        "Buy-in",
        "Payout",
        "Payout",
        "Held",
    ]
    (rule,) = ledger.data_validations.dataValidation
    assert rule.formula1 == '"' + ",".join(LEDGER_ITEMS) + '"'
    assert rule.errorStyle == "information"
    sync_file(path)
    money = read_standings(path).money
    assert money is not None
    assert (money.money_in, money.payouts, money.held, money.pot, money.own) == (80, 40, 40, 40, 0)
