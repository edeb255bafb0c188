"""A sixth system registered from the test suite (tests/toy_system.py: a Formula One points
table) works everywhere a system does: `new`, `sync`, `check`, `standings -f json`, `publish`,
`import` of a CSV file, and the Excel functions' registry, with nothing of it anywhere in
xlrally (issue 31: a new system is one module and its registry entries).

Hand-worked from the table (25, 18, 15, 12, 10 for places 1-5): Melbourne Ann, Ben, Cara, Dev,
Eli; Shanghai Ben, Cara, Ann, Eli, Dev. Ann 25 + 15 = 40, Ben 18 + 25 = 43, Cara 15 + 18 = 33,
Dev 12 + 10 = 22, Eli 10 + 12 = 22 (a shared 4th: no tie break is set).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import toy_system
from click.testing import CliRunner

from xlrally.cli import cli
from xlrally.core.systems import SYSTEMS
from xlrally.excel.registry import FUNCTIONS

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def formula_one() -> Iterator[None]:
    """The toy system and its Excel function in their registries for the test, then gone."""
    toy_system.register_all()
    try:
        yield
    finally:
        toy_system.unregister_all()
    assert "formula1" not in SYSTEMS
    assert "FORMULA_ONE_POINTS" not in FUNCTIONS


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def ranked(path: Path) -> list[tuple[str, str, float]]:
    """`xlrally standings -f json`: (rank, player, total) per row."""
    code, out, err = run("standings", str(path), "-f", "json")
    assert code == 0, err
    rows = json.loads(out)["standings"]
    return [(f"{r['rank']}{'=' if r['tied'] else ''}", r["player"], r["total"]) for r in rows]


@pytest.mark.usefixtures("formula_one")
def test_a_sixth_system_runs_through_every_command(tmp_path: Path) -> None:
    """new, sync, check, standings -f json, publish and import (CSV) on the toy system."""
    book = tmp_path / "grand_prix.xlsx"
    assert run("new", str(book), "--system", "formula1")[0] == 0
    assert run("sync", str(book))[1] == f"{book}: written (5 players, 2 events)\n"
    assert run("check", str(book))[1] == f"{book}: ok (5 players, 2 events)\n"
    assert ranked(book) == [
        ("1", "Ben", 43),
        ("2", "Ann", 40),
        ("3", "Cara", 33),
        ("4=", "Dev", 22),
        ("4=", "Eli", 22),
    ]
    code, out, _ = run("publish", str(book), "-o", str(tmp_path / "page.html"))
    assert (code, out) == (0, f"wrote {tmp_path / 'page.html'}\n")
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert "Toy Grand Prix 2026" in page
    assert "Formula One points" in page
    assert "2nd: 18" in page  # the working of Ben's Melbourne score

    # Suzuka: Cara 25, Ann 18, Fay (new) 15, Ben 12.
    (tmp_path / "suzuka.csv").write_text("Player,Rank\nCara,1\nAnn,2\nFay,3\nBen,4\n")
    code, out, err = run(
        "import", str(book), str(tmp_path / "suzuka.csv"), "--event", "Suzuka", "--date",
        "2026-04-05",
    )  # fmt: skip
    assert code == 0, err
    assert "New players: Fay" in out
    assert ranked(book) == [
        ("1=", "Ann", 58),
        ("1=", "Cara", 58),
        ("3", "Ben", 55),
        ("4=", "Dev", 22),
        ("4=", "Eli", 22),
        ("6", "Fay", 15),
    ]


@pytest.mark.usefixtures("formula_one")
def test_a_sixth_systems_excel_function_is_in_the_registry() -> None:
    """Its Excel function is listed with its arguments and computes a range cell by cell:
    places 1 and 2, 11th of 20 (no points), a blank row, a place past the field."""
    function = FUNCTIONS["FORMULA_ONE_POINTS"]
    assert [a.name for a in function.arguments] == ["rank", "players"]
    assert function.compute([[1.0], [2.0], [11.0], [None], [21.0]], 20.0) == [
        [25],
        [18],
        [0],
        [""],
        ["#VALUE! rank (21) must be between 1 and players (20)"],
    ]


def test_nothing_of_the_sixth_system_is_in_xlrally() -> None:
    """Not its key, its name or its function's: it lives in its own module only."""
    sources = [*(ROOT / "xlrally").rglob("*.py"), *(ROOT / "udfs").rglob("*.py")]
    for word in ("formula1", "Formula One", "FORMULA_ONE"):
        assert [p for p in sources if word in p.read_text(encoding="utf-8")] == [], word
