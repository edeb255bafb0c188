"""The published page's chart, as inline SVG (no scripts): the leaders' totals as bars, or for
a rating the leaders' rating history as step lines (a rating moves only at an event).
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Mapping, Sequence
from html import escape

from xlrally.core.numbers import show
from xlrally.core.ranking import RatingLine
from xlrally.core.standings import Standings
from xlrally.formats.cells import show_date

PALETTE = ("#0b5cad", "#c2410c", "#15803d", "#7e22ce", "#b91c1c")

WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 640, 300, 48, 150, 16, 36
"""The rating chart's size and margins (px): labels right of the lines, dates below."""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def short(name: str, limit: int = 22) -> str:
    """A name cut to ``limit`` characters for a label (the full name is the SVG title)."""
    return name if len(name) <= limit else name[: limit - 1] + "…"


def chart(standings: Standings) -> str:
    """The chart section of the page ('' when nobody is listed)."""
    if not standings.rows:
        return ""
    if standings.history:  # a rating's
        return rating_chart(standings)
    return totals_chart(standings)


def totals_chart(standings: Standings) -> str:
    """The top ten's totals as bars."""
    leaders = standings.rows[:10]
    top = max((r.total for r in leaders), default=1) or 1
    bar_height, gap, label_width, width = 22, 8, 170, 640
    height = len(leaders) * (bar_height + gap) + gap
    bars = []
    for index, row in enumerate(leaders):
        y = gap + index * (bar_height + gap)
        length = max(1.0, (width - label_width - 60) * max(row.total, 0) / top)
        bars.append(
            f'<text x="{label_width - 8}" y="{y + 16}" text-anchor="end" font-size="13">'
            f"{_e(row.rank_label)} {_e(short(row.player))}</text>"
            f'<rect x="{label_width}" y="{y}" width="{length:.1f}" height="{bar_height}" '
            f'fill="{PALETTE[0]}" rx="3">'
            f"<title>{_e(row.player)}: {_e(show(row.total))}</title></rect>"
            f'<text x="{label_width + length + 6:.1f}" y="{y + 16}" font-size="13">'
            f"{_e(show(row.total))}</text>"
        )
    return (
        '<section class="chart" aria-labelledby="chart-title"><h2 id="chart-title">Leaders</h2>'
        f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="Totals of the top '
        f'{len(leaders)} players">{"".join(bars)}</svg></section>'
    )


class _Scale:
    """Days and ratings to the chart's x and y (px)."""

    def __init__(self, dates: Sequence[dt.date], low: float, high: float) -> None:
        self.first, self.last = dates[0].toordinal(), dates[-1].toordinal()
        self.low, self.high = low, high

    def x(self, day: dt.date) -> float:
        span = max(self.last - self.first, 1)
        return LEFT + (WIDTH - LEFT - RIGHT) * (day.toordinal() - self.first) / span

    def y(self, value: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (self.high - value) / (self.high - self.low)


def rating_chart(standings: Standings) -> str:
    """The top five's rating history, one step line each, labelled at its end."""
    leaders = [r.player for r in standings.rows[:5]]
    series = {p: standings.history[p] for p in leaders if p in standings.history}
    dates = sorted({step.date for steps in series.values() for step in steps})
    if not dates:
        return ""
    starts = [steps[0].before for steps in series.values()]
    values = [step.after for steps in series.values() for step in steps] + starts[:1]
    scale = _Scale(dates, min(values) - 1, max(values) + 1)
    lines, labels = _rating_lines(series, scale, dates[-1])
    return (
        '<section class="chart" aria-labelledby="chart-title"><h2 id="chart-title">'
        "Rating history of the leaders</h2>"
        f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="Rating history of the top '
        f'{len(series)} players">{_axis(scale, dates, standings.settings.date_format)}'
        f"{lines}{labels}</svg></section>"
    )


def _rating_lines(
    series: Mapping[str, tuple[RatingLine, ...]], scale: _Scale, end: dt.date
) -> tuple[str, str]:
    """Each player's step line, and the labels at their ends (each at least 14 px below the
    one above, so that none overlap)."""
    lines: list[str] = []
    labels: list[tuple[float, str, str]] = []
    for index, (player, steps) in enumerate(series.items()):
        colour = PALETTE[index % len(PALETTE)]
        # A rating changes only at an event: flat between events, a step at each one; the line
        # starts at the first event's result (no stroke up from the starting rating).
        points = [(scale.x(steps[0].date), scale.y(steps[0].after))]
        for before, step in itertools.pairwise(steps):
            points += [(scale.x(step.date), scale.y(before.after))]
            points += [(scale.x(step.date), scale.y(step.after))]
        points.append((scale.x(end), scale.y(steps[-1].after)))
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        lines.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2.5" points="{path}">'
            f"<title>{_e(player)}</title></polyline>"
        )
        labels.append((points[-1][1], colour, f"{short(player)} {show(steps[-1].after)}"))
    labels.sort()
    placed: list[float] = []
    for label_y, _, _ in labels:
        placed.append(max(label_y, placed[-1] + 14) if placed else label_y)
    texts = "".join(
        f'<text x="{WIDTH - RIGHT + 6}" y="{label_y + 4:.1f}" font-size="12" fill="{colour}">'
        f"{_e(text)}</text>"
        for (_, colour, text), label_y in zip(labels, placed, strict=True)
    )
    return "".join(lines), texts


def _axis(scale: _Scale, dates: Sequence[dt.date], pattern: str) -> str:
    """The time axis with the first and last dates, and two ratings up the side."""
    dated = [(LEFT, "start", dates[0])]
    if dates[-1] != dates[0]:
        dated.append((WIDTH - RIGHT, "end", dates[-1]))
    high, low = scale.high, scale.low
    return (
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{HEIGHT - BOTTOM}" '
        'stroke="#999"/>'
        + "".join(
            f'<text x="{at}" y="{HEIGHT - 12}" font-size="12" text-anchor="{anchor}">'
            f"{_e(show_date(day, pattern))}</text>"
            for at, anchor, day in dated
        )
        + f'<text x="{LEFT - 6}" y="{scale.y(high - 1) + 4:.1f}" font-size="12" '
        f'text-anchor="end">{_e(show(high - 1))}</text>'
        f'<text x="{LEFT - 6}" y="{scale.y(low + 1) + 4:.1f}" font-size="12" '
        f'text-anchor="end">{_e(show(low + 1))}</text>'
    )
