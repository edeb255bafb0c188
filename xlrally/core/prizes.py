"""Prize money: the season's pot and what each final place pays (issue 16).

The pot is a fixed amount, a share of the money the events took (buy-ins and re-buys), or
both added. Each prize is a fixed amount or a share of the pot, for a place of the league's
table or of a section's. Players short of the qualifying minimum are skipped: the places are
counted among the qualified. Players who share a place share the prizes of the places they
cover: two tied for 2nd split the 2nd and 3rd prizes equally. Amounts are rounded down to the
currency unit (default 0.01); what rounding leaves over stays in the pot, and is said.

    pot       = fixed + share × collected
    prize(p)  = amount(p), or share(p) × pot
    tied k at places p .. p + k − 1:  each = ⌊(prize(p) + … + prize(p + k − 1)) / k / unit⌋ × unit
    held      = pot − paid (in every table: shares are of the one pot)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xlrally.core.errors import ScoringError
from xlrally.core.numbers import ordinal, show
from xlrally.core.ranking import Standing


@dataclass(frozen=True)
class Prize:
    """What one place pays: a fixed ``amount`` or a ``share`` of the pot (0.5 is half)."""

    place: int
    amount: float | None = None
    share: float | None = None
    section: str = ""
    """The section whose table it is for ('' the league's)."""


@dataclass(frozen=True)
class Award:
    """A player's prize, with the working: ``2nd-3rd shared by 2: (30 + 20) / 2 = 25``."""

    player: str
    amount: float
    explain: str


@dataclass(frozen=True)
class Payout:
    """The prizes paid in one table (the league's, or a section's)."""

    section: str
    awards: tuple[Award, ...]
    paid: float
    left_over: float
    """What rounding to the currency unit left unpaid."""


def pot_of(fixed: float, share: float, collected: float) -> float:
    """The pot: a fixed amount plus a share of the money collected.

    >>> pot_of(100, 0.5, 480)  # 100 + 50% of 480
    340.0
    """
    return fixed + share * collected


def prize_split(prizes: Sequence[float], first: int, sharing: int, unit: float = 0.01) -> float:
    """What each of ``sharing`` players tied at place ``first`` gets: the prizes of places
    ``first`` .. ``first + sharing − 1`` (``prizes[0]`` is 1st), split equally, rounded down
    to ``unit``.

    >>> prize_split([50, 30, 20.01], 2, 2), prize_split([50, 30, 20], 3, 2)
    (25.0, 10.0)
    """
    if not unit > 0:
        raise ScoringError(f"unit must be more than 0, not {show(unit)}", "unit")
    total = sum(prizes[first - 1 : first - 1 + sharing])
    return round(math.floor(total / sharing / unit + 1e-9) * unit, 10)


def pay(
    rows: Sequence[Standing],
    prizes: Sequence[Prize],
    pot: float,
    unit: float = 0.01,
    section: str = "",
) -> Payout:
    """Pay ``prizes`` (one table's) to the qualified ``rows``, in their order.

    >>> rows = [Standing(1, False, "Ann", 9, ()), Standing(2, True, "Bea", 7, ()),
    ...         Standing(2, True, "Cy", 7, ()), Standing(4, False, "Dan", 1, ())]
    >>> out = pay(rows, [Prize(1, 50), Prize(2, 30), Prize(3, 20)], pot=100)
    >>> [(a.player, a.amount, a.explain) for a in out.awards]  # doctest: +NORMALIZE_WHITESPACE
    [('Ann', 50.0, '1st: 50'), ('Bea', 25.0, '2nd-3rd shared by 2: (30 + 20) / 2 = 25'),
     ('Cy', 25.0, '2nd-3rd shared by 2: (30 + 20) / 2 = 25')]
    """
    by_place = {p.place: p.amount if p.amount is not None else (p.share or 0) * pot for p in prizes}
    qualified = [row for row in rows if row.needs == 0]  # the unranked are all short
    awards: list[Award] = []
    left_over = 0.0
    place = 1
    index = 0
    while index < len(qualified):
        group = [qualified[index]]
        while (
            index + len(group) < len(qualified)
            and qualified[index + len(group)].rank == group[0].rank
        ):
            group.append(qualified[index + len(group)])
        places = range(place, place + len(group))
        amounts = [by_place.get(p, 0.0) for p in places]
        total = sum(amounts)
        if total > 0:
            each = prize_split(amounts, 1, len(group), unit)
            left_over += total - each * len(group)
            if len(group) == 1:
                working = f"{ordinal(place)}: {show(total)}"
            else:
                # the prizes the group covers; places past the last prize add nothing, and a
                # tie of thousands of players would list thousands of "+ 0"
                parts = " + ".join(show(a) for a in amounts if a)
                working = (
                    f"{ordinal(place)}-{ordinal(places[-1])} shared by {len(group)}: "
                    f"({parts}) / {len(group)} = {show(each)}"
                )
                if total - each * len(group) > 1e-9:
                    working += f" ({show(total - each * len(group))} left over)"
            awards.extend(Award(row.player, each, working) for row in group)
        place += len(group)
        index += len(group)
    paid = sum(a.amount for a in awards)
    return Payout(section, tuple(awards), paid, round(left_over, 10))
