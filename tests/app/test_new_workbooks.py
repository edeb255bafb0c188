"""What a new workbook offers (`xlrally new`, the template): every setting the reader reads,
each for the systems that use it, with what it does."""

from __future__ import annotations

import re
from pathlib import Path

import openpyxl
import pytest

from xlrally.app.newbook import make_new
from xlrally.core.systems import SYSTEMS
from xlrally.formats.workbook.settings import SETTINGS, SETTINGS_KEYS, offered


def settings_rows(path: Path) -> list[tuple[str, str]]:
    """The Settings sheet's rows below the header: (setting, what it does)."""
    sheet = openpyxl.load_workbook(path)["Settings"]
    return [(row[0], row[2]) for row in sheet.iter_rows(min_row=2, values_only=True)]


def test_every_setting_the_reader_reads_is_offered_by_some_system() -> None:
    """Issue 31: the reader read Requested byes and Forfeit wins, but no new workbook offered
    them. The one list (SETTINGS) is what the reader reads; each of its settings is offered."""
    read = set(SETTINGS_KEYS.values())
    assert read == {s.name for system in SYSTEMS.values() for s in offered(system)}
    assert {"Requested byes", "Forfeit wins", "Lichess H"} <= {
        s.name for s in offered(SYSTEMS["rally"])
    }


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_a_new_workbook_lists_its_systems_settings_with_their_help(
    tmp_path: Path, system: str
) -> None:
    """The Settings sheet of `xlrally new` lists the settings offered for its system, in the
    vocabulary's order, each with its help (the System's with the registry's systems)."""
    rows = settings_rows(make_new(tmp_path / f"{system}.xlsx", system)[0])
    assert [name for name, _ in rows] == [s.name for s in offered(SYSTEMS[system])]
    helps = dict(rows)
    *others, last = SYSTEMS  # every key of the registry, in its order
    assert helps["System"] == ", ".join(others) + " or " + last
    assert all(helps[s.name] == s.help for s in SETTINGS if s.name in helps and s.name != "System")


def test_the_docs_settings_table_lists_every_setting() -> None:
    """docs/workbook-format.md's Settings table names each setting of the vocabulary, and no
    other (``League``, ``Season`` share a row)."""
    docs = (Path(__file__).parents[2] / "docs" / "workbook-format.md").read_text(encoding="utf-8")
    table = docs.split("## Settings", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    documented = {name for row in rows for name in re.findall(r"`([^`]+)`", row.split("|")[1])}
    assert documented == {s.name for s in SETTINGS}
