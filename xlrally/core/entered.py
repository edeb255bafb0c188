"""What was entered, indexed: each event by its key, each result under its event and its
player (aliases resolved), with the problems of names and of results given twice; and the
warnings about names that look like one player's.

Names match as :func:`xlrally.core.players.key` says (the reader and every output agree).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from operator import itemgetter

from xlrally.core.checks import Collector, EventChecks, check_event
from xlrally.core.model import MAX_NAME_LENGTH, Event, League, Result
from xlrally.core.players import Roster, flipped, likely_duplicates, likely_typos, shown_name
from xlrally.core.players import key as _k
from xlrally.core.words import plural


def in_date_order(events: Iterable[Event]) -> list[Event]:
    """Date order; the same date or no date keeps the order given (undated events last)."""
    return sorted(events, key=lambda e: (e.date is None, e.date or dt.date.min))


def index_events(
    listed: tuple[Event, ...], system: EventChecks, problems: Collector
) -> tuple[dict[str, Event], set[str]]:
    """Events by key (the first of two with one name), and the keys of faulty events."""
    events: dict[str, Event] = {}
    faulty: set[str] = set()
    for event in listed:
        k = _k(event.name)
        if not check_event(event, system, problems):
            faulty.add(k)
        if k in events:
            message = f"event {event.name!r} is listed twice"
            problems.add(message, event=event.name, field="event", origin=event.origin)
        events.setdefault(k, event)
    return events, faulty


@dataclass
class Entered:
    """Results by event key as (player key, result), each player's name to show, and the
    roster that resolved the spellings."""

    by_event: dict[str, list[tuple[str, Result]]]
    display: dict[str, str]
    roster: Roster


def index_results(league: League, events: dict[str, Event], problems: Collector) -> Entered:
    """Resolve each result's event and player; report unknown events, bad names, duplicates."""
    roster = Roster(
        {_k(alias): name for alias, name in league.aliases.items()},
        surname_first=league.settings.comma_names == "surname first",
    )
    entered = Entered({k: [] for k in events}, {}, roster)
    spellings: dict[str, list[str]] = {}  # player key -> the spellings met, in order
    players_in: dict[str, set[str]] = {k: set() for k in events}
    resolved: dict[str, str] = {}  # spelling -> player key, worked out once per spelling
    event_keys: dict[str, str] = {}  # spelling -> event key
    for result in league.results:
        ek = event_keys.get(result.event)
        if ek is None:
            ek = event_keys[result.event] = _k(result.event)
        if ek not in events:
            problems.result(result, f"event {result.event!r} is not in the Events sheet", "event")
            continue
        name = result.player
        pk = resolved.get(name)
        if pk is None:  # a spelling not seen yet: check it once
            if not name.strip():
                problems.result(result, "player name is missing", "player")
                continue
            if len(name) > MAX_NAME_LENGTH:
                message = f"player name is {len(name)} characters long; at most {MAX_NAME_LENGTH}"
                problems.result(result, message, "player")
                continue
            pk = resolved[name] = roster.resolve(name)
            entered.display.setdefault(pk, roster.display(name))
            spellings.setdefault(pk, []).append(name)
        if pk in players_in[ek]:
            message = f"{entered.display[pk]!r} has two results in {events[ek].name!r}"
            problems.result(result, message, "player")
            continue
        players_in[ek].add(pk)
        entered.by_event[ek].append((pk, result))
    _shown_names(league, entered, spellings)
    return entered


def _shown_names(league: League, entered: Entered, spellings: dict[str, list[str]]) -> None:
    """Each player's name to show (:func:`~xlrally.core.players.shown_name`): the Players
    sheet's spelling (an alias's player is listed there), else the results' best spelling."""
    listed = {_k(name): name for name in league.players}
    for player in league.aliases.values():
        listed.setdefault(_k(player), player)
    several = [pk for pk, names in spellings.items() if len(names) > 1 or pk in listed]
    if not several:
        return
    used = Counter(map(itemgetter(1), league.results))  # results per spelling, at C speed
    roster = entered.roster
    for pk in several:
        met = [(roster.spelling(name), used[name]) for name in spellings[pk]]
        entered.display[pk] = shown_name(met, listed.get(pk))


def name_warnings(league: League, entered: Entered) -> tuple[str, ...]:
    """Names that look like one player's (never merged): spelled alike but for accents,
    punctuation or an initial, or one typing slip apart. Each names the results behind the two
    spellings and where the rarer one first appears, so a typo is found where it was made.
    Two names both listed in the Players sheet are known to be two players: no warning."""
    listed = {_k(name) for name in league.players}
    results: Counter[str] = Counter()
    first_in: dict[str, str] = {}
    # Latest event first, so that each player's earliest event is the one left in first_in
    # (dict.fromkeys and update: a pass over 200,000 results at C speed).
    for event in reversed(in_date_order(league.events)):
        keys = list(map(itemgetter(0), entered.by_event.get(_k(event.name), ())))
        results.update(keys)
        first_in.update(dict.fromkeys(keys, event.name))

    def described(name: str) -> str:
        pk = _k(name)
        count = results.get(pk, 0)
        where = f", first in {first_in[pk]}" if pk in first_in else ""
        return f"{name!r} ({plural(count, 'result')}{where})"

    names = list(entered.display.values())
    found = [(a, b, "look like the same player") for a, b in likely_duplicates(names)]
    found += [(a, b, "differ by one letter") for a, b in likely_typos(names)]
    return tuple(
        f"{described(a)} and {described(b)} {why}{_surname_first(a, b)}: if they are one "
        f"player, add an alias in the Players sheet{_or_setting(a, b)}; if two, list both "
        "names there"
        for a, b, why in found
        if not (_k(a) in listed and _k(b) in listed)
    )


def _turned(a: str, b: str) -> bool:
    """Whether one of two names is written surname first and the other not."""
    return (flipped(a) is None) != (flipped(b) is None)


def _surname_first(a: str, b: str) -> str:
    return ", written surname first" if _turned(a, b) else ""


def _or_setting(a: str, b: str) -> str:
    return ", or set Comma names to surname first in Settings" if _turned(a, b) else ""
