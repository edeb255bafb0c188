"""A whole league read from a workbook: every sheet's reader in turn, then every problem at
once (the cells that could not be read, and the core's checks of the rest).
"""

from __future__ import annotations

import dataclasses

from xlrally.core.errors import LeagueProblems
from xlrally.core.league import check_league
from xlrally.core.model import (
    BELOW_MINIMUM,
    COMMA_NAMES,
    DATE_FORMATS,
    DEFAULT_EVENTS_CAP,
    SHARED_PLACES,
    League,
    PointStructure,
    Settings,
)
from xlrally.core.prizes import PRIZE_TIES, PRIZES_PER_PLAYER
from xlrally.core.systems import SYSTEMS
from xlrally.formats.trf import BYE_RULES, FORFEIT_RULES, LICHESS_RULES
from xlrally.formats.workbook.events import read_events
from xlrally.formats.workbook.money import (
    read_ledger,
    read_outlook,
    read_season_fee,
    read_withholding,
)
from xlrally.formats.workbook.notes import stray_sheets, unknown_settings
from xlrally.formats.workbook.players import read_players
from xlrally.formats.workbook.points import points_table, read_prizes
from xlrally.formats.workbook.results import read_results
from xlrally.formats.workbook.rules import read_teams, with_rules
from xlrally.formats.workbook.settings import (
    SettingsReader,
    or_default,
    read_settings,
    to_amount,
    to_share,
)
from xlrally.formats.workbook.tables import Book, Problems, SheetSource


def read_league(source: SheetSource) -> League:
    """Read a whole league from a workbook. Raises LeagueProblems/XlrallyError naming cells.

    When cells cannot be read, the core's own checks still run on the rest, so that every
    problem of the workbook is reported at once.
    """
    book = Book(source)
    problems = Problems()
    system, found = read_settings(book)
    notes: list[str] = []
    setting = SettingsReader(found, problems)
    settings = _settings(book, system, setting, problems, notes)
    settings = with_rules(book, system, setting, problems, settings)
    events = read_events(book, system, problems)
    countries: dict[str, str] = {}
    results = read_results(book, system, [e.name for e in events], problems, countries)
    aliases, players, sections = read_players(book, problems)
    notes.extend(stray_sheets(book, system, [e.name for e in events]))
    notes.extend(unknown_settings(book))
    league = League(
        settings,
        tuple(events),
        tuple(results),
        aliases,
        players,
        countries,
        sections=sections,
        teams=read_teams(book) if settings.teams.best_n is not None else {},
        notes=tuple(notes),
        ledger=read_ledger(book, problems),
    )
    if problems.items:  # and the core's own problems of the rest, all reported at once
        check_league(league, problems.items, problems.missing_columns)
    return league


def _settings(
    book: Book, system: str, setting: SettingsReader, problems: Problems, notes: list[str]
) -> Settings:
    """The league's settings: the Settings sheet's values, the Points sheet (a points-table
    system's) and the Prizes sheet."""
    if SYSTEMS[system].points_table:
        points, bonus = points_table(book, problems, notes)
    else:
        points, bonus = (), ()
    structure = PointStructure(
        points=points,
        bonus=bonus,
        participating=or_default(setting.number("participating"), 0),
        multiplier=or_default(setting.number("multiplier"), 1),
        player_count_factor=or_default(setting.number("playercountfactor"), 0),
        player_count_to_rank=setting.whole("playercounttorank"),
    )
    settings = Settings(
        system=system,
        league=setting.text("league"),
        season=setting.text("season"),
        best_x=setting.whole("bestx"),
        events_cap=setting.whole("eventscap") or DEFAULT_EVENTS_CAP,
        structure=structure,
        tie_breaks=setting.tie_breaks(),
        shared_places=setting.choice("sharedplaces", SHARED_PLACES),
        date_format=setting.choice("dateformat", DATE_FORMATS),
        min_events=setting.whole("minimumevents") or 0,
        below_minimum=setting.choice("belowminimum", BELOW_MINIMUM),
        prizes=read_prizes(book, problems),
        pot=or_default(setting.number("pot", to_amount), 0),
        pot_share=or_default(setting.number("potshare", to_share), 0),  # 20%, 20 or 0.2
        currency_unit=or_default(setting.positive("currencyunit"), 0.01),
        prize_ties=setting.choice("prizeties", PRIZE_TIES),
        prizes_per_player=setting.choice("prizesperplayer", PRIZES_PER_PLAYER),
        comma_names=setting.choice("commanames", COMMA_NAMES),
    )
    season_fee = read_season_fee(setting)
    withholding = read_withholding(setting)
    what_it_takes, events_left = read_outlook(setting)
    settings = dataclasses.replace(
        settings,
        season_fee=season_fee,
        withholding=withholding,
        what_it_takes=what_it_takes,
        events_left=events_left,
    )
    # How a TRF file's codes count in a rally (read by `xlrally import`), checked here so that
    # a bad value is named by `check` and sync too.
    setting.choice("requestedbyes", BYE_RULES)
    setting.choice("forfeitwins", FORFEIT_RULES)
    setting.choice("lichessh", LICHESS_RULES)
    return settings


def read_import_rules(source: SheetSource) -> tuple[str, str, str]:
    """The Settings' ``Requested byes``, ``Forfeit wins`` and ``Lichess H`` (see
    xlrally.formats.trf)."""
    problems = Problems()
    setting = SettingsReader(read_settings(Book(source))[1], problems)
    rules = (
        setting.choice("requestedbyes", BYE_RULES),
        setting.choice("forfeitwins", FORFEIT_RULES),
        setting.choice("lichessh", LICHESS_RULES),
    )
    if problems.items:
        raise LeagueProblems(problems.items)
    return rules
