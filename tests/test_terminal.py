"""Names reach the terminal with their control characters shown (issue 32, finding 12): a
player's name holding ``ESC ] 0 ; … BEL`` set the terminal's title when `import` listed
`New players:`, and cursor moves (``ESC [ 1 A``, ``ESC [ 2 K``) or a carriage return in a name
could hide an `Error:` line printed by `standings` or `check`. Each is printed as its escape
(`\\x1b`, `\\r`); what JSON and CSV written to a file or a pipe hold is the name as written.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import rally_sheets, write_book

from xlrally.cli import cli
from xlrally.formats.terminal import visible

TITLE = "Bobby\x1b]0;pwned\x07"
"""Sets the window's title to 'pwned' when printed raw (xterm's OSC 0)."""
HIDES = "José\x1b[1A\x1b[2K"
"""Moves up a line and clears it: the line before is gone."""
CONTROLS = "\x00\x01\x07\x08\x0b\x0c\r\x1b\x7f\x85\x9b\u202e\u2066"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def _no_controls(text: str) -> None:
    assert not [c for c in text if c in CONTROLS], repr(text)


def _league(tmp_path: Path) -> Path:
    """The rally seed league with its two players renamed as an attacker would."""
    sheets = rally_sheets()
    for row in sheets["Results"][1:]:
        row[1] = {"Bobby": TITLE, "José": HIDES}[row[1]]
    return write_book(tmp_path / "rally.xlsx", sheets)


def test_every_control_character_is_shown_as_its_escape() -> None:
    """C0 (but new line and tab), DEL, C1 and the bidirectional overrides and isolates."""
    shown = visible(f"a{CONTROLS}b\n\tc")
    assert shown == ("a\\x00\\x01\\x07\\x08\\x0b\\x0c\\r\\x1b\\x7f\\x85\\x9b\\u202e\\u2066b\n\tc")


@pytest.mark.parametrize("command", ["standings", "check", "sync"])
def test_names_printed_by_a_command_show_their_controls(tmp_path: Path, command: str) -> None:
    """The text table, check's lists and sync's warnings print ``Bobby\\x1b]0;pwned\\x07``."""
    path = _league(tmp_path)
    code, out, err = _run(command, str(path))
    assert code == 0, err
    _no_controls(out + err)
    if command == "standings":
        assert "Bobby\\x1b]0;pwned\\x07" in out
    if command != "sync":  # check lists the players new after the first event: José
        assert "José\\x1b[1A\\x1b[2K" in out


def test_an_imported_name_with_controls_is_refused_and_shown(tmp_path: Path) -> None:
    """The import refuses a control character in a value (issue 27); the Error line names
    the value with its controls shown, so the refusal itself cannot set the title."""
    path = write_book(tmp_path / "rally.xlsx", rally_sheets())
    table = tmp_path / "june.csv"
    table.write_text(f"Player,Points,Games\n{TITLE},2,3\nJosé,1,3\n", encoding="utf-8")
    code, out, err = _run("import", str(path), str(table), "--event", "Jun 2026", "--rounds", "3")
    assert code == 1
    _no_controls(out + err)
    assert "'Bobby\\x1b]0;pwned\\x07'" in err


def test_an_error_line_cannot_be_hidden(tmp_path: Path) -> None:
    """A file name that moves the cursor: the Error line is printed whole, controls shown."""
    path = tmp_path / "x\x1b[2K\r.xlsx"
    path.write_bytes(b"not a workbook")
    code, _out, err = _run("check", str(path))
    assert code == 1
    _no_controls(err)
    assert err.startswith("Error: ")
    assert "x\\x1b[2K\\r.xlsx" in err


def test_json_and_csv_for_a_program_hold_the_names_as_written(tmp_path: Path) -> None:
    """Not a terminal (CliRunner's output is a pipe): JSON escapes controls itself and reads
    back as the name; CSV keeps the name as the workbook has it."""
    path = _league(tmp_path)
    code, out, _ = _run("standings", str(path), "-f", "json")
    assert code == 0
    assert {r["player"] for r in json.loads(out)["standings"]} == {TITLE, HIDES}
    code, out, _ = _run("standings", str(path), "-f", "csv")
    assert code == 0
    assert TITLE in out


def test_csv_printed_on_a_real_terminal_shows_the_controls(tmp_path: Path) -> None:
    """On a terminal (a pseudo-terminal, as a terminal window gives a program) CSV shows its
    controls as the text table does: the program reading it is a person."""
    path = _league(tmp_path)
    main, child = os.openpty()
    command = [sys.executable, "-c", "from xlrally.cli import main; main()"]
    with subprocess.Popen(
        [*command, "standings", str(path), "-f", "csv"], stdout=child, stderr=child
    ) as process:
        os.close(child)
        out = b""
        while chunk := _read(main):
            out += chunk
        assert process.wait() == 0, out
    os.close(main)
    text = out.decode("utf-8")
    _no_controls(text.replace("\r\n", "\n"))  # the terminal's own line ends
    assert "Bobby\\x1b]0;pwned\\x07" in text


def _read(fd: int) -> bytes:
    """What the pseudo-terminal has, until the program closes it (EIO on Linux)."""
    try:
        return os.read(fd, 65536)
    except OSError:
        return b""
