"""Real workbooks written by other programs (../shared/corpus, README there: Excel, openpyxl,
LibreOffice, exceljs, excelize ...) survive a sync: each gets a league added at the package
level (lxml edits of its own parts, no library round trip), is synced, and must then open in
openpyxl (with and without lxml), change no part outside the documented set, show Standings
exactly as a plain workbook does, and be left byte-identical by a second sync. A file that is
not a usable workbook must be refused with a message and left byte-identical.

Expected standings: tests/helpers.py RALLY_SHEETS, hand-worked there (Bobby 100, José 54).
"""

from __future__ import annotations

import json
import posixpath
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from conftest import IN_CI
from helpers import RALLY_SHEETS, write_book
from lxml import etree

from xlrally.app.sync import sync_file

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() in {".xlsx", ".xlsm"})
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006/relationships"
TYPES = "http://schemas.openxmlformats.org/package/2006/content-types"
SHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
LEAGUE_NAMES = {"settings", "events", "results", "standings", "points", "players"}
EXPECTED = {"Bobby": 100, "José": 54}

pytestmark = pytest.mark.skipif(
    not FILES and not IN_CI, reason="../shared/corpus is not beside the checkout (CI fails)"
)
CORPUS_SIZE = 1138
"""Workbooks (.xlsx, .xlsm) in ../shared/corpus: 994 + 69 + 36 + 30 + 9 by its README."""


def test_the_corpus_is_there() -> None:
    """Every test here runs on the real workbooks; in CI a missing or partial corpus fails
    rather than skips (elsewhere the module is skipped without it)."""
    assert len(FILES) == CORPUS_SIZE, f"{CORPUS}: {len(FILES)} workbooks, not {CORPUS_SIZE}"


def _cell(ref: str, value: object) -> str:
    if isinstance(value, int | float):
        return f'<c r="{ref}"><v>{value}</v></c>'
    text = str(value).replace("&", "&amp;").replace("<", "&lt;")
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def _sheet(rows: list[list[Any]]) -> bytes:
    body = "".join(
        f'<row r="{r}">'
        + "".join(
            _cell(f"{'ABCDE'[c]}{r}", v.isoformat() if hasattr(v, "isoformat") else v)
            for c, v in enumerate(row)
            if v is not None
        )
        + "</row>"
        for r, row in enumerate(rows, start=1)
    )
    return f'<worksheet xmlns="{MAIN}"><sheetData>{body}</sheetData></worksheet>'.encode()


def add_league(source: Path, target: Path) -> bool:
    """Copy ``source`` to ``target`` with the rally league's three sheets added as new parts
    (lxml edits of workbook.xml, its relationships and the content types). False when the
    file is not a usable package or already has sheets with the league's names."""
    try:
        with zipfile.ZipFile(source) as z:
            parts = {i.filename: z.read(i) for i in z.infolist()}
        root_rels = etree.fromstring(parts["_rels/.rels"])
        workbook = next(
            r.get("Target").lstrip("/")
            for r in root_rels
            if r.get("Type", "").endswith("/officeDocument")
        )
        rels_part = posixpath.join(
            posixpath.dirname(workbook), "_rels", posixpath.basename(workbook) + ".rels"
        )
        book = etree.fromstring(parts[workbook])
        rels = etree.fromstring(parts[rels_part])
        types = etree.fromstring(parts["[Content_Types].xml"])
    except Exception:
        return False
    sheets = book.find(f"{{{MAIN}}}sheets")
    if sheets is None:
        return False
    if {s.get("name", "").casefold() for s in sheets} & LEAGUE_NAMES:
        return False
    ids = {r.get("Id") for r in rels}
    sheet_ids = [int(s.get("sheetId", "0")) for s in sheets]
    for number, (name, rows) in enumerate(RALLY_SHEETS.items(), start=1):
        part = posixpath.join(posixpath.dirname(workbook), f"worksheets/league{number}.xml")
        rel_id = f"rIdLeague{number}"
        assert rel_id not in ids
        assert part not in parts
        etree.SubElement(
            rels,
            f"{{{PKG}}}Relationship",
            Id=rel_id,
            Type=REL + "/worksheet",
            Target=posixpath.relpath(part, posixpath.dirname(workbook)),
        )
        etree.SubElement(types, f"{{{TYPES}}}Override", PartName="/" + part, ContentType=SHEET_TYPE)
        etree.SubElement(
            sheets,
            f"{{{MAIN}}}sheet",
            {
                "name": name,
                "sheetId": str(max(sheet_ids, default=0) + number),
                f"{{{REL}}}id": rel_id,
            },
        )
        parts[part] = _sheet([list(r) for r in rows])
    for name, element in ((workbook, book), (rels_part, rels), ("[Content_Types].xml", types)):
        parts[name] = etree.tostring(
            element, xml_declaration=True, encoding="UTF-8", standalone=True
        )
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in parts.items():
            out.writestr(name, data)
    return True


def _raw(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


def standings_cells(path: Path) -> dict[str, tuple[Any, ...]]:
    """Every Standings cell as openpyxl sees it: value, bold, italic, colour, number format."""
    book = openpyxl.load_workbook(path)
    sheet = book["Standings"]
    return {
        cell.coordinate: (
            cell.value,
            bool(cell.font.b),
            bool(cell.font.i),
            _colour(cell.font.color),
            cell.number_format,
        )
        for row in sheet.iter_rows()
        for cell in row
        if cell.value is not None or cell.has_style
    }


def _colour(color: Any) -> str | None:
    """An explicit font colour other than black; the workbook's default font colour (a theme
    colour or black, the user's own default) counts as none."""
    rgb = getattr(color, "rgb", None)
    return rgb if isinstance(rgb, str) and rgb not in {"FF000000", "00000000"} else None


@pytest.fixture(scope="module")
def plain_standings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, ...]]:
    """The Standings of the same league in a plain workbook made by XlsxWriter."""
    path = write_book(tmp_path_factory.mktemp("plain") / "plain.xlsx", RALLY_SHEETS)
    assert sync_file(path).result == "written"
    cells = standings_cells(path)
    assert {cells[f"B{r}"][0]: cells[f"C{r}"][0] for r in (2, 3)} == EXPECTED
    return cells


@pytest.fixture(scope="module")
def synced(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every corpus workbook with a league, synced twice; what happened to each."""
    folder = tmp_path_factory.mktemp("corpus")
    report: dict[str, Any] = {"synced": {}, "refused": {}, "skipped": []}
    for index, source in enumerate(FILES):
        target = folder / f"{index:04d}{source.suffix.lower()}"
        if not add_league(source, target):
            # Not a usable package (or it has league sheets already): sync the original.
            shutil.copy(source, target)
            before = target.read_bytes()
            outcome = sync_file(target)
            if outcome.ok:
                report["skipped"].append(str(source))
                continue
            assert outcome.problems, source
            assert target.read_bytes() == before, f"{source}: a refused file was changed"
            report["refused"][str(source)] = outcome.problems[0]
            continue
        raw_before = _raw(target)
        shutil.copy(target, target.with_name("before-" + target.name))
        first = sync_file(target)
        if not first.ok:
            assert _raw(target) == raw_before, f"{source}: a refused file was changed"
            report["refused"][str(source)] = first.problems[0]
            continue
        bytes_after_first = target.read_bytes()
        second = sync_file(target)
        assert second.result == "unchanged", (source, second)
        assert target.read_bytes() == bytes_after_first, f"{source}: a second sync changed it"
        report["synced"][str(source)] = (target, raw_before, first)
    return report


def test_most_real_workbooks_are_synced(synced: dict[str, Any]) -> None:
    """The corpus is mostly good workbooks: nearly all must sync (the refused ones are the
    projects' own broken, encrypted or non-workbook test files)."""
    total = len(FILES)
    print(
        f"corpus: {total} files, {len(synced['synced'])} synced, {len(synced['refused'])} "
        f"refused with a message, {len(synced['skipped'])} skipped (league sheet names taken)"
    )
    assert len(synced["synced"]) >= 0.9 * total


def test_refusals_name_the_problem(synced: dict[str, Any]) -> None:
    """A refused file gets a message that is not a traceback and says what is wrong."""
    for message in synced["refused"].values():
        _, _, reason = message.partition(": ")
        assert reason, message
        assert "Traceback" not in message, message
        print(message.split("/")[-1])


def test_only_the_documented_parts_change(synced: dict[str, Any]) -> None:
    """Besides the Standings part, only styles, the workbook part, its relationships and the
    content types may change (docs/workbook-format.md); every other part is byte-identical."""
    compared = 0
    for source, (target, before, _) in synced["synced"].items():
        after = _raw(target)
        changed = {name for name in before if after.get(name) != before[name]}
        added = set(after) - set(before)
        allowed = {"[Content_Types].xml", "_rels/.rels", "docProps/custom.xml"} | {
            n for n in before if n.endswith(("workbook.xml", "workbook.xml.rels", "styles.xml"))
        }
        assert changed <= allowed, (source, changed - allowed)
        # Added: the Standings sheet's part; the custom properties (fingerprint, digest) and a
        # styles part only where the workbook had none.
        sheets = {n for n in added if re.fullmatch(r"(.+/)?worksheets/sheet\d+\.xml", n)}
        assert len(sheets) == 1, (source, added)
        may_add = set()
        if not any(n.endswith("styles.xml") for n in before):
            may_add |= {n for n in added if n.endswith("/styles.xml") or n == "styles.xml"}
        if not any(n.startswith("docProps/custom") for n in before):
            may_add.add("docProps/custom.xml")
        assert added - sheets <= may_add, (source, added - sheets)
        compared += len(before) - len(changed)
    print(f"parts compared byte for byte: {compared}")


def test_standings_look_as_in_a_plain_workbook(
    synced: dict[str, Any], plain_standings: dict[str, tuple[Any, ...]]
) -> None:
    """openpyxl (lxml installed) opens every synced file it could open before the sync, and
    every Standings cell has the value, font and number format it has in a plain workbook (no
    user format leaks in)."""
    unreadable_before = []
    for source, (target, _, _) in synced["synced"].items():
        try:
            openpyxl.load_workbook(target.with_name("before-" + target.name))
        except Exception:
            unreadable_before.append(source)
            continue
        assert standings_cells(target) == plain_standings, source
    print(f"openpyxl cannot read {len(unreadable_before)} of them even before the sync")
    assert len(unreadable_before) < 0.02 * len(synced["synced"])


def test_openpyxl_without_lxml_opens_them_too(synced: dict[str, Any]) -> None:
    """openpyxl's own ElementTree path (OPENPYXL_LXML=False) reads every synced file that it
    could read before the sync."""
    paths = [str(t) for t, _, _ in synced["synced"].values()]
    paths += [str(Path(t).with_name("before-" + Path(t).name)) for t in paths]
    script = (
        "import json, sys, openpyxl, openpyxl.xml\n"
        "assert not openpyxl.xml.LXML\n"
        "bad = []\n"
        "for p in json.load(sys.stdin):\n"
        "    try:\n"
        "        openpyxl.load_workbook(p)['Standings']\n"
        "    except Exception as e:\n"
        "        bad.append([p, repr(e)])\n"
        "print(json.dumps(bad))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(paths),
        capture_output=True,
        text=True,
        env={"OPENPYXL_LXML": "False", "PATH": "/usr/bin:/bin"},
        check=True,
    )
    bad = {Path(p).name for p, _ in json.loads(run.stdout.strip().splitlines()[-1])}
    broken_by_sync = {n for n in bad if not n.startswith("before-") and "before-" + n not in bad}
    assert broken_by_sync == set()


LIBREOFFICE_SAMPLE = 120
"""Corpus files opened in LibreOffice after the sync (every n-th synced file, all projects)."""


def test_libreoffice_opens_a_sample_and_reads_the_standings(
    synced: dict[str, Any], tmp_path: Path
) -> None:
    """LibreOffice, a second real spreadsheet program, opens a spread sample of the synced
    files and reads the hand-worked standings from each (a file it cannot open even before the
    sync is counted, not failed)."""
    from test_libreoffice import convert, read_csv

    targets = [t for t, _, _ in synced["synced"].values()]
    sample = targets[:: max(1, len(targets) // LIBREOFFICE_SAMPLE)]
    convert(sample, tmp_path / "after")
    missing = [t for t in sample if not (tmp_path / "after" / f"{t.stem}-Standings.csv").exists()]
    convert([t.with_name("before-" + t.name) for t in missing], tmp_path / "before")
    for target in sample:
        standings = tmp_path / "after" / f"{target.stem}-Standings.csv"
        if target in missing:
            opened_before = any((tmp_path / "before").glob(f"before-{target.stem}-*.csv"))
            assert not opened_before, f"LibreOffice opened {target} before the sync, not after"
            continue
        rows = read_csv(standings)
        assert rows[0][:3] == ["Rank", "Player", "Total"], target
        assert {row[1]: float(row[2]) for row in rows[1:3]} == EXPECTED, target
    print(f"LibreOffice: {len(sample) - len(missing)} of {len(sample)} opened and read")
