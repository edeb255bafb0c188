"""The command line as a user runs it: output, files written, error text and exit codes."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from helpers import RALLY_SHEETS, Sheets, parts, write_book

from xlrally.app import isolate
from xlrally.cli import cli
from xlrally.core.systems import SYSTEMS

# Hand-worked standings of each system's example league (xlrally/template.py EXAMPLES):
EXPECTED: dict[str, list[tuple[str, str, float]]] = {
    # Best 2 of 3: Bobby 79 (3/4) + 72 (⌊100×4/6⌋+6) [21 dropped]; José 66 (⌊62.5⌋+4) + 54;
    # Mikhail 29 + 34 (seed example 3).
    "rally": [("1", "Bobby", 151), ("2", "José", 120), ("3", "Mikhail", 63)],
    # Week 1 ranks Ann..Gus, Week 2 reversed, 33/27/21/15/10/5/5 per rank (seed table).
    "absolute": [
        ("1=", "Ann", 38),
        ("1=", "Gus", 38),
        ("3=", "Ben", 32),
        ("3=", "Fay", 32),
        ("5=", "Cara", 31),
        ("5=", "Eli", 31),
        ("7", "Dev", 30),
    ],
    # 12.5/10/7.5/5/3.5 per rank (seed table); ties broken by countback then most recent event.
    "reverse": [
        ("1", "Eli", 16),
        ("2", "Ann", 16),
        ("3", "Dev", 15),
        ("4", "Ben", 15),
        ("5", "Cara", 15),
    ],
    # √(10×20×20/c)/(d+1): Ann √200/2, Ben (c = 40) √100/3, Cara √200/11.
    "neau": [("1", "Ann", 7.0710678), ("2", "Ben", 3.3333333), ("3", "Cara", 1.2856487)],
}


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("examples")
    made = {}
    for system in SYSTEMS:
        code, _out, err = run("new", str(folder / f"{system}.xlsx"), "--system", system)
        assert code == 0, err
        made[system] = folder / f"{system}.xlsx"
    return made


@pytest.mark.parametrize("system", list(EXPECTED))
def test_standings_json_for_each_system(examples: dict[str, Path], system: str) -> None:
    """`xlrally standings --format json` gives the hand-worked standings of each example."""
    code, out, _ = run("standings", str(examples[system]), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["system"] == system
    got = [
        (("%d=" if r["tied"] else "%d") % r["rank"], r["player"], r["total"])
        for r in data["standings"]
    ]
    assert [(rank, player) for rank, player, _ in got] == [
        (rank, player) for rank, player, _ in EXPECTED[system]
    ]
    assert [t for *_, t in got] == pytest.approx([t for *_, t in EXPECTED[system]], abs=1e-6)


@pytest.mark.parametrize("fork", [True, False], ids=["in a child", "in this process"])
def test_read_only_commands_with_and_without_a_child(
    examples: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fork: bool
) -> None:
    """Where the system cannot fork (Windows), `standings` and `check` read in-process with
    the area check; elsewhere in a child. Same answer (Bobby 151, hand-worked above) and the
    same error for a bad cell either way."""
    monkeypatch.setattr(isolate, "AVAILABLE", fork)
    code, out, _ = run("standings", str(examples["rally"]), "-f", "csv")
    assert code == 0
    assert out.splitlines()[1].startswith("1,,Bobby,151,")
    code, out, _ = run("check", str(examples["rally"]))
    assert (code, out.splitlines()[-1]) == (0, f"{examples['rally']}: ok (3 players, 3 events)")
    bad = write_book(
        tmp_path / "bad.xlsx",
        {**RALLY_SHEETS, "Results": [*RALLY_SHEETS["Results"], ["Dec 2025", "Al", "three"]]},
    )
    code, _, err = run("standings", str(bad))
    assert code == 1
    assert f"Error: {bad}: Results!C" in err
    assert "points must be a number, not the text 'three'" in err


def test_json_shape_and_working(examples: dict[str, Path]) -> None:
    """The JSON lists events with status, best_x, scores, counted events and explanations."""
    data = json.loads(run("standings", str(examples["rally"]), "-f", "json")[1])
    assert [e["status"] for e in data["events"]] == ["ranked", "ranked", "ranked"]
    assert data["best_x"] == 2
    bobby = data["standings"][0]
    assert bobby["scores"] == {"Dec 2025": 79, "Feb 2026": 72, "May 2026": 21}
    assert bobby["counted"] == ["Dec 2025", "Feb 2026"]
    assert bobby["explain"]["Feb 2026"] == "100 × 4 / 6 + 6 = 72"


def test_dippouch_matches_the_wdd_page(examples: dict[str, Path]) -> None:
    """Stratagem 2002: percentiles as published; Mills 40 + 10.857% × (98.39 − 40) = 46.34."""
    data = json.loads(run("standings", str(examples["dippouch"]), "-f", "json")[1])
    rows = {r["player"]: r for r in data["standings"]}
    assert round(rows["Steve Mills"]["scores"]["Stratagem 2002"], 2) == 98.39
    assert round(rows["Terry Webb"]["scores"]["Stratagem 2002"], 2) == 8.06
    assert round(rows["Steve Mills"]["total"], 2) == 46.34
    assert rows["Ernie Kwok"]["rank"] == rows["Brian Mitenko"]["rank"] == 9


def test_table_and_csv(examples: dict[str, Path]) -> None:
    """Text table with dropped scores bracketed; CSV with plain numbers that sum (issue 14:
    '(21)' reads as -21 in a spreadsheet, '11=' as text) and the dropped events named."""
    code, out, _ = run("standings", str(examples["rally"]))
    assert code == 0
    assert "Bobby    151    3       79        72        (21)" in out
    assert "Best 2 of 3 events count" in out
    code, out, _ = run("standings", str(examples["rally"]), "-f", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows[0] == {
        "Rank": "1",
        "Tied": "",
        "Player": "Bobby",
        "Total": "151",
        "Events": "3",
        "Dec 2025": "79",
        "Feb 2026": "72",
        "May 2026": "21",
        "Dropped": "May 2026",
    }
    assert all(float(row["Rank"]) >= 1 for row in rows)


def test_as_of_leaves_later_events_out(examples: dict[str, Path]) -> None:
    """--as-of 2026-01-31 keeps only Dec 2025: one event, and it counts."""
    data = json.loads(
        run("standings", str(examples["rally"]), "-f", "json", "--as-of", "2026-01-31")[1]
    )
    assert [e["status"] for e in data["events"]] == ["ranked", "later", "later"]
    assert data["standings"][0]["total"] == 79


def test_sync_one_file(tmp_path: Path) -> None:
    """sync says what it did; a second run says unchanged."""
    path = write_book(tmp_path / "rally.xlsx", RALLY_SHEETS)
    code, out, _ = run("sync", str(path))
    assert (code, out) == (0, f"{path}: written (2 players, 2 events)\n")
    code, out, _ = run("sync", str(path))
    assert (code, out) == (0, f"{path}: unchanged (2 players, 2 events)\n")


def test_error_text_and_exit_code(tmp_path: Path) -> None:
    """A rule broken: `Error: <file>: <sheet>!<cell>: <problem>`, exit 1, file untouched."""
    sheets = dict(RALLY_SHEETS)
    sheets["Results"] = [
        ["Event", "Player", "Points", "Games", "Byes"],
        ["Dec 2025", "Al", 1, 2, 4],
    ]
    path = write_book(tmp_path / "bad.xlsx", sheets)
    before = path.read_bytes()
    code, _out, err = run("sync", str(path))
    assert code == 1
    assert err == f"Error: {path}: Results!E2: byes (4) must be less than rounds (4)\n"
    assert path.read_bytes() == before


def test_batch_continues_past_a_bad_file(tmp_path: Path) -> None:
    """A folder with one good, one broken and one non-workbook file: the good one is synced."""
    good = write_book(tmp_path / "a_good.xlsx", RALLY_SHEETS)
    (tmp_path / "b_broken.xlsx").write_bytes(b"not a zip at all")
    sheets = dict(RALLY_SHEETS)
    sheets["Settings"] = [["System", "chess960"]]
    write_book(tmp_path / "c_unknown.xlsx", sheets)
    (tmp_path / "notes.txt").write_text("ignored")
    code, out, err = run("sync", str(tmp_path), "--jobs", "2")
    assert code == 1
    standings = openpyxl.load_workbook(good)["Standings"]
    assert [(r[1].value, r[2].value) for r in standings.iter_rows(min_row=2, max_row=3)] == [
        ("Bobby", 100),  # helpers.RALLY_SHEETS, hand-worked there
        ("José", 54),
    ]
    assert (
        f"Error: {tmp_path / 'b_broken.xlsx'}: not an Excel workbook (.xlsx or .xlsm): it is not a zip package"
        in err
    )
    assert f"Error: {tmp_path / 'c_unknown.xlsx'}: Settings!B1: unknown system 'chess960'" in err
    assert "a_good.xlsx" in out
    assert "written" in out


def test_files_named_one_by_one_are_each_reported(tmp_path: Path) -> None:
    """`sync a b c` with b broken and a name that does not exist: a and c are written, the
    others reported, exit 1 (not a usage error)."""
    a = write_book(tmp_path / "a.xlsx", RALLY_SHEETS)
    b = tmp_path / "b.xlsx"
    b.write_bytes(b"PK\x03\x04 damaged")
    c = write_book(tmp_path / "c.xlsx", RALLY_SHEETS)
    code, out, err = run("sync", str(a), str(b), str(tmp_path / "gone.xlsx"), str(c))
    assert code == 1
    table = [line.split() for line in out.splitlines()]
    assert table == [
        ["File", "System", "Players", "Events", "Result"],
        [str(a), "rally", "2", "2", "written"],
        [str(b), "failed", "(1", "problem)"],
        [str(tmp_path / "gone.xlsx"), "failed", "(1", "problem)"],
        [str(c), "rally", "2", "2", "written"],
        ["4", "files:", "2", "written,", "2", "failed"],
    ]
    assert f"Error: {tmp_path / 'gone.xlsx'}: file not found" in err


def test_folders_are_listed_in_natural_order(tmp_path: Path) -> None:
    """club_2 before club_10, as a person counts."""
    for n in (10, 2, 1):
        write_book(tmp_path / f"club_{n}.xlsx", RALLY_SHEETS)
    _, out, _ = run("sync", str(tmp_path))
    listed = [line.split()[0] for line in out.splitlines()[1:4]]
    assert listed == [str(tmp_path / f"club_{n}.xlsx") for n in (1, 2, 10)]
    assert out.splitlines()[-1] == "3 files: 3 written"


def test_as_of_before_the_first_event_and_text_notes(tmp_path: Path) -> None:
    """No 'All 0 events count'; the text output says which events were not scored."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    _, out, _ = run("standings", str(path), "--as-of", "2025-01-01")
    assert "No event has been scored yet" in out
    assert "Not scored: Dec 2025 (later)." in out


def test_recursive_batch(tmp_path: Path) -> None:
    """--recursive finds workbooks in subfolders; Excel's ~$ owner files are skipped."""
    (tmp_path / "sub").mkdir()
    write_book(tmp_path / "sub" / "league.xlsx", RALLY_SHEETS)
    (tmp_path / "sub" / "~$other.xlsx").write_bytes(b"owner")
    code, out, _ = run("sync", str(tmp_path), "--recursive")
    assert code == 0
    assert "league.xlsx" in out


def test_check_lists_every_problem(tmp_path: Path) -> None:
    """check reports all problems of a file at once and writes nothing."""
    sheets = dict(RALLY_SHEETS)
    sheets["Results"] = [
        ["Event", "Player", "Points", "Games"],
        ["Dec 2025", "Al", 5, 4],
        ["Nov 2025", "Bo", 1, 4],
    ]
    path = write_book(tmp_path / "two.xlsx", sheets)
    code, _, err = run("check", str(path))
    assert code == 1
    assert err.splitlines() == [
        f"Error: {path}: Results!A3: event 'Nov 2025' is not in the Events sheet",
        f"Error: {path}: Results!C2: points (5) must not exceed games played (4)",
    ]


def test_missing_and_locked_files(tmp_path: Path) -> None:
    """A missing file and a workbook open in Excel get plain messages."""
    code, _, err = run("standings", str(tmp_path / "nope.xlsx"))
    assert (code, err) == (1, f"Error: {tmp_path / 'nope.xlsx'}: file not found\n")
    path = write_book(tmp_path / "open.xlsx", RALLY_SHEETS)
    (tmp_path / "~$open.xlsx").write_bytes(b"owner")
    code, _, err = run("sync", str(path))
    assert code == 1
    assert "is open in Excel" in err


def test_new_into_a_missing_folder(tmp_path: Path) -> None:
    """A folder that does not exist: a plain error, no traceback."""
    target = tmp_path / "nope" / "league.xlsx"
    code, _, err = run("new", str(target))
    assert code == 1
    assert err.startswith(f"Error: {target}: cannot write the workbook: ")


def test_new_refuses_to_overwrite(tmp_path: Path) -> None:
    """new does not overwrite without --force."""
    path = write_book(tmp_path / "mine.xlsx", RALLY_SHEETS)
    code, _, err = run("new", str(path))
    assert (code, err) == (1, f"Error: {path}: already exists (use --force to overwrite)\n")


@pytest.mark.parametrize("command", sorted(cli.commands))
def test_every_command_has_help(command: str) -> None:
    """Each command (all of the command line's, as click lists them) explains itself with
    --help and is documented in docs/cli.md."""
    code, out, _ = run(command, "--help")
    assert code == 0
    assert "Usage: " in out
    docs = (Path(__file__).parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    assert f"xlrally {command}" in docs


def test_python_dash_m_runs_the_cli(tmp_path: Path) -> None:
    """`python -m xlrally` is the same command, in a real process."""
    path = write_book(tmp_path / "rally.xlsx", RALLY_SHEETS)
    done = subprocess.run(
        [sys.executable, "-m", "xlrally", "standings", str(path), "-f", "csv"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout.splitlines()[1] == "1,,Bobby,100,2,79,21,"


def test_template_is_up_to_date(tmp_path: Path) -> None:
    """workbook_template.xlsx is what xlrally.excel.template makes now (run `python tools/remake_examples.py`)."""
    from remake_examples import TEMPLATE

    from xlrally.excel.template import build_workbook

    fresh = tmp_path / "template.xlsx"
    build_workbook(fresh, "rally")
    assert parts(fresh) == parts(TEMPLATE)


@pytest.mark.usefixtures("full_syncs")
def test_readme_example_command(tmp_path: Path) -> None:
    """The README's first command syncs the bundled example; run it on a copy, with its sheets
    read (no skip of an unchanged file): the example is committed synced by the code as it is
    now, so the full sync writes nothing, and its standings are the hand-worked ones."""
    root = Path(__file__).parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert (
        "xlrally sync examples/rally.xlsx && .venv/bin/xlrally standings examples/rally.xlsx"
        in readme
    )
    copy = tmp_path / "rally.xlsx"
    shutil.copy(root / "examples" / "rally.xlsx", copy)
    before = copy.read_bytes()
    code, out, _ = run("sync", str(copy))
    assert (code, out) == (0, f"{copy}: unchanged (3 players, 3 events)\n")
    assert copy.read_bytes() == before
    code, out, _ = run("standings", str(copy), "-f", "json")
    assert code == 0
    rows = [(r["rank"], r["player"], r["total"]) for r in json.loads(out)["standings"]]
    assert rows == [(int(rank), player, total) for rank, player, total in EXPECTED["rally"]]


def test_a_typo_is_warned_in_check_and_in_the_standings_notes(tmp_path: Path) -> None:
    """Issue 13: 'Oliver Gran' typed once for 'Oliver Grant' would drop him several places."""
    sheets: Sheets = {
        "Settings": [["Setting", "Value"], ["System", "reverse"]],
        "Events": [["Event", "Date"], ["W1", "2026-01-08"], ["W2", "2026-01-15"]],
        "Results": [
            ["Event", "Player", "Rank"],
            ["W1", "Oliver Grant", 1],
            ["W1", "Ann Lee", 2],
            ["W2", "Ann Lee", 1],
            ["W2", "Oliver Gran", 2],
        ],
    }
    path = write_book(tmp_path / "typo.xlsx", sheets)
    warning = (
        "'Oliver Grant' (1 result, first in W1) and 'Oliver Gran' (1 result, first in W2) "
        "differ by one letter: if they are one player, add an alias in the Players sheet; if "
        "two, list both names there"
    )
    code, out, err = run("check", str(path))
    assert code == 0
    assert err == f"Warning: {path}: {warning}\n"
    assert f"{path}: new in W2: Oliver Gran" in out.splitlines()  # seen where it was typed
    assert run("sync", str(path))[0] == 0
    book = openpyxl.load_workbook(path)
    notes = [row[0] for row in book["Standings"].iter_rows(values_only=True) if row[0]]
    assert f"Warning: {warning}" in notes


def test_a_season_is_picked_from_the_events_season_column(tmp_path: Path) -> None:
    """Two seasons in one workbook (hand-worked in tests/core/test_seasons.py): the latest by
    default, another with --season."""
    sheets: Sheets = {
        "Settings": [["Setting", "Value"], ["System", "reverse"]],
        "Events": [
            ["Event", "Date", "Season"],
            ["Sep 2024", "2024-09-07", "2024-25"],
            ["Nov 2024", "2024-11-02", "2024-25"],
            ["Oct 2025", "2025-10-04", "2025-26"],
        ],
        "Results": [
            ["Event", "Player", "Rank"],
            *(
                [event, player, rank]
                for event in ("Sep 2024", "Nov 2024")
                for player, rank in (("Ann", 1), ("Bo", 2))
            ),
            ["Oct 2025", "Bo", 1],
            ["Oct 2025", "Ann", 2],
        ],
    }
    path = write_book(tmp_path / "seasons.xlsx", sheets)

    def table(*options: str) -> list[tuple[str, float]]:
        code, out, _ = run("standings", str(path), "-f", "json", *options)
        assert code == 0
        return [(r["player"], r["total"]) for r in json.loads(out)["standings"]]

    assert table() == [("Bo", 2), ("Ann", 1)]
    assert table("--season", "2024-25") == [("Ann", 4), ("Bo", 2)]
