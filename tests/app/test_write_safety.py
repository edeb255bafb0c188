"""The last check before a new file replaces the user's (issue 28, finding 1), end to end: a
sync or an import whose planned package fails verification leaves the workbook byte for byte
as it was and no temporary file beside it, and says why.

Each workbook here is damaged so that the real planner makes a package the file format forbids
(ECMA-376 Part 1): a relationship id used twice in the workbook's relationships (§9.3.2), a
sheetId used twice (§18.2.19), or a number format id defined twice with different codes, so
that the cell format handed out for a look would show another (§18.8.30: a cell format names
its number format by id). Nothing in xlrally is replaced or patched: the refusal must come from
the write path's own verification.
"""

from __future__ import annotations

import datetime as dt
import os
import zipfile
from collections.abc import Mapping
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from helpers import (
    RALLY_SHEETS,
    Rows,
    Sheets,
    open_book,
    parts,
    rewrite,
    with_calc_chain,
    write_book,
)

from xlrally.app import isolate
from xlrally.app.importer import ImportInterrupted, Options, import_file
from xlrally.app.sync import full_sync, sync_file
from xlrally.cli import cli
from xlrally.core.errors import XlrallyError
from xlrally.ooxml.package import Package, file_identity
from xlrally.ooxml.styles import Styles
from xlrally.ooxml.writer import Edit, Staged, stage, verify

RELS = "xl/_rels/workbook.xml.rels"
WORKBOOK = "xl/workbook.xml"
STYLES = "xl/styles.xml"
CUSTOM_XML = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml"

# XlsxWriter's workbook.xml.rels: rId1-rId3 the sheets, rId4 the theme, rId5 styles, rId6 the
# shared strings. A second rId4 (to a custom XML part) is a relationship id used twice.
TWICE_RELATIONSHIP = (
    RELS,
    b"</Relationships>",
    f'<Relationship Id="rId4" Type="{CUSTOM_XML}" Target="../customXml/item1.xml"/>'
    "</Relationships>".encode(),
)
TWICE_SHEET_ID = (WORKBOOK, b'sheetId="2"', b'sheetId="1"')  # Events takes Settings' id

THREE_EVENTS: Sheets = {
    "Settings": [list(row) for row in RALLY_SHEETS["Settings"]],
    "Events": [
        ["Event", "Date", "Rounds"],
        ["Dec 2025", dt.date(2025, 12, 6), 4],
        ["Feb 2026", dt.date(2026, 2, 7), 4],
        ["May 2026", dt.date(2026, 5, 9), 5],
    ],
    "Results": [
        ["Event", "Player", "Points", "Games", "Byes"],
        ["Dec 2025", "Bobby", 3, 4, 0],
        ["Feb 2026", "Bobby", 1, 4, 0],
        ["May 2026", "José", 2, 4, 1],
        ["May 2026", "Bobby", 1, 1, None],
    ],
}
"""Three events held, best ⌈(3 + 1) / 2⌉ = 2 count: Bobby's 79, 29 (100 × 1 / 4 + 4) and 21
leave 21 dropped, shown as ``(21)``: the number format ``(0)``, which XlsxWriter's styles lack."""

# XlsxWriter defines numFmt 164 as its date format; a second 164 with the dropped score's
# "(0)" before it: the planner finds "(0)" at 164, but a reader takes the last definition.
TWICE_NUMBER_FORMAT = (
    STYLES,
    b'<numFmts count="1">',
    b'<numFmts count="2"><numFmt numFmtId="164" formatCode="(0)"/>',
)


def damaged(path: Path, sheets: Mapping[str, Rows], damage: tuple[str, bytes, bytes]) -> Path:
    """An XlsxWriter workbook of ``sheets`` with one part changed as ``damage`` says."""
    write_book(path, sheets)
    part, old, new = damage
    data = parts(path)[part]
    assert old in data
    return rewrite(path, {part: data.replace(old, new, 1)})


Case = tuple[Mapping[str, Rows], tuple[str, bytes, bytes], str]
"""The league, the damage to its workbook, and the problem the refusal names."""

REFUSALS: dict[str, Case] = {
    "relationship id twice": (
        RALLY_SHEETS,
        TWICE_RELATIONSHIP,
        f"{RELS}: a relationship id would be used twice",
    ),
    "sheet id twice": (
        RALLY_SHEETS,
        TWICE_SHEET_ID,
        f"{WORKBOOK}: a sheet id or name would be used twice",
    ),
    "a look's number format defined twice": (
        THREE_EVENTS,
        TWICE_NUMBER_FORMAT,
        f"{STYLES}: the cell format xlrally added would not look as meant (format 7 has number "
        "format 164, not '(0)'); nothing was written. Please report this file.",
    ),
}


def left_alone(folder: Path, path: Path, before: bytes, identity: object) -> None:
    """The workbook has its old bytes and is the same file (no rename over it), and nothing
    else is in its folder (no temporary file)."""
    assert path.read_bytes() == before
    assert file_identity(path) == identity
    assert [p.name for p in folder.iterdir()] == [path.name]


@pytest.mark.parametrize("case", REFUSALS)
def test_a_sync_whose_plan_fails_verification_leaves_the_workbook_alone(
    tmp_path: Path, case: str
) -> None:
    """sync_file (and full_sync, the batch workers' entry): refused, the problem named."""
    sheets, damage, message = REFUSALS[case]
    path = damaged(tmp_path / "league.xlsx", sheets, damage)
    before, identity = path.read_bytes(), file_identity(path)
    for sync in (sync_file, full_sync):
        outcome = sync(path)
        assert (outcome.result, outcome.problems) == ("failed", (f"{path}: {message}",))
        left_alone(tmp_path, path, before, identity)


def test_the_same_workbook_undamaged_is_written(tmp_path: Path) -> None:
    """The damage alone is what stops each sync above: the same league undamaged is synced."""
    for sheets in (RALLY_SHEETS, THREE_EVENTS):
        path = write_book(tmp_path / "league.xlsx", sheets)
        assert sync_file(path).result == "written"


def test_the_command_line_names_each_refused_file_and_syncs_the_good_one(tmp_path: Path) -> None:
    """`xlrally sync FOLDER`: the three damaged files are reported, each left as it was (the
    batch's isolated workers take the same path), the good one is written; exit 1."""
    before = {}
    for number, (sheets, damage, _) in enumerate(REFUSALS.values()):
        path = damaged(tmp_path / f"bad{number}.xlsx", sheets, damage)
        before[path] = path.read_bytes()
    good = write_book(tmp_path / "good.xlsx", RALLY_SHEETS)
    result = CliRunner().invoke(cli, ["sync", "--jobs", "2", str(tmp_path)])
    assert result.exit_code == 1
    for (path, data), (_, _, message) in zip(before.items(), REFUSALS.values(), strict=True):
        assert f"Error: {path}: {message}" in result.stderr
        assert path.read_bytes() == data
    standings = openpyxl.load_workbook(good)["Standings"]
    assert [(r[1].value, r[2].value) for r in standings.iter_rows(min_row=2, max_row=3)] == [
        ("Bobby", 100),  # helpers.RALLY_SHEETS, hand-worked: 79 + 21
        ("José", 54),
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "bad0.xlsx",
        "bad1.xlsx",
        "bad2.xlsx",
        "good.xlsx",
    ]


ONE_SHEET_PER_EVENT: Sheets = {
    "Settings": [["Setting", "Value"], ["System", "rally"], ["League", "Club Rally"]],
    "Events": [["Event", "Date", "Rounds"], ["Nov 2025", dt.date(2025, 11, 1), 4]],
    "Nov 2025": [["Player", "Points", "Games"], ["Bobby", 3, 4]],
}
"""Results kept on a sheet per event: an import adds a sheet (workbook, relationships)."""

NO_EVENTS_YET: Sheets = {
    "Settings": [["Setting", "Value"], ["System", "rally"], ["League", "Club Rally"]],
    "Events": [["Event", "Date", "Rounds"]],
    "Results": [["Event", "Player", "Points", "Games", "Byes"]],
}
"""No date above the new event's: the import gives its date the look ``yyyy-mm-dd``."""

# XlsxWriter writes no numFmts without dates: two definitions of 164, the date's first.
TWICE_DATE_FORMAT = (
    STYLES,
    b"<fonts",
    b'<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/>'
    b'<numFmt numFmtId="164" formatCode="0.0"/></numFmts><fonts',
)

IMPORT_REFUSALS: dict[str, Case] = {
    "relationship id twice": (
        ONE_SHEET_PER_EVENT,
        TWICE_RELATIONSHIP,
        f"{RELS}: a relationship id would be used twice",
    ),
    "sheet id twice": (
        ONE_SHEET_PER_EVENT,
        TWICE_SHEET_ID,
        f"{WORKBOOK}: a sheet id or name would be used twice",
    ),
    "the date's number format defined twice": (
        NO_EVENTS_YET,
        TWICE_DATE_FORMAT,
        f"{STYLES}: the cell format xlrally added would not look as meant (format 1 has number "
        "format 164, not 'yyyy-mm-dd'); nothing was written. Please report this file.",
    ),
}
TABLE = b"Player,Points,Games\nBobby,3,4\nJose,2,4\n"
DEC = Options(event="Dec 2025", date=dt.date(2025, 12, 6), rounds=4)


@pytest.mark.parametrize("case", IMPORT_REFUSALS)
def test_an_import_whose_plan_fails_verification_leaves_the_workbook_alone(
    tmp_path: Path, case: str
) -> None:
    sheets, damage, message = IMPORT_REFUSALS[case]
    path = damaged(tmp_path / "league.xlsx", sheets, damage)
    before, identity = path.read_bytes(), file_identity(path)
    with pytest.raises(XlrallyError) as refused:
        import_file(path, "dec.csv", DEC, data=TABLE)
    assert str(refused.value) == message
    left_alone(tmp_path, path, before, identity)


def test_the_same_imports_undamaged_are_written(tmp_path: Path) -> None:
    for number, sheets in enumerate((ONE_SHEET_PER_EVENT, NO_EVENTS_YET)):
        path = write_book(tmp_path / f"league{number}.xlsx", sheets)
        outcome = import_file(path, "dec.csv", DEC, data=TABLE)
        assert outcome.changed
        assert outcome.sync is not None
        assert outcome.sync.result == "written"


def test_the_staging_function_checks_before_it_writes(tmp_path: Path) -> None:
    """``stage`` given a plan with a relationship id used twice and the real check: it raises,
    and leaves neither a new file nor a changed one; given a check that passes, the same plan
    is written to a temporary file beside the workbook (so the refusal came from the check)."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    before, identity = path.read_bytes(), file_identity(path)
    with Package(path) as package:
        edit = Edit(package)
        rels = edit.data(RELS).replace(b'Id="rId2"', b'Id="rId1"')
        edit.set(RELS, rels)
        with pytest.raises(XlrallyError, match="a relationship id would be used twice"):
            stage(path, edit, lambda: verify(edit, Styles(None), written=""))
        left_alone(tmp_path, path, before, identity)
        staged = stage(path, edit, lambda: None)
    assert staged is not None
    assert staged.temp.parent == tmp_path
    assert parts(staged.temp)[RELS] == rels
    staged.discard()
    left_alone(tmp_path, path, before, identity)


def test_a_check_that_fails_for_any_reason_leaves_nothing(tmp_path: Path) -> None:
    """Whatever the check raises (here: a disk error while checking), nothing is written."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    before, identity = path.read_bytes(), file_identity(path)

    def failing() -> None:
        raise OSError(28, os.strerror(28))

    with Package(path) as package:
        edit = Edit(package)
        edit.set(WORKBOOK, edit.data(WORKBOOK).replace(b"<sheets>", b"<sheets >"))
        with pytest.raises(OSError, match="No space left"):
            stage(path, edit, failing)
    left_alone(tmp_path, path, before, identity)


def test_a_commit_refused_leaves_no_temporary_file(tmp_path: Path) -> None:
    """A staged workbook whose original changed meanwhile (another program saved it): the
    commit refuses, the other program's save stays, and the staged file is removed by the
    commit itself (an import commits without a cleanup of its own)."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    with Package(path) as package:
        edit = Edit(package)
        edit.set(WORKBOOK, edit.data(WORKBOOK).replace(b"<sheets>", b"<sheets >"))
        staged = stage(path, edit, lambda: verify(edit, Styles(None), written=""))
    assert staged is not None
    saved = write_book(tmp_path / "saved.xlsx", {**RALLY_SHEETS, "Notes": [["new"]]}).read_bytes()
    (tmp_path / "saved.xlsx").unlink()
    path.write_bytes(saved)  # the other program's save, in place
    with pytest.raises(XlrallyError, match="changed by another program"):
        staged.commit()
    assert path.read_bytes() == saved
    assert [p.name for p in tmp_path.iterdir()] == ["league.xlsx"]


def test_the_parts_after_a_dropped_calc_chain_are_kept(tmp_path: Path) -> None:
    """The old Standings had a formula, so its calcChain is dropped (tests/app/
    test_writer_rules.py); Excel stores calcChain.xml before other parts (here: right after
    the workbook part), and every part after it must still be in the new file, byte for byte
    where the sync does not change it (ECMA-376 Part 1 §18.6: only the chain goes)."""
    path = tmp_path / "league.xlsx"
    book = open_book(path, RALLY_SHEETS)
    book.add_worksheet("Standings").write_formula("A1", "=1+1", None, 2)
    book.close()
    with_calc_chain(path)
    with zipfile.ZipFile(path) as package:
        items = {info.filename: package.read(info) for info in package.infolist()}
    order = [n for n in items if n != "xl/calcChain.xml"]
    at = order.index(WORKBOOK) + 1
    order[at:at] = ["xl/calcChain.xml"]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
        for name in order:
            package.writestr(name, items[name])
    after_chain = order[order.index("xl/calcChain.xml") + 1 :]
    assert len(after_chain) == 5  # sharedStrings, styles, theme, core and app properties
    assert sync_file(path).result == "written"
    synced = parts(path)
    assert "xl/calcChain.xml" not in synced
    assert set(items) - {"xl/calcChain.xml"} <= set(synced)
    changed = {"[Content_Types].xml", RELS, WORKBOOK, STYLES, "xl/worksheets/sheet4.xml"}
    for name in after_chain:
        if name not in changed and not name.startswith("docProps/custom"):
            assert synced[name] == items[name], name


def test_a_stop_between_staging_and_the_rename_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C after the new file is staged and before it replaces the old (here: as the
    commit begins): the interrupt goes on up, the workbook is as it was and the staged file is
    removed by the sync (the commit never ran its own cleanup)."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    before, identity = path.read_bytes(), file_identity(path)

    def stopped(_: Staged) -> None:
        assert len(list(tmp_path.iterdir())) == 2  # the workbook and the staged file
        raise KeyboardInterrupt

    monkeypatch.setattr(Staged, "commit", stopped)
    with pytest.raises(KeyboardInterrupt):
        sync_file(path)
    left_alone(tmp_path, path, before, identity)


def test_an_import_stopped_between_staging_and_the_rename_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C after the import staged its new file and before the rename, where xlrally works
    without worker processes (no fork, as on Windows): the import's own cleanup removes the
    staged file. (With workers, the parent also tidies after a stopped child, which hid a
    missing cleanup: the deletion mutant that removes it survived every test.)"""
    path = write_book(tmp_path / "league.xlsx", ONE_SHEET_PER_EVENT)
    before, identity = path.read_bytes(), file_identity(path)
    reached = []

    def stopped(_: Staged) -> None:
        assert len(list(tmp_path.iterdir())) == 2  # the workbook and the staged file
        reached.append(True)
        raise KeyboardInterrupt

    monkeypatch.setattr(isolate, "AVAILABLE", False)
    monkeypatch.setattr(Staged, "commit", stopped)
    with pytest.raises(ImportInterrupted):
        import_file(path, "dec.csv", DEC, data=TABLE)
    assert reached
    left_alone(tmp_path, path, before, identity)
