"""xlwings Lite runs Python inside Excel in Pyodide: the built xlrally wheel and xlwings' own
pure-Python wheel, loaded in real Pyodide under Node (npm's ``pyodide`` package), compute the
seeds' worked cases with the Excel functions, and the Lite Refresh script writes the
hand-worked standings. No xlwings licence is needed: only xlwings' open-source core is used.

Needs Node and npm (.ci/run installs them); the first run downloads Pyodide from npm into
``~/.cache/xlrally`` and builds the wheels (about 20 s), later runs take about 5 s.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from conftest import SEED
from helpers import RALLY_SHEETS, npm_package, program

ROOT = Path(__file__).resolve().parents[2]
LITE = ROOT / "tests" / "lite"
PYODIDE = "314.0.7"
"""npm's pyodide package: Python 3.14, the Pyodide of xlwings Lite in 2026."""


@pytest.fixture(scope="module")
def pyodide_folder() -> Path:
    """A folder with npm's pyodide package installed (kept between runs)."""
    return npm_package("pyodide", PYODIDE, marker="pyodide.asm.wasm")


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """xlrally built from this checkout, and xlwings' pure-Python wheel of the installed
    version (what xlwings Lite itself provides)."""
    out = tmp_path_factory.mktemp("wheels")
    pip = [sys.executable, "-m", "pip"]
    subprocess.run(
        [*pip, "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    pure = ["--only-binary=:all:", "--platform", "any", "--python-version", "3.14"]
    subprocess.run(
        [
            *pip,
            "download",
            "-q",
            "--no-deps",
            *pure,
            "-d",
            str(out),
            f"xlwings=={version('xlwings')}",
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return sorted(out.glob("*.whl"))


def league() -> dict[str, list[list[Any]]]:
    """RALLY_SHEETS (hand-worked in tests/helpers.py: Bobby 100, José 54), dates as ISO text."""
    return {
        name: [[v.isoformat() if isinstance(v, dt.date) else v for v in row] for row in rows]
        for name, rows in RALLY_SHEETS.items()
    }


def test_functions_and_refresh_run_in_pyodide(
    pyodide_folder: Path, wheels: list[Path], tmp_path: Path
) -> None:
    rally = SEED["rally_event_score"]["cases"]
    neau = SEED["neau_points"]["cases"]
    counted = SEED["rally_events_counted"]["cases"]
    calls = [
        *(["RALLY_SCORE", [c["points"], c["rounds"], c["byes"], c["games"]]] for c in rally),
        *(["NEAU_POINTS", [c["a"], c["b"], c["c"], c["d"]]] for c in neau),
        ["RALLY_BEST_N", [[[held] for held, _ in counted]]],
        ["RALLY_SCORE", [[[3.0], [0.0]], 4.0, [[0.0], [0.0]]]],
    ]
    task = tmp_path / "input.json"
    task.write_text(json.dumps({"calls": calls, "league": league()}), encoding="utf-8")
    node = program("node")
    run = subprocess.run(
        [node, str(LITE / "run_in_pyodide.mjs"), str(LITE / "check_in_pyodide.py"), str(task)]
        + [str(w) for w in wheels],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYODIDE_DIR": str(pyodide_folder)},
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    answer = json.loads(run.stdout.strip().splitlines()[-1])
    assert answer["platform"] == "emscripten"
    expected = [
        *(c["score"] for c in rally),
        *(pytest.approx(c["points"]) for c in neau),
        [[n] for _, n in counted],
        [[79], [4]],  # 0 points in 4 rounds scores the 4 games: a value, not a blank
    ]
    assert answer["answers"] == expected
    standings = answer["standings"]
    assert [row[1:3] for row in standings[1:3]] == [["Bobby", 100], ["José", 54]]
    assert answer["alerts"][0][:2] == ["xlrally", "info"]
