"""Shared fixtures: the seed cases, loaded once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"

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
