"""Prize money: the season's pot and what each final place pays (issues 16 and 32).

The pot is a fixed amount, a share of the money the events took (buy-ins and re-buys), or
both added. Each prize is a fixed amount or a share of the pot, for a place of the league's
table or of a section's. Players short of the qualifying minimum are skipped: the places are
counted among the qualified. Amounts are rounded down to the currency unit (default 0.01);
what rounding leaves over stays in the pot, and is said.

    pot       = fixed + share × collected
    prize(p)  = amount(p), or share(p) × pot
    held      = pot − paid (in every table: shares are of the one pot)

Players level on total (k of them, at places p .. p + k − 1) share the prizes of the places
they cover, as the league's ``Prize ties`` says (:data:`PRIZE_TIES`):

* ``tie-break`` (the default): each place's prize goes to the player the standings put there
  (the tie-break chain's order); players it leaves level, sharing a rank, split the prizes of
  the places they cover equally. Without a tie-break chain this is ``equal``.
* ``equal``: every player level on total gets (prize(p) + … + prize(p + k − 1)) / k, whatever
  the tie-break says (the congress rule: US Chess rule 32B, the ECF's "prizes shared").
* ``hort`` (the Hort system, Vlastimil Hort's): half of the places' money is shared equally,
  half goes by the tie-break order: the player placed at p + i gets
  (prize(p) + … + prize(p + k − 1)) / k / 2 + prize(p + i) / 2. Tied 1st-2nd with prizes 100
  and 80: 45 + 50 = 95 and 45 + 40 = 85 (de.wikipedia.org, "Hort-System").

A pot's prizes may not exceed it (:func:`pot_problems`): the shares at most 100%, and with a
fixed pot the amounts at most the pot. ``Prizes per player`` (:data:`PRIZES_PER_PLAYER`) is
``all`` (every prize won, the default) or ``one``: each player takes the largest prize won
(:mod:`xlrally.core.awards` has the rule) and the next eligible player moves up.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from xlrally.core.errors import Origin, ScoringError
from xlrally.core.names import norm
from xlrally.core.numbers import MAX_AMOUNT, ordinal, show
from xlrally.core.ranking import Standing

PRIZE_TIES = ("tie-break", "equal", "hort")
"""How players level on total share the prizes of the places they cover (``Prize ties``);
the first is the default."""
PRIZES_PER_PLAYER = ("all", "one")
"""``all``: a player collects every prize won (the league's and a section's); ``one``: the
largest only (``Prizes per player``); the first is the default."""
MAX_PRIZE = MAX_AMOUNT
"""No prize, pot or buy-in is larger: a bigger number is a typing slip (and 1e308 would
overflow the sums)."""


@dataclass(frozen=True)
class Prize:
    """What one place pays: a fixed ``amount`` or a ``share`` of the pot (0.5 is half)."""

    place: int
    amount: float | None = None
    share: float | None = None
    section: str = ""
    """The section whose table it is for ('' the league's)."""
    origin: Origin | None = None
    """Where it was entered (the Prizes sheet's row), for a problem to name its cell."""


@dataclass(frozen=True)
class Award:
    """A player's prize, with the working: ``2nd-3rd shared by 2: (30 + 20) / 2 = 25``."""

    player: str
    amount: float
    explain: str
    place: int = 0
    """The first place whose prize it is (or shares)."""


@dataclass(frozen=True)
class Payout:
    """The prizes paid in one table (the league's, or a section's)."""

    section: str
    awards: tuple[Award, ...]
    paid: float
    left_over: float
    """What rounding to the currency unit left unpaid."""


def pot_of(fixed: float, share: float, collected: float) -> float:
    """The pot: a fixed amount plus a share of the money collected.

    >>> pot_of(100, 0.5, 480)  # 100 + 50% of 480
    340.0
    """
    return fixed + share * collected


def amount_of(prize: Prize, pot: float) -> float:
    """What a prize pays: its amount, or its share of the pot."""
    return prize.amount if prize.amount is not None else (prize.share or 0) * pot


def rounded_down(value: float, unit: float) -> float:
    """``value`` rounded down to the currency ``unit`` (a hair of float error forgiven)."""
    if not unit > 0:
        raise ScoringError(f"unit must be more than 0, not {show(unit)}", "unit")
    return round(math.floor(value / unit + 1e-9) * unit, 10)


def tied_share(amounts: Sequence[float], first: int, level: int, ties: str) -> float:
    """What each of ``level`` players gets, placed by the tie-break at positions ``first`` ..
    ``first + level − 1`` (1 is the first) of a group level on total whose places pay
    ``amounts`` (one per player of the group), before rounding.

    >>> tied_share([100, 80], 1, 1, "hort"), tied_share([100, 80], 2, 1, "hort")
    (95.0, 85.0)
    >>> tied_share([100, 80], 2, 1, "equal"), tied_share([100, 80], 2, 1, "tie-break")
    (90.0, 80.0)
    """
    equal = sum(amounts) / len(amounts)
    own = sum(amounts[first - 1 : first - 1 + level]) / level
    if ties == "equal":
        return equal
    if ties == "tie-break":
        return own
    if ties == "hort":
        return equal / 2 + own / 2
    raise ScoringError(f"ties must be {', '.join(PRIZE_TIES)}, not {ties!r}", "ties")


def prize_split(
    prizes: Sequence[float],
    first: int,
    sharing: int,
    unit: float = 0.01,
    ties: str = "equal",
    order: int = 1,
) -> float:
    """What the player at position ``order`` (by the tie-break) of ``sharing`` players level
    at place ``first`` gets: the prizes of places ``first`` .. ``first + sharing − 1``
    (``prizes[0]`` is 1st) split as ``ties`` says (:func:`tied_share`), rounded down to
    ``unit``.

    >>> prize_split([50, 30, 20.01], 2, 2), prize_split([50, 30, 20], 3, 2)
    (25.0, 10.0)
    >>> prize_split([100, 80], 1, 2, ties="hort", order=2)
    85.0
    """
    if not 1 <= order <= sharing:
        raise ScoringError(f"order must be at most sharing ({sharing}), not {order}", "order")
    amounts = [*prizes[first - 1 : first - 1 + sharing]]
    amounts += [0.0] * (sharing - len(amounts))
    return rounded_down(tied_share(amounts, order, 1, ties), unit)


def pay(
    rows: Sequence[Standing],
    prizes: Sequence[Prize],
    pot: float,
    unit: float = 0.01,
    section: str = "",
    ties: str = "tie-break",
    without: Collection[str] = (),
) -> Payout:
    """Pay ``prizes`` (one table's) to the qualified ``rows``, in their order; players level
    on total share as ``ties`` says. ``without``: players who take a prize elsewhere (one
    prize each), left out of this table's places.

    >>> rows = [Standing(1, False, "Ann", 9, ()), Standing(2, True, "Bea", 7, ()),
    ...         Standing(2, True, "Cy", 7, ()), Standing(4, False, "Dan", 1, ())]
    >>> out = pay(rows, [Prize(1, 50), Prize(2, 30), Prize(3, 20)], pot=100)
    >>> [(a.player, a.amount, a.explain) for a in out.awards]  # doctest: +NORMALIZE_WHITESPACE
    [('Ann', 50.0, '1st: 50'), ('Bea', 25.0, '2nd-3rd shared by 2: (30 + 20) / 2 = 25'),
     ('Cy', 25.0, '2nd-3rd shared by 2: (30 + 20) / 2 = 25')]
    """
    by_place = {p.place: amount_of(p, pot) for p in prizes}
    last = max(by_place, default=0)
    qualified = [row for row in rows if row.needs == 0]  # the unranked are all short
    awards: list[Award] = []
    left_over = 0.0
    place = 1
    index = 0
    passed: list[str] = []  # players above, who take a prize elsewhere
    while index < len(qualified) and place <= last:
        if qualified[index].player in without:
            passed.append(qualified[index].player)
            index += 1
            continue
        group = [qualified[index]]
        index += 1
        while index < len(qualified) and _level(qualified[index], group[0]):
            if qualified[index].player in without:
                passed.append(qualified[index].player)
            else:
                group.append(qualified[index])
            index += 1
        amounts = [by_place.get(p, 0.0) for p in range(place, place + len(group))]
        if sum(amounts) > 0:
            shares = _shares(group, place, amounts, ties, unit)
            left_over += sum(amounts) - sum(amount for _, amount, _ in shares)
            note = f" (one prize each: {_names(passed)} {_take(passed)})" if passed else ""
            awards.extend(
                Award(row.player, amount, working + note, place) for row, amount, working in shares
            )
        place += len(group)
    paid = sum(a.amount for a in awards)
    return Payout(section, tuple(awards), paid, round(left_over, 10))


def _level(row: Standing, first: Standing) -> bool:
    """Whether two rows are level on total (compared as the ranking compares them)."""
    return round(row.total, 9) == round(first.total, 9)


def _shares(
    group: list[Standing], place: int, amounts: list[float], ties: str, unit: float
) -> list[tuple[Standing, float, str]]:
    """Each player of a group level on total (``group``, at ``place``), their prize and its
    working."""
    if len(group) == 1:
        return [(group[0], rounded_down(amounts[0], unit), f"{ordinal(place)}: {show(amounts[0])}")]
    span = f"{ordinal(place)}-{ordinal(place + len(group) - 1)}"
    # the prizes the group covers; places past the last prize add nothing, and a tie of
    # thousands of players would list thousands of "+ 0"
    listed = " + ".join(show(a) for a in amounts if a)
    shares: list[tuple[Standing, float, str]] = []
    start = 0
    for level in _ranks(group) if ties != "equal" else [len(group)]:
        own = amounts[start : start + level]
        exact = tied_share(amounts, start + 1, level, ties)
        if exact <= 0:  # places past the last prize, by the tie-break
            start += level
            continue
        each = rounded_down(exact, unit)
        shared = f"{ordinal(place + start)}-{ordinal(place + start + level - 1)}"
        if ties == "hort":
            equal = sum(amounts) / len(group) / 2
            part = sum(own) / level / 2
            mine = (
                f"{show(own[0])} / 2"
                if level == 1
                else f"({' + '.join(show(a) for a in own)}) / {level} / 2"
            )
            working = (
                f"{span} level on {show(group[0].total)}, Hort: ({listed}) / {len(group)} / 2 "
                f"+ {mine} = {show(equal)} + {show(part)} = {show(each)}"
            )
        elif level == 1:
            working = f"{ordinal(place + start)}: {show(own[0])}"
        else:
            parts = " + ".join(show(a) for a in own if a)
            working = f"{shared} shared by {level}: ({parts or 0}) / {level} = {show(each)}"
        left = (sum(own) if ties == "tie-break" else sum(amounts) * level / len(group)) - (
            each * level
        )
        if ties != "hort" and left > 1e-9:
            working += f" ({show(left)} left over)"
        shares.extend((row, each, working) for row in group[start : start + level])
        start += level
    return shares


def _ranks(group: list[Standing]) -> list[int]:
    """The sizes of the runs of a shared rank down a group (the tie-break's order)."""
    sizes: list[int] = []
    for n, row in enumerate(group):
        if n and row.rank == group[n - 1].rank:
            sizes[-1] += 1
        else:
            sizes.append(1)
    return sizes


def _names(players: Sequence[str]) -> str:
    shown = list(players[:3]) + ([f"{len(players) - 3} more"] if len(players) > 3 else [])
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def _take(players: Sequence[str]) -> str:
    return "takes another" if len(players) == 1 else "take others"


def listed_pot(prizes: Sequence[Prize]) -> float:
    """The pot of a league that gives none (no ``Pot``, no ``Pot share``): the fixed prizes
    listed, paid from the club's funds."""
    return sum(p.amount for p in prizes if p.amount is not None and 0 <= p.amount <= MAX_PRIZE)


def pot_problems(
    prizes: Sequence[Prize],
    pot: float,
    growing: bool,
    fail: Callable[[str, Prize, str], None],
) -> None:
    """Report what is wrong with the prizes of a pot: a negative or absurd amount, shares over
    the whole pot, and, when the pot is fixed (a ``pot`` that is not ``growing`` with the
    events: no ``Pot share`` of the money taken, no withholding into it), amounts over it; a
    share of a pot that is not given (no ``Pot``, nothing growing: the prizes listed are the
    pot). Each at the prize at fault (``fail(message, prize, field)``).

    >>> found = []
    >>> pot_problems([Prize(1, 60), Prize(2, 50)], 100, False, lambda m, p, f: found.append(m))
    >>> found
    ['the prizes add up to 110, more than the pot (100): lower them, or raise the Pot in Settings']
    """
    fixed_pot = bool(pot) and not growing
    shares = 0.0
    total = 0.0
    share_over = amount_over = False
    for prize in prizes:
        if prize.amount is not None:
            if prize.amount < 0:
                fail(f"amount must not be negative ({show(prize.amount)})", prize, "amount")
                continue
            if prize.amount > MAX_PRIZE:
                fail(
                    f"amount must be at most {MAX_PRIZE:,.0f}, not {prize.amount:g}",
                    prize,
                    "amount",
                )
                continue
        if prize.share is not None and not pot and not growing:
            fail(
                "a share of the pot, but the league has no pot: give the prize an Amount, or set "
                "Pot or Pot share in Settings",
                prize,
                "share",
            )
            continue
        shares += prize.share or 0
        total += amount_of(prize, pot)
        if shares > 1 + 1e-9 and not share_over:
            share_over = True
            fail(
                f"the prizes' shares add up to {show(sum(p.share or 0 for p in prizes) * 100)}%, "
                "more than the whole pot: lower them to 100% at most",
                prize,
                "share",
            )
        elif fixed_pot and not share_over and total > pot + 1e-9 and not amount_over:
            amount_over = True
            whole = sum(amount_of(p, pot) for p in prizes if (p.amount or 0) >= 0)
            fail(
                f"the prizes add up to {show(whole)}, more than the pot ({show(pot)}): lower "
                "them, or raise the Pot in Settings",
                prize,
                "amount" if prize.amount is not None else "share",
            )


def growing_pot_note(prizes: Sequence[Prize], pot: float) -> str | None:
    """A warning when fixed prizes are more than a pot that is still growing (a share of the
    money each event takes): not yet an error, said so the treasurer knows."""
    total = sum(amount_of(p, pot) for p in prizes)
    if total <= pot + 1e-9:
        return None
    return (
        f"the prizes add up to {show(total)}, more than the pot so far ({show(pot)}): "
        f"{show(total - pot)} more must come in before they can all be paid"
    )


def unfilled_sections(prizes: Sequence[Prize], named: Collection[str]) -> list[str]:
    """Warnings for prizes of a section no player is in (``named``: the sections' names as
    :func:`~xlrally.core.names.norm` compares them): its prizes are held. Said once per
    section, at its first prize's cell."""
    notes: dict[str, str] = {}
    for prize in prizes:
        key = norm(prize.section)
        if not key or key in named or key in notes:
            continue
        where = f"{prize.origin.where('section')}: " if prize.origin is not None else ""
        notes[key] = (
            f"{where}no player is in the section {prize.section!r} (the Players sheet's Section "
            "column), so its prizes are held"
        )
    return list(notes.values())
