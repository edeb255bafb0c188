"""A league's money on its standings: what each scored event took from each player, what the
league withheld of it, the pot with its prizes, and the treasurer's ledger reconciled
(:mod:`xlrally.core.ledger` has the rules and sums).

Only a league that uses them gets any of it: a Ledger sheet, a season fee or a withholding
setting (:func:`uses_money`); the others' standings are as they were.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from xlrally.core.awards import with_prizes
from xlrally.core.entered import Entered
from xlrally.core.errors import LeagueProblems, Problem
from xlrally.core.ledger import LedgerEntry, Takings, account, event_money, withholding_problems
from xlrally.core.model import League, Result
from xlrally.core.numbers import real
from xlrally.core.players import key
from xlrally.core.prizes import pot_of
from xlrally.core.standings import Standings
from xlrally.core.words import plural


def uses_money(league: League) -> bool:
    """Whether the league keeps money beyond prizes: a Ledger sheet, a season fee, or
    withholding."""
    settings = league.settings
    return (
        league.ledger is not None or bool(settings.season_fee) or settings.withholding is not None
    )


def paid_for(result: Result, buy_in: object) -> float:
    """What a player paid for an event: the result's total expense (buy-in and re-buys), else
    its buy-in, else the event's ``buy_in`` (0 where none is given)."""
    paid = next((v for v in (result.total, result.buy_in, buy_in) if v is not None), 0)
    return float(real(paid, "buy-in"))


def takings(
    league: League,
    held: tuple[str, ...],
    by_event: Mapping[str, list[tuple[str, Result]]],
    display: Mapping[str, str],
) -> list[Takings]:
    """What each scored event took from each player (by the name shown), in date order."""
    events = {key(e.name): e for e in league.events}
    found = []
    for name in held:
        event = events[key(name)]
        paid = {display[pk]: paid_for(result, event.buy_in) for pk, result in by_event[key(name)]}
        found.append(Takings(event.name, event.date, paid))
    return found


def with_money(league: League, standings: Standings, entered: Entered) -> Standings:
    """The standings with their money (:attr:`Standings.money`) and, when the league has
    prizes, their payouts from the pot the withholding helped build. Raises LeagueProblems
    with every reconciliation problem at its cell."""
    settings = league.settings
    rule = settings.withholding
    taken = takings(league, standings.held, entered.by_event, entered.display)
    events = event_money(taken, rule, settings.pot_share)
    problems: list[Problem] = withholding_problems(events, rule)
    to_pot = rule is None or rule.to_pot
    withheld = sum(e.withheld for e in events) if to_pot else 0.0
    collected = sum(e.takings for e in events)
    if settings.prizes:
        standings = with_prizes(
            standings, collected if settings.pot_share else 0.0, withheld=withheld
        )
        pot = standings.pot
    else:
        pot = pot_of(settings.pot, settings.pot_share, collected) + withheld
    awards: dict[str, float] = {}
    for payout in standings.payouts:
        for award in payout.awards:
            awards[award.player] = awards.get(award.player, 0.0) + award.amount
    dues = {row.player: 0.0 for row in standings.rows}
    for event in taken:
        for player, amount in event.paid.items():
            dues[player] = dues.get(player, 0.0) + amount
    roster = entered.roster

    def resolve(spelling: str) -> str:
        return entered.display.get(roster.resolve(spelling), roster.display(spelling))

    entries, notes = _in_season(league, standings)
    money, more = account(
        entries,
        events,
        dues,
        season_fee=settings.season_fee,
        pot=pot,
        to_pot=to_pot,
        awards=awards if settings.prizes else None,
        resolve=resolve,
        as_of=standings.as_of,
    )
    problems.extend(more)
    if problems:
        raise LeagueProblems(problems)
    known = {key(name) for name in league.players} | set(entered.display)
    for entry in entries:
        if entry.player and roster.resolve(entry.player) not in known:
            where = f"{entry.origin.where('player')}: " if entry.origin is not None else ""
            notes.append(
                f"{where}{entry.player!r} in the Ledger has no results and is not in the "
                "Players sheet: correct the name, or list the player there"
            )
    warnings = standings.warnings + tuple(dict.fromkeys(notes))
    return dataclasses.replace(standings, money=money, warnings=warnings)


def _in_season(league: League, standings: Standings) -> tuple[list[LedgerEntry], list[str]]:
    """The ledger entries of the season scored: when events name seasons, an entry counts in
    the season it names; one that names none is left out, with a warning."""
    entries = list(league.ledger or ())
    if not any(e.season for e in league.events):
        return entries, []
    season = key(standings.settings.season)
    kept = [e for e in entries if e.season and key(e.season) == season]
    blank = [e for e in entries if not e.season]
    notes = []
    if blank:
        first = blank[0].origin.where("season") if blank[0].origin is not None else "the Ledger"
        notes.append(
            f"{plural(len(blank), 'Ledger entry')} with no Season (the first at {first}) left "
            "out: the events name their seasons, so give each entry its season"
        )
    return kept, notes
