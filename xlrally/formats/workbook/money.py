"""The treasurer's sheet and settings (issue 34): the Ledger sheet's entries, the season fee,
what each event withholds, and whether to work out what it takes (docs/workbook-format.md,
"Ledger" and "What it takes"). Each bad cell is a problem at the cell; nothing is dropped.
"""

from __future__ import annotations

from xlrally.core.ledger import LedgerEntry, Withholding
from xlrally.core.numbers import show
from xlrally.formats.cells import text_of, to_bool, to_date, to_number
from xlrally.formats.workbook.settings import SETTINGS_KEYS, SettingsReader, to_share
from xlrally.formats.workbook.tables import Book, CellOrigin, Problems, find_table

WITHHELD_FOR = ("pot", "league")
"""The choices for ``Withheld for``: the money builds the season's pot, or is the league's."""

_WITHHOLDING = ("withhold", "withholdrounding", "withholdcap", "withholdperhead")


def read_ledger(book: Book, problems: Problems) -> tuple[LedgerEntry, ...] | None:
    """The Ledger sheet: ``Date``, ``Item``, ``Amount``, optional ``Player``, ``Event`` and
    ``Season``; None when the workbook has no such sheet."""
    sheet = book.find("Ledger")
    if sheet is None:
        return None
    table = find_table(sheet, book.rows(sheet), ("date", "item", "amount"))
    entries = []
    for number, values in table.rows:
        origin = table.origin(number)
        fields = {name: table.get(values, name) for name in ("date", "item", "amount")}
        missing = [name for name, value in fields.items() if value is None]
        for name in missing:
            problems.at(origin, name, f"{name} is missing")
        if missing:
            continue
        try:
            date = to_date(fields["date"], "date", book.source.epoch)
        except ValueError as error:
            problems.at(origin, "date", str(error))
            continue
        try:
            amount = to_number(fields["amount"], "amount")
        except ValueError as error:
            problems.at(origin, "amount", str(error))
            continue
        entries.append(
            LedgerEntry(
                date,
                text_of(fields["item"]),
                amount,
                text_of(table.get(values, "player")),
                text_of(table.get(values, "event")),
                origin,
                text_of(table.get(values, "season")),
            )
        )
    return tuple(entries)


def read_withholding(setting: SettingsReader) -> Withholding | None:
    """The ``Withhold`` settings (share, rounding, cap, per head) and ``Withheld for``; None
    when none of them is given."""
    given = [key for key in (*_WITHHOLDING, "withheldfor") if _cell(setting, key)]
    if not given:
        return None
    share = setting.number("withhold", to_share) or 0.0  # 6.5%, 6.5 or 0.065
    step = _not_below_0(setting, "withholdrounding")
    cap = _not_below_0(setting, "withholdcap")
    per_head = _not_below_0(setting, "withholdperhead")
    return Withholding(
        share=share,
        step=step or 0.0,
        cap=cap,
        per_head=per_head or 0.0,
        to_pot=setting.choice("withheldfor", WITHHELD_FOR) == "pot",
        origin=_cell(setting, given[0]),
    )


def read_season_fee(setting: SettingsReader) -> float:
    """``Season fee``: what each player owes for the season (0 when blank)."""
    return _not_below_0(setting, "seasonfee") or 0.0


def read_outlook(setting: SettingsReader) -> tuple[bool, int | None]:
    """``What it takes`` (yes/no) and ``Events left`` (a whole number from 0; blank: the
    events listed and not scored yet). Either turns what it takes on."""
    cell = _cell(setting, "whatittakes")
    asked = False
    if cell is not None:
        try:
            asked = to_bool(setting.found["whatittakes"][0], SETTINGS_KEYS["whatittakes"])
        except ValueError as error:
            setting.problems.at(cell, "value", str(error))
    left = setting.whole("eventsleft", minimum=0)
    return asked or left is not None, left


def _cell(setting: SettingsReader, key: str) -> CellOrigin | None:
    """The Settings row of ``key``, when it is given a value."""
    entry = setting.found.get(key)
    return None if entry is None or entry[0] is None else entry[1]


def _not_below_0(setting: SettingsReader, key: str) -> float | None:
    """The setting as a number of 0 or more (None when blank or bad; a bad one is a problem
    at its cell)."""
    number = setting.number(key)
    cell = _cell(setting, key)
    if number is not None and number < 0 and cell is not None:
        message = f"{SETTINGS_KEYS[key]} must not be below 0, not {show(number)}"
        setting.problems.at(cell, "value", message)
        return None
    return number
