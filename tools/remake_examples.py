"""Remake the bundled files from the template builder (a developer script, not installed).

Writes ``workbook_template.xlsx`` (the rally template), ``examples/<system>.xlsx`` (synced),
``docs/examples/<system>.html`` (published, dated ``FIXED_DATE`` so that the bytes are stable)
and, where Chromium is installed, ``docs/examples/<system>.png``: a screenshot of the page at
1280 × 1400 px, to see what a published page looks like without opening it.
Run it from a checkout after changing the builder, the grid or the page:
``python tools/remake_examples.py``. Tests fail while these files are stale.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from xlrally.app.sync import read_standings, sync_file
from xlrally.core.systems import SYSTEMS
from xlrally.excel.template import FIXED_DATE, build_workbook
from xlrally.formats.page import standings_page

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "workbook_template.xlsx"
EXAMPLES_FOLDER = ROOT / "examples"
PAGES_FOLDER = ROOT / "docs" / "examples"


def main() -> None:
    """Write the template, one synced example workbook and one page per system."""
    build_workbook(TEMPLATE, "rally")
    print(f"wrote {TEMPLATE}")
    EXAMPLES_FOLDER.mkdir(exist_ok=True)
    PAGES_FOLDER.mkdir(parents=True, exist_ok=True)
    for system in SYSTEMS:
        path = EXAMPLES_FOLDER / f"{system}.xlsx"
        build_workbook(path, system)
        sync_file(path)
        page = PAGES_FOLDER / f"{system}.html"
        page.write_text(standings_page(read_standings(path), FIXED_DATE), encoding="utf-8")
        print(f"wrote {path} and {page}")
        _screenshot(page, page.with_suffix(".png"))


def _screenshot(page: Path, shot: Path) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        return
    with tempfile.TemporaryDirectory() as profile:
        command = [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--user-data-dir={profile}",
            "--window-size=1280,1400",
            f"--screenshot={shot}",
            page.as_uri(),
        ]
        subprocess.run(command, capture_output=True, timeout=120, check=False)
    print(f"wrote {shot}")


if __name__ == "__main__":
    main()
