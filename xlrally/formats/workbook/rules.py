"""What a league adds to its system's rule, read from the workbook: the formula system's
``Formula``, ``Formula cut`` and ``Below cut`` (with the Points sheet's Points and Share by
place), knockout points (``Knockout points``, ``Bounty points``, ``Bounties``, ``Knockouts
weighted``) and the team table (``Team best N``, ``Team scores``, the Players sheet's Team).
A setting a system cannot use, or a value that cannot be read, is a problem at its cell.
"""

from __future__ import annotations

import dataclasses
import re

from xlrally.core.expression import FormulaError
from xlrally.core.model import PointStructure, Settings
from xlrally.core.numbers import show
from xlrally.core.rules import (
    TEAM_SCORES,
    Cut,
    FormulaRule,
    KnockoutRule,
    TeamRule,
    cut_of,
)
from xlrally.core.systems import SYSTEMS
from xlrally.core.systems.formula import FormulaSystem, plan
from xlrally.formats.cells import text_of, to_bool, to_number
from xlrally.formats.workbook.settings import SETTINGS_KEYS, SettingsReader, to_share
from xlrally.formats.workbook.tables import Book, CellOrigin, Problems, find_table, table_place

FORMULA_SETTINGS = ("formula", "formulacut", "belowcut")
KNOCKOUT_SETTINGS = ("knockoutpoints", "bountypoints", "bounties", "knockoutsweighted")


def with_rules(
    book: Book, system: str, setting: SettingsReader, problems: Problems, settings: Settings
) -> Settings:
    """``settings`` with the formula, knockouts and team table the workbook gives."""
    return dataclasses.replace(
        settings,
        formula=_formula(book, system, setting, problems),
        knockouts=_knockouts(system, setting, problems),
        teams=_teams(book, setting, problems),
        structure=_points_and_shares(book, system, problems, settings),
    )


def _entry(setting: SettingsReader, key: str) -> tuple[object, CellOrigin] | None:
    entry = setting.found.get(key)
    return None if entry is None or entry[0] is None else entry


def _not_for(
    system: str, keys: tuple[str, ...], setting: SettingsReader, problems: Problems, why: str
) -> bool:
    """Report each of ``keys`` given for a system that cannot use them; True if any was."""
    given = [(key, entry) for key in keys if (entry := _entry(setting, key)) is not None]
    for key, (_, origin) in given:
        name = SYSTEMS[system].name
        problems.at(origin, "value", f"{SETTINGS_KEYS[key]} is {why}: the {name} do not use it")
    return bool(given)


def _formula(book: Book, system: str, setting: SettingsReader, problems: Problems) -> FormulaRule:
    if not isinstance(SYSTEMS[system], FormulaSystem):
        _not_for(system, FORMULA_SETTINGS, setting, problems, "the formula system's setting")
        return FormulaRule()
    cut: Cut | None = None
    if (entry := _entry(setting, "formulacut")) is not None:
        try:
            cut = cut_of(entry[0])
        except ValueError as error:
            problems.at(entry[1], "value", str(error))
    below = setting.number("belowcut")
    rule = FormulaRule(setting.text("formula"), cut, below)
    entry = setting.found.get("formula")
    try:
        the_plan = plan(rule)
    except FormulaError as error:
        problems.missing_columns.add("formula")  # the core's own words for it are echoes
        if entry is None:
            system_row = setting.found["system"][1]
            problems.at(
                system_row, None, f"the formula system needs a Formula setting: {error.reason}"
            )
        else:
            problems.at(entry[1], "value", error.message)
        return rule
    if entry is not None and {"table", "share"} & the_plan.formula.names:
        _check_points_columns(book, the_plan.formula.names, entry[1], problems)
    return rule


def _check_points_columns(
    book: Book, used: frozenset[str], origin: CellOrigin, problems: Problems
) -> None:
    """A formula that uses ``table`` or ``share`` needs that column in the Points sheet."""
    sheet = book.find("Points")
    columns = find_table(sheet, book.rows(sheet), ("rank",)).columns if sheet else {}
    for name, column in (("table", "points"), ("share", "share")):
        if name in used and column not in columns:
            heading = column.capitalize()
            problems.at(
                origin,
                "value",
                f"the formula uses {name}: the Points sheet needs a Rank and a {heading} column "
                f"(each place's {'points' if name == 'table' else 'share, e.g. 25%'})",
            )


def _points_and_shares(
    book: Book, system: str, problems: Problems, settings: Settings
) -> PointStructure:
    """The formula system's Points sheet: each place's Points and Share (either may be left
    out); other systems' Points sheet is read by :mod:`~xlrally.formats.workbook.points`."""
    structure = settings.structure
    if not isinstance(SYSTEMS[system], FormulaSystem):
        return structure
    sheet = book.find("Points")
    if sheet is None:
        return structure
    table = find_table(sheet, book.rows(sheet), ("rank",))
    points: dict[int, float] = {}
    shares: dict[int, float] = {}
    for number, values in table.rows:
        origin = table.origin(number)
        try:
            place = table_place(table.get(values, "rank"), "rank")
        except ValueError as error:
            problems.at(origin, "rank", str(error))
            continue
        for field_name, target, convert in (
            ("points", points, to_number),
            ("share", shares, to_share),
        ):
            value = table.get(values, field_name)
            if value is None:
                continue
            try:
                target[place] = convert(value, field_name)
            except ValueError as error:
                problems.at(origin, field_name, str(error))

    def by_place(found: dict[int, float]) -> tuple[float, ...]:
        return tuple(found.get(p, 0) for p in range(1, max(found, default=0) + 1))

    return dataclasses.replace(structure, points=by_place(points), shares=by_place(shares))


def _knockouts(system: str, setting: SettingsReader, problems: Problems) -> KnockoutRule:
    if not SYSTEMS[system].takes_knockouts:
        _not_for(system, KNOCKOUT_SETTINGS, setting, problems, "for poker finishes")
        return KnockoutRule()
    numbers = {}
    for key in ("knockoutpoints", "bountypoints"):
        value = setting.number(key)
        entry = _entry(setting, key)
        if value is not None and entry is not None and value < 0:
            message = f"{SETTINGS_KEYS[key]} must not be negative, not {show(value)}"
            problems.at(entry[1], "value", message)
            value = None
        numbers[key] = value or 0
    bounties = tuple(
        name.strip() for name in re.split(r"[,;]", setting.text("bounties")) if name.strip()
    )
    weighted = False
    if (entry := _entry(setting, "knockoutsweighted")) is not None:
        try:
            weighted = to_bool(entry[0], "Knockouts weighted")
        except ValueError as error:
            problems.at(entry[1], "value", str(error))
    return KnockoutRule(numbers["knockoutpoints"], numbers["bountypoints"], bounties, weighted)


def _teams(book: Book, setting: SettingsReader, problems: Problems) -> TeamRule:
    best = setting.whole("teambestn")
    scores = setting.choice("teamscores", TEAM_SCORES)
    entry = _entry(setting, "teambestn")
    if best is not None and entry is not None and not _has_team_column(book):
        problems.at(
            entry[1],
            "value",
            "Team best N needs a Team column in the Players sheet (each player's team or club)",
        )
    return TeamRule(best, scores)


def _has_team_column(book: Book) -> bool:
    sheet = book.find("Players")
    return sheet is not None and "team" in find_table(sheet, book.rows(sheet), ("player",)).columns


def read_teams(book: Book) -> dict[str, str]:
    """Each player's team (the Players sheet's Team or Club column), by the name's spelling;
    a player listed twice keeps the last team given."""
    sheet = book.find("Players")
    if sheet is None:
        return {}
    table = find_table(sheet, book.rows(sheet), ("player",))
    if "team" not in table.columns:
        return {}
    teams = {}
    for _, values in table.rows:
        player, team = text_of(table.get(values, "player")), text_of(table.get(values, "team"))
        if player and team:
            teams[player] = team
    return teams
