"""The ledger balances (issue 34), whatever is entered: the money held is what came in less
what went out, each player's balance is what they paid less what they owe, and a count of the
money held that agrees with the entries passes while one a cent off fails at its cell. The
test classifies each entry itself, from the items table of docs/workbook-format.md."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from xlrally.core.ledger import LedgerEntry, Takings, Withholding, account, event_money
from xlrally.formats.workbook.tables import CellOrigin

PLAYERS = ["Ann", "Ben", "Cy", ""]
IN = {"Entry fee", "Buy-in", "Re-buy", "Season fee"}
OUT = {"Payout", "Prize", "Expense"}
ITEMS = sorted(IN | OUT | {"Income", "Refund", "Raffle", "Trophies"})
COLUMNS = {"date": 0, "player": 1, "item": 2, "amount": 3, "event": 4}


@st.composite
def entries(draw: st.DrawFn) -> list[LedgerEntry]:
    found = []
    for number in range(draw(st.integers(0, 25))):
        item = draw(st.sampled_from(ITEMS))
        cents = draw(st.integers(-5000, 20000))
        found.append(
            LedgerEntry(
                dt.date(2026, 1, 1) + dt.timedelta(days=draw(st.integers(0, 9))),
                item,
                cents / 100,
                draw(st.sampled_from(PLAYERS)),
                draw(st.sampled_from(["", "W1", "W2"])),
                CellOrigin("Ledger", number + 2, COLUMNS),
            )
        )
    return found


def accepted(entry: LedgerEntry) -> bool:
    """Whether the docs' table lets the entry stand: a listed item's amount is not below 0,
    and a payment, refund or prize names its player."""
    listed = entry.item in IN | OUT | {"Income", "Refund"}
    if listed and entry.amount < 0:
        return False
    return not (entry.item in IN | {"Refund", "Prize"} and not entry.player)


def signed(entry: LedgerEntry) -> float:
    """Money in above 0, out below: free text by its sign."""
    if entry.item in IN or entry.item == "Income":
        return entry.amount
    if entry.item in OUT or entry.item == "Refund":
        return -entry.amount
    return entry.amount


def paid_by(entry: LedgerEntry) -> float:
    """What the entry adds to its player's paid: payments and free text in from a player count,
    refunds take away."""
    if not entry.player:
        return 0.0
    if entry.item in IN or (entry.item in {"Raffle", "Trophies"} and entry.amount >= 0):
        return entry.amount
    if entry.item == "Refund":
        return -entry.amount
    return 0.0


TAKINGS = [
    Takings("W1", dt.date(2026, 1, 2), {"Ann": 20, "Ben": 40}),
    Takings("W2", dt.date(2026, 1, 6), {"Ann": 20, "Cy": 20}),
]


@given(entries(), st.sampled_from([0, 5, 12.5]))
@settings(max_examples=200, deadline=None)
def test_the_ledger_balances(ledger: list[LedgerEntry], fee: float) -> None:
    """Held = in − out; each balance = paid − due; the balances sum to credit − owed; the pot
    in hand is the pot less the prizes paid."""
    events = event_money(TAKINGS, None, 0)
    dues = {"Ann": 40.0, "Ben": 40.0, "Cy": 20.0}
    awards = {"Ann": 10**6, "Ben": 10**6, "Cy": 10**6}
    money, _ = account(ledger, events, dues, season_fee=fee, pot=500, awards=awards)
    kept = [e for e in ledger if accepted(e) and e.item != "Held"]
    assert abs(money.held - sum(signed(e) for e in kept)) < 1e-6
    paid: dict[str, float] = {}
    for e in kept:
        if paid_by(e):
            paid[e.player] = paid.get(e.player, 0.0) + paid_by(e)
    players = set(dues) | set(paid)
    assert {a.player for a in money.accounts} == players
    for a in money.accounts:
        assert abs(a.paid - paid.get(a.player, 0.0)) < 1e-6
        assert abs(a.due - (dues.get(a.player, 0.0) + fee)) < 1e-6
        assert abs(a.balance - (a.paid - a.due)) < 1e-9
    assert abs(sum(a.balance for a in money.accounts) - (money.credit - money.owed)) < 1e-6
    prizes = sum(e.amount for e in kept if e.item == "Prize")
    assert abs(money.pot_in_hand - (500 - prizes)) < 1e-6


@given(entries(), st.integers(0, 9), st.sampled_from([0, 0.01, -0.01, 5]))
@settings(max_examples=200, deadline=None)
def test_a_count_passes_exactly_when_it_agrees_with_the_entries(
    ledger: list[LedgerEntry], day: int, off: float
) -> None:
    """A held entry equal to the money in less out of every accepted entry dated on or before
    it passes; one off by a cent or more fails, at its Amount cell."""
    ledger = [e for e in ledger if accepted(e) and e.item != "Held"]
    when = dt.date(2026, 1, 1) + dt.timedelta(days=day)
    held = sum(signed(e) for e in ledger if e.date <= when)
    count = LedgerEntry(
        when, "Held", round(held + off, 2), origin=CellOrigin("Ledger", 99, COLUMNS)
    )
    awards = {"Ann": 10**6, "Ben": 10**6, "Cy": 10**6}
    _, found = account([*ledger, count], event_money(TAKINGS, None, 0), {}, awards=awards)
    at_count = [p for p in found if p.cell == "Ledger!D99"]
    assert len(at_count) == (0 if off == 0 else 1)


@given(
    st.integers(0, 100_000),
    st.integers(1, 200),
    st.sampled_from([0.0, 0.05, 0.065, 0.2]),
    st.sampled_from([0.0, 1.0, 5.0]),
    st.sampled_from([None, 10.0, 250.0]),
    st.sampled_from([0.0, 3.0]),
)
def test_withholding_is_the_share_to_the_step_at_most_the_cap_plus_per_head(
    cents: int, heads: int, share: float, step: float, cap: float | None, per_head: float
) -> None:
    """The share part is within half a step of share × takings, or the cap when it is more;
    the per head part is exact."""
    takings = cents / 100
    withheld, _ = Withholding(share, step, cap, per_head).of(takings, heads)
    part = withheld - per_head * heads
    exact = share * takings
    if cap is not None and part >= cap - 1e-9:
        assert abs(part - cap) < 1e-9
        assert exact + step / 2 >= cap - 1e-9
    else:
        assert abs(part - exact) <= step / 2 + 1e-9
        if step:
            assert abs(part / step - round(part / step)) < 1e-9
