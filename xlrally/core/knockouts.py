"""Knockout points: a poker league's reward for "the more aggressive players who take people
out", added to any ranked points system's score (Absolute Points, Relative Reverse Order,
Neau's formula, the formula system)::

    knockout points = knockouts × points per knockout + bounties × bounty points

* **knockouts**: the players this player knocked out in the event: the Results' ``Knockouts``
  cell, else the number of results whose ``Knocked out by`` names this player. When both are
  given the count must be at least the names (it may be more: a player knocked out who is not
  listed).
* **bounties**: the players knocked out who carried a bounty: the league's leader at the time
  (first in the standings as they stood before the event; tied leaders each carry one), the
  winner of the event scored before, or players named in the settings. Knowing who knocked out
  whom needs the ``Knocked out by`` column.
* An event's ``Weight`` multiplies knockout points only with ``Knockouts weighted`` yes: by
  default "bonus points do not double in double-points events".

Sources: a home league's rules, "10 points per person eliminated. Additionally, if you
eliminate the highest ranked person in the overall standings you receive a bonus of 10 points"
(Starving Crazed Weasels Poker, *League Rules*, 2008); "a 5 league point bounty on the winner
of the previous week" (MD Donkfest league, 2008); "1 league point per bounty collected" (Matt's
Poker League rules, 2025). The working reads ``rank 1: 25 + 5 participating = 30 + 2 KOs × 10
= 50``.

>>> from xlrally.core.ranking import Score
>>> KnockedOut(Score("W1", 30, None), 2, 10, ("Ann, the leader",), 10, 60).explain
' = 30 + 2 KOs × 10 + 1 bounty × 10 (Ann, the leader) = 60'
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from xlrally.core.adjustments import Scorer
from xlrally.core.checks import Collector
from xlrally.core.entered import Entered
from xlrally.core.errors import ScoringError
from xlrally.core.model import Event, Result, Settings
from xlrally.core.numbers import show, whole
from xlrally.core.players import key
from xlrally.core.ranking import Entry, Score, best_n, rank_entries
from xlrally.core.rules import KnockoutRule
from xlrally.core.words import plural

__all__ = ["KnockedOut", "Knockouts", "describe", "resolve"]

_PLACES = 9
"""Totals are compared rounded to 9 decimal places, as the standings compare them."""


@dataclass(frozen=True)
class KnockedOut:
    """A score with its knockout points, and the working."""

    score: Score
    knockouts: int
    per: float
    bounties: tuple[str, ...]
    """The bounties collected, each in words (``Ann, the leader``)."""
    bounty: float
    value: float

    @property
    def explain(self) -> str:
        """The score's working, then ``+ 2 KOs × 10 + 1 bounty × 10 (Ann, the leader) = 60``
        (the score's value is said first unless its working already ends with it)."""
        before = self.score.explain
        shown = show(self.score.value)
        # ``= 33``, or a formula's ``rounded 282.48``: the working already ends in the value
        head = before if before.endswith(f" {shown}") else f"{before} = {shown}"
        parts = []
        if self.knockouts and self.per:
            parts.append(
                f"{self.knockouts} KO{'' if self.knockouts == 1 else 's'} × {show(self.per)}"
            )
        if self.bounties:
            count = plural(len(self.bounties), "bounty").replace("bountys", "bounties")
            parts.append(f"{count} × {show(self.bounty)} ({'; '.join(self.bounties)})")
        return f"{head} + {' + '.join(parts)} = {show(self.value)}"


_TARGET_WORDS = {"leader": "the leader", "last winner": "last event's winner"}


def describe(rule: KnockoutRule) -> str:
    """The rule in words, for the notes under the standings.

    >>> print(describe(KnockoutRule(points=10, bounty=10, bounties=("leader", "Ann"))))
    ... # doctest: +NORMALIZE_WHITESPACE
    Knockouts: 10 points each; 10 more for knocking out the leader or Ann; an event's weight
    does not multiply them.
    """
    parts = []
    if rule.points:
        parts.append(f"{show(rule.points)} point{'' if rule.points == 1 else 's'} each")
    if rule.bounty:
        whom = [_TARGET_WORDS.get(key(t), t.strip()) for t in rule.targets]
        listed = ", ".join(whom[:-1]) + f" or {whom[-1]}" if len(whom) > 1 else whom[0]
        parts.append(f"{show(rule.bounty)} more for knocking out {listed}")
    weight = "multiplies" if rule.weighted else "does not multiply"
    return f"Knockouts: {'; '.join(parts)}; an event's weight {weight} them."


def resolve(entered: Entered, problems: Collector) -> None:
    """Each ``Knocked out by`` name resolved to that player's key (aliases followed), and each
    result's knockouts counted from them where its Knockouts cell is blank: the results under
    ``entered.by_event`` are replaced in place. A name that is no player of the event, a
    player knocked out by themselves, or a count below the names is a problem at its cell."""
    for keyed in entered.by_event.values():
        if not any(result.knocked_out_by for _, result in keyed):
            continue
        present = {pk for pk, _ in keyed}
        named: Counter[str] = Counter()
        hitmen: dict[int, str | None] = {}  # index -> the hitman's key (None: not usable)
        for index, (pk, result) in enumerate(keyed):
            if not result.knocked_out_by:
                continue
            hitman = entered.roster.resolve(result.knocked_out_by)
            if hitman == pk:
                problems.result(
                    result, f"{result.player} cannot knock themselves out", "knocked out by"
                )
                hitmen[index] = None
            elif hitman not in present:
                message = (
                    f"{result.knocked_out_by!r} has no result in {result.event!r}: whoever "
                    "knocked a player out must be listed in the event"
                )
                problems.result(result, message, "knocked out by")
                hitmen[index] = None
            else:
                named[hitman] += 1
                hitmen[index] = hitman
        for index, (pk, result) in enumerate(keyed):
            count, resolved = named[pk], index in hitmen
            if not count and not resolved:
                continue
            knockouts = result.knockouts
            if count and knockouts is None:
                knockouts = count
            elif count:
                try:
                    entered_count = whole(knockouts, "knockouts")
                except ScoringError:
                    entered_count = count  # reported where the score is worked out
                if entered_count < count:
                    message = (
                        f"knockouts ({entered_count}) is less than the {count} results that "
                        f"name {result.player} in Knocked out by"
                    )
                    problems.result(result, message, "knockouts")
            by = hitmen[index] if resolved else result.knocked_out_by
            keyed[index] = (pk, result._replace(knockouts=knockouts, knocked_out_by=by))


def resolved_rule(rule: KnockoutRule, entered: Entered) -> KnockoutRule:
    """The rule with the players its bounties name resolved to player keys."""
    named = frozenset(
        entered.roster.resolve(name)
        for name in rule.targets
        if key(name) not in {"leader", "last winner"}
    )
    return replace(rule, named_keys=named)


PerPlayer = Callable[[int, "int | None", int], "int | None"]
"""How many scores count for each player after some events held (the system's
:meth:`~xlrally.core.systems.base.System.counted_per_player`)."""


class Knockouts:
    """Knockout points through a season: scores each event's knockouts, knowing who led the
    standings before it and who won the event before."""

    def __init__(self, settings: Settings, per_player: PerPlayer) -> None:
        self.settings = settings
        self.rule = settings.knockouts
        self.per_player = per_player
        self.held: list[str] = []
        self.last_winners: frozenset[str] = frozenset()
        targets = {key(t) for t in self.rule.targets}
        self.by_leader = "leader" in targets
        self.by_last_winner = "last winner" in targets
        self.totals: dict[str, Entry] = {}
        """Each player's standing so far (their entry as the standings rank it)."""
        self.rounded: dict[str, float] = {}
        """Each player's total as the standings compare totals (9 decimal places)."""
        self.counted: int | None = None
        """The number of scores counted when :attr:`totals` was worked out."""
        self.changed: set[str] = set()
        """The players who played an event since :attr:`totals` was worked out."""
        self.stamps: dict[str, int] = {}
        """How many times each player's total was worked out (an older heap item is stale)."""
        self.heap: list[tuple[float, int, str]] = []
        """The qualified players' totals, highest first: (-total, stamp, player key)."""

    def bounties(self, scores: Mapping[str, list[Score]]) -> dict[str, str]:
        """Who carries a bounty in the next event (player key -> why, e.g. ``the leader``)."""
        carried = dict.fromkeys(self.rule.named_keys, "a bounty")
        if self.by_last_winner:
            carried.update(dict.fromkeys(self.last_winners, "last event's winner"))
        if self.by_leader:
            carried.update(dict.fromkeys(self.leaders(scores), "the leader"))
        return carried

    def leaders(self, scores: Mapping[str, list[Score]]) -> list[str]:
        """The players first in the standings as they stand (none before the first event):
        the highest total among the qualified (the minimum's players short of it come after
        them, or are unranked), tied ones separated by the league's tie-breaks.

        A player's total is worked out again only after they play (all again when the number
        counted changes); the qualified are kept in a heap, highest total first, so that an
        event costs its own players, not the whole league's."""
        if not self.held:
            return []
        settings = self.settings
        counted = self.per_player(len(self.held), settings.best_x, settings.events_cap)
        totals, rounded, stamps, heap = self.totals, self.rounded, self.stamps, self.heap
        again: Iterable[str] = self.changed
        if counted != self.counted or not totals:
            again, heap[:] = scores.keys(), []
        minimum = settings.min_events
        for pk in again:
            player_scores = scores.get(pk)
            if not player_scores:
                continue
            chosen = best_n(player_scores, counted)
            total = sum(s.value for s in chosen)
            events = frozenset(c.event for c in chosen)
            totals[pk] = Entry(pk, total, tuple(player_scores), events)
            rounded[pk] = round(total, _PLACES)
            stamps[pk] = stamp = stamps.get(pk, 0) + 1
            if len(player_scores) >= minimum:
                heapq.heappush(heap, (-rounded[pk], stamp, pk))
        self.counted, self.changed = counted, set()
        while heap and heap[0][1] != stamps[heap[0][2]]:
            heapq.heappop(heap)  # worked out again since
        if heap:
            best, top, kept = heap[0][0], [], []
            while heap and heap[0][0] == best:
                item = heapq.heappop(heap)
                if item[1] == stamps[item[2]]:
                    top.append(item[2])
                    kept.append(item)
            for item in kept:
                heapq.heappush(heap, item)
        elif settings.below_minimum == "unranked" or not rounded:
            return []  # nobody is ranked yet
        else:  # nobody has played the minimum yet: all are ranked after, among themselves
            high = max(rounded.values())
            top = [pk for pk, value in rounded.items() if value == high]
        if len(top) > 1 and settings.tie_breaks:
            tied = [totals[pk] for pk in top]
            ranked = rank_entries(tied, settings.tie_breaks, self.held)
            return [r.player for r in ranked if r.rank == 1]
        return top

    def scorer(
        self,
        score: Scorer,
        keyed: Sequence[tuple[str, Result]],
        scores: Mapping[str, list[Score]],
    ) -> Scorer:
        """Wrap an event's scorer so that each score gets its knockout points (``scores``: the
        season's scores so far, by player key, for who leads)."""
        rule = self.rule
        carried = self.bounties(scores) if rule.bounty else {}
        collected: dict[str, list[str]] = {}
        for pk, result in keyed:
            hitman = result.knocked_out_by
            if hitman is not None and pk in carried:
                collected.setdefault(hitman, []).append(f"{result.player}, {carried[pk]}")
        # a result's player key by its spelling (one result per player in an event)
        players = {result.player: pk for pk, result in keyed}

        def knocked(result: Result) -> Score:
            plain = score(result)
            count = 0 if result.knockouts is None else whole(result.knockouts, "knockouts")
            won = tuple(collected.get(players.get(result.player, ""), ()))
            extra = count * rule.points + len(won) * rule.bounty
            if not extra:
                return plain
            value = plain.value + extra
            working = KnockedOut(plain, count, rule.points, won, rule.bounty, value)
            return plain._replace(value=value, working=working)

        return knocked

    def after(self, event: Event, keyed: Iterable[tuple[str, Result]]) -> None:
        """Remember the event as held, and its winners (for the next event's bounties)."""
        self.held.append(event.name)
        winners = set()
        for pk, result in keyed:
            self.changed.add(pk)
            try:
                if whole(result.rank, "rank") == 1:
                    winners.add(pk)
            except ScoringError:
                continue
        self.last_winners = frozenset(winners)
