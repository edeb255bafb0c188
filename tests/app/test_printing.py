"""The Standings sheet prints well in a real spreadsheet program: LibreOffice renders synced
workbooks to PDF, and the PDF's text (pypdf) shows, page by page, what a treasurer would pin on
the noticeboard: one page wide, the title on the first page, the header row on every page, and
no Working column (issue 14)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pypdf
import pytest
from helpers import write_book
from test_libreoffice import convert

from xlrally.app.sync import sync_file

TITLE = "Club League 2025-26"


def league(system: str, players: int, events: int) -> dict[str, list[list[object]]]:
    """A league of ``players`` × ``events`` results with made-up but valid scores."""
    names = [f"Player Number {n:02d}" for n in range(1, players + 1)]
    rows: list[list[object]] = [["Event", "Date", "Rounds" if system == "rally" else "Buy-in"]]
    rows += [
        [
            f"Round {i:02d}",
            dt.date(2025, 9, 6) + dt.timedelta(weeks=4 * i),
            5 if system == "rally" else 20,
        ]
        for i in range(1, events + 1)
    ]
    if system == "rally":
        results: list[list[object]] = [["Event", "Player", "Points", "Games", "Byes"]]
        results += [
            [f"Round {i:02d}", name, (n * i) % 6, 5, 0]
            for i in range(1, events + 1)
            for n, name in enumerate(names)
        ]
    else:
        results = [["Event", "Player", "Rank"]]
        results += [
            [f"Round {i:02d}", name, (n + i) % players + 1]
            for i in range(1, events + 1)
            for n, name in enumerate(names)
        ]
    settings: list[list[object]] = [
        ["Setting", "Value"],
        ["System", system],
        ["League", "Club League"],
    ]
    return {"Settings": [*settings, ["Season", "2025-26"]], "Events": rows, "Results": results}


def standings_pages(path: Path, tmp_path: Path) -> list[str]:
    """The text of each printed page of the Standings sheet (the pages with its title: only
    Standings has a page header)."""
    out = tmp_path / "pdf"
    convert([path], out, "pdf")
    pages = [p.extract_text() for p in pypdf.PdfReader(out / f"{path.stem}.pdf").pages]
    return [text for text in pages if TITLE in text]


@pytest.mark.parametrize(
    ("system", "players", "events", "pages"),
    [("rally", 22, 10, 1), ("neau", 30, 12, 1), ("rally", 90, 10, 2)],
)
def test_standings_print_one_page_wide_with_title_and_header_on_every_page(
    tmp_path: Path, system: str, players: int, events: int, pages: int
) -> None:
    path = write_book(tmp_path / f"{system}.xlsx", league(system, players, events))
    assert sync_file(path).result == "written"
    printed = standings_pages(path, tmp_path)
    assert len(printed) == pages, printed
    assert printed[0].index(TITLE) < printed[0].index("Rank Player")
    for text in printed:
        assert "Rank Player" in text  # the header row, repeated
        assert f"Round {events:02d}" in text  # every event column on the page: one page wide
        assert "Working" not in text
    assert sum(text.count("Player Number") for text in printed) == players
