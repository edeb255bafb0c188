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
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from xlrally.core.errors import Origin, Problem
from xlrally.core.names import norm
from xlrally.core.numbers import plural, show

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

_NEEDS_PLAYER = (Kind.PAYMENT, Kind.REFUND, Kind.PRIZE)


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
    """One row of the Ledger sheet, as read (its meaning is checked by :func:`account`)."""

    date: dt.date
    item: str
    amount: float
    player: str = ""
    event: str = ""
    origin: Origin | None = None
    season: str = ""
    """The season it belongs to ('' when the workbook does not name seasons)."""


@dataclass(frozen=True)
class Withholding:
    """What the league keeps of each scored event's takings (Settings ``Withhold ...``):
    ``share`` of them rounded to the nearest ``step`` (0: not rounded), at most ``cap`` (None:
    no cap), plus ``per_head`` for each player in the event. ``to_pot``: the money builds the
    season's pot (prize shares are of it); False: it is the league's own."""

    share: float = 0
    step: float = 0
    cap: float | None = None
    per_head: float = 0
    to_pot: bool = True
    origin: Origin | None = None
    """The Settings row of the first withholding setting (for a problem's cell)."""

    def of(self, takings: float, heads: int) -> tuple[float, str]:
        """What is withheld from an event that took ``takings`` from ``heads`` players, with
        the working.

        >>> rule = Withholding(share=0.065, step=5, cap=250)
        >>> rule.of(340, 17)
        (20.0, '6.5% of 340 = 22.10, to the nearest 5: 20')
        >>> rule.of(5000, 100)
        (250.0, '6.5% of 5000 = 325, to the nearest 5: 325, capped at 250')
        >>> Withholding(per_head=3).of(340, 17)
        (51.0, '3 × 17 players = 51')
        """
        parts = []
        kept: float = 0
        if self.share:
            exact = self.share * takings
            parts.append(f"{show(self.share * 100, 4)}% of {show(takings)} = {_money(exact)}")
            kept = exact
            if self.step:
                kept = self.step * math.floor(exact / self.step + 0.5 + 1e-9)
                parts[-1] += f", to the nearest {show(self.step)}: {show(kept)}"
            if self.cap is not None and kept > self.cap:
                kept = self.cap
                parts[-1] += f", capped at {show(self.cap)}"
        if self.per_head:
            head = self.per_head * heads
            parts.append(f"{show(self.per_head)} × {plural(heads, 'player')} = {show(head)}")
            kept += head
        explain = "; ".join(parts)
        if len(parts) > 1:
            explain += f"; withheld {show(kept)}"
        return float(kept), explain


def _a(item: str) -> str:
    """``a buy-in``, ``an expense``."""
    return f"an {item}" if item[:1] in "aeiou" else f"a {item}"


def _money(value: float) -> str:
    """An amount as worked: whole, or with its two decimals (``22.10``)."""
    return show(value) if float(round(value, 2)).is_integer() else f"{value:.2f}"


@dataclass(frozen=True)
class Takings:
    """What one scored event took: each player's money for it (by the name shown)."""

    event: str
    date: dt.date | None
    paid: Mapping[str, float]


@dataclass(frozen=True)
class EventMoney:
    """One scored event's money: what it took, what the league kept, and what was left for
    its own prizes (``pool``: takings less the pot's share and the withholding)."""

    event: str
    date: dt.date | None
    takings: float
    heads: int
    withheld: float
    explain: str
    pool: float
    payouts: float = 0
    """What the ledger paid out for it (payouts naming the event)."""


def event_money(
    takings: Sequence[Takings], withholding: Withholding | None, pot_share: float
) -> tuple[EventMoney, ...]:
    """Each scored event's money, in the order given."""
    rows = []
    for event in takings:
        took = sum(event.paid.values())
        heads = len(event.paid)
        kept, explain = withholding.of(took, heads) if withholding else (0.0, "")
        pool = took * (1 - pot_share) - kept
        rows.append(EventMoney(event.event, event.date, took, heads, kept, explain, pool))
    return tuple(rows)


def withholding_problems(
    events: Sequence[EventMoney], withholding: Withholding | None
) -> list[Problem]:
    """Events whose withholding is more than they took (after the pot's share)."""
    origin = withholding.origin if withholding else None
    return [
        Problem(
            f"{e.event} took {show(e.takings)} but the league withholds {show(e.withheld)} "
            f"({e.explain}) and the pot's share: more than the event took",
            event=e.event,
            field="value",
            origin=origin,
        )
        for e in events
        if e.pool < -CENT
    ]


@dataclass(frozen=True)
class Account:
    """One player's money: paid (payments less refunds), due, and the balance."""

    player: str
    paid: float
    due: float

    @property
    def balance(self) -> float:
        """Paid less due: below 0 the player owes it, above 0 they are in credit."""
        return self.paid - self.due


@dataclass(frozen=True)
class Statement:
    """A ``held`` entry: the money said to be held on a date, and what the ledger says."""

    date: dt.date
    amount: float
    ledger: float
    origin: Origin | None = None


@dataclass(frozen=True)
class Money:
    """A league's money: every player's account, every scored event's takings and what was
    withheld, the money in and out, the pot, and the statements checked."""

    accounts: tuple[Account, ...]
    events: tuple[EventMoney, ...]
    money_in: float
    from_players: float
    """Of the money in, what players paid towards what they owe."""
    refunds: float
    payouts: float
    prizes: float
    expenses: float
    other_out: float
    pot: float
    """The season's pot as built (:func:`~xlrally.core.prizes.pot_of` and the withheld)."""
    season_fee: float = 0
    to_pot: bool = True
    """What was withheld went into the pot (else it is the league's own)."""
    statements: tuple[Statement, ...] = ()
    entries: int = 0
    """Ledger entries counted (those dated after the as-of date are left out)."""

    @property
    def withheld(self) -> float:
        """What the scored events withheld."""
        return sum(e.withheld for e in self.events)

    @property
    def money_out(self) -> float:
        return self.refunds + self.payouts + self.prizes + self.expenses + self.other_out

    @property
    def held(self) -> float:
        """The money the ledger says is held: in less out."""
        return self.money_in - self.money_out

    @property
    def pot_in_hand(self) -> float:
        """The pot not paid out yet: built less the prizes paid."""
        return self.pot - self.prizes

    @property
    def credit(self) -> float:
        """What players paid beyond what they owe."""
        return sum(a.balance for a in self.accounts if a.balance > 0)

    @property
    def owed(self) -> float:
        """What players still owe."""
        return -sum(a.balance for a in self.accounts if a.balance < 0)

    @property
    def own(self) -> float:
        """The league's own money: held less the pot in hand and players' credit, plus what
        players owe (it is not in yet)."""
        return self.held - self.pot_in_hand - self.credit + self.owed


def account(
    entries: Iterable[LedgerEntry],
    events: Sequence[EventMoney],
    dues: Mapping[str, float],
    *,
    season_fee: float = 0,
    pot: float = 0,
    to_pot: bool = True,
    awards: Mapping[str, float] | None = None,
    resolve: Callable[[str], str] = str,
    as_of: dt.date | None = None,
) -> tuple[Money, list[Problem]]:
    """The league's money from its ledger, and every reconciliation problem at its cell.

    ``dues``: each player's money for the scored events (by the name shown); ``resolve``
    turns a spelling in the ledger into that name (aliases); ``awards``: each player's prize
    money (None: the league has no prizes). Entries dated after ``as_of`` are left out.
    Entries are taken in date order (the same date: as listed).
    """
    problems: list[Problem] = []
    kept = sorted(
        (e for e in entries if as_of is None or e.date <= as_of), key=lambda e: e.date
    )  # sorted() is stable: one day's entries stay as listed
    by_event = {norm(e.event): e for e in events}
    paid: dict[str, float] = {}
    prize_paid: dict[str, float] = {}
    payouts: dict[str, float] = {}
    sums = dict.fromkeys(Kind, 0.0)
    statements: list[Statement] = []
    movements: list[tuple[dt.date, LedgerEntry, float]] = []  # (day, entry, signed amount)

    def fail(entry: LedgerEntry, message: str, field_name: str = "amount") -> None:
        problems.append(
            Problem(message, player=entry.player or None, field=field_name, origin=entry.origin)
        )

    for entry in kept:
        name, kind, listed = item_kind(entry.item, entry.amount, entry.player)
        if listed and kind is not Kind.HELD and entry.amount < 0:
            way = "money in" if kind.money_in else "money out"
            fail(
                entry,
                f"{_a(name)} is {way} already: write {show(-entry.amount)}, not "
                f"{show(entry.amount)} (a correction is a row of its own: a refund, or income)",
            )
            continue
        if kind in _NEEDS_PLAYER and not entry.player:
            fail(entry, f"{_a(name)} needs its player", "player")
            continue
        if kind is Kind.HELD:
            if entry.player:
                fail(entry, "a held entry states the money held: it names no player", "player")
                continue
            statements.append(Statement(entry.date, entry.amount, 0.0, entry.origin))
            continue
        event = by_event.get(norm(entry.event)) if entry.event else None
        player = resolve(entry.player) if entry.player else ""
        amount = abs(entry.amount)
        sums[kind] += amount
        if kind is Kind.PAYMENT:
            paid[player] = paid.get(player, 0.0) + amount
        elif kind is Kind.REFUND:
            paid[player] = paid.get(player, 0.0) - amount
        elif kind is Kind.PRIZE:
            so_far = prize_paid[player] = prize_paid.get(player, 0.0) + amount
            won = (awards or {}).get(player, 0.0)
            if so_far > won + CENT:
                earlier = so_far - amount
                before = f" ({show(earlier)} before this entry)" if earlier > CENT else ""
                has = f"{player}'s prize is {show(won)}" if won else f"{player} has no prize"
                fail(entry, f"{has}, but the ledger pays {show(so_far)}{before}")
        elif kind is Kind.PAYOUT and event is not None:
            so_far = payouts[event.event] = payouts.get(event.event, 0.0) + amount
            if so_far > event.pool + CENT:
                fail(
                    entry,
                    f"payouts for {event.event} come to {show(so_far)}, more than its prize "
                    f"money {show(event.pool)} ({_pool_working(event)})",
                )
        signed = amount if kind.money_in else -amount
        movements.append((entry.date, entry, signed))

    problems.extend(_cash_problems(movements))
    checked = []
    for statement in statements:
        ledger = sum(s for day, _, s in movements if day <= statement.date)
        checked.append(Statement(statement.date, statement.amount, ledger, statement.origin))
        if abs(ledger - statement.amount) > CENT:
            money_in = sum(s for day, _, s in movements if day <= statement.date and s > 0)
            gap = statement.amount - ledger
            which = "more" if gap > 0 else "less"
            problems.append(
                Problem(
                    f"the money held at the end of {statement.date.isoformat()} is "
                    f"{show(ledger)} by the ledger (in {show(money_in)}, out "
                    f"{show(money_in - ledger)}), not {show(statement.amount)}: "
                    f"{show(abs(gap))} {which} than the entries account for",
                    field="amount",
                    origin=statement.origin,
                )
            )

    names = {**dict.fromkeys(dues, 0.0), **dict.fromkeys(paid, 0.0)}
    accounts = tuple(
        Account(player, paid.get(player, 0.0), dues.get(player, 0.0) + season_fee)
        for player in sorted(names, key=lambda n: (n.casefold(), n))
    )
    events_out = tuple(
        EventMoney(
            e.event,
            e.date,
            e.takings,
            e.heads,
            e.withheld,
            e.explain,
            e.pool,
            payouts.get(e.event, 0.0),
        )
        for e in events
    )
    money = Money(
        accounts,
        events_out,
        money_in=sums[Kind.PAYMENT] + sums[Kind.INCOME],
        from_players=sums[Kind.PAYMENT],
        refunds=sums[Kind.REFUND],
        payouts=sums[Kind.PAYOUT],
        prizes=sums[Kind.PRIZE],
        expenses=sums[Kind.EXPENSE],
        other_out=sums[Kind.OTHER_OUT],
        pot=pot,
        season_fee=season_fee,
        to_pot=to_pot,
        statements=tuple(checked),
        entries=len(kept),
    )
    return money, problems


def _pool_working(event: EventMoney) -> str:
    kept = event.takings - event.pool
    return f"took {show(event.takings)}, {show(kept)} kept for the league and the pot"


def _cash_problems(movements: list[tuple[dt.date, LedgerEntry, float]]) -> list[Problem]:
    """The first day after which the ledger has paid out more than it took in: at that day's
    last entry of money out (one mistake, one message)."""
    cash = 0.0
    index = 0
    while index < len(movements):
        day = movements[index][0]
        last_out = None
        while index < len(movements) and movements[index][0] == day:
            cash += movements[index][2]
            if movements[index][2] < 0:
                last_out = movements[index][1]
            index += 1
        if cash < -CENT and last_out is not None:
            return [
                Problem(
                    f"by the end of {day.isoformat()} the ledger has paid out {show(-cash)} more "
                    "than it took in: an entry of money in is missing, or this amount is wrong",
                    player=last_out.player or None,
                    field="amount",
                    origin=last_out.origin,
                )
            ]
    return []
