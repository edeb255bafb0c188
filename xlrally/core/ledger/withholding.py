"""Each scored event's money: what it took, what the league withholds of it (with the
working) and what is left for its own prizes; the events whose withholding is more than they
took."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from xlrally.core.errors import Origin, Problem
from xlrally.core.ledger.items import CENT
from xlrally.core.numbers import show
from xlrally.core.words import plural


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
