"""The checks of a league's own fields, collected so that every problem is reported at once.

What every league is checked for lives here (names, ranks, the one message for one missing
cell); what a system checks of its own events it says itself
(:meth:`~xlrally.core.systems.base.System.check_event`), never by its name being compared.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, cast

from xlrally.core.errors import LeagueProblems, Origin, Problem, ScoringError
from xlrally.core.model import MAX_NAME_LENGTH, Event, Result
from xlrally.core.numbers import real, show, whole


class EventChecks(Protocol):
    """What checks a system's own event fields (:class:`~xlrally.core.systems.base.System`)."""

    def check_event(self, event: Event, fail: Callable[[str, str], None]) -> None: ...


class Collector:
    """Gathers problems so that all of them are reported at once."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(
        self,
        message: str,
        *,
        event: str | None = None,
        player: str | None = None,
        field: str | None = None,
        origin: Origin | None = None,
    ) -> None:
        self.problems.append(Problem(message, event, player, field, origin))

    def result(self, result: Result, message: str, field: str | None) -> None:
        self.add(
            message, event=result.event, player=result.player, field=field, origin=result.origin
        )


def check_event(event: Event, system: EventChecks, problems: Collector) -> bool:
    """Report what is wrong with an event's own fields; True if nothing is."""
    before = len(problems.problems)

    def fail(message: str, field_name: str) -> None:
        problems.add(message, event=event.name, field=field_name, origin=event.origin)

    if len(event.name) > MAX_NAME_LENGTH:
        fail(f"event name is {len(event.name)} characters long; at most {MAX_NAME_LENGTH}", "event")
    system.check_event(event, fail)
    return len(problems.problems) == before


def bad_number(value: object, name: str, accept: Callable[[float], bool], rule: str) -> str | None:
    """What is wrong with ``value`` as the number ``name`` (``accept`` says what is allowed)."""
    try:
        number = real(value, name)
    except ScoringError as error:
        return error.message
    return None if accept(number) else f"{name} must be {rule}, not {show(number)}"


def distinct_places(results: Sequence[Result], field_size: int) -> list[int] | None:
    """The results' ranks as whole numbers, when each is one (an int, or a float such as 3.0
    as sheets hold it), they are distinct, and each is a place from 1 to ``field_size``: an
    event :func:`check_ranks` finds nothing wrong with, whose ranks every scorer takes as they
    are (:func:`~xlrally.core.numbers.whole`). None when any rank is otherwise (blank, text,
    shared, out of the field): the event is then checked result by result, each mistake at its
    cell. Distinct places from 1 to the field size skip none when every player is listed.

    >>> results = [Result("Week 1", p, rank=r) for p, r in (("A", 2.0), ("B", 1.0))]
    >>> distinct_places(results, 2), distinct_places(results, 1), distinct_places(results[:1], 5)
    ([2, 1], None, [2])
    """
    ranks = [result.rank for result in results]
    kinds = set(map(type, ranks))
    if kinds == {float}:
        floats = cast("list[float]", ranks)
        if not all(map(float.is_integer, floats)):
            return None
        places = list(map(int, floats))
    elif kinds == {int}:
        places = cast("list[int]", ranks)
    else:
        return None
    if min(places) < 1 or max(places) > field_size or len(set(places)) < len(places):
        return None
    return places


def check_ranks(
    system: str,
    results: list[Result],
    ranks: list[int],
    field_size: int,
    problems: Collector,
    shared: bool = False,
) -> None:
    """Ranks must be distinct (or, where ties share the better place, run 1, 2, 2, 4) and, when
    every player is listed, must not skip a place. Linear in the number of results.

    ``system``: its name, for the message; ``shared``: tied players share a place (a rating's
    rule, or a poker league whose Settings let players share a place: a chop)."""
    first_at: dict[int, Result] = {}
    for result, rank in zip(results, ranks, strict=True):
        if rank in first_at and not shared:
            message = (
                f"rank {rank} is given twice ({first_at[rank].player} and {result.player}); "
                f"{system} needs distinct ranks here (Settings: Shared places is refuse)"
            )
            problems.result(result, message, "rank")
        first_at.setdefault(rank, result)
    before = len(problems.problems)
    counts = Counter(ranks)
    if shared:
        for rank, count in counts.items():
            hidden = next((r for r in range(rank + 1, rank + count) if r in first_at), None)
            if hidden is not None:
                message = (
                    f"rank {hidden} cannot follow {count} players tied at {rank} "
                    f"(ties share the better place: 1, 2, 2, 4)"
                )
                problems.result(first_at[hidden], message, "rank")
    if field_size == len(results) and len(problems.problems) == before:
        expected = 1
        for rank in sorted(counts):
            if rank != expected:
                message = (
                    f"ranks skip place {expected}: ranks must run 1..{field_size} "
                    f"(or give the event's Players when not everyone is listed)"
                )
                problems.result(first_at[rank], message, "rank")
                break
            expected = rank + counts[rank]


def report_failures(
    event: Event,
    failures: list[tuple[Result, ScoringError]],
    field_size: int,
    problems: Collector,
) -> None:
    """Each result that could not be scored, at its own cell; but one mistake, one message: when
    several results fail for want of one event cell (a blank Buy-in, a blank Players while ranks
    run past the results listed), one message names that cell instead."""
    no_buy_in = [r for r, e in failures if e.field == "buy-in" and r.buy_in is None]
    beyond = [r for r, e in failures if e.field == "rank" and _beyond(r, field_size)]
    explained: set[int] = set()
    if event.buy_in is None and len(no_buy_in) > 1:
        message = (
            f"buy-in is missing: {len(no_buy_in)} results have no Buy-in of their own (the first "
            f"at {_cell(no_buy_in[0], 'buy-in')}); give the event's Buy-in here"
        )
        problems.add(message, event=event.name, field="buy-in", origin=event.origin)
        explained.update(map(id, no_buy_in))
    if event.players is None and len(beyond) > 1:
        highest = max(whole(r.rank, "rank") for r in beyond)
        message = (
            f"players is blank, so the {field_size} results listed are taken as the whole "
            f"field, but ranks go up to {highest}: give the number of players here"
        )
        problems.add(message, event=event.name, field="players", origin=event.origin)
        explained.update(map(id, beyond))
    for result, error in failures:
        if id(result) in explained:
            continue
        message = error.message
        if error.field == "rank" and event.players is None and "players" in message:
            message += " (the results listed; give the event's Players if more played)"
        problems.result(result, message, error.field)


def _beyond(result: Result, field_size: int) -> bool:
    """Whether the result's rank is a whole number past the field."""
    try:
        return whole(result.rank, "rank") > field_size
    except ScoringError:
        return False


def _cell(result: Result, field: str) -> str:
    return result.origin.where(field) if result.origin is not None else repr(result.player)


def merged(
    found: Sequence[Problem], core: Iterable[Problem], missing: Iterable[str] = ()
) -> LeagueProblems:
    """Every problem of a league at once: those an edge ``found`` reading it, then the core's
    own (:func:`~xlrally.core.league.check_league`) but for their echoes: a cell the edge could
    not read reaches the core as blank, and a column the edge found ``missing`` (a field name)
    as blank in every row, so the core's problems at those cells or fields are left out."""
    cells = {p.cell for p in found}
    absent = set(missing)
    echoes_left_out = [p for p in core if p.cell not in cells and p.field not in absent]
    return LeagueProblems([*found, *echoes_left_out])
