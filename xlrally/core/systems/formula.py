"""The formula system: points from a formula of the field and the finish, a preset's or the
league's own (the ``Formula`` setting), with a cut past which places score a fixed number.

Presets (their sources' own rules; ``Formula`` gives the name, any case)::

    pokerstars   10 × √players / √place × (1 + log10(buy-in + 0.25)), to 2 decimals,
                 the top 15% of the field only (0 past it)
    school       10 × √players / √place                         (every place)
    depth decay  players × (2 / players)^((place − 1) / max(cut − 1, 1)), rounded to whole
                 points, the top 50% along the curve; 1 point past it
    percentage   100 × players × share                          (share: the Points sheet's
                                                                 Share for the place)

* **pokerstars**: the PokerStars Tournament Leader Board (pokerstars.uk, "The PokerStars
  Tournament Ranking System"): "Points = 10 * [sqrt(n)/sqrt(k)] * [1+log(b+0.25)]", n the
  entrants, k the place, b the buy-in excluding the entry fee, log base 10; "the top 15% of
  finishers in each event will receive points". Its worked examples: 150 players, 3rd, $20
  gives 163.09; 900 players, 25th, a freeroll gives 23.88; 250 players, 10th, $10 gives
  100.54. The page says "(rounded up)": each of its examples is also the nearest hundredth,
  which xlrally gives (halves up). Re-buys are not part of b (the page says nothing of them).
* **school**: the PokerStars School league ("The League: Scores, Leaderboard and Tickets"):
  "Points = 10 * sqrt(n)/sqrt(k)", no cut.
* **depth decay**: UDisc Leagues' standings ("How do Standings work?"): "The player who comes
  in first place will receive N points ... along a decaying curve. The decaying curve starts
  at N points, and ends at 2 points. All players who finish below the depth limit will
  receive 1 participation point." UDisc publishes the curve only as a graph and one example
  (10 players, depth 60%: places 2 to 4 score 7, 5 and 4); a geometric decay from N to 2
  rounded to whole points gives exactly those (10, 7, 5, 4, 3, 2, then 1). Its default depth
  here is 50%, UDisc's first example. UDisc rounds a tie's average down; xlrally shares places
  as the league's ``Shared places`` says.
* **percentage**: Community Card Player's player points: "100 x # of players = (TTP). TTP is
  then multiplied by the percentage based on how a player finishes" (25 players, 2nd at 20%:
  2500 × 20% = 500). The percentages are the league's, in the Points sheet's Share column.

**The cut** (``Formula cut``): a share of the field (``15%``: places up to ⌊15% × players⌋,
at least the winner) or a number of places (``10``); ``none`` for no cut. Blank: the preset's.
A place past the cut scores ``Below cut`` (blank: the preset's, else 0).

**A league's own formula**: any expression of the language of
:mod:`xlrally.core.expression` over these names::

    players    the field size (the Events' Players, else the results listed)
    place      the finishing place (1 is the winner)
    buy-in     the result's Buy-in, else the event's
    re-buys    the result's Re-buys (0 when blank)
    knockouts  the players this player knocked out (:mod:`xlrally.core.knockouts`; 0 when none)
    pot        the event's prize pool: each result's Total, else its buy-in × (1 + re-buys),
               and the event's buy-in for each player not listed
    table      the Points sheet's Points for the place (0 past the table)
    share      the Points sheet's Share for the place (0 past the table)
    cut        how many places are inside the cut

>>> round(pokerstars_points(players=150, place=3, buy_in=20), 2)   # the source's example 1
163.09
>>> formula_points("school", players=16, place=4)                  # 10 × 4 / 2
20.0
>>> [formula_points("depth decay", 10, place, cut=Cut(share=0.6)) for place in range(1, 8)]
[10.0, 7.0, 5.0, 4.0, 3.0, 2.0, 1.0]
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from xlrally.core.adjustments import Scorer
from xlrally.core.checks import bad_number
from xlrally.core.errors import LeagueProblems, Problem, ScoringError
from xlrally.core.expression import Formula, FormulaError, parse
from xlrally.core.model import Event, PointStructure, Result, Settings
from xlrally.core.names import norm
from xlrally.core.numbers import non_negative, show, whole
from xlrally.core.ranking import Score
from xlrally.core.rules import NO_CUT, Cut, FormulaRule
from xlrally.core.systems.base import Example, Fail, PointsSystem, PointsTally, Tally
from xlrally.core.systems.poker import POKER_SETTINGS, check_rank

__all__ = [
    "FORMULA",
    "NAMES",
    "PRESETS",
    "FormulaScore",
    "FormulaSystem",
    "Plan",
    "Preset",
    "event_pot",
    "formula_points",
    "plan",
    "plan_points",
    "pokerstars_points",
]

NAMES = ("players", "place", "buy-in", "re-buys", "knockouts", "pot", "table", "share", "cut")
"""The names a formula may use (see the module's docstring)."""
ALIASES = {"buyin": "buy-in", "buy_in": "buy-in", "rebuys": "re-buys", "re_buys": "re-buys"}
"""Other spellings of the names: ``buyin`` is ``buy-in``."""


@dataclass(frozen=True)
class Preset:
    """A published formula with its cut, the points past the cut and its rounding."""

    key: str
    expression: str
    cut: Cut = NO_CUT
    below_cut: float = 0
    places: int | None = None
    """Each score is rounded to this many decimals (None: not rounded)."""
    source: str = ""


PRESETS: dict[str, Preset] = {
    preset.key: preset
    for preset in (
        Preset(
            "pokerstars",
            "10 × sqrt(players) / sqrt(place) × (1 + log10(buy-in + 0.25))",
            Cut(share=0.15),
            places=2,
            source="PokerStars Tournament Leader Board",
        ),
        Preset("school", "10 × sqrt(players) / sqrt(place)", source="PokerStars School league"),
        Preset(
            "depth decay",
            "players × (2 / players)^((place − 1) / max(cut − 1, 1))",
            Cut(share=0.5),
            below_cut=1,
            places=0,
            source="UDisc Leagues standings",
        ),
        Preset(
            "percentage", "100 × players × share", source="Community Card Player's player points"
        ),
    )
}
"""The presets by key (``Formula`` names one; any case, spaces and punctuation ignored)."""

_BY_SPELLING = {norm(key): preset for key, preset in PRESETS.items()}


@dataclass(frozen=True)
class Plan:
    """A league's rule made ready: the formula, its cut, the points past it, its rounding."""

    formula: Formula
    cut: Cut
    below_cut: float
    places: int | None
    preset: Preset | None


def plan(rule: FormulaRule) -> Plan:
    """The rule of ``rule``'s text: a preset, else an expression. Raises
    :class:`~xlrally.core.expression.FormulaError` (naming the column) when the text is
    neither, or when it is blank."""
    return _plan(rule.formula, rule.cut, rule.below_cut)


@lru_cache(maxsize=64)
def _plan(text: str, cut: Cut | None, below_cut: float | None) -> Plan:
    if not text.strip():
        presets = ", ".join(PRESETS)
        raise FormulaError(f"Formula is missing: name a preset ({presets}) or write an expression")
    preset = _BY_SPELLING.get(norm(text))
    expression = preset.expression if preset is not None else text
    formula = parse(expression, NAMES, ALIASES)
    default_cut = preset.cut if preset is not None else NO_CUT
    default_below = preset.below_cut if preset is not None else 0
    return Plan(
        formula,
        default_cut if cut is None else cut,
        default_below if below_cut is None else below_cut,
        preset.places if preset is not None else None,
        preset,
    )


def _rounded(value: float, places: int) -> float:
    """To ``places`` decimals, halves up (163.0889 → 163.09, 3.5 → 4)."""
    scale = 10.0**places
    return math.floor(round(value * scale, 6) + 0.5) / scale


@dataclass(frozen=True)
class FormulaScore:
    """One finish scored by a formula, with the numbers put in."""

    plan: Plan
    values: Mapping[str, float]
    inside: bool
    raw: float
    points: float

    @property
    def explain(self) -> str:
        """``place 3 of 150: 10 × √150 / √3 × (1 + log10(20 + 0.25)) = 163.09``."""
        place, players = int(self.values["place"]), int(self.values["players"])
        head = f"place {place} of {players}"
        if not self.inside:
            inside = f"{self.plan.cut.words}: {int(self.values['cut'])}"
            return f"{head}: past the cut ({inside}) = {show(self.points)}"
        shown = self.plan.formula.shown(self.values)
        if self.plan.places is None or self.raw == self.points:
            return f"{head}: {shown} = {show(self.points)}"
        return f"{head}: {shown} = {show(self.raw, 4)}, rounded {show(self.points, 2)}"


def _score(plan: Plan, values: dict[str, float]) -> FormulaScore:
    players, place = int(values["players"]), int(values["place"])
    return FormulaScore(plan, values, *_outcome(plan, values, players, place))


def _outcome(
    plan: Plan, values: dict[str, float], players: int, place: int
) -> tuple[bool, float, float]:
    """Inside the cut or not, the formula's value and the points (rounded as the plan says;
    the points past the cut otherwise) of ``place`` of ``players``. ``values`` gets the cut's
    number of places."""
    inside_places = plan.cut.places_in(players)
    values["cut"] = inside_places
    if place > inside_places:
        below = float(plan.below_cut)
        return False, below, below
    raw = plan.formula.evaluate(values)
    points = raw if plan.places is None else _rounded(raw, plan.places)
    return True, raw, points


def _by_place(table: tuple[float, ...], place: int) -> float:
    return table[place - 1] if place <= len(table) else 0


def _values(
    plan: Plan,
    players: int,
    place: int,
    buy_in: object,
    rebuys: object,
    knockouts: object,
    pot: object,
    structure: PointStructure,
) -> dict[str, float]:
    """The numbers the formula uses, checked (a missing one it needs is an error naming it)."""
    used = plan.formula.names
    values: dict[str, float] = {"players": players, "place": place}
    if "buy-in" in used:
        if buy_in is None:
            raise ScoringError(
                "buy-in is missing (give it on the event or the result): the formula uses it",
                "buy-in",
            )
        values["buy-in"] = non_negative(buy_in, "buy-in")
    if "re-buys" in used:
        values["re-buys"] = 0 if rebuys is None else whole(rebuys, "re-buys")
    if "knockouts" in used:
        values["knockouts"] = 0 if knockouts is None else whole(knockouts, "knockouts")
    if "pot" in used:
        values["pot"] = 0 if pot is None else non_negative(pot, "pot")
    if "table" in used:
        values["table"] = _by_place(structure.points, place)
    if "share" in used:
        values["share"] = _by_place(structure.shares, place)
    return values


def formula_points(
    formula: str,
    players: object,
    place: object,
    buy_in: object = None,
    rebuys: object = None,
    knockouts: object = None,
    pot: object = None,
    cut: Cut | None = None,
    below_cut: float | None = None,
    structure: PointStructure | None = None,
) -> float:
    """The points of one finish by ``formula`` (a preset's name or an expression), with its
    cut (None: the preset's). The Excel functions' path.

    >>> formula_points("percentage", 25, 2, structure=PointStructure(shares=(0.25, 0.20)))
    500.0
    >>> formula_points("pokerstars", 150, 23, buy_in=20)   # past the top 15% (22 places)
    0.0
    """
    return score_formula(
        FormulaRule(formula, cut, below_cut),
        players,
        place,
        buy_in,
        rebuys,
        knockouts,
        pot,
        structure,
    ).points


def score_formula(
    rule: FormulaRule,
    players: object,
    place: object,
    buy_in: object = None,
    rebuys: object = None,
    knockouts: object = None,
    pot: object = None,
    structure: PointStructure | None = None,
) -> FormulaScore:
    """One finish scored by ``rule``, with the working (see :func:`formula_points`).

    >>> score_formula(FormulaRule("pokerstars"), 150, 3, buy_in=20).explain
    'place 3 of 150: 10 × √150 / √3 × (1 + log10(20 + 0.25)) = 163.0889, rounded 163.09'
    """
    n_place, n_players = check_rank(place, players)
    the_plan = plan(rule)
    table = structure if structure is not None else PointStructure()
    values = _values(the_plan, n_players, n_place, buy_in, rebuys, knockouts, pot, table)
    return _score(the_plan, values)


def plan_points(
    the_plan: Plan,
    players: object,
    place: object,
    buy_in: object = None,
    rebuys: object = None,
    knockouts: object = None,
    pot: object = None,
    structure: PointStructure | None = None,
) -> float:
    """The points of one finish by a plan made before (:func:`plan`), without the working:
    ``score_formula(rule, ...).points`` with the same checks and the same formula, for a
    column of finishes by one rule (the Excel function ``FORMULA_POINTS``).

    >>> plan_points(plan(FormulaRule("pokerstars")), 150, 3, buy_in=20)
    163.09
    """
    n_place, n_players = check_rank(place, players)
    table = structure if structure is not None else PointStructure()
    values = _values(the_plan, n_players, n_place, buy_in, rebuys, knockouts, pot, table)
    return _outcome(the_plan, values, n_players, n_place)[2]


def pokerstars_points(players: object, place: object, buy_in: object) -> float:
    """The PokerStars Tournament Leader Board's points: 10 × √n / √k × (1 + log10(b + 0.25))
    for the top 15% of the field, to 2 decimals; 0 past it.

    >>> pokerstars_points(900, 25, 0), pokerstars_points(250, 10, 10)  # examples 2 and 3
    (23.88, 100.54)
    """
    return formula_points("pokerstars", players, place, buy_in=buy_in)


def event_pot(event: Event, results: list[Result], field_size: int) -> float:
    """An event's prize pool: each result's Total, else its buy-in (the result's, else the
    event's) × (1 + re-buys), and the event's buy-in for each player not listed; 0 where no
    buy-in is given.

    >>> event_pot(Event("W1", buy_in=20), [Result("W1", "Ann", re_buys=1),
    ...                                    Result("W1", "Ben", total=30)], field_size=3)
    90.0
    """
    pot = 0.0
    for result in results:
        if result.total is not None:
            pot += non_negative(result.total, "total")
            continue
        buy_in = result.buy_in if result.buy_in is not None else event.buy_in
        if buy_in is not None:
            rebuys = 0 if result.re_buys is None else whole(result.re_buys, "re-buys")
            pot += non_negative(buy_in, "buy-in") * (1 + rebuys)
    if event.buy_in is not None and field_size > len(results):
        pot += non_negative(event.buy_in, "buy-in") * (field_size - len(results))
    return pot


# ---------------------------------------------------------------- the system


@dataclass(frozen=True)
class FormulaSystem(PointsSystem):
    """The formula system: each finish by the league's formula (:func:`score_formula`)."""

    def scorer(self, settings: Settings, event: Event, field_size: int) -> Scorer:
        return self._scorer(settings, event, field_size, None)

    def _scorer(
        self, settings: Settings, event: Event, field_size: int, pot: float | None
    ) -> Scorer:
        name, rule, structure = event.name, settings.formula, settings.structure
        the_plan = plan(rule)

        def score(result: Result) -> Score:
            if result.rank is None:
                raise ScoringError("rank is missing", "rank")
            n_place, n_players = check_rank(result.rank, field_size)
            buy_in = result.buy_in if result.buy_in is not None else event.buy_in
            values = _values(
                the_plan,
                n_players,
                n_place,
                buy_in,
                result.re_buys,
                result.knockouts,
                pot,
                structure,
            )
            working = _score(the_plan, values)
            return Score(name, working.points, working)

        return score

    def tally(self, settings: Settings) -> Tally:
        try:
            plan(settings.formula)
        except FormulaError as error:
            raise LeagueProblems([Problem(error.message, field="formula")]) from None
        return FormulaTally(self, settings)

    def counts_knockouts(self, settings: Settings) -> bool:
        try:
            return "knockouts" in plan(settings.formula).formula.names
        except FormulaError:
            return False

    def rule_notes(self, settings: Settings) -> tuple[str, ...]:
        """``Points: pokerstars: 10 × √players / √place × ..., to 2 decimals; ...``."""
        return (f"Points: {describe(settings.formula)}.",)

    def check_own(self, event: Event, fail: Fail) -> None:
        """The event's Buy-in, when given, must be a number of at least 0 (a freeroll's is 0)."""
        if event.buy_in is not None and (
            message := bad_number(event.buy_in, "buy-in", lambda b: b >= 0, "at least 0")
        ):
            fail(message, "buy-in")


class FormulaTally(PointsTally):
    """The formula system's tally: an event's pot is worked out from all its results."""

    def event_scorer(
        self, event: Event, keyed: list[tuple[str, Result]], field_size: int
    ) -> Scorer:
        system = self.system
        assert isinstance(system, FormulaSystem)
        pot = None
        if "pot" in plan(self.settings.formula).formula.names:
            try:
                pot = event_pot(event, [r for _, r in keyed], field_size)
            except ScoringError:
                pot = None  # each result's own bad number is reported at its cell
        return system._scorer(self.settings, event, field_size, pot)


def _d(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def _ranked(event: str, players: list[str], **fields: object) -> list[dict[str, object]]:
    return [{"event": event, "player": p, "rank": i + 1, **fields} for i, p in enumerate(players)]


FORMULA = FormulaSystem(
    "formula",
    "Field-size formula",
    ("player", "rank", "buy-in", "re-buys", "knockouts", "knocked out by"),
    ("event", "date", "buy-in", "players", "status"),
    # PokerStars' worked example: 150 players, $20, 3rd place scores 163.09; the top 15% (22
    # places) score. Two knockouts at 10 points each; Ben knocked out Ann, the leader after
    # week 1, for a bounty of 10. Two teams of two, both players counting.
    Example(
        settings=[
            ("League", "Online Leader Board"),
            ("Season", "2026"),
            ("Formula", "pokerstars"),
            ("Best X", 2),
            ("Knockout points", 10),
            ("Bounty points", 10),
            ("Bounties", "leader"),
            ("Team best N", 2),
        ],
        events=[
            {"event": "Week 1", "date": _d("2026-04-05"), "buy-in": 20, "players": 150},
            {"event": "Week 2", "date": _d("2026-04-12"), "buy-in": 10, "players": 40},
        ],
        results=[
            {"event": "Week 1", "player": "Ann", "rank": 1, "knockouts": 2},
            {"event": "Week 1", "player": "Ben", "rank": 2},
            {"event": "Week 1", "player": "Cara", "rank": 3},
            {"event": "Week 1", "player": "Dev", "rank": 23},
            {"event": "Week 2", "player": "Ben", "rank": 1, "knockouts": 1},
            {"event": "Week 2", "player": "Ann", "rank": 6, "knocked out by": "Ben"},
            {"event": "Week 2", "player": "Cara", "rank": 2},
        ],
        teams=[("Ann", "Aces"), ("Cara", "Aces"), ("Ben", "Rivers"), ("Dev", "Rivers")],
    ),
    settings=("Formula", "Formula cut", "Below cut", *POKER_SETTINGS),
)
"""The registry's entry (:mod:`xlrally.core.systems`)."""


def describe(rule: FormulaRule) -> str:
    """The rule in words, for the standings' notes: ``pokerstars: 10 × √players / √place ×
    (1 + log10(buy-in + 0.25)), to 2 decimals; the top 15% score, 0 past the cut``."""
    the_plan = plan(rule)
    head = the_plan.preset.key + ": " if the_plan.preset is not None else ""
    text = f"{head}{the_plan.formula.shown()}"
    if the_plan.places is not None:
        text += ", to whole points" if the_plan.places == 0 else f", to {the_plan.places} decimals"
    if the_plan.cut != NO_CUT:
        text += f"; {the_plan.cut.words} score, {show(the_plan.below_cut)} past the cut"
    return text
