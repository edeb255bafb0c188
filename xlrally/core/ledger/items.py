"""The ledger's entries as read, and their vocabulary: each item's name and what it does to
the money (:class:`Kind`), free text going by its amount's sign (see :mod:`xlrally.core.ledger`)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import Enum

from xlrally.core.errors import Origin
from xlrally.core.names import norm

CENT = 0.005
"""Money is compared to half a cent: sums of decimal amounts are not exact in binary."""


class Kind(Enum):
    """What a ledger item does to the money."""

    PAYMENT = "payment"
    """Money in from a player, towards what they owe."""
    INCOME = "income"
    """Money in that nobody owes."""
    REFUND = "refund"
    """Money back to a player."""
    PAYOUT = "payout"
    """An event's prize money paid out on the night."""
    PRIZE = "prize"
    """A season prize paid to its winner."""
    EXPENSE = "expense"
    """Money out for the league."""
    OTHER_OUT = "other out"
    """Free text with an amount below 0."""
    HELD = "held"
    """A statement of the money held (not a movement)."""

    @property
    def money_in(self) -> bool:
        """Whether an entry of this kind brings money in."""
        return self in (Kind.PAYMENT, Kind.INCOME)


ITEMS: dict[str, tuple[str, Kind]] = {
    "entry fee": ("entry fee", Kind.PAYMENT),
    "entry": ("entry fee", Kind.PAYMENT),
    "buy-in": ("buy-in", Kind.PAYMENT),
    "re-buy": ("re-buy", Kind.PAYMENT),
    "rebuy": ("re-buy", Kind.PAYMENT),
    "add-on": ("re-buy", Kind.PAYMENT),
    "season fee": ("season fee", Kind.PAYMENT),
    "membership": ("season fee", Kind.PAYMENT),
    "subscription": ("season fee", Kind.PAYMENT),
    "income": ("income", Kind.INCOME),
    "sponsorship": ("income", Kind.INCOME),
    "refund": ("refund", Kind.REFUND),
    "payout": ("payout", Kind.PAYOUT),
    "winnings": ("payout", Kind.PAYOUT),
    "prize": ("prize", Kind.PRIZE),
    "expense": ("expense", Kind.EXPENSE),
    "expenses": ("expense", Kind.EXPENSE),
    "cost": ("expense", Kind.EXPENSE),
    "held": ("held", Kind.HELD),
    "balance": ("held", Kind.HELD),
    "bank": ("held", Kind.HELD),
    "counted": ("held", Kind.HELD),
}
"""The vocabulary by spelling (matched ignoring case, spaces and punctuation): the item's name
and its kind. The first spelling of each is the documented one."""

_VOCABULARY = {norm(spelling): item for spelling, item in ITEMS.items()}

NEEDS_PLAYER = (Kind.PAYMENT, Kind.REFUND, Kind.PRIZE)
"""The kinds of entry that must name their player."""


def item_kind(item: str, amount: float, player: str = "") -> tuple[str, Kind, bool]:
    """The item's name, its kind and whether it is from the vocabulary. Free text goes by
    the amount's sign: money in (from a player: towards what they owe) or out.

    >>> item_kind("Buy in", 20)[:2], item_kind("Raffle", 40)[:2], item_kind("Trophies", -35)[:2]
    (('buy-in', <Kind.PAYMENT: 'payment'>), ('Raffle', <Kind.INCOME: 'income'>), \
('Trophies', <Kind.OTHER_OUT: 'other out'>))
    >>> item_kind("March fees", 20, player="Ann")
    ('March fees', <Kind.PAYMENT: 'payment'>, False)
    """
    known = _VOCABULARY.get(norm(item))
    if known is not None:
        return (*known, True)
    if amount < 0:
        return item, Kind.OTHER_OUT, False
    return item, Kind.PAYMENT if player else Kind.INCOME, False


@dataclass(frozen=True)
class LedgerEntry:
    """One row of the Ledger sheet, as read (its meaning is checked by
    :func:`~xlrally.core.ledger.account`)."""

    date: dt.date
    item: str
    amount: float
    player: str = ""
    event: str = ""
    origin: Origin | None = None
    season: str = ""
    """The season it belongs to ('' when the workbook does not name seasons)."""
