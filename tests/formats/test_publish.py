"""The published page: rows, escaping of hostile names, no network, and a real browser."""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import re
import shutil
import subprocess
from pathlib import Path

import pypdf
import pytest
import xlsxwriter
from bench_page import league as big_league
from click.testing import CliRunner
from helpers import RALLY_SHEETS, program
from remake_examples import EXAMPLES_FOLDER, PAGES_FOLDER

from xlrally.app.sync import last_saved, read_standings
from xlrally.cli import cli
from xlrally.core.league import compute_standings
from xlrally.core.model import Event, League, Result, Settings
from xlrally.core.systems import SYSTEMS
from xlrally.excel.template import FIXED_DATE
from xlrally.formats.page import standings_page

HOSTILE = "<script>document.title='pwned'</script>"
IMG = "<img src=x onerror=\"document.title='pwned'\">"


def hostile_league() -> League:
    return League(
        Settings("rally", league="Club & <Friends>", season="2026"),
        (
            Event("Dec 2025", dt.date(2025, 12, 6), rounds=4),
            Event(IMG, dt.date(2026, 1, 10), rounds=4),
        ),
        (
            Result("Dec 2025", HOSTILE, points=3),
            Result("Dec 2025", "Ann", points=2),
            Result(IMG, "Ann", points=4),
        ),
    )


def test_page_escapes_and_is_self_contained() -> None:
    """User text never becomes markup; the page asks for nothing over the network."""
    page = standings_page(compute_standings(hostile_league()), dt.datetime(2026, 1, 11, 9, 30))
    assert HOSTILE not in page
    assert "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;" in page
    assert "<img" not in page
    assert "Club &amp; &lt;Friends&gt; 2026" in page
    assert not re.search(r"(src|href)=[\"']?(https?:)?//", page)
    assert "<script" not in page.lower()
    assert '<html lang="en">' in page
    assert 'scope="col"' in page
    assert "updated 2026-01-11 09:30" in page


def test_page_shows_rule_working_and_marks() -> None:
    """Rule in words, dropped scores bracketed, each score's working on demand."""
    table = compute_standings(hostile_league())
    page = standings_page(table)
    assert "All 2 events count" in page
    assert "100 × 4 / 4 + 4 = 104" in page  # Ann's working for the second event
    assert '<td class="c">104<' in page


def run_chromium(*args: str, tmp: Path) -> str:
    command = [
        program("chromium", "chromium-browser", "google-chrome"),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp / 'profile'}",
        *args,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_page_in_headless_chromium(tmp_path: Path) -> None:
    """Chromium renders the rows; the hostile name is text and its script never runs."""
    page = tmp_path / "standings.html"
    page.write_text(standings_page(compute_standings(hostile_league())), encoding="utf-8")
    dom = run_chromium("--dump-dom", page.as_uri(), tmp=tmp_path)
    assert "<title>Club &amp; &lt;Friends&gt; 2026 – standings</title>" in dom
    assert "pwned</title>" not in dom
    standings = dom[: dom.index('id="players-title"')]
    rows = re.findall(r"<tr>.*?</tr>", standings, re.DOTALL)
    assert len(rows) == 1 + 2  # header and two players
    assert "&lt;script&gt;" in dom
    shot = tmp_path / "phone.png"
    run_chromium("--window-size=412,915", f"--screenshot={shot}", page.as_uri(), tmp=tmp_path)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_example_pages_are_up_to_date(system: str) -> None:
    """docs/examples/<system>.html is what `python tools/remake_examples.py` makes now."""
    made = standings_page(read_standings(EXAMPLES_FOLDER / f"{system}.xlsx"), FIXED_DATE)
    assert (PAGES_FOLDER / f"{system}.html").read_text(encoding="utf-8") == made


def test_the_page_is_dated_by_the_workbooks_own_last_save(tmp_path: Path) -> None:
    """Issue 14: the page said when the file was copied or synced, not when the treasurer last
    saved the results. XlsxWriter records the save time we give it (docProps/core.xml)."""
    path = tmp_path / "league.xlsx"
    saved = dt.datetime(2025, 12, 7, 18, 30)  # UTC, as Excel records it
    book = xlsxwriter.Workbook(str(path))
    book.set_properties({"created": saved})
    for name, rows in RALLY_SHEETS.items():
        sheet = book.add_worksheet(name)
        for r, row in enumerate(rows):
            sheet.write_row(r, 0, [v.isoformat() if isinstance(v, dt.date) else v for v in row])
    book.close()
    local = saved.replace(tzinfo=dt.UTC).astimezone().replace(tzinfo=None)
    assert last_saved(path) == local
    assert CliRunner().invoke(cli, ["publish", str(path)]).exit_code == 0
    page = path.with_suffix(".html").read_text(encoding="utf-8")
    assert f"updated {local:%Y-%m-%d %H:%M}" in page


def test_the_rating_chart_steps_at_events_and_its_labels_do_not_overlap() -> None:
    """Issue 14: lines started with a stroke up from 40, sloped between events (ratings change
    only at events), and end labels of close ratings overlapped."""
    events = (
        Event("A", dt.date(2020, 1, 4), players=7),
        Event("B", dt.date(2021, 6, 5), players=7),
    )
    results = tuple(
        Result(event, f"P{place}", rank=place) for event in ("A", "B") for place in range(1, 8)
    )
    page = standings_page(compute_standings(League(Settings("dippouch"), events, results)))
    chart = page[page.index('<section class="chart"') :]
    for points in re.findall(r'<polyline[^>]* points="([^"]+)"', chart):
        pairs = [tuple(map(float, p.split(","))) for p in points.split()]
        assert all(a[0] == b[0] or a[1] == b[1] for a, b in itertools.pairwise(pairs))
    ends = sorted(
        float(y) for y in re.findall(r'<text x="[\d.]+" y="([\d.]+)" font-size="12" fill=', chart)
    )
    assert len(ends) == 5
    assert all(b - a >= 14 for a, b in itertools.pairwise(ends))


def test_scores_show_one_number_of_decimals_and_print_in_full() -> None:
    """Issue 14: '0.5', '62.9' and '5' stood next to '26.60'; the page clipped later events
    and printed a scrollbar; the leaders chart read '1=. Ann'."""
    page = standings_page(read_standings(EXAMPLES_FOLDER / "neau.xlsx"))
    counted = re.findall(r'<td class="c">([^<]+)</td>', page)
    assert counted
    assert all(re.fullmatch(r"\d+\.\d\d", c) for c in counted), counted
    assert "max-width: 72rem; padding" not in page  # the table may use the whole window
    assert "@media print" in page
    assert "=. " not in page


def test_printing_the_page_puts_every_column_on_paper(tmp_path: Path) -> None:
    """Issue 14: printing cut the table after the 7th event and printed a scrollbar. A
    12-event league printed by Chromium to PDF: every event heading and every player on paper,
    the Working column left out."""
    events = tuple(
        Event(f"Week {n:02d}", dt.date(2026, 1, 1) + dt.timedelta(weeks=n)) for n in range(1, 13)
    )
    players = [f"Player Number {n:02d}" for n in range(1, 31)]
    results = tuple(
        Result(e.name, name, rank=(i + n) % 30 + 1)
        for n, e in enumerate(events)
        for i, name in enumerate(players)
    )
    page = tmp_path / "neau.html"
    league = League(Settings("neau", league="Club League"), events, results)
    page.write_text(standings_page(compute_standings(_with_buy_in(league))), encoding="utf-8")
    pdf = tmp_path / "page.pdf"
    run_chromium("--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri(), tmp=tmp_path)
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(pdf).pages)
    assert all(f"Week {n:02d}" in text for n in range(1, 13))
    assert all(name in text for name in players)
    table = text[text.index("Rank Player") :]
    assert "Working" not in table  # no Working column (nor its buttons) in the printed table


def _with_buy_in(league: League) -> League:
    return League(
        league.settings,
        tuple(dataclasses.replace(e, buy_in=20) for e in league.events),
        league.results,
    )


def test_each_player_has_a_page_section_reached_from_the_table() -> None:
    """Issue 14: a per-player view (all of a player's events, scores and rating over time, as
    the WDD player pages show) reachable from the table without scripts."""
    page = standings_page(read_standings(EXAMPLES_FOLDER / "rally.xlsx"))
    link = re.search(r'<a href="#(player-\d+)">Bobby</a>', page)
    assert link is not None
    section = page[page.index(f'id="{link.group(1)}"') :]
    section = section[: section.index("</section>")]
    # Bobby's rally: 79 and 72 count, 21 is dropped (seed examples; tests/helpers.py).
    assert re.findall(r"<td>(\d+)</td><td>(yes|no)</td>", section) == [
        ("79", "yes"),
        ("72", "yes"),
        ("21", "no"),
    ]
    dip = standings_page(read_standings(EXAMPLES_FOLDER / "dippouch.xlsx"))
    assert "Rating after" in dip
    assert "<script" not in page


def test_dates_are_shown_in_the_leagues_date_format() -> None:
    """Issue 14: a club in Britain reads 07/03/2026, not 2026-03-07; JSON keeps ISO dates."""
    from xlrally.formats.report import as_json, as_table

    league = League(
        Settings("reverse", league="Club", date_format="dd/mm/yyyy"),
        (Event("March", dt.date(2026, 3, 7)), Event("April", dt.date(2026, 4, 4))),
        (Result("March", "Ann", rank=1), Result("April", "Ann", rank=1)),
    )
    table = compute_standings(league, as_of=dt.date(2026, 3, 31))
    page = standings_page(table, dt.datetime(2026, 3, 8, 18, 30))
    assert "updated 08/03/2026 18:30" in page
    assert "07/03/2026 – March" in page
    assert "As of 31/03/2026." in as_table(table)
    assert as_json(table)["events"][0]["date"] == "2026-03-07"


def four_with_a_tie() -> League:
    """One Relative Reverse Order event of 4 (seed: players − rank + 1 points): Ann 1st 4, Dan
    4th 1; Bea and Cy chop 2nd and 3rd, each the average (3 + 2) / 2 = 2.5 (`Shared places`
    default, docs/scoring.md). Nothing can part Bea and Cy: ranks 1, 2=, 2=, 4."""
    event = Event("Week 1", dt.date(2026, 1, 8), players=4)
    places = {"Ann": 1, "Bea": 2, "Cy": 2, "Dan": 4}
    results = tuple(Result("Week 1", name, rank=place) for name, place in places.items())
    return League(Settings("reverse"), (event,), results)


def test_top_shows_the_first_players_in_full_and_lists_the_rest() -> None:
    """Issue 15: `--top 2`: Ann and Bea in full, with their sections; Cy (who shares 2nd with
    Bea: `2=` in both tables) and Dan in the short table of the others, without sections."""
    page = standings_page(compute_standings(four_with_a_tie()), top=2)
    main_table = page[page.index('id="standings-title"') : page.index('id="rest-title"')]
    rest = page[page.index('id="rest-title"') : page.index('id="players-title"')]
    full = re.findall(r'<th scope="row" class="player"><a href="#player-\d">(\w+)</a>', main_table)
    assert full == ["Ann", "Bea"]
    assert re.findall(r"<tr><td>(\d+=?)</td><th[^>]*>(\w+)</th><td>([\d.]+)</td>", rest) == [
        ("2=", "Cy", "2.50"),
        ("4", "Dan", "1.00"),
    ]
    assert "Places 3 to 4" in rest
    assert 'id="player-2"' in page
    assert 'id="player-3"' not in page
    everyone = standings_page(compute_standings(four_with_a_tie()), top=None)
    assert 'id="rest-title"' not in everyone
    assert 'id="player-4"' in everyone


def test_publish_top_option(tmp_path: Path) -> None:
    """The command's --top reaches the page; --top 0 shows everyone in full."""
    path = tmp_path / "league.xlsx"
    shutil.copy(EXAMPLES_FOLDER / "rally.xlsx", path)
    assert CliRunner().invoke(cli, ["publish", str(path), "--top", "1"]).exit_code == 0
    assert 'id="rest-title"' in path.with_suffix(".html").read_text(encoding="utf-8")
    assert CliRunner().invoke(cli, ["publish", str(path), "--top", "0"]).exit_code == 0
    assert 'id="rest-title"' not in path.with_suffix(".html").read_text(encoding="utf-8")


def test_a_big_league_page_stays_small_and_lists_everyone(tmp_path: Path) -> None:
    """Issue 15: 5,000 players × 60 events made a 51 MB page. Now at most 5 MB, and Chromium
    finds every player once: 200 rows in the full table, 4,800 in the short one. (How long it
    takes to open: benchmarks/bench_page.py.)"""
    standings = compute_standings(big_league("neau", 5000, 60))
    page = standings_page(standings)
    assert len(page.encode()) <= 5_000_000
    path = tmp_path / "big.html"
    path.write_text(page, encoding="utf-8")
    dom = run_chromium("--dump-dom", path.as_uri(), tmp=tmp_path)
    main_table = dom[dom.index('id="standings-title"') : dom.index('id="rest-title"')]
    rest = dom[dom.index('id="rest-title"') : dom.index('id="chart-title"')]
    in_full = re.findall(
        r'<th scope="row" class="player"><a href="#player-\d+">([^<]+)</a>', main_table
    )
    others = re.findall(r'<th scope="row" class="other">([^<]+)</th>', rest)
    assert (len(in_full), len(others)) == (200, 4800)
    assert sorted(in_full + others) == sorted(row.player for row in standings.rows)
