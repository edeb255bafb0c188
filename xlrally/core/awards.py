"""The standings with their prize money: the pot (fixed, or a share of what the scored events
took), paid out over the league's table and each section's that has prizes
(:mod:`xlrally.core.prizes` has the rules).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping

from xlrally.core.model import League, Result
from xlrally.core.names import norm
from xlrally.core.numbers import real
from xlrally.core.players import key
from xlrally.core.prizes import pay, pot_of
from xlrally.core.sections import of_section, section_names
from xlrally.core.standings import Standings


def with_prizes(standings: Standings, collected: float, withheld: float = 0.0) -> Standings:
    """The standings with their payouts: the league's table, then each section's that has
    prizes (shares are of the one pot: ``withheld`` is what the events withheld for it)."""
    settings = standings.settings
    pot = pot_of(settings.pot, settings.pot_share, collected) + withheld
    tables = {"": standings.rows}
    for name in section_names(standings):
        if any(norm(p.section) == norm(name) for p in settings.prizes):
            tables[name] = of_section(standings, name).rows
    payouts = []
    for section, rows in tables.items():
        prizes = [p for p in settings.prizes if norm(p.section) == norm(section)]
        if prizes:
            payouts.append(pay(rows, prizes, pot, settings.currency_unit, section))
    return dataclasses.replace(standings, payouts=tuple(payouts), collected=collected, pot=pot)


def collected(
    league: League, held: Iterable[str], by_event: Mapping[str, list[tuple[str, Result]]]
) -> float:
    """The money the scored events took: each result's total expense (buy-in and re-buys),
    else its buy-in, else the event's buy-in (0 where none is given). Only a pot that is a
    share of it needs it. ``by_event``: the results of each event by its key."""
    events = {key(e.name): e for e in league.events}
    money = 0.0
    for name in held:
        event = events[key(name)]
        for _, result in by_event[key(name)]:
            paid = next(
                (v for v in (result.total, result.buy_in, event.buy_in) if v is not None), 0
            )
            money += real(paid, "buy-in")
    return money
