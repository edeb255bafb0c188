"""The treasurer's ledger: who paid what and who still owes, what each event withheld, where
the money went, and a reconciliation that fails, at the cell, when the money does not add up
(issue 34).

A ledger entry is a date, an item, an amount, and optionally the player and the event it is
for. Items come from a small vocabulary, or are free text (then the amount's sign says which
way the money went: ``Raffle 40`` in, ``Trophies -35`` out):

=============  ==========================================================================
item           what it is
=============  ==========================================================================
entry fee,     money in from a player, towards what they owe (a player is needed)
buy-in,
re-buy,
season fee
income         money in that nobody owes (a sponsor, a raffle)
refund         money back to a player: what they paid goes down (a player is needed)
payout         an event's prize money paid out on the night
prize          a season prize (the Prizes sheet) paid to its winner (a player is needed)
expense        money out for the league (venue, cards, trophies)
held           not a movement: the money held on that date, counted or from the bank;
               the reconciliation checks it
=============  ==========================================================================

The sums (the docs' worked example: docs/workbook-format.md, "Ledger")::

    due(player)     = their money in each scored event (Total, else Buy-in, else the event's
                      Buy-in) + the season fee
    paid(player)    = their payments − their refunds;  balance = paid − due (below 0: owes)
    withheld(event) = min(cap, step × ⌊share × takings / step + ½⌋) + per head × players
    pot             = Pot + Pot share × collected + Σ withheld        (Withheld for: pot)
    held            = money in − money out
                    = (pot − prizes paid) + players' credit − owed by players + the league's own

The last line defines the league's own money (withheld for the league, fees, income, less
expenses); it can be below 0 (the league spent the pot's money), and is shown so.

The reconciliation fails, naming the cell: a ``held`` entry that differs from what the ledger
says is held at the end of that day; a day after which the ledger has paid out more than it
took in; a prize paid beyond the winner's prize; payouts for an event beyond the money its
players paid less what the league kept; withholding more than an event took.

One module per job: :mod:`~.items` (the entries and their vocabulary), :mod:`~.withholding`
(each scored event's money and what the league keeps of it) and :mod:`~.accounts` (the
account: every entry taken in date order, each player's balance, the money held and its
reconciliation).
"""

from xlrally.core.ledger.accounts import Account, Money, Statement, account
from xlrally.core.ledger.items import CENT, ITEMS, Kind, LedgerEntry, item_kind
from xlrally.core.ledger.withholding import (
    EventMoney,
    Takings,
    Withholding,
    event_money,
    withholding_problems,
)

__all__ = [
    "CENT",
    "ITEMS",
    "Account",
    "EventMoney",
    "Kind",
    "LedgerEntry",
    "Money",
    "Statement",
    "Takings",
    "Withholding",
    "account",
    "event_money",
    "item_kind",
    "withholding_problems",
]
