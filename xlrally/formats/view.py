"""One view of a standings table, behind every output: the sheet, the text/CSV/JSON reports and
the published page.

It decides once what each output shows: the column headings, the number of decimals, for
each player and each held event the score (or nothing) and whether it counted, and the words
that explain the marks. Each output only renders it.

>>> from xlrally import Event, League, Result, Settings, compute_standings
>>> league = League(Settings("rally", best_x=1), (Event("Dec", rounds=4), Event("Feb", rounds=4)),
...                 (Result("Dec", "Ann", points=3), Result("Feb", "Ann", points=1)))
>>> table = standings_view(compute_standings(league))
>>> table.headings
('Rank', 'Player', 'Total', 'Events', 'Dec', 'Feb')
>>> [(s.event, s.value, s.counted) for s in table.rows[0].scores if s]
[('Dec', 79, True), ('Feb', 29, False)]
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import NamedTuple

from xlrally.core.awards import growing
from xlrally.core.knockouts import describe
from xlrally.core.model import Settings
from xlrally.core.numbers import show
from xlrally.core.ranking import Score, Standing
from xlrally.core.standings import Standings
from xlrally.core.systems import System
from xlrally.core.words import plural
from xlrally.formats.cells import show_date
from xlrally.formats.shown import SHOWN_WARNINGS, shown_warnings  # noqa: F401 (moved, kept)


class ScoreView(NamedTuple):
    """One player's score in one held event, as every output shows it.

    A named tuple rather than a frozen dataclass: a big league has one per result (200,000),
    and a named tuple is several times cheaper to create.
    """

    event: str
    value: float
    counted: bool
    score: Score

    @property
    def explain(self) -> str:
        """The working, e.g. ``100 × 3 / 4 + 4 = 79`` (made only when asked for)."""
        return self.score.explain


def needs_mark(row: Standing) -> str:
    """``needs 2 more`` for a player short of the qualifying minimum, else ''."""
    return f"needs {row.needs} more" if row.needs else ""


@dataclass(frozen=True)
class RowView:
    """One player's row: the standing, and a score (or None) per held event in column order."""

    standing: Standing
    scores: tuple[ScoreView | None, ...]

    @property
    def needs(self) -> str:
        """``needs 2 more`` for a player short of the qualifying minimum, else ''."""
        return needs_mark(self.standing)

    @property
    def broken_tie(self) -> str | None:
        """The tie-break that separated this row from the one above, if one did."""
        decided = self.standing.decided_by
        return decided if decided and decided != "tied" else None


@dataclass(frozen=True)
class StandingsView:
    """A standings table as shown: headings, decimals, rows and the words around them."""

    standings: Standings
    system: System
    held: tuple[str, ...]
    places: int
    rows: tuple[RowView, ...]

    @property
    def total_label(self) -> str:
        """``Total``, or ``Rating`` for a rated system."""
        return self.system.total_label

    @property
    def countries(self) -> bool:
        """Whether the table has a Country column (the results gave countries)."""
        return bool(self.standings.countries)

    def country(self, player: str) -> str:
        return self.standings.countries.get(player, "")

    @property
    def leading(self) -> tuple[str, ...]:
        """The columns before the total: Rank, Player (and Country, when given)."""
        return ("Rank", "Player", "Country") if self.countries else ("Rank", "Player")

    @property
    def headings(self) -> tuple[str, ...]:
        """Rank, Player, (Country,) Total (or Rating), Events, then one column per held event."""
        return (*self.leading, self.total_label, "Events", *self.held)

    @property
    def title(self) -> str:
        """League and season, e.g. ``Club Rally 2025-26`` (empty when neither is set)."""
        return league_title(self.standings.settings)

    @property
    def dropped_reason(self) -> str:
        """Why a score does not count: ``best 5 count`` or, for a rating, ``worth 0 before
        2001``."""
        return self.system.dropped_reason(self.standings.counted_per_player)

    @property
    def marks(self) -> str:
        """How to read bold and bracketed scores (the sheet's note under the table)."""
        return self.system.marks

    @property
    def page_marks(self) -> str:
        """How to read the published table: its system's marks, and where the working is."""
        return f"{self.system.page_marks} {SEE_THE_WORKING}"


SEE_THE_WORKING = "Select a score, a name or Working to see how it was computed."


def league_title(settings: Settings) -> str:
    """League and season, e.g. ``Club Rally 2025-26`` (empty when neither is set)."""
    return " ".join(part for part in (settings.league, settings.season) if part)


def decimals(standings: Standings) -> int:
    """0 when every total and score is whole, else 2 (the places shown)."""
    for row in standings.rows:
        if not float(row.total).is_integer():
            return 2
        for score in row.scores:
            value = score.value
            if type(value) is not int and not float(value).is_integer():
                return 2
    return 0


_new_score = functools.partial(tuple.__new__, ScoreView)
"""``ScoreView(...)`` at C speed (one per result), every field given."""


def standings_view(standings: Standings) -> StandingsView:
    """The view of these standings (see the module docstring)."""
    held = standings.held
    column = {event: index for index, event in enumerate(held)}
    rows = []
    for row in standings.rows:
        scores: list[ScoreView | None] = [None] * len(held)
        counted = row.counted
        for score in row.scores:
            event = score.event
            at = column.get(event)
            if at is not None:  # a score of an event not held is not shown
                scores[at] = _new_score((event, score.value, event in counted, score))
        rows.append(RowView(row, tuple(scores)))
    return StandingsView(standings, standings.scoring, held, decimals(standings), tuple(rows))


def qualifying_note(standings: Standings) -> list[str]:
    """The qualifying minimum in words, when anyone is short of it (else nothing)."""
    short = sum(row.needs > 0 for row in standings.rows)
    if not short:
        return []
    minimum = standings.settings.min_events
    place = "without a rank" if standings.settings.below_minimum == "unranked" else "ranked"
    return [
        f"Players must play {plural(minimum, 'event')} to qualify: {plural(short, 'player')} "
        f"with fewer {'is' if short == 1 else 'are'} listed after the qualified, {place}, "
        "marked “needs N more”."
    ]


def scoring_notes(standings: Standings) -> list[str]:
    """What the league adds to its system's rule, in words: a formula, knockout points (none
    for a league that adds nothing)."""
    lines = list(standings.scoring.rule_notes(standings.settings))
    if standings.settings.knockouts.active:
        lines.append(describe(standings.settings.knockouts))
    return lines


def event_notes(standings: Standings) -> list[str]:
    """What the league adds to its rule (:func:`scoring_notes`), the events not scored, the
    qualifying minimum and the as-of date: said under the table in every output."""
    lines = scoring_notes(standings)
    lines += [f"Not scored: {e.name} ({e.status})." for e in standings.events if not e.held]
    lines.extend(qualifying_note(standings))
    if standings.as_of is not None:
        lines.append(f"As of {show_date(standings.as_of, standings.settings.date_format)}.")
    return lines


def pot_summary(standings: Standings) -> str:
    """The season's prize money in one line: ``Pot 340: 100 + 50% of 480 collected; paid 300,
    held 40.`` (empty without prizes)."""
    if not standings.payouts:
        return ""
    settings = standings.settings
    how = ""  # a fixed pot is itself
    if not settings.pot and not growing(settings):
        how = " (the prizes listed; no Pot in Settings)"
    if settings.pot_share:
        fixed = f"{show(settings.pot)} + " if settings.pot else ""
        share = f"{show(settings.pot_share * 100)}% of {show(standings.collected)} collected"
        how = f": {fixed}{share}"
    money = standings.money
    if money is not None and money.to_pot and money.withheld:  # the events' withholding
        before = how or (f": {show(settings.pot)}" if settings.pot else ":")
        joiner = " +" if before != ":" else ""
        how = f"{before}{joiner} {show(money.withheld)} withheld by the events"
    left = sum(p.left_over for p in standings.payouts)
    rounding = f" ({show(left)} of it left over by rounding)" if left > 1e-9 else ""
    return (
        f"Pot {show(standings.pot)}{how}; paid {show(standings.paid)}, "
        f"held {show(standings.pot_held)}{rounding}."
    )


def prize_rows(standings: Standings) -> list[tuple[str, str, float, str]]:
    """Every prize: (section, or '' for the league's table; player; amount; working)."""
    return [
        (payout.section, award.player, award.amount, award.explain)
        for payout in standings.payouts
        for award in payout.awards
    ]
