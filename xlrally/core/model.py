"""A league as entered (settings, events, results): the core's data model.

Plain immutable values. The edges build a :class:`League` from whatever they read;
:func:`xlrally.core.league.compute_standings` turns it into
:class:`~xlrally.core.standings.Standings`. Nothing here knows a scoring system: the systems
(:mod:`xlrally.core.systems`) are built on these values, never the other way round.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from xlrally.core.errors import Origin
from xlrally.core.ledger import LedgerEntry, Withholding
from xlrally.core.prizes import Prize
from xlrally.core.rules import FormulaRule, KnockoutRule, TeamRule

MAX_NAME_LENGTH = 255
"""Longer player or event names are refused: they are pasted data, not names."""


DATE_FORMATS = ("yyyy-mm-dd", "dd/mm/yyyy", "mm/dd/yyyy", "dd.mm.yyyy", "d mmm yyyy")
"""The date formats a league may choose (``Date format`` setting); the first is the default."""
SHARED_PLACES = ("average", "better", "refuse")
"""The choices for :attr:`Settings.shared_places`."""
BELOW_MINIMUM = ("ranked after", "unranked")
"""The choices for :attr:`Settings.below_minimum`."""
COMMA_NAMES = ("as written", "surname first")
"""The choices for :attr:`Settings.comma_names`."""


DEFAULT_EVENTS_CAP = 9
"""The rally's events held are taken as at most 9 (seed ``000_01be6e86aadc4c8d``: "a maximum
of 9"; :func:`xlrally.core.systems.rally.events_counted`)."""


@dataclass(frozen=True)
class PointStructure:
    """The league's point structure (the Points sheet and its settings; see
    :mod:`xlrally.core.systems.poker`).

    ``points`` and ``bonus`` are indexed by rank (``points[0]`` is rank 1). ``player_count_to_rank``
    None means every rank gets the player-count points (when the factor is not 0).
    """

    points: tuple[float, ...] = ()
    bonus: tuple[float, ...] = ()
    participating: float = 0
    multiplier: float = 1
    player_count_factor: float = 0
    player_count_to_rank: int | None = None
    shares: tuple[float, ...] = ()
    """The Points sheet's Share by rank (0.25 for 25%): the formula system's ``share``."""


@dataclass(frozen=True)
class Settings:
    """How a league is scored. ``best_x`` None: all events count (rally: the seed's formula)."""

    system: str
    league: str = ""
    season: str = ""
    best_x: int | None = None
    events_cap: int = DEFAULT_EVENTS_CAP
    structure: PointStructure = field(default_factory=PointStructure)
    tie_breaks: tuple[str, ...] = ()
    date_format: str = "yyyy-mm-dd"
    """How dates are shown to people (one of DATE_FORMATS); JSON keeps ISO dates."""
    shared_places: str = "average"
    """How players who share a place (a chop: ranks 1, 2, 2, 4) score in a poker league:
    ``average`` of the places they share, the ``better`` place's points, or ``refuse``."""
    min_events: int = 0
    """Events a player must have played to qualify (for prizes, a final); 0: no minimum."""
    below_minimum: str = "ranked after"
    """Players short of :attr:`min_events` are listed ``ranked after`` the qualified, or
    ``unranked`` (listed after them without a rank)."""
    prizes: tuple[Prize, ...] = ()
    """What the final places pay (the Prizes sheet); none: no prize money."""
    pot: float = 0
    """A fixed pot (added to :attr:`pot_share` of the money collected)."""
    pot_share: float = 0
    """The share of the money the events took (buy-ins and re-buys) kept for the pot: 0.2."""
    currency_unit: float = 0.01
    """Prizes are rounded down to this (1 for whole pounds or dollars)."""
    formula: FormulaRule = field(default_factory=FormulaRule)
    """The formula system's rule (:mod:`xlrally.core.systems.formula`)."""
    knockouts: KnockoutRule = field(default_factory=KnockoutRule)
    """Knockout points (:mod:`xlrally.core.knockouts`); none by default."""
    teams: TeamRule = field(default_factory=TeamRule)
    """The team table (:mod:`xlrally.core.teams`); none by default."""
    season_fee: float = 0
    """What each player owes for the season, beside their events' buy-ins (the money section,
    :mod:`xlrally.core.ledger`)."""
    withholding: Withholding | None = None
    """What the league keeps of each scored event's takings (:mod:`xlrally.core.ledger`)."""
    what_it_takes: bool = False
    """Work out what the remaining events can change (:mod:`xlrally.core.outlook`)."""
    events_left: int | None = None
    """How many more events will be held (None: the events listed and not scored yet)."""
    prize_ties: str = "tie-break"
    """How players level on total share the prizes of the places they cover: by the
    ``tie-break`` order, ``equal`` shares, or ``hort`` (:mod:`xlrally.core.prizes`)."""
    comma_names: str = "as written"
    """A name with a comma (``Grant, Oliver``): ``as written`` (another player, warned about
    when it looks like one), or ``surname first`` (Oliver Grant)."""
    prizes_per_player: str = "all"
    """``all`` prizes a player wins, or ``one``: the largest (:mod:`xlrally.core.awards`)."""


@dataclass(frozen=True)
class Event:
    """One event of the season. ``players`` is the field size when not every player is listed."""

    name: str
    date: dt.date | None = None
    rounds: object = None
    buy_in: object = None
    world_championship: bool = False
    players: object = None
    pending: bool = False
    origin: Origin | None = None
    season: str = ""
    """The season it belongs to ('' when the workbook does not name seasons)."""
    weight: object = None
    """Points systems: every score of the event is multiplied by it (a double-points final:
    2); None is 1."""
    value: object = None
    """Dip Pouch: the tournament value to use instead of the computed one."""


RESULT_NUMBERS = ("points", "games", "byes", "rank", "buy-in", "total", "knockouts", "re-buys")
"""The fields of a :class:`Result` that hold numbers, in the order of its fields (a field's
name as the workbook's columns say it: ``buy-in`` is :attr:`Result.buy_in`)."""


class Result(NamedTuple):
    """One player's result in one event; which fields matter depends on the system.

    A named tuple rather than a frozen dataclass: a big league has 200,000 of them, and a
    named tuple is four times cheaper to create. It is just as immutable.
    """

    event: str
    player: str
    points: object = None
    games: object = None
    byes: object = None
    rank: object = None
    buy_in: object = None
    total: object = None
    knockouts: object = None
    """Players this player knocked out (poker; :mod:`xlrally.core.knockouts`)."""
    re_buys: object = None
    """Re-buys bought (the formula system's ``re-buys``)."""
    knocked_out_by: str | None = None
    """Who knocked this player out, as entered (the core resolves it to that player's key)."""
    origin: Origin | None = None


@dataclass(frozen=True)
class League:
    """Everything entered for a league. ``aliases`` maps another spelling to a player's name;
    ``players`` are the names listed in the Players sheet: players known to be distinct, so
    two of them are never reported as a likely typo of each other."""

    settings: Settings
    events: tuple[Event, ...]
    results: tuple[Result, ...]
    aliases: Mapping[str, str] = field(default_factory=dict)
    players: tuple[str, ...] = ()
    countries: Mapping[str, str] = field(default_factory=dict)
    """A player's country, by the spelling of the name it was given with (Dip Pouch lists show
    it); the last one given counts."""
    sections: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The sections a player is in (grading bands, juniors, divisions), by the spelling of the
    name they were given with (the Players sheet's Section column)."""
    teams: Mapping[str, str] = field(default_factory=dict)
    """A player's team or club, by the spelling of the name it was given with (the Players
    sheet's Team column; :mod:`xlrally.core.teams`)."""
    notes: tuple[str, ...] = ()
    """Warnings the edge found while reading (a gap in the Points sheet, a sheet that looks
    like results but is named after no event); shown with the standings' own."""
    ledger: tuple[LedgerEntry, ...] | None = None
    """The treasurer's ledger (the Ledger sheet); None: the workbook has none."""


class Status(str, Enum):
    """What became of an event: the words are shown to users and written to JSON as they are."""

    RANKED = "ranked"
    """Scored."""
    PENDING = "pending"
    """Marked pending in the Events sheet."""
    NOT_RANKED = "not ranked"
    """Results without ranks yet (ranked systems)."""
    NO_RESULTS = "no results"
    """Nothing entered yet."""
    LATER = "later"
    """Dated after the as-of date."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class EventStatus:
    """An event as the standings see it."""

    name: str
    date: dt.date | None
    status: Status

    @property
    def held(self) -> bool:
        """True if the event was scored."""
        return self.status is Status.RANKED
