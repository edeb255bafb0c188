"""The rules the suite itself runs under (issue 28, finding 4): in CI it cannot pass by
skipping what it needs, and its random examples are the same at every run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).parent


def run_python(code: str, *, ci: bool, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci:
        env["CI"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_hypothesis_draws_the_same_examples_in_ci_and_keeps_no_database_there() -> None:
    """Under CI the profile is derandomized without a database; elsewhere examples are fresh
    and a failing one is kept in .hypothesis/ (ignored by git) to be tried first next time."""
    code = (
        "import conftest\n"
        "from hypothesis import settings\n"
        "print(settings.default.derandomize, settings.default.database)\n"
    )
    assert run_python(code, ci=True, cwd=TESTS) == "True None"
    derandomized, database = run_python(code, ci=False, cwd=TESTS).split(" ", 1)
    assert derandomized == "False"
    assert ".hypothesis" in database
    ignored = (TESTS.parent / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert ".hypothesis/" in ignored


def test_without_the_corpus_ci_fails_and_a_checkout_elsewhere_skips(tmp_path: Path) -> None:
    """The corpus tests in a checkout with no ../shared beside it: skipped there, failed
    under CI (they once skipped silently in CI too)."""
    checkout = tmp_path / "checkout"
    (checkout / "tests" / "app").mkdir(parents=True)
    for name in ("conftest.py", "helpers.py"):
        shutil.copy(TESTS / name, checkout / "tests" / name)
    shutil.copy(TESTS / "app" / "test_corpus.py", checkout / "tests" / "app")
    shutil.copytree(TESTS / "data", checkout / "tests" / "data")
    assert not (tmp_path / "shared").exists()

    def pytest_there(ci: bool) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k != "CI"}
        if ci:
            env["CI"] = "1"
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "-o",
                "pythonpath=tests",
                "--rootdir",
                str(checkout),
                "tests/app/test_corpus.py::test_the_corpus_is_there",
            ],
            cwd=checkout,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )

    elsewhere = pytest_there(ci=False)
    assert elsewhere.returncode == 0, elsewhere.stdout
    assert "1 skipped" in elsewhere.stdout
    in_ci = pytest_there(ci=True)
    assert in_ci.returncode == 1, in_ci.stdout
    assert "0 workbooks, not 1138" in in_ci.stdout
