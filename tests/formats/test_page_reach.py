"""Every column of a published page can be reached on a phone and on a desktop screen (issue
14): real Chromium, driven by puppeteer-core under Node, opens a page of a 12-event league at
390 px and at 1280 px and checks, from the laid-out page, that each column heading is inside the
table's box or that the box lets the reader scroll to it (a box with hidden overflow would clip
it), and that the box fits the window.

Needs Node, npm and Chromium (.ci/run installs them); the first run installs puppeteer-core
from npm into ~/.cache/xlrally.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
from pathlib import Path

import pytest
from helpers import npm_package, program

from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.formats.page import standings_page

PUPPETEER = "23.11.1"
WIDTHS = ("390", "1280")
"""A phone and a desktop window, in CSS pixels."""
SCRIPT = Path(__file__).resolve().parents[1] / "browser" / "reach.mjs"


@pytest.fixture(scope="module")
def puppeteer() -> Path:
    return npm_package("puppeteer-core", PUPPETEER)


def test_every_column_can_be_reached_at_390_and_1280_px(puppeteer: Path, tmp_path: Path) -> None:
    events = tuple(
        Event(f"Week {n:02d}", dt.date(2026, 1, 1) + dt.timedelta(weeks=n)) for n in range(1, 13)
    )
    results = tuple(
        Result(e.name, f"Player Number {i:02d}", rank=(i + n) % 30 + 1)
        for n, e in enumerate(events)
        for i in range(30)
    )
    league = League(Settings("reverse", league="Club League"), events, results)
    page = tmp_path / "page.html"
    page.write_text(standings_page(compute_standings(league)), encoding="utf-8")
    run = subprocess.run(
        [
            program("node"),
            str(SCRIPT),
            program("chromium", "chromium-browser"),
            page.as_uri(),
            *WIDTHS,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PUPPETEER_DIR": str(puppeteer)},
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    expected = ["Rank", "Player", "Total", "Events", *(e.name for e in events), "Working"]
    for width in WIDTHS:
        assert [h["text"] for h in seen[width]] == expected
        assert all(h["visible"] for h in seen[width]), (width, seen[width])
