"""What a scoring system is and does, and what the points systems share (like python-chess's
variants: one object per system, its attributes and methods answering everything the rest of
xlrally asks of it). A rating (Dip Pouch) overrides what differs.

A :class:`System` says, as data, what the reader, the template and the importer need: its
key and name, its result and event columns, which event fields it needs, its settings and its
example league. As behaviour it checks an event's fields, scores a league's events
(:meth:`System.tally`) and words its rule and marks. :class:`PointsSystem` is the base of every
system whose standings are a total of each player's best scores; a system module subclasses
it and gives its :meth:`~PointsSystem.scorer`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from xlrally.core.adjustments import Scorer, sharing, weighted
from xlrally.core.checks import Collector, bad_number, check_ranks, report_failures
from xlrally.core.errors import ScoringError
from xlrally.core.knockouts import Knockouts
from xlrally.core.model import Event, Result, Settings
from xlrally.core.numbers import (
    MAX_AMOUNT,
    MAX_PLAYERS,
    MAX_ROUNDS,
    at_most,
    grouped,
    real,
    whole,
)
from xlrally.core.ranking import Entry, RatingLine, Score, best_n
from xlrally.core.words import plural

Fail = Callable[[str, str], None]
"""Reports a problem of an event: (message, the field at fault)."""


@dataclass(frozen=True)
class Example:
    """A system's example league, what a new workbook of it holds: Settings rows (by the
    setting's name), and events and results by field (``"event"``, ``"player"``, ``"rank"``)."""

    settings: Sequence[tuple[str, object]]
    events: Sequence[Mapping[str, object]]
    results: Sequence[Mapping[str, object]]
    points: Sequence[tuple[int, float, float]] = ()
    """Points sheet rows: rank, points, bonus."""
    players: Sequence[tuple[str, str, str]] = ()
    """Players sheet rows: player, alias, sections."""
    prizes: Sequence[tuple[int, object, object]] = ()
    """Prizes sheet rows: place, amount, share of the pot."""
    teams: Sequence[tuple[str, str]] = ()
    """Players sheet Team column: player, team (or club)."""
    ledger: Sequence[tuple[object, ...]] = ()
    """Ledger sheet rows: date, player, item, amount, event."""


@dataclass(frozen=True)
class Tallied:
    """What a league's scored events come to: each player's entry for ranking, how many
    scores count for each, the rule in words, and a rating's history (player -> its lines)."""

    entries: list[Entry]
    counted_per_player: int | None
    rule: str
    history: Mapping[str, tuple[RatingLine, ...]] = field(default_factory=dict)


class Tally(Protocol):
    """Scores a league's events one by one (in date order), then gives what they come to."""

    def add(
        self,
        event: Event,
        keyed: list[tuple[str, Result]],
        field_size: int,
        problems: Collector,
    ) -> None:
        """Score one held event: its results with their player keys, ``field_size`` players.
        Every result that cannot be scored is a problem at its own cell."""
        ...

    def tallied(self, display: Mapping[str, str], held: int) -> Tallied:
        """What the ``held`` events come to, each player shown by ``display[player key]``."""
        ...


@dataclass(frozen=True)
class System:
    """A scoring system as the league, the reader, the outputs, the template and the importer
    see it. Subclasses give the scoring (:meth:`tally`)."""

    key: str
    name: str
    result_fields: tuple[str, ...]
    """Result columns; the first two are required (player and the system's own result)."""
    event_fields: tuple[str, ...]
    """Events columns a new workbook of this system gets."""
    example: Example
    """The example league a new workbook holds (from the rule book's worked examples)."""
    settings: tuple[str, ...] = ()
    """The settings of its own a new workbook lists (by name), beside those of every league."""
    ranked: bool = True
    """Results are finishing positions (ranks); an event without ranks is not scored yet."""
    rounds: str = "unused"
    """The event's rounds: ``"required"``, ``"optional"`` (checked when given) or ``"unused"``."""
    needs_rounds: str = "an event needs its number of rounds"
    """Why a missing Rounds is refused (when ``rounds`` is required)."""
    dated: bool = False
    """Every event needs a date (e.g. a rating takes events in date order)."""
    needs_dates: str = "events are taken in date order"
    """Why a missing Date is refused (when ``dated``)."""
    points_table: bool = False
    """Points come from a Points sheet (rank, points, bonus)."""
    event_buy_in: bool = False
    """An event's buy-in is part of scoring (and checked on the event)."""
    from_trf_rounds: bool = False
    """A TRF file's rounds give each player's points, games and byes (the rally); otherwise its
    final ranks are imported."""
    event_inputs: frozenset[str] = frozenset(
        ("date", "rounds", "buy-in", "players", "world championship", "weight")
    )
    """The Events columns read for it (another column of the sheet may mean anything)."""

    rated = False
    """Standings are a rating carried from event to event (not a total of best scores)."""
    total_label = "Total"
    """The heading of the standings' main number."""
    drops_scores = True
    """Scores can be dropped (best N): the CSV lists them in a Dropped column."""
    spans_years = False
    """Its standings may span years by design (a rating list): events more than a year apart
    are no sign of two seasons merged, and are not warned about."""
    marks = "Bold scores count towards the total; (bracketed) scores are dropped."
    """How to read bold and bracketed scores (the sheet's note under the table)."""
    page_marks = "Bold scores count towards the total; scores in (brackets) are dropped."
    """How to read the published table's marks."""

    @property
    def takes_knockouts(self) -> bool:
        """Knockout points may be added to its scores (:mod:`xlrally.core.knockouts`)."""
        return False

    def counts_knockouts(self, settings: Settings) -> bool:
        """Whether its own scoring counts each result's knockouts (a formula that uses them);
        knockout points are the league's :attr:`~xlrally.core.model.Settings.knockouts`."""
        return False

    def rule_notes(self, settings: Settings) -> tuple[str, ...]:
        """More of the rule in words, under the standings (a formula's; none here)."""
        return ()

    def dropped_reason(self, counted_per_player: int | None) -> str:
        """Why a score does not count: ``best 5 count``."""
        return f"best {counted_per_player} count"

    def check_event(self, event: Event, fail: Fail) -> None:
        """Report what is wrong with an event's own fields (``fail(message, field)``)."""
        if self.rounds == "required" and event.rounds is None and not event.pending:
            fail(f"rounds is missing: {self.needs_rounds}", "rounds")
        if self.dated and event.date is None:
            fail(f"date is missing: {self.needs_dates}", "date")
        numbers = [("players", event.players, MAX_PLAYERS)]
        if self.rounds != "unused":
            numbers.append(("rounds", event.rounds, MAX_ROUNDS))
        for name, value, limit in numbers:
            if value is not None:
                try:
                    at_most(whole(value, name, minimum=1), limit, name)
                except ScoringError as error:
                    fail(error.message, name)
        buy_in = event.buy_in  # not a number: the system's own check or its scorer says so
        if (
            isinstance(buy_in, int | float)
            and buy_in > MAX_AMOUNT
            and "buy-in" in self.event_inputs
        ):
            fail(f"buy-in must be at most {grouped(MAX_AMOUNT)}, not {grouped(buy_in)}", "buy-in")
        self.check_own(event, fail)
        self.check_weighting(event, fail)

    def check_own(self, event: Event, fail: Fail) -> None:
        """The checks of an event's fields that only this system makes (none here)."""

    def check_weighting(self, event: Event, fail: Fail) -> None:
        """A points system's event may have a Weight (more than 0), never a Value."""
        if event.weight is not None and (
            message := bad_number(event.weight, "weight", lambda w: w > 0, "more than 0")
        ):
            fail(message, "weight")
        if event.value is not None:
            fail("value is the Dip Pouch tournament value: for points use a Weight", "value")

    def waiting(self, results: Sequence[Result]) -> bool:
        """Whether an event's results cannot be scored yet: a ranked system's without ranks."""
        return self.ranked and all(r.rank is None for r in results)

    def tally(self, settings: Settings) -> Tally:
        """A new tally of a league's events under ``settings``."""
        raise NotImplementedError

    def rule(self, counted: int | None, held: int) -> str:
        """The rule applied, in words: ``Best 5 of 9 events count``."""
        if held == 0:
            return "No event has been scored yet"
        events = plural(held, "event")
        if counted is None or counted >= held:
            return "The one event counts" if held == 1 else f"All {events} count"
        return f"Best {counted} of {events} count"

    def counted_per_player(self, held: int, best_x: int | None, events_cap: int) -> int | None:
        """How many scores count for each player (None: all of them): the league's Best X,
        else :meth:`default_counted`."""
        if best_x is not None:
            return best_x
        return self.default_counted(held, events_cap)

    def default_counted(self, held: int, events_cap: int) -> int | None:
        """How many scores count without a Best X setting (None: all)."""
        return None


@dataclass(frozen=True)
class PointsSystem(System):
    """A system whose standings are each player's total of their best scores: each result
    scored on its own (:meth:`scorer`), with the league's weights and shared places."""

    def scorer(self, settings: Settings, event: Event, field_size: int) -> Scorer:
        """The scorer of one event (made once per event)."""
        raise NotImplementedError

    def event_scores(
        self, settings: Settings, event: Event, results: Sequence[Result], field_size: int
    ) -> list[Score] | None:
        """Every result of an event scored at once, each as :meth:`scorer` scores it, when
        none needs a look of its own (each cell a number the rule takes; a ranked system's
        ranks distinct places, see :func:`~xlrally.core.checks.distinct_places`); None when
        one may, and the event is scored result by result, each mistake named at its cell.
        For a system with many distinct results per event (a poker league's finishes); the
        default is None."""
        return None

    def tally(self, settings: Settings) -> Tally:
        return PointsTally(self, settings)

    @property
    def takes_knockouts(self) -> bool:
        """A ranked points system's finishes may earn knockout points (not the rally's)."""
        return self.ranked


class PointsTally:
    """A points system's tally: every player's scores, by player key."""

    def __init__(self, system: PointsSystem, settings: Settings) -> None:
        self.system = system
        self.settings = settings
        self.scores: defaultdict[str, list[Score]] = defaultdict(list)
        self.knockouts = (
            Knockouts(settings, system.counted_per_player) if settings.knockouts.active else None
        )

    def event_scorer(
        self, event: Event, keyed: list[tuple[str, Result]], field_size: int
    ) -> Scorer:
        """The scorer of one event's results: the system's (a system that needs all of an
        event's results to score one, e.g. for its pot, overrides this)."""
        return self.system.scorer(self.settings, event, field_size)

    def add(
        self,
        event: Event,
        keyed: list[tuple[str, Result]],
        field_size: int,
        problems: Collector,
    ) -> None:
        if self._add_at_once(event, keyed, field_size):
            return
        system, settings = self.system, self.settings
        score = self.event_scorer(event, keyed, field_size)
        shared = system.ranked and settings.shared_places != "refuse"
        if shared:
            score = sharing(score, keyed, settings.shared_places)
        knockouts, weighted_too = self.knockouts, settings.knockouts.weighted
        if knockouts is not None and weighted_too:
            score = knockouts.scorer(score, keyed, self.scores)
        if event.weight is not None and event.weight != 1:
            score = weighted(score, real(event.weight, "weight"))  # checked: more than 0
        if knockouts is not None and not weighted_too:
            score = knockouts.scorer(score, keyed, self.scores)
        ranks: list[int] = []
        ranked: list[Result] = []
        failures: list[tuple[Result, ScoringError]] = []
        scores = self.scores
        for pk, result in keyed:
            try:
                if pk in scores:
                    scores[pk].append(score(result))
                else:
                    scores[pk] = [score(result)]
                if system.ranked:
                    ranks.append(whole(result.rank, "rank"))
                    ranked.append(result)
            except ScoringError as error:
                failures.append((result, error))
        report_failures(event, failures, field_size, problems)
        if system.ranked and len(ranked) == len(keyed):
            check_ranks(system.name, ranked, ranks, field_size, problems, shared=shared)
        if knockouts is not None:
            knockouts.after(event, keyed)

    def _add_at_once(self, event: Event, keyed: list[tuple[str, Result]], field_size: int) -> bool:
        """Add the event's results scored at once (:meth:`PointsSystem.event_scores`), where
        nothing but the system's own rule applies: no knockout points, no weight (distinct
        ranks share no place). False, adding nothing, where that cannot be done."""
        if self.knockouts is not None or (event.weight is not None and event.weight != 1):
            return False
        results = [result for _, result in keyed]
        scored = self.system.event_scores(self.settings, event, results, field_size)
        if scored is None:
            return False
        lists = map(self.scores.__getitem__, [pk for pk, _ in keyed])  # a new player's made
        for player_scores, score in zip(lists, scored, strict=True):
            player_scores.append(score)
        return True

    def tallied(self, display: Mapping[str, str], held: int) -> Tallied:
        settings = self.settings
        counted = self.system.counted_per_player(held, settings.best_x, settings.events_cap)
        entries = []
        for pk, player_scores in self.scores.items():
            chosen = best_n(player_scores, counted)
            total = sum(s.value for s in chosen)
            entries.append(
                Entry(display[pk], total, tuple(player_scores), frozenset(s.event for s in chosen))
            )
        return Tallied(entries, counted, self.system.rule(counted, held))
