"""The Settings sheet: every setting there is (:data:`SETTINGS`, what the reader reads and a
new workbook offers), the system it names, and its values read as numbers, choices and texts,
a bad value a problem at its cell.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xlrally.core.errors import XlrallyError
from xlrally.core.numbers import MAX_AMOUNT, grouped, show
from xlrally.core.ranking import parse_tie_breaks
from xlrally.core.systems import System, known, lookup
from xlrally.formats.cells import Value, blank, norm, quote_sheet, short, text_of, to_number
from xlrally.formats.workbook.tables import Book, CellOrigin, Problems


@dataclass(frozen=True)
class Setting:
    """A setting of the Settings sheet (column A its name, column B its value): what the
    reader reads and a new workbook offers, from this one list."""

    name: str
    help: str
    """What a new workbook says it does (``{systems}``: the registry's systems)."""
    common: bool = False
    """Every league may use it; otherwise a new workbook lists it only for the systems that
    name it (:attr:`~xlrally.core.systems.base.System.settings`: a chess treasurer should not
    see poker settings). Any setting typed in is read whatever the system."""
    money: bool = False
    """A treasurer's setting (docs/workbook-format.md, "Ledger"): a new workbook lists it
    where prize money is (a system that names ``Pot``)."""


SETTINGS: tuple[Setting, ...] = (
    Setting("System", "{systems}", common=True),
    Setting("League", "shown above the standings", common=True),
    Setting("Season", "shown above the standings", common=True),
    Setting(
        "Best X", "count only each player's best X events (blank: all; rally: the seed's rule)"
    ),
    Setting("Events cap", "rally: events held are capped at this number (default 9)"),
    Setting("Participating", "points every player who attended gets"),
    Setting("Multiplier", "reverse order: points per place (default 1)"),
    Setting("Player count factor", "absolute: players × factor for ranks up to the next setting"),
    Setting(
        "Player count to rank", "absolute: last rank that gets player-count points (blank: all)"
    ),
    Setting(
        "Formula",
        "formula system: pokerstars, school, depth decay, percentage, or your own "
        "expression of players, place, buy-in, re-buys, knockouts, pot",
    ),
    Setting(
        "Formula cut", "formula system: places that score, 15% or 10 or none (blank: the preset's)"
    ),
    Setting("Below cut", "formula system: points for a place past the cut (blank: the preset's)"),
    Setting(
        "Tie break",
        "countback, most recent, more events, best score (comma-separated)",
        common=True,
    ),
    Setting(
        "Date format",
        "how dates are shown: yyyy-mm-dd, dd/mm/yyyy, mm/dd/yyyy, dd.mm.yyyy or d mmm yyyy",
        common=True,
    ),
    Setting(
        "Shared places",
        "poker: tied finishers (a chop) score the average of the places, the better place, or "
        "refuse (default average)",
    ),
    Setting(
        "Knockout points",
        "poker: points for each player knocked out (Results: Knockouts, or Knocked out by)",
    ),
    Setting("Bounty points", "poker: more points for knocking out a player with a bounty"),
    Setting(
        "Bounties", "poker: who carries a bounty: leader, last winner, or names (default leader)"
    ),
    Setting(
        "Knockouts weighted",
        "poker: an event's Weight multiplies knockout points too (default no)",
    ),
    Setting(
        "Minimum events",
        "events a player must play to qualify (blank: no minimum)",
        common=True,
    ),
    Setting(
        "Below minimum",
        "players short of it: ranked after (the qualified) or unranked",
        common=True,
    ),
    Setting(
        "Team best N",
        "a team table: each team's best N count (Players: Team; blank: none)",
        common=True,
    ),
    Setting(
        "Team scores",
        "how a team scores: players (its best players' totals) or each event",
        common=True,
    ),
    Setting("Pot", "prize money: a fixed pot (the Prizes sheet says what each place pays)"),
    Setting(
        "Pot share", "prize money: the share of buy-ins and re-buys kept for the pot, e.g. 20%"
    ),
    Setting("Currency unit", "prizes are rounded down to this (default 0.01)"),
    Setting(
        "Season fee",
        "what each player owes for the season, beside their buy-ins (the Ledger)",
        money=True,
    ),
    Setting("Withhold", "kept of each event's buy-ins and re-buys, e.g. 6.5%", money=True),
    Setting(
        "Withhold rounding",
        "the share kept is rounded to the nearest multiple of this, e.g. 5",
        money=True,
    ),
    Setting("Withhold cap", "the share kept is at most this per event (blank: no cap)", money=True),
    Setting("Withhold per head", "kept for each player in each event, e.g. 3", money=True),
    Setting(
        "Withheld for", "pot (the prizes are shares of it) or league (default pot)", money=True
    ),
    Setting(
        "What it takes",
        "yes: what the events to come can change for each player",
        common=True,
    ),
    Setting(
        "Events left",
        "how many events are still to come (blank: the Events sheet's unscored)",
        common=True,
    ),
    Setting(
        "Prize ties",
        "players level on total share their places' prizes: tie-break (the standings' order; "
        "default), equal, or Hort (half shared, half by the tie-break)",
        money=True,
    ),
    Setting(
        "Prizes per player",
        "all (default) or one: each player takes the largest prize won",
        money=True,
    ),
    Setting(
        "Comma names",
        "a name with a comma (Grant, Oliver): as written (default; warned when it looks like a "
        "player's) or surname first (Oliver Grant)",
        common=True,
    ),
    Setting(
        "Requested byes",
        "rally, TRF import: a bye asked for (H, F) is a bye (out of the divisor) or an "
        "absence (in it); default bye",
    ),
    Setting(
        "Forfeit wins",
        "rally, TRF import: a forfeit win (+) is a bye (no game played) or a game won; default bye",
    ),
    Setting(
        "Lichess H",
        "rally, TRF import from Lichess: its H (a round missed by joining late) is a late "
        "entry (in the divisor) or a bye; default late entry",
    ),
)
"""Every setting, in the order a new workbook lists them (docs/workbook-format.md)."""

SETTINGS_KEYS: dict[str, str] = {norm(setting.name): setting.name for setting in SETTINGS}
"""Each setting's name by its key (:func:`~xlrally.core.names.norm`)."""


def offered(system: System) -> list[Setting]:
    """The settings a new workbook of ``system`` lists: every league's, its own, and the
    treasurer's where it has prize money."""
    money = "Pot" in system.settings
    return [s for s in SETTINGS if s.common or s.name in system.settings or (s.money and money)]


def read_settings(book: Book) -> tuple[str, dict[str, tuple[Value, CellOrigin]]]:
    """The system key and the Settings sheet's other values with their cells."""
    sheet = book.need("Settings")
    found: dict[str, tuple[Value, CellOrigin]] = {}
    for number, row in enumerate(book.rows(sheet), start=1):
        if not row or blank(row[0]):
            continue
        key = norm(row[0])
        if key in SETTINGS_KEYS and key not in found:
            value = row[1] if len(row) > 1 and not blank(row[1]) else None
            found[key] = (value, CellOrigin(sheet, number, {"setting": 0, "value": 1}))
    if "system" not in found or found["system"][0] is None:
        raise XlrallyError(
            f"{quote_sheet(sheet)}: no System setting (column A 'System', column B one of "
            f"{known()})"
        )
    system_value, origin = found["system"]
    system = lookup(str(system_value))
    if system is None:
        raise XlrallyError(
            f"{origin.where('value')}: unknown system {short(str(system_value))!r}: use one of "
            f"{known()}"
        )
    return system.key, found


class SettingsReader:
    """Typed access to the Settings sheet's values, recording bad cells as problems."""

    def __init__(self, found: dict[str, tuple[Value, CellOrigin]], problems: Problems) -> None:
        self.found = found
        self.problems = problems

    def _raw(self, key: str) -> tuple[Value, CellOrigin] | None:
        entry = self.found.get(key)
        return None if entry is None or entry[0] is None else entry

    def text(self, key: str) -> str:
        entry = self._raw(key)
        return "" if entry is None else text_of(entry[0])

    def choice(self, key: str, choices: Sequence[str]) -> str:
        """One of ``choices`` (any case); the first when blank."""
        entry = self._raw(key)
        if entry is None:
            return choices[0]
        chosen = " ".join(text_of(entry[0]).split()).casefold()  # dd/mm/yyyy ≠ dd.mm.yyyy
        if chosen not in choices:
            listed = ", ".join(choices[:-1]) + f" or {choices[-1]}"
            shown = short(text_of(entry[0]))
            self.problems.at(
                entry[1], "value", f"{SETTINGS_KEYS[key]} must be {listed}, not {shown!r}"
            )
            return choices[0]
        return chosen

    def number(self, key: str, convert: Callable[[Value, str], float] = to_number) -> float | None:
        """The setting as a number (None when blank); a bad one is a problem at its cell."""
        entry = self._raw(key)
        if entry is None:
            return None
        try:
            return convert(entry[0], SETTINGS_KEYS[key])
        except ValueError as error:
            self.problems.at(entry[1], "value", str(error))
            return None

    def positive(self, key: str) -> float | None:
        """The setting as a number more than 0 (None when blank or bad; a bad one is a problem
        at its cell)."""
        entry = self._raw(key)
        number = self.number(key)
        if entry is None or number is None:
            return None
        if number <= 0:
            self.problems.at(
                entry[1], "value", f"{SETTINGS_KEYS[key]} must be more than 0, not {show(number)}"
            )
            return None
        return number

    def whole(self, key: str, minimum: int = 1) -> int | None:
        entry = self._raw(key)
        number = self.number(key)
        if entry is None or number is None:
            return None
        if not float(number).is_integer() or number < minimum:
            message = f"{SETTINGS_KEYS[key]} must be a whole number of at least {minimum}"
            self.problems.at(entry[1], "value", f"{message}, not {number}")
            return None
        return int(number)

    def tie_breaks(self) -> tuple[str, ...]:
        entry = self._raw("tiebreak")
        if entry is None:
            return ()
        try:
            return parse_tie_breaks(text_of(entry[0]))
        except XlrallyError as error:
            self.problems.at(entry[1], "value", str(error))
            return ()


def or_default(value: float | None, default: float) -> float:
    return default if value is None else value


def to_amount(value: Value, what: str) -> float:
    """An amount of money: a number from 0 to :data:`~xlrally.core.numbers.MAX_AMOUNT`.

    >>> to_amount(150, "Pot")
    150.0
    >>> to_amount(1e15, "Pot")
    Traceback (most recent call last):
    ...
    ValueError: Pot must be from 0 to 1,000,000,000,000, not 1e+15
    """
    number = to_number(value, what)
    if not 0 <= number <= MAX_AMOUNT:
        raise ValueError(f"{what} must be from 0 to {grouped(MAX_AMOUNT)}, not {grouped(number)}")
    return float(number)


def to_share(value: Value, what: str) -> float:
    """A share of something as a fraction: ``50%`` text, or a number: up to 1 a fraction (a
    cell formatted as a percentage holds 0.5 for 50%), above 1 a percentage (50).

    >>> to_share("50%", "share"), to_share(0.5, "share"), to_share(50, "share")
    (0.5, 0.5, 0.5)
    """
    if isinstance(value, str) and value.strip().endswith("%"):
        number = to_number(value.strip()[:-1], what) / 100
    else:
        number = to_number(value, what)
        number = number if number <= 1 else number / 100
    if not 0 <= number <= 1:
        raise ValueError(f"{what} must be between 0% and 100%, not {value!r}")
    return float(number)
