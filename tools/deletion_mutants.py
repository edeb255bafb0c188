"""Deletion mutants over the write path's safety calls (issue 28, finding 6), run by `make mutate`.

mutmut changes tokens (``<`` for ``<=``, a string, an argument); it never deletes a call, and
deleting a call is exactly how a safety net is lost: the check before a new file replaces the
user's never run, the cell-format check skipped, a cleanup gone. Each mutant here removes one
safety statement (a call, a ``raise``, an early ``return``) or turns a loop's ``continue`` into
``break``, in a copy of the checkout, and runs the write path's tests against it; a mutant the
tests do not notice is a safety call no test shows to be needed.

    python tools/deletion_mutants.py [--only NAME ...] [--report FILE] [-k EXPR]

Each mutant names its function (``Class.method`` or a function name, found by the parser in
whichever module of ``xlrally/`` defines it, so modules may be split or moved) and the text of
the statement to remove; a mutant whose function or statement is no longer found, or found
twice, stops the run with a message (update :data:`MUTANTS`). The unmutated copy must pass the
tests first. ``--report`` writes the table (markdown) that docs/testing.md quotes.
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPIED = ("xlrally", "udfs", "tests", "tools", "benchmarks", "examples", "docs")
COPIED_FILES = ("pyproject.toml", "README.md", "workbook_template.xlsx")

TESTS = (
    "tests/app/test_write_safety.py",
    "tests/app/test_unchanged_full_sync.py",
    "tests/app/test_standings_fonts.py",
    "tests/app/test_writer_rules.py",
    "tests/app/test_skip.py",
    "tests/app/test_sync.py",
    "tests/app/test_lossless.py",
    "tests/app/test_real_files.py",
    "tests/app/test_messages.py",
    "tests/app/test_import.py",
    "tests/app/test_import_commit.py",
    "tests/app/test_batch.py",
    "tests/app/test_isolate.py",
    "tests/app/test_interrupts.py",
    "tests/app/test_crash.py",
    "tests/ooxml",
    "tests/test_cli.py",
)
"""The tests of the write path (every test that syncs, imports or stages a file, the crash and
interrupt tests included); not the corpus (minutes), which the normal suite runs."""


@dataclass(frozen=True)
class Mutant:
    """Remove the statement of ``function`` whose text contains ``statement`` (the innermost
    such statement), or with ``to_break``, turn that ``continue`` into ``break``."""

    name: str
    function: str
    statement: str
    why: str
    to_break: bool = False
    unobservable: str = ""
    """Why no test can notice this mutant (then its survival is expected and said so)."""
    occurrence: int | None = None
    """Which of several such statements (in source order), where the text is not unique."""


MUTANTS = (
    Mutant("stage: check()", "stage", "check()", "the plan is never verified"),
    Mutant("verify: styles.verify()", "verify", "styles.verify()", "the cell-format check skipped"),
    Mutant("verify: namespaces", "verify", "check_namespaces(", "parts not checked as XML"),
    Mutant(
        "verify: relationship ids",
        "verify",
        'raise WorkbookError(f"{part}: a relationship id',
        "a relationship id used twice is written",
    ),
    Mutant(
        "verify: sheet ids",
        "verify",
        'raise WorkbookError(f"{workbook}: a sheet id',
        "a sheet id used twice is written",
    ),
    Mutant(
        "verify: lost sheet part",
        "verify",
        "raise WorkbookError(f\"{workbook}: sheet {sheet.get('', 'name')!r} lost its part\")",
        "a sheet whose relationship is gone is written",
    ),
    Mutant("Styles.verify: raise", "Styles.verify", "raise WorkbookError(", "wrong looks pass"),
    Mutant(
        "_mismatch: the font's bold and italic",
        "_mismatch",
        'return f"font {font_id} is not bold',
        "a wrong font passes",
    ),
    Mutant("stage: continue -> break", "stage", "continue", "parts after a dropped one lost", True),
    Mutant(
        "stage: no change, no write",
        "stage",
        "if not edit.changed and not edit.dropped",
        "an unchanged file is rewritten",
    ),
    Mutant("stage: carry identity", "stage", "_carry_identity(", "owner, mode, ACLs lost"),
    Mutant(
        "stage: remove the temporary file on failure",
        "stage",
        "temp.unlink(missing_ok=True)",
        "a failed write leaves its temporary file",
    ),
    Mutant(
        "stage: fsync",
        "stage",
        "os.fsync(out.fileno())",
        "the new file may not be on disk at the rename",
        unobservable="only a power cut between the rename and the disk write shows it",
    ),
    Mutant("stage_sheet: refuse to replace", "stage_sheet", "refuse_to_replace(", "no refusals"),
    Mutant(
        "refuse: open elsewhere",
        "_refuse_to_replace",
        "the workbook is open in Excel",
        "an open workbook is replaced",
    ),
    Mutant(
        "refuse: read-only",
        "_refuse_to_replace",
        '"the workbook is read-only',
        "read-only replaced",
    ),
    Mutant("refuse: hard links", "_refuse_to_replace", "hard links; syncing", "hard links split"),
    Mutant("identity: mode", "_carry_identity", "os.chmod(", "the file's mode is lost"),
    Mutant("identity: owner", "_carry_identity", "os.chown(", "the file's owner is lost"),
    Mutant("identity: xattrs", "_carry_identity", "os.setxattr(", "ACLs and labels lost"),
    Mutant(
        "commit: changed meanwhile",
        "Staged.commit",
        "if file_identity(self.real) != identity(self.opened):",
        "another program's save is overwritten",
    ),
    Mutant("commit: discard on failure", "Staged.commit", "self.discard()", "litter on refusal"),
    Mutant(
        "commit: fsync the folder",
        "Staged.commit",
        "_fsync_folder(",
        "the rename may not be on disk",
        unobservable="only a power cut right after the rename shows it",
    ),
    Mutant("full_sync: discard", "full_sync", "staged.discard()", "litter when interrupted"),
    Mutant("import: read back", "plan_import", "_read_back(", "an import's cells not read back"),
    Mutant("import: discard", "import_into", "staged.discard()", "litter when interrupted"),
    Mutant(
        "died: remove its temporary file",
        "explain_failure",
        "leftover.unlink(missing_ok=True)",
        "a killed worker's temporary file stays",
    ),
    Mutant(
        "batch: stale temporaries", "clean_stale_temporaries", "leftover.unlink()", "litter stays"
    ),
    Mutant("run: remove the folder", "_run", "folder.remove()", "the result folder stays"),
    Mutant(
        "run: remove abandoned folders",
        "remove_abandoned",
        "shutil.rmtree(folder, ignore_errors=True)",
        "killed runs' folders pile up",
        occurrence=1,  # the second: a locked folder's (the first is a half-made one's)
    ),
)


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """Every function of a module by name, methods as ``Class.method``."""
    found: dict[str, ast.FunctionDef] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    found[f"{node.name}.{item.name}"] = item
    return found


def locate(package: Path, mutant: Mutant) -> tuple[Path, int, int, int]:
    """The file, first and last line (1-based) and indentation of the statement to remove."""
    places = []
    for path in sorted(package.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        function = _functions(ast.parse(source)).get(mutant.function)
        if function is None:
            continue
        statements = [
            node
            for node in ast.walk(function)
            if isinstance(node, ast.stmt)
            and node is not function
            and mutant.statement in (ast.get_source_segment(source, node) or "")
        ]
        if mutant.to_break:
            statements = [s for s in statements if isinstance(s, ast.Continue)]
        innermost = [
            s for s in statements if not any(o is not s and _inside(o, s) for o in statements)
        ]
        innermost.sort(key=lambda s: s.lineno)
        if mutant.occurrence is not None:
            innermost = innermost[mutant.occurrence : mutant.occurrence + 1]
        places += [(path, s.lineno, s.end_lineno or s.lineno, s.col_offset) for s in innermost]
    if len(places) != 1:
        raise SystemExit(
            f"mutant {mutant.name!r}: {len(places)} statements of {mutant.function} contain "
            f"{mutant.statement!r} (one expected): update MUTANTS in {Path(__file__).name}"
        )
    return places[0]


def _inside(inner: ast.stmt, outer: ast.stmt) -> bool:
    return any(node is inner for node in ast.walk(outer))


def apply(copy: Path, mutant: Mutant) -> str:
    """Mutate the copy; returns where (``file:line``)."""
    path, first, last, indent = locate(copy / "xlrally", mutant)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    if mutant.to_break:
        lines[first - 1] = lines[first - 1].replace("continue", "break", 1)
    else:
        lines[first - 1 : last] = [" " * indent + "pass  # deletion mutant\n"]
    path.write_text("".join(lines), encoding="utf-8")
    return f"{path.relative_to(copy)}:{first}"


def run_tests(copy: Path, extra: list[str]) -> tuple[bool, str, float]:
    """Run the tests in the copy (its own xlrally first on the path); passed, the first
    failing test, seconds."""
    env = {**os.environ, "PYTHONPATH": str(copy)}
    env.pop("MUTANT_UNDER_TEST", None)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:randomly", *extra, *TESTS],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    failed = next(
        (
            line.split(" ", 1)[1].split(" - ")[0]
            for line in done.stdout.splitlines()
            if line.startswith(("FAILED", "ERROR"))
        ),
        "",
    )
    return done.returncode == 0, failed, time.perf_counter() - start


def fresh_copy(folder: Path) -> Path:
    copy = folder / "checkout"
    copy.mkdir()
    for name in COPIED:
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in COPIED_FILES:
        shutil.copy(ROOT / name, copy / name)
    return copy


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--only", nargs="*", help="run only these mutants (by name)")
    parser.add_argument("--report", type=Path, help="write the table (markdown) to this file")
    parser.add_argument("-k", dest="select", help="pytest -k expression (quick checks)")
    args = parser.parse_args()
    chosen = [m for m in MUTANTS if not args.only or m.name in args.only]
    extra = ["-k", args.select] if args.select else []
    with tempfile.TemporaryDirectory(prefix="xlrally-deletions-") as folder:
        for mutant in chosen:  # every mutant found before anything runs
            locate(ROOT / "xlrally", mutant)
        copy = fresh_copy(Path(folder))
        pristine = Path(folder) / "pristine"  # the package as it was at the start
        shutil.copytree(copy / "xlrally", pristine)
        where = subprocess.run(
            [sys.executable, "-c", "import xlrally; print(xlrally.__file__)"],
            cwd=copy,
            env={**os.environ, "PYTHONPATH": str(copy)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        if not where.startswith(str(copy)):
            raise SystemExit(f"the copy's tests would import {where}, not the copy")
        passed, failed, seconds = run_tests(copy, extra)
        if not passed:
            raise SystemExit(f"the unmutated tests fail ({failed}): fix them first")
        print(f"unmutated: the tests pass ({seconds:.0f} s)", flush=True)
        rows = []
        for mutant in chosen:
            shutil.rmtree(copy / "xlrally")
            shutil.copytree(pristine, copy / "xlrally")
            place = apply(copy, mutant)
            passed, failed, seconds = run_tests(copy, extra)
            outcome = "survived" if passed else "killed"
            note = mutant.unobservable if passed and mutant.unobservable else failed
            rows.append((mutant, place, outcome, note, seconds))
            print(
                f"{outcome:8s} {seconds:5.0f} s  {mutant.name} ({place}): {note or mutant.why}",
                flush=True,
            )
    killed = sum(r[2] == "killed" for r in rows)
    expected = sum(r[2] == "survived" and bool(r[0].unobservable) for r in rows)
    unexpected = [r for r in rows if r[2] == "survived" and not r[0].unobservable]
    print(
        f"{killed} of {len(rows)} killed; {expected} survived as expected (no test can see "
        f"them); {len(unexpected)} gaps"
    )
    if args.report:
        lines = [
            "| mutant | where | what it breaks | outcome | first test that failed |",
            "|---|---|---|---|---|",
        ]
        for mutant, place, outcome, note, _ in rows:
            lines.append(f"| {mutant.name} | `{place}` | {mutant.why} | {outcome} | {note} |")
        args.report.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if unexpected:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
