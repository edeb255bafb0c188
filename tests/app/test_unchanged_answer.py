"""``xlrally sync FILE`` of a file unchanged since xlrally wrote it is answered before the
command line is loaded (xlrally/entry.py, issue 33), and the answer is the command line's own:
the same lines on the same streams, the same exit code, the same clean-up beside the file.

Each case runs the real command twice in fresh processes: through the entry point
(``python -m xlrally``, as the ``xlrally`` script does) and straight through click
(``xlrally.cli.main``), and compares what each printed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from helpers import RALLY_SHEETS, write_book

from xlrally.app.sync import sync_file
from xlrally.ooxml.temporaries import TEMP_SUFFIX, temp_prefix

ENTRY = [sys.executable, "-m", "xlrally"]
CLICK = [sys.executable, "-c", "from xlrally.cli import main; main()"]
"""The command line itself, without the entry point's answer (``-c`` leaves the arguments
after it in ``sys.argv[1:]``, where click reads them)."""


def run(
    command: list[str], *arguments: str, env: dict[str, str] | None = None
) -> tuple[int, str, str]:
    done = subprocess.run(
        [*command, *arguments],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        errors="replace",
    )
    return done.returncode, done.stdout, done.stderr


def league_with_a_warning(folder: Path, name: str = "league.xlsx") -> Path:
    """The seed's rally league with 'Boby' beside 'Bobby' (names one letter apart: a warning
    at each sync), synced."""
    results = [*RALLY_SHEETS["Results"], ["May 2026", "Boby", 1, 4, 0]]
    path = write_book(folder / name, {**RALLY_SHEETS, "Results": results})
    first = sync_file(path)
    assert first.result == "written"
    assert first.warnings
    return path


def loaded_by_the_answer(path: Path) -> list[str]:
    """The modules of the command line and of the reading code that answering loads."""
    code = (
        "import sys; from xlrally import entry; sys.argv = ['xlrally', 'sync', sys.argv[1]]; "
        "entry.main(); "
        "heavy = ('click', 'xlrally.cli', 'xlrally.api', 'xlrally.ooxml.package', "
        "'xlrally.core.league', 'python_calamine'); "
        "import json; print(json.dumps(sorted(m for m in sys.modules if m.startswith(heavy))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    return list(json.loads(done.stdout.splitlines()[-1]))


def test_an_unchanged_file_is_answered_as_the_command_line_answers(tmp_path: Path) -> None:
    """The warning the last sync counted on stderr, the summary on stdout, exit code 0: word
    for word what click's command prints, without loading click or the reading code."""
    path = league_with_a_warning(tmp_path)
    answer = run(ENTRY, "sync", str(path))
    assert answer == run(CLICK, "sync", str(path))
    code, out, err = answer
    assert code == 0
    assert out == f"{path}: unchanged (3 players, 2 events)\n"
    assert err.startswith(f"Warning: {path}: 1 warning at its last sync, unchanged since")
    assert loaded_by_the_answer(path) == []


def test_a_changed_file_an_option_or_a_folder_goes_to_the_command_line(tmp_path: Path) -> None:
    """Only ``sync FILE`` of an unchanged file is answered early; a file saved since, a
    ``--jobs``, a folder, or a file of another kind is the command line's, which syncs it."""
    path = league_with_a_warning(tmp_path)
    os.utime(path)  # a touch is no change: the answer is still "unchanged"
    assert run(ENTRY, "sync", str(path))[1].endswith("unchanged (3 players, 2 events)\n")
    assert run(ENTRY, "sync", "--jobs", "1", str(path)) == run(CLICK, "sync", "-j", "1", str(path))
    assert run(ENTRY, "sync", str(tmp_path)) == run(CLICK, "sync", str(tmp_path))
    text = tmp_path / "notes.txt"
    text.write_text("not a workbook")
    assert run(ENTRY, "sync", str(text)) == run(CLICK, "sync", str(text))
    assert run(ENTRY, "sync", str(text))[0] == 1

    edited = write_book(tmp_path / "edited.xlsx", RALLY_SHEETS)
    assert sync_file(edited).result == "written"
    write_book(edited, RALLY_SHEETS)  # saved again by another program: no record of a sync
    code, out, _ = run(ENTRY, "sync", str(edited))
    assert (code, out) == (0, f"{edited}: written (2 players, 2 events)\n")


def test_the_answer_removes_abandoned_temporary_files_as_a_sync_does(tmp_path: Path) -> None:
    """A temporary file a power cut left beside the workbook more than an hour ago goes; one
    written a minute ago (a sync at work) stays."""
    path = league_with_a_warning(tmp_path)
    old = tmp_path / f"{temp_prefix(path)}abandoned{TEMP_SUFFIX}"
    new = tmp_path / f"{temp_prefix(path)}working{TEMP_SUFFIX}"
    for leftover, age in ((old, 2 * 3600), (new, 60)):
        leftover.write_bytes(b"PK")
        os.utime(leftover, (time.time() - age,) * 2)
    assert run(ENTRY, "sync", str(path))[0] == 0
    assert not old.exists()
    assert new.exists()


def test_a_name_the_terminal_cannot_show_is_left_to_the_command_line(tmp_path: Path) -> None:
    """In an ASCII-only terminal a file named 'Müller.xlsx' is printed as click prints it
    (with the letter replaced), not as an error."""
    path = league_with_a_warning(tmp_path, "Müller.xlsx")
    ascii_only = {**os.environ, "PYTHONIOENCODING": "ascii"}
    answer = run(ENTRY, "sync", str(path), env=ascii_only)
    assert answer == run(CLICK, "sync", str(path), env=ascii_only)
    assert answer[0] == 0
