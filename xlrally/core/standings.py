"""A league's standings: what :func:`~xlrally.core.league.compute_standings` gives, with
everything every output needs to show the working.

A plain immutable value, like the league it comes from (:mod:`xlrally.core.model`); unlike the
league it knows its scoring system (:attr:`Standings.scoring`, from the registry).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field

from xlrally.core.ledger import Money
from xlrally.core.model import EventStatus, Settings
from xlrally.core.outlook import Outlook
from xlrally.core.prizes import Payout
from xlrally.core.ranking import RatingLine, Standing
from xlrally.core.systems import SYSTEMS, System
from xlrally.core.teams import TeamStanding


@dataclass(frozen=True)
class Standings:
    """The standings of a league, with everything needed to show the working."""

    settings: Settings
    events: tuple[EventStatus, ...]
    rows: tuple[Standing, ...]
    counted_per_player: int | None
    rule: str
    warnings: tuple[str, ...] = ()
    history: Mapping[str, tuple[RatingLine, ...]] = field(default_factory=dict)
    """A rated system's history of each player's rating (by the name shown), event by event."""
    as_of: dt.date | None = None
    countries: Mapping[str, str] = field(default_factory=dict)
    """Each listed player's country (by the name shown), where the results give one."""
    sections: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Each listed player's sections (by the name shown), where the Players sheet gives any."""
    section: str | None = None
    """The section these standings are of (:func:`~xlrally.core.sections.of_section`)."""
    payouts: tuple[Payout, ...] = ()
    """The prizes paid, the league's table first, then each section's that has prizes."""
    collected: float = 0
    """The money the scored events took (buy-ins and re-buys), when the pot is a share of it."""
    pot: float = 0
    """The season's pot (:func:`~xlrally.core.prizes.pot_of`, and what was withheld for it)."""
    teams: tuple[TeamStanding, ...] = ()
    """The team table (:mod:`xlrally.core.teams`), when the league has one."""
    money: Money | None = None
    """The league's money (the ledger, fees, withholding), when it keeps any
    (:mod:`xlrally.core.money`)."""
    outlook: Outlook | None = None
    """What the remaining events can change, when the league asks (:mod:`xlrally.core.outlook`)."""

    @property
    def paid(self) -> float:
        """The prize money paid out, in every table."""
        return sum(payout.paid for payout in self.payouts)

    @property
    def pot_held(self) -> float:
        """The pot not paid: places nobody qualified for, and what rounding left over."""
        return self.pot - self.paid

    @property
    def system(self) -> str:
        """The system key, e.g. ``"rally"``."""
        return self.settings.system

    @property
    def scoring(self) -> System:
        """The scoring system, from the registry."""
        return SYSTEMS[self.settings.system]

    @property
    def held(self) -> tuple[str, ...]:
        """Names of the events that were scored, in order."""
        return tuple(e.name for e in self.events if e.held)
