"""The published page at 1366 × 768 (the commonest laptop screen) and 390 × 844 (a phone), in
real Chromium (issue 32, finding 8; issue 33): every event column can be scrolled to and is
then seen, the double-points final among them; the table's sideways scroll bar is on screen;
the page itself never scrolls sideways; Rank and Player stay in view.

At 1366 px the last event columns of a 40-player, 20-event league could only be reached
from the scroll bar at the foot of the table, below the window, and the page scrolled sideways
as a whole (the screen readers' "dropped" texts, positioned outside the table's box, made it
wider than the window). The script (tests/browser/layout.mjs) measures the laid-out page: a
column is seen when the point at its middle shows that cell. Screenshots of each size, at the
start and scrolled to the far right, are written to $XLRALLY_SHOTS (else the test's folder).

Needs Node, npm and Chromium (.ci/run installs them).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import subprocess
from pathlib import Path

import pytest
from bench_page import league as season
from helpers import npm_package, program

from xlrally.core.league import compute_standings
from xlrally.core.model import League
from xlrally.formats.page import standings_page

PUPPETEER = "23.11.1"
SIZES = ("1366x768", "390x844")
SCRIPT = Path(__file__).resolve().parents[1] / "browser" / "layout.mjs"
FINAL = "Final (double points)"


def league_with_a_final() -> League:
    """40 players over 20 weekly events, the last a double-points final."""
    made = season("rally", 40, 20)
    last = made.events[-1].name
    events = (*made.events[:-1], dataclasses.replace(made.events[-1], name=FINAL, weight=2))
    results = tuple(r._replace(event=FINAL) if r.event == last else r for r in made.results)
    return dataclasses.replace(made, events=events, results=results)


def laid_out(page: Path, shots: Path) -> dict[str, dict[str, object]]:
    run = subprocess.run(
        [
            program("node"),
            str(SCRIPT),
            program("chromium", "chromium-browser"),
            page.as_uri(),
            str(shots),
            *SIZES,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PUPPETEER_DIR": str(npm_package("puppeteer-core", PUPPETEER))},
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    found: dict[str, dict[str, object]] = json.loads(run.stdout.strip().splitlines()[-1])
    return found


@pytest.fixture(scope="module")
def layout(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    folder = tmp_path_factory.mktemp("layout")
    page = folder / "page.html"
    standings = compute_standings(league_with_a_final())
    page.write_text(standings_page(standings, dt.datetime(2026, 5, 1, 9, 0)), encoding="utf-8")
    shots = Path(os.environ.get("XLRALLY_SHOTS") or folder)
    shots.mkdir(parents=True, exist_ok=True)
    return laid_out(page, shots)


@pytest.mark.parametrize("size", SIZES)
def test_every_column_can_be_scrolled_to_and_seen(
    layout: dict[str, dict[str, object]], size: str
) -> None:
    """Each heading and the first row's cell under it, once scrolled to, are what shows at
    their middle: the final's column too."""
    columns = layout[size]["columns"]
    assert isinstance(columns, list)
    headings = [c["text"] for c in columns]
    assert headings[:4] == ["Rank", "Player", "Total", "Events"]
    assert headings[-2:] == [FINAL, "Working"]
    assert len(headings) == 4 + 20 + 1
    unseen = [c["text"] for c in columns if not (c["heading"] and c["cell"])]
    assert unseen == []


@pytest.mark.parametrize("size", SIZES)
def test_the_scroll_bar_is_on_screen_and_the_page_never_scrolls_sideways(
    layout: dict[str, dict[str, object]], size: str
) -> None:
    """The table's box, scrolled to the top of the window, fits in it (its own sideways scroll
    bar with it) and scrolls sideways; the page is no wider than the window."""
    found = layout[size]
    assert found["boxScrolls"] is True
    assert found["boxFits"] is True
    assert found["pageWidth"] == found["windowWidth"]


@pytest.mark.parametrize("size", SIZES)
def test_rank_and_player_stay_in_view(layout: dict[str, dict[str, object]], size: str) -> None:
    """Scrolled to the far right and a third of the way down, the Rank and Player headings and
    every row's rank and name in the box are still seen."""
    right = layout[size]["right"]
    assert isinstance(right, dict)
    assert right["scrolledRight"] is True
    assert right["headings"] is True
    assert right["rows"] >= 5
    assert all(right["names"])
