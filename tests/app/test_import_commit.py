"""`xlrally import` as one read, one plan, one commit: Results, Events and Standings written in
one atomic replace; problems named where they are (the workbook's own cells, or the file's
line); seasons; stops by Ctrl-C and SIGTERM at fixed points; a full disk; a crash.

Stops are injected at named points of the import (a function of the write path replaced by
one that sends the signal), never after a sleep, so these tests do not depend on the
machine's speed or load. Expected scores are worked by hand from the rally seed."""

from __future__ import annotations

import datetime as dt
import errno
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import trf_player, write_book

from xlrally.app.importer import Options, import_file
from xlrally.app.sync import full_sync, read_standings
from xlrally.cli import cli
from xlrally.core.errors import XlrallyError
from xlrally.ooxml import rawzip, writer
from xlrally.ooxml.writer import TEMP_SUFFIX

RALLY = {
    "Settings": [["Setting", "Value"], ["System", "rally"], ["League", "Club Rally"]],
    "Events": [["Event", "Date", "Rounds"], ["Nov 2025", dt.date(2025, 11, 1), 1]],
    "Results": [
        ["Event", "Player", "Points", "Games", "Byes"],
        ["Nov 2025", "Ann Smith", 1, 1, 0],
        ["Nov 2025", "Cat Lee", 0, 1, 0],
    ],
}


def league(path: Path, **sheets: Any) -> Path:
    return write_book(path, {**RALLY, **sheets})


def dec_trf(path: Path, day: str = "2025/12/06", name: str = "Dec 2025") -> Path:
    """Dec: Ann beats Cat twice in two rounds (Ann 100 × 2 / 2 + 2 = 102, Cat 2)."""
    lines = [
        f"012 {name}",
        f"042 {day}",
        "XXR 2",
        trf_player(1, "Smith, Ann", 1, ["2 w 1", "2 b 1"], 2),
        trf_player(2, "Lee, Cat", 2, ["1 b 0", "1 w 0"], 0),
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(TEMP_SUFFIX))


def test_results_events_and_standings_are_one_replace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One commit (the file replaced once, not twice), and a sync afterwards, even a full one
    with the skip turned off, has nothing to write: the Standings the import wrote are the
    sync's, byte for byte."""
    book = league(tmp_path / "league.xlsx")
    commits = []
    original = writer.Staged.commit

    def counted(self: writer.Staged) -> writer.WriteOutcome:
        commits.append(self.real)
        return original(self)

    monkeypatch.setattr(writer.Staged, "commit", counted)
    monkeypatch.setattr("xlrally.app.isolate.AVAILABLE", False)  # count in this process
    outcome = import_file(book, dec_trf(tmp_path / "dec.trf"))
    assert len(commits) == 1
    assert outcome.sync is not None
    assert (outcome.sync.result, outcome.sync.players, outcome.sync.events) == ("written", 2, 2)
    before = book.read_bytes()
    assert full_sync(book).result == "unchanged"
    assert book.read_bytes() == before
    # two events held, both count: Ann 101 + 102, Cat 1 + 2
    totals = {row.player: row.total for row in read_standings(book).rows}
    assert totals == {"Ann Smith": 203, "Cat Lee": 3}


def test_what_the_import_reports_is_what_the_standings_show(tmp_path: Path) -> None:
    """The players and events said are those of the Standings sheet written."""
    book = league(tmp_path / "league.xlsx")
    result = CliRunner().invoke(cli, ["import", str(book), str(dec_trf(tmp_path / "dec.trf"))])
    assert result.exit_code == 0, result.output
    standings = read_standings(book)
    said = f"standings written ({len(standings.rows)} players, {len(standings.held)} events)"
    assert said in result.output


def test_a_problem_already_in_the_workbook_is_named_as_such(tmp_path: Path) -> None:
    """Finding 7: a cell the workbook had wrong slipped past the check before the import and
    was then blamed on it. It is named as the workbook's own, at its cell, and nothing is
    written: a text in Games (D3), and 5 points from 4 games (C2), which only scoring finds."""
    book = league(
        tmp_path / "league.xlsx",
        Results=[
            ["Event", "Player", "Points", "Games", "Byes"],
            ["Nov 2025", "Ann Smith", 5, 4, 0],
            ["Nov 2025", "Cat Lee", 0, "one", 0],
        ],
    )
    before = book.read_bytes()
    with pytest.raises(XlrallyError) as raised:
        import_file(book, dec_trf(tmp_path / "dec.trf"))
    message = str(raised.value)
    assert message.startswith("the workbook has problems already, so nothing was imported")
    assert "Results!D3: games must be a number" in message
    assert book.read_bytes() == before
    fixed = league(
        tmp_path / "fixed.xlsx",
        Results=[
            ["Event", "Player", "Points", "Games", "Byes"],
            ["Nov 2025", "Ann Smith", 5, 4, 0],
        ],
        Events=[["Event", "Date", "Rounds"], ["Nov 2025", dt.date(2025, 11, 1), 4]],
    )
    with pytest.raises(XlrallyError, match=r"problems already.*Results!C2: points \(5\)"):
        import_file(fixed, dec_trf(tmp_path / "dec.trf"))


def test_a_problem_of_the_imported_results_names_the_files_line_and_the_cell(
    tmp_path: Path,
) -> None:
    """5 points from 4 games in the CSV's line 3: refused, naming the line and the cell it
    would have gone in (finding 7: the import's own errors dropped the cell)."""
    book = league(tmp_path / "league.xlsx")
    csv = tmp_path / "dec.csv"
    csv.write_text("Player,Points,Games,Byes\nAnn Smith,2,4,0\nCat Lee,5,4,0\n", encoding="utf-8")
    before = book.read_bytes()
    with pytest.raises(
        XlrallyError,
        match=r"with the imported results the league has problems, so nothing was written: "
        r".*dec\.csv line 3 \(Results!C5\): points \(5\)",
    ):
        import_file(book, csv, Options(rounds=4))
    assert book.read_bytes() == before
    assert leftovers(tmp_path) == []


SEASONS = {
    **RALLY,
    "Events": [
        ["Event", "Date", "Rounds", "Season"],
        ["Sep 2024", dt.date(2024, 9, 7), 1, "2024-25"],
        ["May 2025", dt.date(2025, 5, 10), 1, "2024-25"],
        ["Sep 2025", dt.date(2025, 9, 6), 1, "2025-26"],
        ["Nov 2025", dt.date(2025, 11, 1), 1, "2025-26"],
    ],
    "Results": [
        ["Event", "Player", "Points", "Games", "Byes"],
        ["Sep 2024", "Ann Smith", 1, 1, 0],
        ["May 2025", "Ann Smith", 1, 1, 0],
        ["Sep 2025", "Cat Lee", 1, 1, 0],
        ["Nov 2025", "Cat Lee", 1, 1, 0],
    ],
}


def season_of(book: Path, event: str) -> str:
    data = json.loads(CliRunner().invoke(cli, ["standings", str(book), "-f", "json"]).output)
    assert data["season"] is not None
    events = {e["name"] for e in data["events"]}
    return data["season"] if event in events else ""


def test_an_event_after_the_latest_seasons_last_goes_on_in_it(tmp_path: Path) -> None:
    """Finding 6: an imported event in a league with seasons did not count until its Season
    was typed. 6 December 2025 comes after 2025-26's last event, within a year of its first:
    the season goes on; the Standings (2025-26, the latest) count it: Ann 102, Cat 101 + 101
    + 2 (three events held: the best two count) = 202."""
    book = write_book(tmp_path / "league.xlsx", SEASONS)
    outcome = import_file(book, dec_trf(tmp_path / "dec.trf"))
    assert outcome.sync is not None
    assert outcome.sync.events == 3
    assert season_of(book, "Dec 2025") == "2025-26"
    totals = {row.player: row.total for row in read_standings(book).rows}
    assert totals == {"Cat Lee": 202, "Ann Smith": 102}


def test_an_event_inside_a_seasons_dates_takes_that_season(tmp_path: Path) -> None:
    """1 March 2025 lies between 2024-25's events: its season, and the Standings still show
    the latest season (2025-26), which the report says."""
    book = write_book(tmp_path / "league.xlsx", SEASONS)
    outcome = import_file(book, dec_trf(tmp_path / "mar.trf", "2025/03/01", "Mar 2025"))
    assert any(
        "'Mar 2025' is in season 2024-25; the Standings show season 2025-26" in n
        for n in outcome.notes
    )
    data = read_standings(book, season="2024-25")
    assert "Mar 2025" in data.held


def test_a_date_in_no_season_asks_for_season(tmp_path: Path) -> None:
    """More than a year after 2025-26 began: a new season is never started by guessing."""
    book = write_book(tmp_path / "league.xlsx", SEASONS)
    before = book.read_bytes()
    with pytest.raises(
        XlrallyError, match=r"the event's date 2026-10-03 is in none of them: import with --season"
    ):
        import_file(book, dec_trf(tmp_path / "oct.trf", "2026/10/03", "Oct 2026"))
    assert book.read_bytes() == before
    import_file(
        book, dec_trf(tmp_path / "oct.trf", "2026/10/03", "Oct 2026"), Options(season="2026-27")
    )
    assert season_of(book, "Oct 2026") == "2026-27"


def test_a_league_without_seasons_gets_none(tmp_path: Path) -> None:
    """No event names a season: none is written, whatever the date."""
    book = league(tmp_path / "league.xlsx")
    import_file(book, dec_trf(tmp_path / "dec.trf"))
    assert read_standings(book).settings.season == ""


def test_a_full_disk_is_an_error_and_leaves_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 10: a full disk during the import was a traceback (a sync said it). Writing
    the new file fails as the operating system fails it (ENOSPC from a write): one `Error:`
    line, the workbook as it was, no temporary file."""
    book = league(tmp_path / "league.xlsx")
    before = book.read_bytes()

    def full(*_: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(rawzip.RawZipWriter, "add", full)
    result = CliRunner().invoke(cli, ["import", str(book), str(dec_trf(tmp_path / "dec.trf"))])
    assert result.exit_code == 1
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert errors == [
        f"Error: {book}: cannot write the workbook: No space left on device; it was left as it was"
    ]
    assert book.read_bytes() == before
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_crash_while_writing_leaves_the_old_file_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The child killed while it writes the new file: the old file stays, the temporary file
    it left is removed, and the error says what happened."""
    book = league(tmp_path / "league.xlsx")
    before = book.read_bytes()

    def killed(*_: object) -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    monkeypatch.setattr(rawzip.RawZipWriter, "add_packed", killed)
    monkeypatch.setattr(rawzip.RawZipWriter, "add", killed)
    result = CliRunner().invoke(cli, ["import", str(book), str(dec_trf(tmp_path / "dec.trf"))])
    assert result.exit_code == 1
    assert "was stopped by SIGKILL" in result.output
    assert book.read_bytes() == before
    assert leftovers(tmp_path) == []


DRIVER = """
import os, signal, sys, time
point, how, args = sys.argv[1], sys.argv[2], sys.argv[3:]

def stop():
    if how == "ctrl-c":  # as a terminal sends it: to the whole process group
        os.killpg(0, signal.SIGINT)
    else:  # `kill PID` of the command: this child waits until the command stops it
        os.kill(os.getppid(), signal.SIGTERM)
        while True:  # (not signal.pause(): the stop may come before it is called)
            time.sleep(0.01)

def before(module, name):
    original = getattr(module, name)
    def stopping(*a, **k):
        stop()
        return original(*a, **k)
    setattr(module, name, stopping)

if point == "reading the file":
    import xlrally.app.importer.incoming as m
    before(m, "read_trf")
elif point == "scoring":
    import xlrally.app.importer.write as m
    before(m, "compute_standings")
elif point == "writing the new file":
    import xlrally.ooxml.rawzip as m
    before(m.RawZipWriter, "add")
elif point == "before the rename":
    import xlrally.ooxml.writer as m
    before(m.Staged, "commit")
from xlrally.cli import cli
cli(args)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
@pytest.mark.parametrize(
    "point", ["reading the file", "scoring", "writing the new file", "before the rename"]
)
def test_a_stop_leaves_the_old_file_and_says_so(tmp_path: Path, how: str, point: str) -> None:
    """Finding 11: after Ctrl-C the user saw only `Aborted!`, and SIGTERM (which import did not
    handle) left a full-size temporary file. Stopped at each point, the import exits 130 and
    says the workbook was left as it was; the workbook is byte for byte the old one, and no
    temporary file or folder is left (the folder of the child's result included)."""
    book = league(tmp_path / "league.xlsx")
    before = book.read_bytes()
    temp = tmp_path / "tmp"
    temp.mkdir()
    process = subprocess.run(
        [
            sys.executable,
            "-c",
            DRIVER,
            point,
            how,
            "import",
            str(book),
            str(dec_trf(tmp_path / "d.trf")),
        ],
        check=False,
        capture_output=True,
        text=True,
        start_new_session=True,  # its own process group, like a command run in a terminal
        env={**os.environ, "TMPDIR": str(temp)},
        timeout=120,
    )
    assert process.returncode == 130, process.stderr
    assert f"Interrupted: {book}: the workbook was left as it was" in process.stderr
    assert "Traceback" not in process.stderr
    assert book.read_bytes() == before
    assert leftovers(tmp_path) == []
    assert list(temp.iterdir()) == []
