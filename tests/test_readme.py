"""The README says what its test command runs (issue 32, finding 9): it said "what CI runs,
with ruff and mypy" above a command that runs only pytest. The command is one of CI's; every
other check CI runs after it is named beside it, and `make check` runs them all."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent


def _checks(text: str) -> list[str]:
    """The `python -m <tool> ...` commands in a script or recipe, as written after `-m`."""
    return [" ".join(m.split()) for m in re.findall(r"python -m ([^\n&;]+)", text)]


def test_the_readme_test_command_is_cis_and_names_what_it_leaves_out() -> None:
    """The README's second command runs CI's first check; its heading names each other one."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    heading, command = re.findall(r"\n([^\n]*):\n\n```sh\n([^\n]*)\n```", readme)[1]
    ci = _checks((ROOT / ".ci" / "run").read_text(encoding="utf-8"))
    ran = _checks(command)
    assert ran == ci[: len(ran)], (ran, ci)
    for left in ci[len(ran) :]:
        assert left.split()[0] in heading, (left, heading)
    assert "make check" in heading


def test_make_check_runs_what_ci_runs() -> None:
    """`make check` (lint, type, test) runs CI's checks, each as CI writes it."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8").replace("$(PY)", "python")
    assert re.search(r"^check: lint type test$", makefile, re.M)
    recipes = dict(re.findall(r"^(\w+):\n((?:\t[^\n]*\n)+)", makefile, re.M))
    ran = [c for target in ("lint", "type", "test") for c in _checks(recipes[target])]
    ci = _checks((ROOT / ".ci" / "run").read_text(encoding="utf-8"))
    assert sorted(ran) == sorted(ci)
