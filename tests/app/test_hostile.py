"""Hostile and broken workbooks: each gets exit code 1, a message naming the file (and the
sheet and cell where there is one), no traceback, the file byte-identical afterwards, within
30 s of processor time (the clock is not measured: a loaded machine stretches it) and well
under 1 GB of memory. In a batch, the good files are still synced."""

from __future__ import annotations

import io
import os
import resource
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import msoffcrypto.format.ooxml
import pytest
from helpers import RALLY_SHEETS, Rows, write_book

MEMORY_LIMIT = 1024 * 2**20  # address space of the xlrally process
TIME_LIMIT = 30
"""Seconds of processor time one refusal may take: the child's own (user + system), which a
loaded machine does not stretch as it does the clock."""
HANG = 600
"""Seconds on the clock after which a child is taken to hang (only a guard: never a measure)."""


def good(path: Path) -> Path:
    return write_book(path, RALLY_SHEETS)


def replace_part(
    path: Path, part: str, data: bytes, *, compress: int = zipfile.ZIP_DEFLATED
) -> Path:
    """Rewrite one part of a workbook made by XlsxWriter (test fixture only)."""
    with zipfile.ZipFile(path) as z:
        items = [(info, z.read(info.filename)) for info in z.infolist()]
    with zipfile.ZipFile(path, "w", compress) as z:
        for info, content in items:
            z.writestr(info.filename, data if info.filename == part else content)
    return path


def results_part(path: Path) -> str:
    return "xl/worksheets/sheet3.xml"  # Settings, Events, Results in RALLY_SHEETS order


def with_sheets(path: Path, **changes: Rows) -> Path:
    sheets = dict(RALLY_SHEETS)
    sheets.update({k.replace("_", " "): v for k, v in changes.items()})
    return write_book(path, sheets)


def not_a_zip(path: Path) -> Path:
    path.write_text("Rank,Player\n1,Bobby\n")
    return path


def empty(path: Path) -> Path:
    path.write_bytes(b"")
    return path


def truncated(path: Path) -> Path:
    data = good(path).read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def encrypted(path: Path) -> Path:
    plain = io.BytesIO(good(path).read_bytes())
    out = io.BytesIO()
    msoffcrypto.format.ooxml.OOXMLFile(plain).encrypt("secret", out)
    path.write_bytes(out.getvalue())
    return path


def zip_bomb(path: Path) -> Path:
    """A results sheet that unpacks to 600 MB of XML (over the 512 MB limit) from about 1 MB."""
    good(path)
    with zipfile.ZipFile(path) as z:
        items = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, content in items:
            if name != results_part(path):
                z.writestr(name, content)
                continue
            with z.open(name, "w", force_zip64=True) as out:
                out.write(content[: -len(b"</worksheet>")])
                block = b" " * 2**20
                for _ in range(600):
                    out.write(block)
                out.write(b"</worksheet>")
    return path


def far_cell(path: Path) -> Path:
    good(path)
    with zipfile.ZipFile(path) as z:
        xml = z.read(results_part(path))
    xml = xml.replace(
        b"</sheetData>", b'<row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData>'
    )
    return replace_part(path, results_part(path), xml)


BILLION_LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    + b"".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">'.encode()
        for i in range(1, 10)
    )
    + b']><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" '
    b'uniqueCount="1"><si><t>&lol9;</t></si></sst>'
)


def entity_bomb(path: Path) -> Path:
    good(path)
    return replace_part(path, "xl/sharedStrings.xml", BILLION_LAUGHS)


def entity_bomb_in_workbook(path: Path) -> Path:
    good(path)
    with zipfile.ZipFile(path) as z:
        xml = z.read("xl/workbook.xml")
    bomb = (
        BILLION_LAUGHS.split(b"<sst")[0]
        .replace(b"lolz", b"workbook")
        .replace(b'<?xml version="1.0"?>', b"")
    )
    return replace_part(path, "xl/workbook.xml", xml.replace(b"?>", b"?>" + bomb, 1))


def external_entity(path: Path) -> Path:
    good(path)
    with zipfile.ZipFile(path) as z:
        xml = z.read(results_part(path))
    doctype = b'<!DOCTYPE worksheet [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
    xml = xml.replace(b"?>", b"?>" + doctype, 1).replace(
        b"<sheetData>",
        b'<sheetData><row r="99"><c r="A99" t="inlineStr"><is><t>&xxe;</t></is></c></row>',
        1,
    )
    return replace_part(path, results_part(path), xml)


RESULTS_HEAD = ["Event", "Player", "Points", "Games", "Byes"]


def long_name(path: Path) -> Path:
    """A 40,000-character name (more than Excel itself allows in a cell, so written directly)."""
    with_sheets(path, Results=[RESULTS_HEAD, ["Dec 2025", "LONGNAME", 1, 4, 0]])
    with zipfile.ZipFile(path) as z:
        strings = z.read("xl/sharedStrings.xml")
    return replace_part(path, "xl/sharedStrings.xml", strings.replace(b"LONGNAME", b"x" * 40_000))


REVERSE = {"Settings": [["System", "reverse"]], "Events": [["Event"], ["W1"]]}
ABSOLUTE = {
    "Settings": [["System", "absolute"]],
    "Points": [["Rank", "Points"], [1, 10]],
    "Events": [["Event"], ["W1"]],
}

# name -> (maker, what the error message must contain)
CORPUS: dict[str, tuple[Callable[[Path], Path], str]] = {
    "not a zip": (not_a_zip, ": not an Excel workbook (.xlsx or .xlsm): it is not a zip package"),
    "empty": (empty, ": the file is empty"),
    "truncated": (truncated, ": the file is damaged"),
    "password-protected": (encrypted, ": the workbook is password-protected (encrypted)"),
    "zip bomb": (zip_bomb, ": xl/worksheets/sheet3.xml: 600 MB uncompressed"),
    "cell at XFD1048576": (far_cell, ": Results: cells reach row 1,048,576 and column 16,384"),
    "entity bomb in shared strings": (
        entity_bomb,
        ": xl/sharedStrings.xml: XML with a DTD or entities is not allowed",
    ),
    "entity bomb in workbook": (
        entity_bomb_in_workbook,
        ": xl/workbook.xml: XML with a DTD or entities is not allowed",
    ),
    "external entity": (external_entity, ": Results: XML with a DTD or entities is not allowed"),
    "missing sheet": (
        lambda p: write_book(p, {"Settings": [["System", "rally"]], "Events": [["Event"]]}),
        ": the workbook has no 'Results' sheet and no sheet named after an event",
    ),
    "missing column": (
        lambda p: with_sheets(p, Results=[["Event", "Player", "Score x"], ["Dec 2025", "Al", 1]]),
        ": Results!A1: no Points column (the headers are 'Event', 'Player', 'Score x'); if "
        "'Score x' is it, rename it 'Points'",
    ),
    "text in number column": (
        lambda p: with_sheets(p, Results=[RESULTS_HEAD, ["Dec 2025", "Al", "three", 4, 0]]),
        ": Results!C2: points must be a number, not the text 'three'",
    ),
    "negative number": (
        lambda p: with_sheets(p, Results=[RESULTS_HEAD, ["Dec 2025", "Al", -1, 4, 0]]),
        ": Results!C2: points must not be negative (-1)",
    ),
    "duplicate event": (
        lambda p: with_sheets(p, Events=[["Event", "Rounds"], ["Dec 2025", 4], ["dec 2025", 5]]),
        ": Events!A3: event 'dec 2025' is listed twice",
    ),
    "duplicate result": (
        lambda p: with_sheets(
            p, Results=[RESULTS_HEAD, ["Dec 2025", "Al", 1, 4, 0], ["Dec 2025", " al", 2, 4, 0]]
        ),
        ": Results!B3: 'Al' has two results in 'Dec 2025'",
    ),
    "byes >= rounds": (
        lambda p: with_sheets(p, Results=[RESULTS_HEAD, ["Dec 2025", "Al", 0, 0, 4]]),
        ": Results!E2: byes (4) must be less than rounds (4)",
    ),
    "games + byes > rounds": (
        lambda p: with_sheets(p, Results=[RESULTS_HEAD, ["Dec 2025", "Al", 1, 4, 1]]),
        ": Results!D2: games (4) + byes (1) must not exceed rounds (4)",
    ),
    "ranks skip a place": (
        lambda p: write_book(
            p,
            {
                **REVERSE,
                "Results": [
                    ["Event", "Player", "Rank"],
                    ["W1", "A", 1],
                    ["W1", "B", 2],
                    ["W1", "C", 4],
                ],
            },
        ),
        ": Results!C4: rank (4) must be between 1 and players (3)",
    ),
    "shared rank not allowed": (
        lambda p: write_book(
            p,
            {
                **ABSOLUTE,
                "Settings": [["System", "absolute"], ["Shared places", "refuse"]],
                "Results": [
                    ["Event", "Player", "Rank"],
                    ["W1", "A", 1],
                    ["W1", "B", 2],
                    ["W1", "C", 2],
                ],
            },
        ),
        ": Results!C4: rank 2 is given twice (B and C); Absolute Points needs distinct ranks",
    ),
    "40,000-character name": (
        long_name,
        ": Results!B2: player name is 40000 characters long; at most 255",
    ),
    "unknown system": (
        lambda p: with_sheets(p, Settings=[["System", "swiss"]]),
        ": Settings!B1: unknown system 'swiss': use one of rally, absolute, reverse, neau, dippouch, formula",
    ),
}


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT * 2, MEMORY_LIMIT * 2))


def cpu_of_children() -> float:
    """Processor seconds used so far by this process's children that have ended."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def xlrally(*args: str) -> tuple[int, str, str, float]:
    """Run the real command in its own process: exit code, out, err, and the processor
    seconds it used (its own and its children's)."""
    before = cpu_of_children()
    process = subprocess.Popen(
        [sys.executable, "-m", "xlrally", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=limited,  # noqa: PLW1509 - sets the memory limit of the child only
    )
    try:
        out, err = process.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    return process.returncode, out, err, cpu_of_children() - before


@pytest.mark.parametrize("command", ["sync", "standings", "check", "publish"])
@pytest.mark.parametrize("case", list(CORPUS))
def test_bad_workbook_is_refused_cleanly(tmp_path: Path, case: str, command: str) -> None:
    """Exit 1, `Error: <file>: ...` naming sheet and cell where there is one, no traceback,
    the file untouched, quickly and in bounded memory; by every command that reads (the
    read-only ones read in a child without the area check, as sync does)."""
    maker, expected = CORPUS[case]
    path = maker(tmp_path / "league.xlsx")
    before = path.read_bytes()
    code, out, err, seconds = xlrally(command, str(path))
    assert code == 1, (out, err)
    assert err.startswith(f"Error: {path}"), err[:500]
    assert expected in err, err[:500]
    for noise in ("Traceback", "Fatal Python error", "memory allocation", "panicked"):
        assert noise not in err
    assert path.read_bytes() == before
    assert seconds < TIME_LIMIT
    assert [p.name for p in tmp_path.iterdir()] == ["league.xlsx"]  # no temp file left


def test_peak_memory_of_the_worst_cases_stays_low(tmp_path: Path) -> None:
    """The bombs are refused before anything big is allocated (peak RSS of one process)."""
    for maker in (zip_bomb, far_cell, entity_bomb):
        path = maker(tmp_path / f"{maker.__name__}.xlsx")
        process = subprocess.Popen(
            [sys.executable, "-m", "xlrally", "check", str(path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=limited,  # noqa: PLW1509 - sets the memory limit of the child only
        )
        _, status, usage = os.wait4(process.pid, 0)
        assert os.waitstatus_to_exitcode(status) == 1
        assert usage.ru_maxrss / 1024 < 300, maker.__name__  # MB
        assert usage.ru_utime + usage.ru_stime < TIME_LIMIT


def test_batch_syncs_the_good_files_among_the_bad(tmp_path: Path) -> None:
    """A folder with every bad file and two good ones: the good ones are synced, exit 1."""
    for index, (maker, _) in enumerate(CORPUS.values()):
        maker(tmp_path / f"bad{index:02d}.xlsx")
    good(tmp_path / "good1.xlsx")
    good(tmp_path / "good2.xlsx")
    code, out, err, _ = xlrally("sync", str(tmp_path))
    assert code == 1
    assert "Traceback" not in err
    for name in ("good1.xlsx", "good2.xlsx"):
        with zipfile.ZipFile(tmp_path / name) as z:
            assert any(
                b"Working" in z.read(n) for n in z.namelist() if n.startswith("xl/worksheets/")
            )
        assert f"{tmp_path / name}  rally" in out
    assert err.count("Error: ") >= len(CORPUS)


def test_names_starting_like_formulas_are_valid(tmp_path: Path) -> None:
    """Players called =x, +y, -z and @w sync and appear in Standings as text."""
    names = ["=1+1", "+44 123", "-minus", "@mention"]
    path = with_sheets(
        tmp_path / "f.xlsx", Results=[RESULTS_HEAD, *(["Dec 2025", n, 1, 4, 0] for n in names)]
    )
    code, _, err, _ = xlrally("sync", str(path))
    assert code == 0, err
    with zipfile.ZipFile(path) as z:
        xml = next(
            z.read(n)
            for n in z.namelist()
            if n.startswith("xl/worksheets/") and b"Working" in z.read(n)
        )
    assert b"<f>" not in xml
    for name in names:
        assert f'<t xml:space="preserve">{name}</t>'.encode() in xml
