"""Shared fixtures: the seed cases (loaded once), full syncs; the rules the suite runs under."""

from __future__ import annotations

import itertools
import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

DATA = Path(__file__).parent / "data"
SHARED = Path(__file__).resolve().parents[2] / "shared"
"""``../shared`` beside the checkout: the seeds, the real workbooks (``corpus``), TRF files."""
IN_CI = bool(os.environ.get("CI"))
"""In CI (.ci/run sets CI) nothing the tests need may be missing: a test that would skip for
want of a program or of ``../shared/corpus`` fails instead."""

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
"""CI: hypothesis draws the same examples at every run (derandomized), so a run that passes
was not lucky and a failure comes back; no example database is written there."""
settings.register_profile("dev", print_blob=True)
"""Elsewhere: fresh examples each run, and a failing one is kept in ``.hypothesis/`` (not in
the repository, see .gitignore) and tried first next time."""
settings.load_profile("ci" if IN_CI else "dev")

if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
"""A suite started in the background by a script (``pytest &``) inherits Ctrl-C ignored, and
so would every command it runs: the stop tests need Ctrl-C as a terminal delivers it."""

collect_ignore = ["lite"]
"""Scripts that run inside Pyodide (tests/excel/test_pyodide.py runs them), not here."""


def load_seed_cases() -> dict[str, Any]:
    """The worked numbers from the seed documents (tests/data/seed_cases.json)."""
    with (DATA / "seed_cases.json").open(encoding="utf-8") as f:
        return json.load(f)  # type: ignore[no-any-return]


SEED = load_seed_cases()


@pytest.fixture
def seed() -> dict[str, Any]:
    return SEED


_CACHES = itertools.count()


@pytest.fixture(autouse=True)
def _own_cache_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """xlrally's cache folder (:mod:`xlrally.app.rechecked`) is each test's own, for the test
    and for the commands it starts: a test never reads the user's, nor what another test
    remembered (made only when something is written in it)."""
    from xlrally.app.rechecked import CACHE_VARIABLE

    folder = tmp_path_factory.getbasetemp() / "caches" / str(next(_CACHES))
    monkeypatch.setenv(CACHE_VARIABLE, str(folder))


@pytest.fixture
def full_syncs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sync reads and computes, even of a file unchanged since xlrally wrote it
    (:data:`xlrally.app.sync.SKIP_UNCHANGED` off): the writer's own no-change path is then
    what leaves such a file alone, and what a test of a second sync checks."""
    from xlrally.app import sync

    monkeypatch.setattr(sync, "SKIP_UNCHANGED", False)


@pytest.fixture(autouse=True)
def _in_process_under_mutmut(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under `make mutate` (mutmut sets MUTANT_UNDER_TEST), xlrally works in the test's own
    process, as it does where there is no fork (isolate.AVAILABLE False): mutmut records which
    tests reach which function only in its own process, and switches a mutant on there, so
    code run in a worker child would be missed (its mutants reported as survivors that no test
    had a chance to kill). The isolation itself is tested by tests/app/test_isolate.py and
    test_batch.py, which `make mutate` does not select."""
    if "MUTANT_UNDER_TEST" in os.environ:
        from xlrally.app import isolate

        monkeypatch.setattr(isolate, "AVAILABLE", False)


@pytest.fixture(autouse=True, scope="session")
def _fresh_caches_under_mutmut() -> None:
    """Under `make mutate`, each mutant's tests run in a child forked from a process that has
    already run the tests once, unmutated: the functions' result caches (``lru_cache``, as on
    the scorers and :func:`~xlrally.core.numbers.show`) would hand the child the unmutated
    results, so a mistake inside a cached function would never be seen. They are emptied once
    at the start of each child's session."""
    if "MUTANT_UNDER_TEST" not in os.environ:
        return
    import sys

    for name, module in list(sys.modules.items()):
        if name.split(".")[0] not in {"xlrally", "udfs"} or module is None:
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()
