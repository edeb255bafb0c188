"""The docs name the systems the registry has, in its order, each with its module: the lists
people read (README, docs/cli.md, docs/workbook-format.md, docs/scoring.md) cannot fall behind
a system added or renamed (issue 31)."""

from __future__ import annotations

import re
from pathlib import Path

from xlrally.core.systems import SYSTEMS

ROOT = Path(__file__).resolve().parent.parent


def text(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def keys_in(line: str) -> list[str]:
    """The system keys a line names in backticks, in its order."""
    return [word for word in re.findall(r"`([^`]+)`", line) if word in SYSTEMS]


def test_the_readme_and_the_cli_docs_list_every_system() -> None:
    """README's Systems line and docs/cli.md's `--system` choices are the registry's keys."""
    [readme] = [line for line in text("README.md").splitlines() if "Systems: `" in line]
    assert keys_in(readme) == list(SYSTEMS)
    section = text("docs/cli.md").split("## `xlrally new", 1)[1].split("\n", 1)[1]
    cli = section.split("\n## ", 1)[0]
    assert keys_in(cli.replace("\n", " ")) == list(SYSTEMS)


def test_the_system_setting_lists_every_key_and_name() -> None:
    """docs/workbook-format.md: the System setting takes each key or each name."""
    [row] = [
        line for line in text("docs/workbook-format.md").splitlines() if "| `System` |" in line
    ]
    names = re.findall(r"`([^`]+)`", row)
    for system in SYSTEMS.values():
        assert system.key in names
        assert system.name in names


def test_scoring_has_a_section_naming_each_system_and_its_module() -> None:
    """docs/scoring.md's sections name every key, each with the module of its rule book."""
    headings = [line for line in text("docs/scoring.md").splitlines() if line.startswith("## ")]
    for system in SYSTEMS.values():
        module = type(system).__module__
        assert any(f"`{system.key}`" in h and f"`{module}`" in h for h in headings), system.key
