"""The published standings page: one self-contained HTML file (inline CSS and SVG, no network
requests), readable on a laptop, on a phone and by screen readers.

Every piece of text that came from a workbook is escaped. The warnings are the treasurer's
(`check`, `sync`, the Standings sheet's notes), not the public's: the page shows none. The
working behind each score is written once: in the player's own section below the table, which
the player's name and the row's Working link lead to.

The table sits in a box of its own that scrolls both ways within the window: its header row and
the Rank and Player columns stay in view, and its sideways scroll bar is always on screen (at
1366 px, the commonest laptop width, the last event columns of a long table were reachable only
from the scroll bar at the table's foot).

A big league's page stays small enough for a phone: the table with every event and the players'
sections cover the top :data:`TOP` players; the rest follow in a short table of rank, name,
total and events, so that every player can still find their place (a place shared across the
cut shows as ``12=`` in both tables). At 5,000 players × 60 events the page is about 2 MB
(docs/performance.md). Such a page has no script.

With everyone in full (``publish --top 0``) a big league's table is more cells than a browser
lays out in good time (5,000 × 65 cells took 12.5 s as a plain table). Past :data:`LIVE_CELLS`
cells the rows are written as data, and a small script (``page.js``, allowed by its hash in
the page's Content-Security-Policy) makes the rows near the part of the table in view as it
scrolls, each player's section when it is asked for, and a "Find a player" box. The first
:data:`STATIC_ROWS` rows and their sections are in the page as well, for a reader without
scripts.

The page's frame, style, standings table and script are here; the sections below the table
(the rest, sections, teams, prizes, money, what it takes, the players' sections, the events)
are :mod:`xlrally.formats.page_sections`.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
from importlib import resources

from xlrally.core.numbers import fixed
from xlrally.core.standings import Standings
from xlrally.core.words import plural
from xlrally.formats.cells import show_date
from xlrally.formats.charts import chart
from xlrally.formats.page_sections import (
    anchor,
    events_section,
    money_section,
    outlook_section,
    player_sections,
    prizes_section,
    rest_section,
    section_tables,
    teams_section,
)
from xlrally.formats.page_sections import escaped as _e
from xlrally.formats.top import TOP
from xlrally.formats.view import (
    RowView,
    StandingsView,
    qualifying_note,
    scoring_notes,
    standings_view,
)

CSS = """
:root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --accent: #0b5cad;
        --soft: #eef4fb; --rank: 4rem; }
* { box-sizing: border-box; }
body { font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
       margin: 0; padding: 1rem; }
header, .chart, section.events-list, .warnings, footer { max-width: 72rem; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; }
.meta, .note { color: var(--muted); margin: .25rem 0; }
.rule { font-weight: 600; margin: .75rem 0; }
/* A table scrolls in its own box, both ways, never taller than the window: its sideways
   scroll bar is always on screen, its header row and (for the standings) its Rank and
   Player columns stay in view. position: relative keeps what is inside in the box. */
.scroll { overflow: auto; position: relative; max-height: calc(100vh - 2rem);
          max-height: calc(100dvh - 2rem); -webkit-overflow-scrolling: touch;
          border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: separate; border-spacing: 0; width: 100%;
        font-variant-numeric: tabular-nums; }
caption { text-align: left; padding: .5rem; color: var(--muted); }
th, td { padding: .4rem .6rem; border-bottom: 1px solid var(--line); text-align: right;
         white-space: nowrap; vertical-align: top; }
thead th { background: var(--soft); position: sticky; top: 0; z-index: 2; }
th.name, td.name, td.working { text-align: left; }
th.player { text-align: left; font-weight: 600; }
th.other { text-align: left; font-weight: 400; }
table.standings tr:not(.gap) > :first-child { position: sticky; left: 0; z-index: 1;
  width: var(--rank); min-width: var(--rank); max-width: var(--rank); }
table.standings tr:not(.gap) > :nth-child(2) { position: sticky; left: var(--rank); z-index: 1;
  border-right: 1px solid var(--line); }
table.standings tbody tr:not(.gap) > :nth-child(-n+2) { background: #fff; }
/* A table made by its script as it scrolls is laid out by its columns' widths alone. */
table.live { table-layout: fixed; }
table.live th.player { overflow: hidden; text-overflow: ellipsis; }
table.standings thead tr:not(.gap) > :nth-child(-n+2) { z-index: 3; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
      clip-path: inset(50%); white-space: nowrap; }
td.c { font-weight: 700; }
td.d { color: var(--muted); font-style: italic; }
a { color: var(--accent); }
.find input { font: inherit; padding: .2rem .4rem; margin-left: .4rem; }
.chart svg { width: 100%; height: auto; max-width: 48rem; }
.events li { margin: .15rem 0; }
/* Off-screen parts of a big page are laid out when scrolled to (they are still found by
   find-in-page, read by screen readers and printed). */
.player-page { margin: 1.5rem 0; content-visibility: auto; contain-intrinsic-size: auto 20rem; }
section.rest { content-visibility: auto; contain-intrinsic-size: auto 60rem; }
.player-page h3 { font-size: 1.05rem; margin: 0 0 .4rem; }
.player-page td:first-child, .player-page td:last-child { text-align: left; }
.player-page td:last-child { white-space: normal; }
.warnings { color: #8a4600; }
.needs { color: var(--muted); font-weight: 400; font-size: .85em; }
@media (max-width: 40rem) {
  :root { --rank: 3.2rem; }
  body { padding: .5rem; font-size: 15px; }
  th, td { padding: .3rem .4rem; }
  /* On a phone a long name wraps, so that the columns beside it keep room. */
  table.standings th.player { white-space: normal; min-width: 7rem; max-width: 9.5rem; }
}
@media print {
  @page { size: landscape; margin: 1cm; }
  body { font-size: 9pt; padding: 0; }
  .scroll { overflow: visible; max-height: none; border: 0; }
  thead th, table.standings tr > * { position: static; }
  .working, .players, .find { display: none; }
  section.rest { content-visibility: visible; }
  th, td { padding: .15rem .3rem; }
  tr, .chart { break-inside: avoid; }
  thead { display: table-header-group; }
}
"""


LIVE_CELLS = 40_000
"""A table of more cells than this (players in full × columns) is written as data and made by
the page's script as it scrolls (the default page of 200 players × 60 events: 13,000 cells)."""

STATIC_ROWS = 100
"""The rows (and players' sections) a page made by its script holds as HTML too, for a reader
without scripts."""


def standings_page(
    standings: Standings, updated: dt.datetime | dt.date | None = None, top: int | None = TOP
) -> str:
    """The whole page as HTML text; ``top`` None shows every player in full."""
    table = standings_view(standings)
    shown = len(table.rows) if top is None else min(top, len(table.rows))
    live = shown * (len(table.headings) + 1) > LIVE_CELLS
    title = table.title or "Standings"
    pattern = standings.settings.date_format
    system = table.system.name
    script = _script() if live else ""
    allowed = f" script-src 'sha256-{_digest(script)}';" if live else ""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        f"style-src 'unsafe-inline';{allowed} img-src data:\">",
        f"<title>{_e(title)} – standings</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        "<header>",
        f"<h1>{_e(title)}</h1>",
        f'<p class="meta">{_e(system)}'
        + (f" · updated {_e(_when(updated, pattern))}" if updated else "")
        + (f" · as of {_e(show_date(standings.as_of, pattern))}" if standings.as_of else "")
        + "</p>",
        f'<p class="rule">{_e(standings.rule)}</p>',
        f'<p class="note">{_e(table.page_marks)}</p>',
        *(f'<p class="note">{_e(line)}</p>' for line in scoring_notes(standings)),
        *(f'<p class="note">{_e(line)}</p>' for line in qualifying_note(standings)),
        "</header>",
        "<main>",
        _table(table, shown, live),
        rest_section(table, shown),
        section_tables(table),
        teams_section(table),
        prizes_section(standings),
        money_section(standings),
        outlook_section(standings),
        chart(standings),
        player_sections(table, min(shown, STATIC_ROWS) if live else shown),
        events_section(standings),
        "</main>",
        '<footer><p class="note">Made with xlrally.</p></footer>',
        *([_data(table, shown), f"<script>{script}</script>"] if live else []),
        "</body>",
        "</html>",
    ]
    return "\n".join(p for p in parts if p) + "\n"


def _when(moment: dt.datetime | dt.date, pattern: str) -> str:
    if isinstance(moment, dt.datetime):
        return f"{show_date(moment, pattern)} {moment:%H:%M}"
    return show_date(moment, pattern)


def _script() -> str:
    """The script of a page whose table is made as it scrolls (``page.js``)."""
    return resources.files("xlrally.formats").joinpath("page.js").read_text(encoding="utf-8")


def _digest(script: str) -> str:
    """The script's hash as a Content-Security-Policy source (``'sha256-...'``) names it."""
    return base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")


def _data(table: StandingsView, shown: int) -> str:
    """The table's rows as data for ``page.js``: for each player in full, the texts the table
    and the player's section show (the same as the HTML rows and sections)."""
    places = table.places
    dates = {e.name: e.date for e in table.standings.events}
    pattern = table.standings.settings.date_format
    history = table.standings.history
    rows = []
    for view in table.rows[:shown]:
        row = view.standing
        cells = [
            "" if score is None else ("c" if score.counted else "d") + fixed(score.value, places)
            for score in view.scores
        ]
        played = [score for score in view.scores if score is not None]
        steps = {s.event: s for s in history.get(row.player, ())}
        afters = [fixed(steps[s.event].after, 2) for s in played] if steps else []
        rows.append(
            [
                row.rank_label,
                row.player,
                view.needs,
                table.country(row.player),
                fixed(row.total, places),
                row.events,
                cells,
                view.broken_tie or "",
                [score.explain for score in played],
                afters,
            ]
        )
    data = {
        "events": list(table.held),
        "dates": [show_date(d, pattern) if (d := dates.get(e)) else "" for e in table.held],
        "countries": table.countries,
        "rating": bool(history),
        "total_label": table.total_label.lower(),
        "rows": rows,
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # Inside <script> only "</script" or "<!--" could end the data early: no "<" is left.
    safe = text.replace("<", "\\u003c")
    return f'<script type="application/json" id="standings-data">{safe}</script>'


def _table(table: StandingsView, shown: int, live: bool = False) -> str:
    head = "".join(
        [
            '<th scope="col">Rank</th>',
            '<th scope="col" class="name">Player</th>',
            *(['<th scope="col" class="name">Country</th>'] if table.countries else []),
            f'<th scope="col">{table.total_label}</th>',
            '<th scope="col">Events</th>',
            *(f'<th scope="col">{_e(event)}</th>' for event in table.held),
            '<th scope="col" class="name working">Working</th>',
        ]
    )
    written = min(shown, STATIC_ROWS) if live else shown
    rows = "\n".join(_row(row, table, n) for n, row in enumerate(table.rows[:written], start=1))
    caption = f"{plural(len(table.rows), 'player')}, {plural(len(table.held), 'event')}"
    if shown < len(table.rows):
        caption += f"; the top {shown:,} in full, the others in the table below"
    without = (
        f'<noscript><p class="note">Without scripts this page shows the top {written:,} of '
        f"the {shown:,} players in full.</p></noscript>"
        if live
        else ""
    )
    kind, columns = ("standings live", _columns(table, shown)) if live else ("standings", "")
    return (
        '<section aria-labelledby="standings-title"><h2 id="standings-title">Standings</h2>'
        f'{without}<div class="scroll"><table class="{kind}"><caption>{caption}</caption>'
        f"{columns}<thead><tr>{head}</tr></thead><tbody>\n{rows}\n</tbody></table></div>"
        "</section>"
    )


def _columns(table: StandingsView, shown: int) -> str:
    """The widths of a table made by the script (laid out by these widths alone, ``fixed``, so
    that a browser never measures every cell): each column as wide as its longest text, in
    ``ch`` (the width of a digit; bold headings a tenth wider), names at most 28."""
    rows = table.rows[:shown]
    places = table.places

    def longest(texts: list[str], at_least: float = 0) -> float:
        return max([at_least, *map(len, texts)])

    names = [r.standing.player + (f" {r.needs}" if r.needs else "") for r in rows]
    widths = [min(longest(names, 6 * 1.1), 28)]
    if table.countries:
        widths.append(longest([table.country(r.standing.player) for r in rows], 7 * 1.1))
    totals = [fixed(r.standing.total, places) for r in rows]
    widths += [longest(totals, len(table.total_label) * 1.1), longest([], 6 * 1.1)]
    for index, event in enumerate(table.held):
        scores = [fixed(s.value, places) for r in rows if (s := r.scores[index]) is not None]
        widths.append(max(len(event) * 1.1, longest(scores) + 2))
    widths.append(7 * 1.1)
    cols = "".join(f'<col style="width:calc({w:.1f}ch + 1.2rem)">' for w in widths)
    return f'<colgroup><col style="width:var(--rank)">{cols}</colgroup>'


def _row(view: RowView, table: StandingsView, number: int) -> str:
    row = view.standing
    places = table.places
    cells = [
        f"<td>{_e(row.rank_label)}</td>",
        f'<th scope="row" class="player"><a href="#{anchor(number)}">{_e(row.player)}</a>'
        + (f' <span class="needs">{_e(view.needs)}</span>' if view.needs else "")
        + "</th>",
        *([f'<td class="name">{_e(table.country(row.player))}</td>'] if table.countries else []),
        f"<td><strong>{_e(fixed(row.total, places))}</strong></td>",
        f"<td>{row.events}</td>",
    ]
    for score in view.scores:
        if score is None:
            cells.append('<td aria-label="did not play"></td>')
        elif score.counted:
            cells.append(f'<td class="c">{_e(fixed(score.value, places))}</td>')  # counted
        else:
            cells.append(
                f'<td class="d">({_e(fixed(score.value, places))})'
                '<span class="sr"> dropped</span></td>'
            )
    cells.append(f'<td class="working"><a href="#{anchor(number)}">Working</a></td>')
    return f"<tr>{''.join(cells)}</tr>"
