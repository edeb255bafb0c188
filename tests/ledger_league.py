"""The treasurer's hand-worked league (issue 34), shared by the ledger's core and reading
tests. Every amount is worked by hand:

Thursday Hold'em, Absolute Points 10 / 6 / 3 / 1, tie break most recent, buy-in 20, season
fee 10. W1 (8 Jan): Ann 1st (re-bought: Total 40), Ben 2nd, Cara 3rd, Dev 4th: it took
40 + 20 + 20 + 20 = 100. W2 (15 Jan): Ben 1st, Ann 2nd, Cara 3rd: 60. Totals Ann 10 + 6 = 16,
Ben 6 + 10 = 16 (Ben is first: 10 to Ann's 6 in W2, the most recent), Cara 6, Dev 1.

Withholding: 10% rounded to the nearest 5, at most 8, plus 2 a head. W1: 10% of 100 = 10, to
the nearest 5: 10, capped at 8; 2 × 4 = 8; 16 withheld. W2: 10% of 60 = 6, to the nearest 5:
5; 2 × 3 = 6; 11. The pot is 16 + 11 = 27: 1st 60% = 16.20 (Ben), 2nd 40% = 10.80 (Ann). Each
night's own prize money is what it took less what was withheld: 84 and 49.

The ledger: on 8 Jan Ann 20 buy-in and 20 re-buy, Ben 20, Cara 20, Dev 10 (of his 20), and
W1's 84 paid out (Ann 50, Ben 34); on 15 Jan Ann, Ben, Cara 20 each, season fees from Ann and
Ben (10 each), W2's 49 paid out (Ben 30, Ann 19) and 12 for cards; on 16 Jan the cash box is
counted: 25. In 90 + 60 + 20 = 170, out 84 + 49 + 12 = 145: held 25.

Dues: Ann 40 + 20 + 10 = 70, paid 70; Ben 20 + 20 + 10 = 50, paid 50; Cara 20 + 20 + 10 = 50,
paid 40: owes 10; Dev 20 + 10 = 30, paid 10: owes 20. Held 25 = the pot in hand 27 + credit 0
− owed 30 + the league's own 28 (its fees, 4 × 10, less the cards, 12).
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from xlrally.core.ledger import LedgerEntry, Withholding
from xlrally.core.model import Event, League, PointStructure, Result, Settings
from xlrally.core.prizes import Prize
from xlrally.formats.workbook.tables import CellOrigin

W1, W2 = dt.date(2026, 1, 8), dt.date(2026, 1, 15)
COLUMNS = {"date": 0, "player": 1, "item": 2, "amount": 3, "event": 4}


def row(
    number: int, day: dt.date, player: str, item: str, amount: float, event: str = ""
) -> LedgerEntry:
    """One Ledger row, with its cells (Ledger!A2 ...)."""
    return LedgerEntry(day, item, amount, player, event, CellOrigin("Ledger", number, COLUMNS))


LEDGER = (
    row(2, W1, "Ann", "Buy-in", 20),
    row(3, W1, "Ann", "Re-buy", 20),
    row(4, W1, "Ben", "buy in", 20),
    row(5, W1, "Cara", "Buy-in", 20),
    row(6, W1, "Dev", "Buy-in", 10),
    row(7, W1, "Ann", "Payout", 50, "W1"),
    row(8, W1, "Ben", "Payout", 34, "W1"),
    row(9, W2, "Ann", "Buy-in", 20),
    row(10, W2, "Ben", "Buy-in", 20),
    row(11, W2, "Cara", "Buy-in", 20),
    row(12, W2, "Ann", "Season fee", 10),
    row(13, W2, "Ben", "Season fee", 10),
    row(14, W2, "Ben", "Payout", 30, "W2"),
    row(15, W2, "Ann", "Payout", 19, "W2"),
    row(16, W2, "", "Expense", 12),
    row(17, dt.date(2026, 1, 16), "", "Held", 25),
)


def league(ledger: tuple[LedgerEntry, ...] | None = LEDGER, **changes: object) -> League:
    settings = Settings(
        "absolute",
        structure=PointStructure(points=(10, 6, 3, 1)),
        tie_breaks=("recent",),
        prizes=(Prize(1, share=0.6), Prize(2, share=0.4)),
        season_fee=10,
        withholding=Withholding(share=0.10, step=5, cap=8, per_head=2),
    )
    settings = dataclasses.replace(settings, **changes)  # type: ignore[arg-type]
    events = (Event("W1", W1, buy_in=20), Event("W2", W2, buy_in=20))
    results = (
        Result("W1", "Ann", rank=1, total=40),
        Result("W1", "Ben", rank=2),
        Result("W1", "Cara", rank=3),
        Result("W1", "Dev", rank=4),
        Result("W2", "Ben", rank=1),
        Result("W2", "Ann", rank=2),
        Result("W2", "Cara", rank=3),
    )
    return League(settings, events, results, ledger=ledger)
