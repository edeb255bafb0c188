"""The money section and the what-it-takes table as every output shows them (the Standings
sheet, the text, JSON and the page): the rows and the words, decided once here (issue 34).

Nothing here appears for a league that keeps no money beyond its prizes, or does not ask what
it takes: those outputs stay as they were.

>>> from xlrally.core.outlook import Chance, Goal
>>> goal_text(Goal(1, Chance.POSSIBLE, 95), ranked=False)
'needs 95'
>>> goal_text(Goal(2, Chance.POSSIBLE, 15, at=3), ranked=True)
'needs 15 (3rd or better)'
"""

from __future__ import annotations

from typing import Any

from xlrally.core.ledger import Money
from xlrally.core.numbers import ordinal, show
from xlrally.core.outlook import Chance, Goal, Outlook
from xlrally.core.standings import Standings
from xlrally.core.words import plural
from xlrally.formats.cells import show_date

MONEY_HEADINGS = ("Player", "Paid", "Due", "Balance")
EVENT_HEADINGS = ("Event", "Took", "Withheld", "Working", "Prize money", "Paid out")


def account_rows(money: Money) -> list[tuple[str, float, float, float]]:
    """Each player's (player, paid, due, balance), by name."""
    return [(a.player, a.paid, a.due, a.balance) for a in money.accounts]


def event_rows(money: Money) -> list[tuple[str, float, float, str, float, float]]:
    """Each scored event's (event, took, withheld, working, its own prize money, paid out)."""
    return [(e.event, e.takings, e.withheld, e.explain, e.pool, e.payouts) for e in money.events]


def _parts(pairs: list[tuple[str, float]]) -> str:
    shown = [f"{name} {show(amount)}" for name, amount in pairs if abs(amount) > 1e-9]
    return ", ".join(shown) if shown else "nothing"


def money_lines(standings: Standings) -> list[str]:
    """The money in words: in and out, what is held and what it is, the counts checked."""
    money = standings.money
    if money is None:
        return []
    pattern = standings.settings.date_format
    other = money.money_in - money.from_players
    lines = [
        f"Money in {show(money.money_in)}: "
        + _parts([("from players", money.from_players), ("other income", other)])
        + f". Out {show(money.money_out)}: "
        + _parts(
            [
                ("payouts", money.payouts),
                ("prizes", money.prizes),
                ("expenses", money.expenses),
                ("refunds", money.refunds),
                ("other", money.other_out),
            ]
        )
        + ".",
        f"Held {show(money.held)} = the pot in hand {show(money.pot_in_hand)} (the pot "
        f"{show(money.pot)} less the prizes paid, {show(money.prizes)}) + players' credit "
        f"{show(money.credit)} − owed by players {show(money.owed)} + the league's own "
        f"{show(money.own)}.",
    ]
    if money.withheld:
        where = "into the pot" if money.to_pot else "for the league's own"
        lines.append(f"The events withheld {show(money.withheld)} {where}.")
    if money.season_fee:
        lines.append(f"Each player owes a season fee of {show(money.season_fee)}.")
    for count in money.statements:
        day = show_date(count.date, pattern)
        lines.append(f"Counted on {day}: {show(count.amount)}, as the ledger says.")
    return lines


def money_json(money: Money) -> dict[str, Any]:
    """The money as JSON (docs/cli.md)."""
    return {
        "accounts": [
            {"player": p, "paid": paid, "due": due, "balance": balance}
            for p, paid, due, balance in account_rows(money)
        ],
        "events": [
            {
                "event": e.event,
                "took": e.takings,
                "players": e.heads,
                "withheld": e.withheld,
                "explain": e.explain,
                "prize_money": e.pool,
                "paid_out": e.payouts,
            }
            for e in money.events
        ],
        "money_in": money.money_in,
        "from_players": money.from_players,
        "money_out": money.money_out,
        "payouts": money.payouts,
        "prizes_paid": money.prizes,
        "expenses": money.expenses,
        "refunds": money.refunds,
        "other_out": money.other_out,
        "held": money.held,
        "pot": money.pot,
        "withheld": money.withheld,
        "withheld_for": "pot" if money.to_pot else "league",
        "pot_in_hand": money.pot_in_hand,
        "credit": money.credit,
        "owed": money.owed,
        "own": money.own,
        "season_fee": money.season_fee,
        "counts": [
            {"date": c.date.isoformat(), "amount": c.amount, "ledger": c.ledger}
            for c in money.statements
        ],
    }


def goal_name(place: int) -> str:
    """``Title``, ``Top 3``, or ``Qualifying`` (place 0)."""
    if place == 0:
        return "Qualifying"
    return "Title" if place == 1 else f"Top {place}"


def goal_text(goal: Goal, *, ranked: bool) -> str:
    """One goal in a few words: ``clinched``, ``gone``, ``possible``, ``needs 95`` (the least
    score in the next event that guarantees it), ``needs 15 (3rd or better)``, ``plays``
    (qualifying: any result does), ``not worked out``."""
    if goal.chance is Chance.OPEN:
        return "not worked out"
    if goal.chance is not Chance.POSSIBLE or goal.needs is None:
        return str(goal.chance)
    if goal.place == 0:
        return "plays"
    if ranked and goal.at is not None:
        better = "" if goal.at == 1 else " or better"
        return f"needs {show(goal.needs)} ({ordinal(goal.at)}{better})"
    return f"needs {show(goal.needs)}"


def outlook_headings(outlook: Outlook) -> list[str]:
    """Player, then one column per goal."""
    goals = [*outlook.places, *([0] if outlook.minimum else [])]
    return ["Player", *(goal_name(place) for place in goals)]


def outlook_rows(standings: Standings) -> list[list[str]]:
    """One row per player with a goal still to play for (in the table's order)."""
    outlook = standings.outlook
    if outlook is None:
        return []
    ranked = standings.scoring.ranked
    return [
        [p.player, *(goal_text(g, ranked=ranked) for g in p.goals)]
        for p in outlook.prospects
        if any(g.chance is not Chance.GONE for g in p.goals)
    ]


def outlook_lines(standings: Standings) -> list[str]:
    """What the table means, what was assumed, and how many have nothing left."""
    outlook = standings.outlook
    if outlook is None:
        return []
    nxt = outlook.next_event
    if nxt is None:
        lines = ["No event is left to play: every place is decided."]
    else:
        coming = ", ".join(outlook.coming)
        lines = [
            f"With {plural(len(outlook.coming), 'event')} to come ({coming}). “needs N”: N or "
            f"more in the next, {nxt}, guarantees the place whatever everyone else does there "
            f"and after; “possible”: it can still happen, but no result in {nxt} alone "
            "guarantees it; “clinched”: nothing can take it away; “gone”: nothing can bring "
            "it. A shared place counts."
            + (f" “plays”: any result in {nxt} qualifies." if outlook.minimum else "")
        ]
    lines.extend(outlook.notes)
    listed = len(outlook_rows(standings))
    others = len(outlook.prospects) - listed
    if others and outlook.prospects:
        lines.append(f"The other {plural(others, 'player')} can reach none of these places.")
    return lines


def outlook_json(outlook: Outlook) -> dict[str, Any]:
    """What it takes as JSON (docs/cli.md)."""
    return {
        "coming": list(outlook.coming),
        "next": outlook.next_event,
        "places": list(outlook.places),
        "minimum": outlook.minimum,
        "notes": list(outlook.notes),
        "players": [
            {
                "player": p.player,
                "goals": [
                    {
                        "goal": goal_name(g.place).lower(),
                        "place": g.place or None,
                        "chance": str(g.chance),
                        "needs": g.needs,
                        "at": g.at,
                    }
                    for g in p.goals
                ],
            }
            for p in outlook.prospects
        ],
    }
