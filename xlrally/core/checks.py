"""The checks of a league's own fields, collected so that every problem is reported at once.

Each check is driven by the system's description in the registry (which event fields it needs,
whether ranks may be shared), never by its name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from xlrally.core.errors import Origin, Problem, ScoringError
from xlrally.core.model import MAX_NAME_LENGTH, Event, Result
from xlrally.core.numbers import real, show, whole
from xlrally.core.systems import System, poker


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


def check_event(event: Event, system: System, problems: Collector) -> bool:
    """Report what is wrong with an event's own fields; True if nothing is."""
    before = len(problems.problems)

    def fail(message: str, field_name: str) -> None:
        problems.add(message, event=event.name, field=field_name, origin=event.origin)

    if len(event.name) > MAX_NAME_LENGTH:
        fail(f"event name is {len(event.name)} characters long; at most {MAX_NAME_LENGTH}", "event")
    checks: list[tuple[str, object, int]] = [("players", event.players, 1)]
    if system.rounds == "required" and event.rounds is None and not event.pending:
        fail("rounds is missing: a rally event needs its number of rounds", "rounds")
    if system.rounds != "unused":
        checks.append(("rounds", event.rounds, 1))
    if system.dated and event.date is None:
        fail("date is missing: Dip Pouch ratings take events in date order", "date")
    for name, value, minimum in checks:
        if value is not None:
            try:
                whole(value, name, minimum=minimum)
            except ScoringError as error:
                fail(error.message, name)
    if system.event_buy_in and event.buy_in is not None:
        try:
            poker.score_neau(1, event.buy_in, None, 1)
        except ScoringError as error:
            fail(error.message, "buy-in")
    if event.weight is not None:
        if system.rated:
            fail("weight is for points systems: give a Dip Pouch event its Value instead", "weight")
        elif message := _bad_number(event.weight, "weight", lambda w: w > 0, "more than 0"):
            fail(message, "weight")
    if event.value is not None:
        if not system.rated:
            fail("value is the Dip Pouch tournament value: for points use a Weight", "value")
        elif message := _bad_number(
            event.value, "value", lambda v: 0 <= v <= 100, "between 0 and 100 (%)"
        ):
            fail(message, "value")
    return len(problems.problems) == before


def _bad_number(value: object, name: str, accept: Callable[[float], bool], rule: str) -> str | None:
    """What is wrong with ``value`` as the number ``name`` (``accept`` says what is allowed)."""
    try:
        number = real(value, name)
    except ScoringError as error:
        return error.message
    return None if accept(number) else f"{name} must be {rule}, not {show(number)}"


def check_ranks(
    system: System,
    results: list[Result],
    ranks: list[int],
    field_size: int,
    problems: Collector,
    shared: bool = False,
) -> None:
    """Ranks must be distinct (or, where ties share the better place, run 1, 2, 2, 4) and, when
    every player is listed, must not skip a place. Linear in the number of results.

    ``shared``: a poker league whose Settings let players share a place (a chop)."""
    shared = shared or system.shared_ranks
    first_at: dict[int, Result] = {}
    for result, rank in zip(results, ranks, strict=True):
        if rank in first_at and not shared:
            message = (
                f"rank {rank} is given twice ({first_at[rank].player} and {result.player}); "
                f"{system.name} needs distinct ranks here (Settings: Shared places is refuse)"
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
