"""The published page's sections below its standings table: the players after the top ones
and each section's players (short tables), the teams, the prizes, the money, what it takes,
one section per player with the working, and the events (:mod:`xlrally.formats.page` puts
them in the page). Every piece of text that came from a workbook is escaped
(:func:`escaped`)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from xlrally.core.numbers import fixed
from xlrally.core.ranking import Standing
from xlrally.core.sections import of_section, section_names
from xlrally.core.standings import Standings
from xlrally.core.teams import team_rule
from xlrally.formats.cells import show_date
from xlrally.formats.treasury import (
    EVENT_HEADINGS,
    MONEY_HEADINGS,
    account_rows,
    event_rows,
    money_lines,
    outlook_headings,
    outlook_lines,
    outlook_rows,
)
from xlrally.formats.view import StandingsView, needs_mark, pot_summary, prize_rows


def escaped(text: object) -> str:
    """Text as HTML, quotes too (it may stand in an attribute's value)."""
    return escape(str(text), quote=True)


_e = escaped


def rest_section(table: StandingsView, shown: int) -> str:
    """The players after the top ones: rank, name, (country,) total and events."""
    if shown == len(table.rows):
        return ""
    first, last = shown + 1, len(table.rows)
    return _short_table(
        table,
        [view.standing for view in table.rows[shown:]],
        "rest",
        f"Places {first:,} to {last:,}",
        f"Scores by event and the working are shown for the top {shown:,} "
        "(<code>xlrally publish --top N</code> shows more).",
    )


def prizes_section(standings: Standings) -> str:
    """The prizes and the pot summary."""
    if not standings.payouts:
        return ""
    rows = "".join(
        f'<tr><td>{_e(section)}</td><th scope="row" class="other">{_e(player)}</th>'
        f'<td>{_e(fixed(amount, 2))}</td><td class="name">{_e(explain)}</td></tr>'
        for section, player, amount, explain in prize_rows(standings)
    )
    return (
        '<section aria-labelledby="prizes-title"><h2 id="prizes-title">Prizes</h2>'
        f'<p class="note">{_e(pot_summary(standings))}</p>'
        '<div class="scroll"><table><thead><tr><th scope="col" class="name">Section</th>'
        '<th scope="col" class="name">Player</th><th scope="col">Prize</th>'
        '<th scope="col" class="name">Working</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></div></section>"
    )


def teams_section(table: StandingsView) -> str:
    """The team table: rank, team, total and the scores counted (none without one)."""
    standings = table.standings
    if not standings.teams:
        return ""
    rule = standings.settings.teams
    rows = "".join(
        f'<tr><td>{_e(team.rank_label)}</td><th scope="row" class="other">{_e(team.team)}</th>'
        f"<td>{_e(fixed(team.total, table.places))}</td>"
        f'<td class="name working">{_e(team.explain)}</td></tr>'
        for team in standings.teams
    )
    return (
        '<section aria-labelledby="teams-title"><h2 id="teams-title">Teams</h2>'
        f'<p class="note">{_e(team_rule(rule.best_n or 0, rule.scores))}.</p>'
        '<div class="scroll"><table><thead><tr><th scope="col">Rank</th>'
        '<th scope="col" class="name">Team</th><th scope="col">Total</th>'
        '<th scope="col" class="name">Counted</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></div></section>"
    )


def money_section(standings: Standings) -> str:
    """The money section: each player's paid, due and balance, each event's withholding, and
    the money in words (nothing for a league that keeps no money)."""
    money = standings.money
    if money is None:
        return ""
    head = "".join(_heading(h, i == 0) for i, h in enumerate(MONEY_HEADINGS))
    rows = "".join(
        f'<tr><th scope="row" class="other">{_e(player)}</th><td>{_e(fixed(paid, 2))}</td>'
        f"<td>{_e(fixed(due, 2))}</td><td>{_e(fixed(balance, 2))}</td></tr>"
        for player, paid, due, balance in account_rows(money)
    )
    events = ""
    if money.events:
        heads = "".join(_heading(h, h in ("Event", "Working")) for h in EVENT_HEADINGS)
        lines = "".join(
            f'<tr><th scope="row" class="other">{_e(event)}</th><td>{_e(fixed(took, 2))}</td>'
            f'<td>{_e(fixed(withheld, 2))}</td><td class="name">{_e(explain)}</td>'
            f"<td>{_e(fixed(pool, 2))}</td><td>{_e(fixed(paid_out, 2))}</td></tr>"
            for event, took, withheld, explain, pool, paid_out in event_rows(money)
        )
        events = (
            f'<div class="scroll"><table><thead><tr>{heads}</tr></thead>'
            f"<tbody>{lines}</tbody></table></div>"
        )
    notes = "".join(f'<p class="note">{_e(line)}</p>' for line in money_lines(standings))
    return (
        '<section aria-labelledby="money-title"><h2 id="money-title">Money</h2>'
        f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table></div>{events}{notes}</section>"
    )


def _heading(text: str, name: bool) -> str:
    """A column heading: over text (``name``: left) or numbers."""
    wide = ' class="name"' if name else ""
    return f'<th scope="col"{wide}>{_e(text)}</th>'


def outlook_section(standings: Standings) -> str:
    """What it takes: a row per player with a goal left, a column per goal, and the note."""
    outlook = standings.outlook
    if outlook is None:
        return ""
    table = ""
    if outlook.prospects:
        head = "".join(
            f'<th scope="col" class="name">{_e(h)}</th>' for h in outlook_headings(outlook)
        )
        rows = "".join(
            f'<tr><th scope="row" class="other">{_e(player)}</th>'
            + "".join(f'<td class="name">{_e(text)}</td>' for text in texts)
            + "</tr>"
            for player, *texts in outlook_rows(standings)
        )
        table = (
            f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
            f"<tbody>{rows}</tbody></table></div>"
        )
    notes = "".join(f'<p class="note">{_e(line)}</p>' for line in outlook_lines(standings))
    return (
        '<section aria-labelledby="outlook-title"><h2 id="outlook-title">What it takes</h2>'
        f"{table}{notes}</section>"
    )


def section_tables(table: StandingsView) -> str:
    """A short table per section: its players ranked among themselves (the decimals are the
    league's table's, as on the Standings sheet)."""
    standings = table.standings
    return "".join(
        _short_table(
            table,
            of_section(standings, name).rows,
            f"section-{number}",
            f"Section: {_e(name)}",
            "The players of this section ranked among themselves; their scores and working are "
            "above.",
        )
        for number, name in enumerate(section_names(standings), start=1)
    )


def _short_table(
    table: StandingsView, rows: Sequence[Standing], key: str, title: str, note: str
) -> str:
    """A table of rank, name, (country,) total and events of ``rows``, in the columns and
    decimals of ``table``. ``title`` and ``note`` are HTML."""
    country = '<th scope="col" class="name">Country</th>' if table.countries else ""
    lines = []
    for row in rows:
        needs = needs_mark(row)
        where = f'<td class="name">{_e(table.country(row.player))}</td>' if table.countries else ""
        lines.append(
            f'<tr><td>{_e(row.rank_label)}</td><th scope="row" class="other">{_e(row.player)}'
            + (f' <span class="needs">{_e(needs)}</span>' if needs else "")
            + f"</th>{where}<td>{_e(fixed(row.total, table.places))}</td><td>{row.events}</td></tr>"
        )
    return (
        f'<section class="rest" aria-labelledby="{key}-title"><h2 id="{key}-title">{title}</h2>'
        f'<p class="note">{note}</p>'
        f'<div class="scroll"><table><thead><tr><th scope="col">Rank</th>'
        f'<th scope="col" class="name">Player</th>{country}'
        f'<th scope="col">{table.total_label}</th><th scope="col">Events</th></tr></thead>'
        f"<tbody>\n{chr(10).join(lines)}\n</tbody></table></div></section>"
    )


def anchor(number: int) -> str:
    """The id of the section of the player in row ``number`` (free of the name's characters)."""
    return f"player-{number}"


def player_sections(table: StandingsView, shown: int) -> str:
    """One section per player, reached from the name in the table (no scripts): every event
    they played with its date, score, whether it counts and the working, and for a rating the
    rating after each event, as the WDD player pages show it."""
    dates = {e.name: e.date for e in table.standings.events}
    pattern = table.standings.settings.date_format
    sections = []
    for number, view in enumerate(table.rows[:shown], start=1):
        row = view.standing
        steps = {s.event: s for s in table.standings.history.get(row.player, ())}
        rating = bool(steps)
        lines = []
        if view.broken_tie:
            lines.append(
                f'<tr><td class="name" colspan="6">Tie with the row above broken by '
                f"{_e(view.broken_tie)}</td></tr>"
            )
        for score in view.scores:
            if score is None:
                continue
            when = dates.get(score.event)
            counts = "yes" if score.counted else "no"
            after = f"<td>{_e(fixed(steps[score.event].after, 2))}</td>" if rating else ""
            lines.append(
                f"<tr><td>{_e(score.event)}</td>"
                f"<td>{_e(show_date(when, pattern) if when else '')}</td>"
                f"<td>{_e(fixed(score.value, table.places))}</td><td>{counts}</td>{after}"
                f"<td>{_e(score.explain)}</td></tr>"
            )
        head = (
            '<th scope="col">Event</th><th scope="col">Date</th>'
            f'<th scope="col">{"Percentile" if rating else "Score"}</th>'
            f'<th scope="col">{"Moved the rating" if rating else "Counts"}</th>'
            + ('<th scope="col">Rating after</th>' if rating else "")
            + '<th scope="col" class="name">Working</th>'
        )
        sections.append(
            f'<section id="{anchor(number)}" class="player-page"><h3>{_e(row.rank_label)} '
            f"{_e(row.player)} – {table.total_label.lower()} {_e(fixed(row.total, table.places))}"
            f'</h3><div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>'
            f'{"".join(lines)}</tbody></table></div><p><a href="#standings-title">Back to the '
            "standings</a></p></section>"
        )
    return (
        '<section class="players" aria-labelledby="players-title"><h2 id="players-title">'
        f"Players</h2>{''.join(sections)}</section>"
    )


def events_section(standings: Standings) -> str:
    pattern = standings.settings.date_format
    items = "".join(
        f"<li>{_e(show_date(e.date, pattern)) + ' – ' if e.date else ''}{_e(e.name)}"
        f"{'' if e.held else f' ({_e(e.status)})'}</li>"
        for e in standings.events
    )
    return (
        '<section class="events-list" aria-labelledby="events-title">'
        '<h2 id="events-title">Events</h2>'
        f'<ul class="events">{items}</ul></section>'
    )
