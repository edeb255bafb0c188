"""Every command docs/excel.md tells a treasurer to type is run here: xlrally's for real, in
the order the page gives them, xlwings' and pip's with ``--help`` (their real programs: a
command or subcommand that does not exist fails, as `python3 -m xlwings` and `xlwings
runpython install` did)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from xlrally.app.newbook import make_new
from xlrally.cli import cli

DOCS = Path(__file__).resolve().parents[2] / "docs" / "excel.md"
PROGRAMS = ("xlrally ", "xlwings ", "python3 ")


def documented_commands() -> list[str]:
    """The commands on the page: the lines of its ``sh`` blocks and the code spans that start
    with a program's name, whitespace made single, each once, in the page's order."""
    text = DOCS.read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL):
        found += [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]
    prose = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    found += [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", prose)]
    commands = [c for c in found if c.startswith(PROGRAMS)]
    return list(dict.fromkeys(commands))


def test_the_page_has_the_commands_a_treasurer_needs() -> None:
    """The commands found include each route's first step (so the test reads the page)."""
    commands = documented_commands()
    for needed in (
        "xlrally new chess_rally.xlsm --system rally",
        "xlrally lite lite_files",
        "xlwings addin install",
        "python3 -m pip install /path/to/xlrally",
        "xlwings quickstart myleague --addin --ribbon",
    ):
        assert needed in commands
    assert not [c for c in commands if c.startswith("python3 -m xlwings ")]


def placeholder(word: str) -> bool:
    """A word the reader replaces (NEWNAME.xlsm, /path/to/..., an address with ...)."""
    return "..." in word or word.startswith("/path/") or bool(re.search(r"[A-Z]{4,}", word))


def test_every_xlrally_command_on_the_page_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run in one folder, in the page's order: `new` makes the workbook the later commands
    use; a renamed copy stands where the page renames one; a command given without its
    arguments, or with a placeholder, shows its --help."""
    monkeypatch.chdir(tmp_path)
    make_new(tmp_path / "league.xlsx", "rally")
    ran = []
    for command in documented_commands():
        words = shlex.split(command)
        if words[0] != "xlrally":
            continue
        args = words[1:]
        if len(args) == 1 or any(placeholder(w) for w in args):
            args = [args[0], "--help"]
        for name in args:
            if name == "rally_2026.xlsm" and not Path(name).exists():
                shutil.copy("chess_rally.xlsm", name)  # "after saving ... as rally_2026.xlsm"
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, (command, result.output)
        ran.append(args)
    assert ["new", "chess_rally.xlsm", "--system", "rally"] in ran
    assert (tmp_path / "lite_files" / "main.py").exists()
    assert (tmp_path / "rally_2026.py").exists()


def test_every_xlwings_and_pip_command_on_the_page_exists() -> None:
    """xlwings' own command (the console script of this Python) and pip know each command
    the page gives, down to the subcommand: each one's --help succeeds."""
    xlwings = Path(sys.executable).with_name("xlwings")
    checked = 0
    for command in documented_commands():
        words = shlex.split(command)
        if words[0] == "xlwings":
            program = [str(xlwings) if xlwings.exists() else shutil.which("xlwings") or "xlwings"]
        elif words[:2] == ["python3", "-m"]:
            program = [sys.executable]
        else:
            continue
        args = [w for w in words[1:] if not placeholder(w)]
        done = subprocess.run(
            [*program, *args, "--help"], capture_output=True, text=True, timeout=120, check=False
        )
        assert done.returncode == 0, (command, done.stderr[-500:])
        checked += 1
    assert checked >= 6


def troubleshooting() -> dict[str, str]:
    """The troubleshooting table: what you see → its why and what to do."""
    text = DOCS.read_text(encoding="utf-8").split("## Troubleshooting", 1)[1]
    rows = [line.split(" | ") for line in text.splitlines() if line.startswith("| ")]
    return {row[0].strip("| "): " | ".join(row[1:]) for row in rows[2:]}


def test_a_second_download_is_a_syntax_error_as_the_page_says() -> None:
    """The button's macro runs `import NAME;NAME.main()` (xlwings' quickstart macro, read
    from the .xlsm in tests/excel/test_live.py): for `chess_rally (1).xlsm` that line is a
    SyntaxError, not a missing module, and the page's row says so."""
    module = "chess_rally (1)"
    with pytest.raises(SyntaxError):
        compile(f"import {module};{module}.main()", "<RunPython>", "exec")
    rows = troubleshooting()
    (seen,) = [what for what in rows if "(1)" in what]
    assert seen.startswith("*SyntaxError")
    assert not [what for what in rows if "ModuleNotFoundError" in what and "(1)" in what]


def test_the_troubleshooting_rows_cover_what_misled() -> None:
    """Excel's wording for a missing xlwings reference, xlwings' fix after an upgrade (import
    the functions again, Ctrl+Alt+F9), the UDF server that keeps old code, and a wheel address
    without CORS headers."""
    rows = troubleshooting()
    assert any("Can't find project or library" in what for what in rows)
    (required,) = [fix for what, fix in rows.items() if what.startswith("*Object required*")]
    assert "Import Functions" in required
    assert "Ctrl+Alt+F9" in required
    assert any("Restart UDF Server" in fix for fix in rows.values())
    assert any("CORS" in fix for fix in rows.values())


def test_the_page_says_plainly_what_blanks_do_in_lite() -> None:
    """In Lite on the desktop a blank cell reaches a function as 0 (tests/excel/test_pyodide.py
    computes the docs' own example that way: 4 for an empty row): the page says so where the
    example is, and what to use instead (a table column)."""
    text = " ".join(DOCS.read_text(encoding="utf-8").split())
    assert (
        "=RALLY_SCORE(C2:C40, 4, E2:E40)` over a sheet with empty rows shows **4 in every empty row** on the desktop"
        in text
    )
    assert "ResultsTable[Points]" in text
