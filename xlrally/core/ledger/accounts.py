"""The league's account from its ledger: every entry taken in date order, each player's paid
and due, the money in and out, and the reconciliation's problems, each at its cell (see
:mod:`xlrally.core.ledger` for the sums)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from xlrally.core.errors import Origin, Problem
from xlrally.core.ledger.items import CENT, NEEDS_PLAYER, Kind, LedgerEntry, item_kind
from xlrally.core.ledger.withholding import EventMoney
from xlrally.core.names import norm
from xlrally.core.numbers import show


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
    kept = sorted(
        (e for e in entries if as_of is None or e.date <= as_of), key=lambda e: e.date
    )  # sorted() is stable: one day's entries stay as listed
    books = _Books({norm(e.event): e for e in events}, awards, resolve)
    for entry in kept:
        books.take(entry)
    problems = books.problems
    problems.extend(_cash_problems(books.movements))
    checked = _reconciled(books.statements, books.movements, problems)
    money = _money_of(books, events, dues, season_fee, pot, to_pot, tuple(checked), len(kept))
    return money, problems


@dataclass
class _Books:
    """What the entries come to, taken one by one in date order (:meth:`take`): each player's
    payments less refunds, the prizes paid to each, each event's payouts, the sums by kind,
    the ``held`` entries, every movement of money (day, entry, signed amount) and the
    problems found on the way."""

    by_event: Mapping[str, EventMoney]
    awards: Mapping[str, float] | None
    resolve: Callable[[str], str]
    paid: dict[str, float] = field(default_factory=dict)
    prize_paid: dict[str, float] = field(default_factory=dict)
    payouts: dict[str, float] = field(default_factory=dict)
    sums: dict[Kind, float] = field(default_factory=lambda: dict.fromkeys(Kind, 0.0))
    statements: list[Statement] = field(default_factory=list)
    movements: list[tuple[dt.date, LedgerEntry, float]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def fail(self, entry: LedgerEntry, message: str, field_name: str = "amount") -> None:
        self.problems.append(
            Problem(message, player=entry.player or None, field=field_name, origin=entry.origin)
        )

    def take(self, entry: LedgerEntry) -> None:
        """One entry: refused with its problem, a statement of the money held, or a movement
        of money (a prize or payout beyond what it may be is a problem too)."""
        fail = self.fail
        paid, prize_paid, payouts, sums = self.paid, self.prize_paid, self.payouts, self.sums
        name, kind, listed = item_kind(entry.item, entry.amount, entry.player)
        if listed and kind is not Kind.HELD and entry.amount < 0:
            way = "money in" if kind.money_in else "money out"
            fail(
                entry,
                f"{_a(name)} is {way} already: write {show(-entry.amount)}, not "
                f"{show(entry.amount)} (a correction is a row of its own: a refund, or income)",
            )
            return
        if kind in NEEDS_PLAYER and not entry.player:
            fail(entry, f"{_a(name)} needs its player", "player")
            return
        if kind is Kind.HELD:
            if entry.player:
                fail(entry, "a held entry states the money held: it names no player", "player")
                return
            self.statements.append(Statement(entry.date, entry.amount, 0.0, entry.origin))
            return
        event = self.by_event.get(norm(entry.event)) if entry.event else None
        player = self.resolve(entry.player) if entry.player else ""
        amount = abs(entry.amount)
        sums[kind] += amount
        if kind is Kind.PAYMENT:
            paid[player] = paid.get(player, 0.0) + amount
        elif kind is Kind.REFUND:
            paid[player] = paid.get(player, 0.0) - amount
        elif kind is Kind.PRIZE:
            so_far = prize_paid[player] = prize_paid.get(player, 0.0) + amount
            won = (self.awards or {}).get(player, 0.0)
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
        self.movements.append((entry.date, entry, signed))


def _reconciled(
    statements: Sequence[Statement],
    movements: Sequence[tuple[dt.date, LedgerEntry, float]],
    problems: list[Problem],
) -> list[Statement]:
    """Each ``held`` entry with what the ledger says is held at the end of its day; one that
    differs is a problem (added to ``problems``)."""
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
    return checked


def _money_of(
    books: _Books,
    events: Sequence[EventMoney],
    dues: Mapping[str, float],
    season_fee: float,
    pot: float,
    to_pot: bool,
    checked: tuple[Statement, ...],
    entries: int,
) -> Money:
    """The league's money as the books say: every player's account (by name), each event's
    payouts beside its takings, the sums by kind."""
    paid, payouts, sums = books.paid, books.payouts, books.sums
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
    return Money(
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
        statements=checked,
        entries=entries,
    )


def _a(item: str) -> str:
    """``a buy-in``, ``an expense``."""
    return f"an {item}" if item[:1] in "aeiou" else f"a {item}"


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
