"""Standings as data for people and programs: JSON-ready dicts, CSV rows, a text table.

Pure functions over :class:`~xlrally.core.league.Standings`; the CLI and the HTML page use them.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from xlrally.core.model import Standings
from xlrally.core.numbers import fixed
from xlrally.formats.view import event_notes, shown_warnings, standings_view


def as_json(standings: Standings) -> dict[str, Any]:
    """The documented JSON shape (docs/cli.md)."""
    settings = standings.settings
    return {
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
                "rank": row.rank,
                "tied": row.tied,
                "player": row.player,
                "total": row.total,
                "events": row.events,
                "scores": {s.event: s.value for s in row.scores},
                "counted": [s.event for s in row.scores if s.event in row.counted],
                "explain": {s.event: s.explain for s in row.scores},
                "decided_by": row.decided_by,
            }
            for row in standings.rows
        ],
        "warnings": list(standings.warnings),
    }


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
        rows.append([row.rank_label, row.player, total_text, str(row.events), *scores])
    return rows


def as_csv(standings: Standings) -> str:
    """CSV text of :func:`as_rows`. Cells a spreadsheet would take as a formula are prefixed
    with an apostrophe (CSV injection)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in as_rows(standings):
        writer.writerow([f"'{c}" if c[:1] in ("=", "+", "-", "@") else c for c in row])
    return out.getvalue()


def as_table(standings: Standings) -> str:
    """A plain text table with the rule and warnings under it."""
    rows = as_rows(standings)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append("")
    lines.append(standings.rule)
    lines.extend(event_notes(standings))
    lines.extend(f"Warning: {w}" for w in shown_warnings(standings.warnings))
    return "\n".join(lines)
