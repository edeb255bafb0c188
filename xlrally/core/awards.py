"""The standings with their prize money: the pot (fixed, or a share of what the scored events
took), paid out over the league's table and each section's that has prizes
(:mod:`xlrally.core.prizes` has the rules of one table).

With ``Prizes per player: one``, a player who wins in several tables (the league's 1st and
the Ladies' 1st) takes the largest prize: the amount they would receive, after any split; of
two equal, the league's over a section's (a place prize over a class prize, US Chess rule
32B4), then the section listed first in the Prizes sheet. The other tables' places are then
counted without them, and the next eligible player moves up. The prizes are settled largest
first, so a player who moves up into a larger prize elsewhere takes that one instead.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

from xlrally.core.checks import Collector
from xlrally.core.model import League, Result, Settings
from xlrally.core.names import norm
from xlrally.core.numbers import real
from xlrally.core.players import key
from xlrally.core.prizes import (
    Payout,
    Prize,
    growing_pot_note,
    listed_pot,
    pay,
    pot_of,
    pot_problems,
    unfilled_sections,
)
from xlrally.core.ranking import Standing
from xlrally.core.sections import of_section, section_names
from xlrally.core.standings import Standings


def check_prizes(settings: Settings, problems: Collector) -> None:
    """The problems of the league's prizes, each at its cell: a negative or absurd amount,
    shares over the whole pot, amounts over a fixed pot, a share of no pot
    (:func:`~xlrally.core.prizes.pot_problems`). Without a ``Pot`` or ``Pot share`` the fixed
    prizes listed are the pot.
    A pot that is a share of the money taken grows with each event: fixed prizes over it are
    a warning (:func:`with_prizes`), not an error."""

    def fail(message: str, prize: Prize, field: str) -> None:
        problems.add(message, field=field, origin=prize.origin)

    pot_problems(settings.prizes, settings.pot, growing(settings), fail)


def growing(settings: Settings) -> bool:
    """The pot grows with each event scored: a ``Pot share`` of the money taken, or
    withholding into the pot (:class:`~xlrally.core.ledger.Withholding`)."""
    withholding = settings.withholding
    return bool(settings.pot_share) or (withholding is not None and withholding.to_pot)


def with_prizes(standings: Standings, collected: float, withheld: float = 0.0) -> Standings:
    """The standings with their payouts: the league's table, then each section's that has
    prizes (shares are of the one pot: ``withheld`` is what the events withheld for it); with
    warnings for a section's prizes nobody can win and for fixed prizes over a pot still
    growing."""
    settings = standings.settings
    if settings.pot or growing(settings):
        pot = pot_of(settings.pot, settings.pot_share, collected) + withheld
    else:  # no pot given: the fixed prizes listed are paid from the club's funds
        pot = listed_pot(settings.prizes)
    named = {norm(name): name for name in section_names(standings)}
    tables: list[tuple[str, Sequence[Standing], list[Prize]]] = []
    for section in ["", *named.values()]:
        prizes = [p for p in settings.prizes if norm(p.section) == norm(section)]
        if prizes:
            rows = standings.rows if not section else of_section(standings, section).rows
            tables.append((section, rows, prizes))
    if settings.prizes_per_player == "one":
        payouts = _one_each(tables, pot, settings)
    else:
        payouts = [
            pay(rows, prizes, pot, settings.currency_unit, section, settings.prize_ties)
            for section, rows, prizes in tables
        ]
    notes = unfilled_sections(settings.prizes, named)
    still = growing_pot_note(settings.prizes, pot) if growing(settings) else None
    warnings = (*standings.warnings, *notes, *([still] if still else []))
    return dataclasses.replace(
        standings, payouts=tuple(payouts), collected=collected, pot=pot, warnings=warnings
    )


def _one_each(
    tables: list[tuple[str, Sequence[Standing], list[Prize]]], pot: float, settings: Settings
) -> list[Payout]:
    """The payouts when each player takes one prize, the largest (see the module docstring).

    Only a player in two or more tables can win twice: the largest prize of such a player not
    yet settled is settled first (they keep it and leave the other tables), then the tables
    are paid again, until no such player has a prize left to choose."""
    in_tables: dict[str, int] = {}
    for _, rows, _ in tables:
        for row in rows:
            in_tables[row.player] = in_tables.get(row.player, 0) + 1
    priority = _section_order(settings.prizes)
    settled: dict[str, int] = {}  # player -> the table whose prize they keep
    while True:
        payouts = [
            pay(
                rows,
                prizes,
                pot,
                settings.currency_unit,
                section,
                settings.prize_ties,
                without={p for p, kept in settled.items() if kept != index},
            )
            for index, (section, rows, prizes) in enumerate(tables)
        ]
        choices = [
            (-award.amount, priority.get(norm(payout.section), len(priority)), award.place, n, i)
            for i, payout in enumerate(payouts)
            for n, award in enumerate(payout.awards)
            if in_tables[award.player] > 1 and award.player not in settled
        ]
        if not choices:
            return payouts
        *_, n, i = min(choices)
        settled[payouts[i].awards[n].player] = i


def _section_order(prizes: Iterable[Prize]) -> Mapping[str, int]:
    """The league's table first, then each section in the order the Prizes sheet first names
    it: which of two equal prizes a player takes."""
    order: dict[str, int] = {"": 0}
    for prize in prizes:
        order.setdefault(norm(prize.section), len(order))
    return order


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
