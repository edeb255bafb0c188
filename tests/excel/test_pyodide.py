"""xlwings Lite runs Python inside Excel in Pyodide: the main.py and requirements.txt that
`xlrally lite` writes, run in real Pyodide (npm's ``pyodide`` package under Node) with xlwings
switched into Lite mode (``XLWINGS_ON_SERVER=true`` and the ``noncommercial`` licence key, as
xlwings' own CI runs its remote engine). The functions are registered and called as Office.js
calls them, and the Refresh script runs through xlwings' real remote engine on the payload of
an `xlrally new` workbook; tests/fake_office_js.py carries out the actions it sends back, as
Excel would, and the Standings it gives are compared with `xlrally sync`'s.

Needs Node and npm (.ci/run installs them); the first run downloads Pyodide from npm into
``~/.cache/xlrally`` and builds the wheel (about 20 s), later runs take about 10 s.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import SEED
from fake_office_js import OfficeBook, file_looks, payload
from helpers import npm_package, plain, program
from packaging.requirements import Requirement

from xlrally.app.newbook import make_new
from xlrally.app.sync import sync_file
from xlrally.cli import cli
from xlrally.core.systems import SYSTEMS as REGISTRY
from xlrally.ooxml.package import Package
from xlrally.ooxml.reader import FileSheets

ROOT = Path(__file__).resolve().parents[2]
LITE = ROOT / "tests" / "lite"
PYODIDE = "314.0.7"
"""npm's pyodide package: Python 3.14, the Pyodide of xlwings Lite in 2026."""
SYSTEMS = list(REGISTRY)
PYODIDE_ENVIRONMENT = {
    "sys_platform": "emscripten",
    "platform_system": "Emscripten",
    "os_name": "posix",
    "platform_machine": "wasm32",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "python_version": "3.14",
    "python_full_version": "3.14.2",
}
"""The marker environment of Pyodide 314 (its pyodide-lock.json: emscripten, wasm32,
Python 3.14.2), in which micropip, Lite's installer, evaluates a wheel's requirements."""


@pytest.fixture(scope="module")
def pyodide_folder() -> Path:
    """A folder with npm's pyodide package installed (kept between runs)."""
    return npm_package("pyodide", PYODIDE, marker="pyodide.asm.wasm")


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """xlrally built from this checkout, and xlwings' pure-Python wheel of the installed
    version (what xlwings Lite installs from the package index)."""
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
    return {w.name.split("-")[0]: w for w in out.glob("*.whl")}


@pytest.fixture(scope="module")
def leagues(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """Per system, an `xlrally new` workbook and a synced copy of it."""
    folder = tmp_path_factory.mktemp("leagues")
    made = {}
    for system in SYSTEMS:
        path = folder / f"{system}.xlsx"
        make_new(path, system)
        synced = folder / f"{system}_synced.xlsx"
        shutil.copy(path, synced)
        assert sync_file(synced).ok
        made[system] = (path, synced)
    return made


def lite_files(folder: Path, *options: str) -> tuple[Path, list[str]]:
    """`xlrally lite FOLDER` as a user runs it: main.py and requirements.txt's lines."""
    result = CliRunner().invoke(cli, ["lite", str(folder), *options])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        f"wrote {folder / 'main.py'}",
        f"wrote {folder / 'requirements.txt'}",
    ]
    lines = (folder / "requirements.txt").read_text(encoding="utf-8").splitlines()
    return folder / "main.py", lines


def office_js_calls() -> tuple[list[Any], list[Any]]:
    """Function calls with their arguments shaped as Office.js sends them (every argument a
    matrix, an omitted one null), and the answers the seeds give. The docs' own
    =RALLY_SCORE(C2:C40, 4, E2:E40) over a league with an empty row: desktop Excel hands the
    empty cells over as 0, so 0 points in 4 rounds scores the 4 games; the web as null, a
    blank."""
    rally = SEED["rally_event_score"]["cases"]
    neau = SEED["neau_points"]["cases"]
    counted = SEED["rally_events_counted"]["cases"]
    calls = [
        *(
            ["RALLY_SCORE", [[[c["points"]]], [[c["rounds"]]], [[c["byes"]]], [[c["games"]]]]]
            for c in rally
        ),
        *(["NEAU_POINTS", [[[c["a"]]], [[c["b"]]], [[c["c"]]], [[c["d"]]]]] for c in neau),
        ["RALLY_BEST_N", [[[held] for held, _ in counted], None]],
        ["RALLY_SCORE", [[[3], [0]], [[4]], [[0], [0]], None]],  # desktop: blanks as 0
        ["RALLY_SCORE", [[[3], [None]], [[4]], [[0], [None]], None]],  # the web: null
    ]
    expected = [
        *([[c["score"]]] for c in rally),
        *([[pytest.approx(c["points"])]] for c in neau),
        [[n] for _, n in counted],
        [[79], [4]],
        [[79], [""]],
    ]
    return calls, expected


def run_lite(
    pyodide_folder: Path,
    main: Path,
    wheels: list[Path],
    books: dict[str, Any],
    calls: list[Any],
    tmp_path: Path,
) -> dict[str, Any]:
    """main.py run as xlwings Lite runs it, in Pyodide; the check's JSON answer."""
    task = tmp_path / "input.json"
    task.write_text(json.dumps({"calls": calls, "books": books}), encoding="utf-8")
    run = subprocess.run(
        [
            program("node"),
            str(LITE / "run_in_pyodide.mjs"),
            str(LITE / "check_in_pyodide.py"),
            str(task),
            str(main),
            *map(str, wheels),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYODIDE_DIR": str(pyodide_folder)},
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    answer: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    assert answer["platform"] == "emscripten"
    return answer


def file_widths(path: Path) -> dict[int, float]:
    """The Standings columns' widths in the synced file, in characters (``<col width>``)."""
    with Package(path) as package:
        ref = package.sheet("Standings")
        assert ref is not None
        sheet = package.read(ref.part).decode()
    return {
        int(m.group(1)): float(m.group(2))
        for m in re.finditer(r'<col min="(\d+)" max="\d+" width="([\d.]+)"', sheet)
    }


@pytest.mark.parametrize("form", ["carried", "installed"])
def test_lite_files_run_in_pyodide_as_xlwings_lite_runs_them(
    pyodide_folder: Path,
    wheels: dict[str, Path],
    leagues: dict[str, tuple[Path, Path]],
    tmp_path: Path,
    form: str,
) -> None:
    """In Lite mode, the main.py of `xlrally lite` (xlrally carried inside it, or installed
    from requirements.txt) registers every function, computes the seeds' cases from
    Office.js-shaped arguments, and its Refresh script, given the book as Lite gives it,
    writes the Standings `xlrally sync` writes, cell by cell and look by look (alignment
    included), for all five systems, with column widths in points."""
    options = [] if form == "carried" else ["--requirement", "xlrally"]
    main, requirements = lite_files(tmp_path / "lite", *options)
    installed = [wheels["xlwings"]] if form == "carried" else [wheels["xlwings"], wheels["xlrally"]]
    assert requirements == (
        ["xlwings>=0.37.8"] if form == "carried" else ["xlwings>=0.37.8", "xlrally"]
    )
    calls, expected = office_js_calls()
    books = {s: payload(path, version("xlwings")) for s, (path, _) in leagues.items()}
    answer = run_lite(pyodide_folder, main, installed, books, calls, tmp_path)

    import udfs

    assert answer["functions"] == sorted(udfs.__all__)
    assert [s["function_name"] for s in answer["scripts"]] == ["refresh_standings"]
    assert answer["answers"] == expected
    for system, (path, synced) in leagues.items():
        excel = OfficeBook(names=[s["name"] for s in books[system]["sheets"]])
        excel.apply(answer["actions"][system])
        with FileSheets(synced) as sheets:
            wanted = plain(sheets.values("Standings"))
        assert plain(excel.memory.sheets["Standings"]) == wanted, system
        assert excel.memory.formulas == {}
        assert excel.looks() == file_looks(synced), system  # fonts, formats, alignment
        ((prompt, title, _buttons, mode, _callback),) = excel.alerts
        assert (title, mode) == ("xlrally", "info")
        assert prompt.startswith("Standings updated: ")
        widths = file_widths(synced)
        assert widths
        for column, characters in widths.items():
            # A character of Calibri 11 is about 7 pixels, 5.25 points.
            ratio = excel.widths[("Standings", column)] / (characters * 5.25)
            assert 0.75 <= ratio <= 1.25, (system, column, ratio)
        assert path.exists()


def lite_run_list(source: str) -> list[str]:
    """The scripts the xlwings Lite pane offers to run, from main.py's source: a function
    *defined* at the top of main.py, decorated with ``@script`` (``xw.script``, with or
    without arguments), whose first parameter is annotated ``xw.Book`` (xlwings Lite's
    documentation, "Scripts": "A script is a Python function that has the @script decorator
    and has a function argument with the xlwings.Book type hint"; the Lite editor lists
    them from main.py itself, so a script merely imported into it is not offered)."""

    def named(node: ast.expr, name: str) -> bool:
        if isinstance(node, ast.Call):
            node = node.func
        return (isinstance(node, ast.Name) and node.id == name) or (
            isinstance(node, ast.Attribute) and node.attr == name
        )

    found = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.args.args:
            annotation = node.args.args[0].annotation
            if any(named(d, "script") for d in node.decorator_list) and (
                annotation is not None and named(annotation, "Book")
            ):
                found.append(node.name)
    return found


def test_the_lite_pane_offers_the_refresh(tmp_path: Path) -> None:
    """The Lite Run list shows refresh_standings: main.py defines it, with the book
    parameter Lite fills; a main.py that only imports it shows nothing."""
    for options in ([], ["--requirement", "xlrally"]):
        main, _ = lite_files(tmp_path / str(len(options)), *options)
        assert lite_run_list(main.read_text(encoding="utf-8")) == ["refresh_standings"]
    imported = "from xlrally.excel.lite import refresh_standings  # noqa: F401\n"
    assert lite_run_list(imported) == []
    untyped = "@script\ndef refresh_standings(book):\n    pass\n"
    assert lite_run_list(untyped) == []


def test_lite_installs_only_xlwings_for_xlrally(tmp_path: Path) -> None:
    """Installed from the package index in Lite, xlrally brings in only xlwings: its other
    requirements (the file reader, XlsxWriter, the command line) are marked for platforms
    other than Pyodide, where micropip, Lite's installer, leaves them out."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (wheel,) = tmp_path.glob("xlrally-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(archive.read(name).decode())
    requirements = [Requirement(r) for r in metadata.get_all("Requires-Dist") or []]
    in_lite = [
        r.name
        for r in requirements
        if r.marker is None or r.marker.evaluate({**PYODIDE_ENVIRONMENT, "extra": ""})
    ]
    assert in_lite == ["xlwings"]
    here = [r.name for r in requirements if r.marker is None or r.marker.evaluate({"extra": ""})]
    assert "python-calamine" in here  # the command line still gets everything
