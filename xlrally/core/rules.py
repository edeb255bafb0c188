"""The settings of three things a league may add to its scoring: a points formula (the
``formula`` system, :mod:`xlrally.core.systems.formula`), knockout points
(:mod:`xlrally.core.knockouts`) and a team table (:mod:`xlrally.core.teams`). Plain immutable
values, part of :class:`~xlrally.core.model.Settings`; the defaults change nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = [
    "BOUNTY_TARGETS",
    "NO_CUT",
    "TEAM_SCORES",
    "Cut",
    "FormulaRule",
    "KnockoutRule",
    "TeamRule",
    "cut_of",
]


@dataclass(frozen=True)
class Cut:
    """Which places of an event score by the formula: the top ``share`` of the field (0.15
    for 15%), or the top ``places``; a place past the cut scores the rule's points below it.

    The top 15% of 150 players are places 1 to 22 (22.5 rounded down: place 23 is not in the
    top 15%); the winner is always inside the cut, however small the field.

    >>> Cut(share=0.15).places_in(150), Cut(share=0.15).places_in(5), Cut(places=10).places_in(8)
    (22, 1, 8)
    """

    share: float | None = None
    places: int | None = None

    def places_in(self, players: int) -> int:
        """How many places of a field of ``players`` are inside the cut."""
        if self.places is not None:
            return min(self.places, players)
        if self.share is None:
            return players
        # 1e-9: 0.6 × 10 is 6.000000000000001 or 5.999999999999999 in floating point
        return max(1, min(players, math.floor(self.share * players + 1e-9)))

    @property
    def words(self) -> str:
        """``the top 15%`` or ``the top 10 places``."""
        if self.places is not None:
            return f"the top {self.places} place" + ("" if self.places == 1 else "s")
        share = 100 * (1.0 if self.share is None else self.share)
        return f"the top {share:g}%"


NO_CUT = Cut(share=1.0)
"""Every place scores by the formula (the ``Formula cut`` setting ``none``)."""


def cut_of(value: object) -> Cut:
    """A cut as a league writes it: ``none`` (every place scores), a share (``15%``, or a
    number below 1 as a cell formatted as a percentage holds it: 0.15), or a whole number of
    places (``10``). Raises ValueError saying what is allowed.

    >>> cut_of("15%"), cut_of(0.15) == cut_of("15%"), cut_of(10), cut_of("none") == NO_CUT
    (Cut(share=0.15, places=None), True, Cut(share=None, places=10), True)
    """
    allowed = "a share (15%), a number of places (10) or none"
    if isinstance(value, str):
        text = value.strip().casefold()
        if text in {"none", "no", "all", "no cut"}:
            return NO_CUT
        try:
            number = float(text[:-1]) / 100 if text.endswith("%") else float(text)
        except ValueError:
            raise ValueError(f"Formula cut must be {allowed}, not {value.strip()!r}") from None
        if text.endswith("%"):
            if not 0 < number <= 1:
                raise ValueError(
                    f"Formula cut must be a share above 0% and up to 100%, not {value.strip()}"
                )
            return Cut(share=number)
        value = number
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"Formula cut must be {allowed}, not {value!r}")
    if 0 < value < 1:
        return Cut(share=float(value))
    if value >= 1 and float(value).is_integer():
        return Cut(places=int(value))
    raise ValueError(f"Formula cut must be {allowed}, not {value:g}")


@dataclass(frozen=True)
class FormulaRule:
    """The ``formula`` system's rule: ``formula`` is a preset's name (``pokerstars``) or an
    expression; ``cut`` and ``below_cut`` (None: the preset's own, else no cut and 0)."""

    formula: str = ""
    cut: Cut | None = None
    below_cut: float | None = None


BOUNTY_TARGETS = ("leader", "last winner")
"""Who carries a bounty besides the players named: ``leader`` (first in the standings as they
stood before the event), ``last winner`` (the winner of the event scored before)."""


@dataclass(frozen=True)
class KnockoutRule:
    """Knockout points (a poker league's "bounty points"): ``points`` for each player knocked
    out, and ``bounty`` more for each one who carried a bounty (``bounties``: ``leader``,
    ``last winner`` or players' names; none given: the leader). ``weighted``: an event's Weight
    multiplies them too (by default it does not: the bonus does not double in a double-points
    event)."""

    points: float = 0
    bounty: float = 0
    bounties: tuple[str, ...] = ()
    weighted: bool = False
    named_keys: frozenset[str] = frozenset()
    """The player keys of the players named in ``bounties`` (the core resolves the names)."""

    @property
    def active(self) -> bool:
        """Whether knockouts score at all."""
        return bool(self.points or self.bounty)

    @property
    def targets(self) -> tuple[str, ...]:
        """The bounties as given, ``("leader",)`` when none are."""
        return self.bounties or ("leader",)


TEAM_SCORES = ("players", "each event")
"""How a team scores (``Team scores``): the sum of its best N ``players``' totals, or, in
``each event``, its best N scores there, summed over the events."""


@dataclass(frozen=True)
class TeamRule:
    """A team table (``Team best N``; None: none) and how a team scores (``Team scores``)."""

    best_n: int | None = None
    scores: str = "players"
