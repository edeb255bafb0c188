"""Standings as data for people and programs: JSON-ready dicts, CSV rows, a text table.

Pure functions over :class:`~xlrally.core.league.Standings`; the CLI and the HTML page use them.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from xlrally.core.numbers import fixed
from xlrally.core.sections import section_names
from xlrally.core.standings import Standings
from xlrally.core.teams import team_rule
from xlrally.formats.shown import shown_warnings
from xlrally.formats.treasury import (
    account_rows,
    event_rows,
    money_json,
    money_lines,
    outlook_headings,
    outlook_json,
    outlook_lines,
    outlook_rows,
)
from xlrally.formats.view import (
    decimals,
    event_notes,
    pot_summary,
    prize_rows,
    standings_view,
)


def as_json(standings: Standings) -> dict[str, Any]:
    """The documented JSON shape (docs/cli.md); ``teams`` only when the league has a team
    table."""
    settings = standings.settings
    shape = {
        "system": standings.system,
        "league": settings.league,
        "season": settings.season,
        "rule": standings.rule,
        "as_of": standings.as_of.isoformat() if standings.as_of else None,
        "events": [
            {"name": e.name, "date": e.date.isoformat() if e.date else None, "status": e.status}
            for e in standings.events
        ],
        "best_x": standings.counted_per_player,
        "standings": [
            {
                "rank": row.shown_rank,
                "tied": row.tied,
                "player": row.player,
                "country": standings.countries.get(row.player),
                "total": row.total,
                "events": row.events,
                "scores": {s.event: s.value for s in row.scores},
                "counted": [s.event for s in row.scores if s.event in row.counted],
                "explain": {s.event: s.explain for s in row.scores},
                "decided_by": row.decided_by,
                "needs": row.needs,
                "sections": list(standings.sections.get(row.player, ())),
            }
            for row in standings.rows
        ],
        "prizes": {
            "collected": standings.collected,
            "pot": standings.pot,
            "paid": standings.paid,
            "held": standings.pot_held,
            "awards": [
                {"section": section or None, "player": player, "amount": amount, "explain": why}
                for section, player, amount, why in prize_rows(standings)
            ],
        }
        if standings.payouts
        else None,
        **({"money": money_json(standings.money)} if standings.money else {}),
        **({"what_it_takes": outlook_json(standings.outlook)} if standings.outlook else {}),
        "section": standings.section,
        "sections": section_names(standings),
        "warnings": list(standings.warnings),
    }
    if standings.teams:
        shape["teams"] = _teams_json(standings)
    return shape


def _teams_json(standings: Standings) -> list[dict[str, Any]]:
    """The team table: each team's rank, total, the scores counted and its players."""
    return [
        {
            "rank": team.rank,
            "tied": team.tied,
            "team": team.team,
            "total": team.total,
            "counted": [
                {"player": part.player, "event": part.event, "score": part.value}
                for part in team.counted
            ],
            "players": list(team.players),
            "explain": team.explain,
            "decided_by": team.decided_by,
        }
        for team in standings.teams
    ]


def json_text(standings: Standings) -> str:
    """:func:`as_json` as text: one line per key, and one per event, player and warning.

    Readable line by line, in half the time of ``json.dumps(..., indent=2)``, whose indenting
    encoder is pure Python (0.15 s against 0.32 s for 2,000 players × 100 events).

    >>> from xlrally.core.model import Event, League, Result, Settings
    >>> from xlrally.core.league import compute_standings
    >>> league = League(Settings("reverse"), (Event("W1"),), (Result("W1", "Ann", rank=1),))
    >>> print(json_text(compute_standings(league)))  # doctest: +ELLIPSIS
    {
      "system": "reverse",
    ...
      "standings": [
        {"rank": 1, "tied": false, "player": "Ann", "country": null, "total": 1, ...}
      ],
      "prizes": null,
      "section": null,
      "sections": [],
      "warnings": []
    }
    """
    lines = []
    for key, value in as_json(standings).items():
        if isinstance(value, list) and value:
            items = ",\n".join(f"    {_compact(item)}" for item in value)
            lines.append(f'  "{key}": [\n{items}\n  ]')
        else:
            lines.append(f'  "{key}": {_compact(value)}')
    return "{\n" + ",\n".join(lines) + "\n}"


_compact = json.JSONEncoder(ensure_ascii=False).encode
"""One value as JSON on one line (the C encoder)."""


def as_rows(standings: Standings) -> list[list[str]]:
    """Header and one row per player, as text: rank (``3=``), player, total, events, scores
    (dropped ones in brackets)."""
    table = standings_view(standings)
    places = table.places
    rows = [list(table.headings)]
    for view in table.rows:
        row = view.standing
        scores = [
            ""
            if score is None
            else fixed(score.value, places)
            if score.counted
            else f"({fixed(score.value, places)})"
            for score in view.scores
        ]
        total_text = fixed(row.total, places)
        country = [table.country(row.player)] if table.countries else []
        player = f"{row.player} ({view.needs})" if view.needs else row.player
        rows.append([row.rank_label, player, *country, total_text, str(row.events), *scores])
    return rows


def as_csv(standings: Standings) -> str:
    """CSV for spreadsheets and programs: every number a plain number, so that columns sum.

    Rank is a number with a ``Tied`` column beside it (``yes`` for a shared rank, not ``3=``);
    scores are plain numbers, dropped ones too, and the ``Dropped`` column (not for a rating)
    lists the events whose scores do not count (``;``-separated), instead of brackets a
    spreadsheet would read as negative numbers; with prizes, a ``Prize`` column holds each
    player's prize money (the Prizes table's, added). Text a spreadsheet would take as a formula (a
    name starting with ``=``, ``+``, ``-`` or ``@``) gets a leading apostrophe (CSV injection);
    numbers never do.
    """
    table = standings_view(standings)
    places = table.places
    headings = list(table.headings)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    drops = standings.scoring.drops_scores  # a rating drops nothing: no Dropped column
    needs = ["Needs"] if standings.settings.min_events else []  # events short of the minimum
    won = _won(standings)
    prize = ["Prize"] if standings.payouts else []  # each player's prize money, every table's
    writer.writerow(
        _safe([headings[0], "Tied", *headings[1:], *(["Dropped"] if drops else []), *needs, *prize])
    )
    for view in table.rows:
        row = view.standing
        scores = ["" if s is None else fixed(s.value, places) for s in view.scores]
        dropped = [e for e, s in zip(table.held, view.scores, strict=True) if s and not s.counted]
        rank = "" if row.shown_rank is None else str(row.shown_rank)
        cells = [rank, "yes" if row.tied else "", *_safe([row.player])]
        cells += _safe([table.country(row.player)]) if table.countries else []
        cells += [fixed(row.total, places), str(row.events), *scores]
        cells += _safe(["; ".join(dropped)]) if drops else []
        money = [fixed(won[row.player], 2) if row.player in won else ""] if prize else []
        writer.writerow([*cells, *([str(row.needs)] if needs else []), *money])
    if standings.teams:  # a second table after a blank line, with its own header
        writer.writerow([])
        writer.writerow(["Rank", "Tied", "Team", "Total", "Counted"])
        for team in standings.teams:
            counted = "; ".join(
                f"{p.player} {fixed(p.value, places)}"
                + (f" ({p.event})" if p.event is not None else "")
                for p in team.counted
            )
            writer.writerow(
                [
                    str(team.rank),
                    "yes" if team.tied else "",
                    *_safe([team.team]),
                    fixed(team.total, places),
                    *_safe([counted]),
                ]
            )
    return out.getvalue()


def _won(standings: Standings) -> dict[str, float]:
    """Each prize winner's money, every table's prizes added (one each, when the league pays
    one prize per player)."""
    won: dict[str, float] = {}
    for _, player, amount, _ in prize_rows(standings):
        won[player] = won.get(player, 0.0) + amount
    return won


def _safe(texts: list[str]) -> list[str]:
    return [f"'{t}" if t[:1] in ("=", "+", "-", "@") else t for t in texts]


def as_table(standings: Standings) -> str:
    """A plain text table with the rule and warnings under it."""
    rows = as_rows(standings)
    head = [f"Section: {standings.section}", ""] if standings.section else []
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines[:0] = head
    lines.append("")
    lines.append(standings.rule)
    lines.extend(event_notes(standings))
    if standings.payouts:
        lines.append("")
        lines.append("Prizes:")
        for section, player, amount, explain in prize_rows(standings):
            where = f" ({section})" if section else ""
            lines.append(f"  {player}{where}: {fixed(amount, 2)} ({explain})")
        lines.append(pot_summary(standings))
    if standings.teams:
        rule = standings.settings.teams
        lines.append("")
        lines.append(f"{team_rule(rule.best_n or 0, rule.scores)}:")
        places = decimals(standings)
        for team in standings.teams:
            total = fixed(team.total, places)
            lines.append(f"  {team.rank_label:<4} {team.team}: {total} ({team.explain})")
    lines.extend(_money_text(standings))
    lines.extend(_outlook_text(standings))
    lines.extend(f"Warning: {w}" for w in shown_warnings(standings.warnings))
    return "\n".join(lines)


def _money_text(standings: Standings) -> list[str]:
    """The money section as text: each player's paid, due and balance, each event's
    withholding, then the money in words."""
    money = standings.money
    if money is None:
        return []
    lines = ["", "Money:"]
    for player, paid, due, balance in account_rows(money):
        lines.append(
            f"  {player}: paid {fixed(paid, 2)}, due {fixed(due, 2)}, balance {fixed(balance, 2)}"
        )
    for event, took, withheld, explain, pool, paid_out in event_rows(money):
        kept = f", withheld {fixed(withheld, 2)} ({explain})" if explain else ""
        lines.append(
            f"  {event}: took {fixed(took, 2)}{kept}; its prize money {fixed(pool, 2)}, "
            f"paid out {fixed(paid_out, 2)}"
        )
    lines.extend(money_lines(standings))
    return lines


def _outlook_text(standings: Standings) -> list[str]:
    """What it takes as text: one line per player with a goal left."""
    outlook = standings.outlook
    if outlook is None:
        return []
    names = outlook_headings(outlook)[1:]
    lines = ["", "What it takes:"]
    for player, *texts in outlook_rows(standings):
        goals = "; ".join(f"{name.lower()} {text}" for name, text in zip(names, texts, strict=True))
        lines.append(f"  {player}: {goals}")
    lines.extend(outlook_lines(standings))
    return lines


def newcomers(standings: Standings, limit: int = 12) -> list[str]:
    """For each scored event after the first, the players whose first event it is, so that a
    misspelt name shows up where it was typed: ``new in Jul 2026: Oliver Gran``.

    >>> from xlrally.core.model import Event, League, Result, Settings
    >>> from xlrally.core.league import compute_standings
    >>> weeks = (Event("W1"), Event("W2"))
    >>> played = [("W1", "Ann"), ("W1", "Bo"), ("W2", "Ann"), ("W2", "Cy")]
    >>> results = tuple(Result(w, p, rank=n % 2 + 1) for n, (w, p) in enumerate(played))
    >>> newcomers(compute_standings(League(Settings("reverse"), weeks, results)))
    ['new in W2: Cy']
    """
    held = [e.name for e in standings.events if e.held]
    first: dict[str, list[str]] = {name: [] for name in held}
    for row in standings.rows:
        played = {s.event for s in row.scores}
        debut = next((name for name in held if name in played), None)
        if debut is not None:
            first[debut].append(row.player)
    lines = []
    for name in held[1:]:
        players = sorted(first[name], key=str.casefold)
        if players:
            shown = ", ".join(players[:limit])
            more = f" and {len(players) - limit} more" if len(players) > limit else ""
            lines.append(f"new in {name}: {shown}{more}")
    return lines
