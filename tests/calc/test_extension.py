"""The extension file itself (no LibreOffice needed): it describes the Excel functions as
``udfs`` does, its compiled type library is the one its IDL makes, it carries the installed
package's own files, and its configuration is well-formed."""

from __future__ import annotations

import inspect
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest

import udfs
from xlrally.calc import extension
from xlrally.calc.catalogue import NAMES, every_function
from xlrally.calc.names import respelled

SDK_TYPES = Path("/usr/lib/libreoffice/program/types.rdb")
COMPILER = shutil.which("unoidl-write") or "/usr/lib/libreoffice/sdk/bin/unoidl-write"


def test_calc_has_every_excel_function_with_its_arguments() -> None:
    """The same names as udfs registers with Excel, and the same arguments in order."""
    assert sorted(NAMES) == sorted(udfs.__all__)
    for function in every_function():
        excel = inspect.signature(getattr(udfs, function.name)).parameters
        assert [a.name for a in function.arguments] == list(excel), function.name


def test_the_function_wizard_texts_are_excels() -> None:
    """Each function and argument has the description Excel's function wizard shows."""
    texts = extension.descriptions()
    assert texts["RALLY_SCORE"][0].startswith("Rapidplay Rally event score")
    assert texts["RALLY_SCORE"][1]["byes"] == "Byes received (default 0)"
    xcu = ET.fromstring(extension.calc_addins_xcu())
    names = [n.get("{http://openoffice.org/2001/registry}name") for n in xcu.iter("node")]
    for function in every_function():
        summary, arguments = texts[function.name]
        assert summary
        assert function.name in names
        assert {a.name for a in function.arguments} == set(arguments)
        assert all(arguments.values())


@pytest.mark.skipif(
    not (Path(COMPILER).exists() and SDK_TYPES.exists()),
    reason="the LibreOffice SDK's unoidl-write (libreoffice-dev) is not installed",
)
def test_the_shipped_type_library_is_the_one_the_idl_makes(tmp_path: Path) -> None:
    """xlrally/calc/xlrally.rdb is what unoidl-write makes of extension.idl() today (rebuild it
    with the command in docs/libreoffice.md when the functions change)."""
    idl = tmp_path / "xlrally.idl"
    idl.write_text(extension.idl(), encoding="utf-8")
    subprocess.run([COMPILER, str(SDK_TYPES), str(idl), str(tmp_path / "x.rdb")], check=True)
    assert (tmp_path / "x.rdb").read_bytes() == extension.TYPE_LIBRARY.read_bytes()


def test_the_type_library_names_every_function_and_argument() -> None:
    """Without the SDK too: each method and argument name is in the shipped type library."""
    data = extension.TYPE_LIBRARY.read_bytes()
    assert b"XFunctions" in data
    for function in every_function():
        assert function.name.encode() in data
        for argument in function.arguments:
            assert extension.uno_name(argument.name).encode() in data


def test_the_extension_carries_the_installed_package(tmp_path: Path) -> None:
    """Every carried module is the installed one, byte for byte; the file layers it does not
    need (the .xlsx reader and writer, the command line) stay out; each listed part is there."""
    oxt = extension.build(tmp_path / "xlrally.oxt")
    with zipfile.ZipFile(oxt) as z:
        names = set(z.namelist())
        for name, source in extension.carried_files():
            assert z.read(name) == source.read_bytes()
        manifest = z.read("META-INF/manifest.xml").decode()
        for part in ("CalcAddIns.xcu", "Addons.xcu", "ProtocolHandler.xcu", "Jobs.xcu"):
            ET.fromstring(z.read(part))
            assert part in manifest
    assert "pythonpath/xlrally/excel/functions.py" in names
    assert "pythonpath/xlrally/calc/components.py" in names
    assert not [n for n in names if "/ooxml/" in n or "/app/" in n or n.endswith("cli.py")]
    assert "pythonpath/xlrally/calc/odsbook.py" not in names  # `new league.ods`: command line
    assert {"xlrally.rdb", "xlrally.components", "xlrally_calc.py", "description.xml"} <= names


def test_a_python_older_than_xlrallys_is_refused_with_its_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """LibreOffice's own Python may be old (Windows and macOS bundle one): the extension's entry
    module says which version it found, before it changes anything."""
    monkeypatch.setattr(sys, "version_info", (3, 8, 10, "final", 0))
    path = list(sys.path)
    with pytest.raises(ImportError, match=r"Python 3\.10 or later .* Python is 3\.8\.10"):
        exec(
            compile(extension.ENTRY, "xlrally_calc.py", "exec"), {"__file__": "/x/xlrally_calc.py"}
        )
    assert sys.path == path


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("=rally_score(C2;4)", "=RALLY_SCORE(C2;4)"),
        ("=_xludf.Prize_Share(A1:A3;2)", "=PRIZE_SHARE(A1:A3;2)"),
        (
            '=IF(A1="rally_score(";"";rally_best_n(A1))',
            '=IF(A1="rally_score(";"";RALLY_BEST_N(A1))',
        ),
        ("=ORG.XLRALLY.CALC.FUNCTIONS.RALLY_SCORE(A1;4)", None),
        ("=MY_RALLY_SCORE(A1)", None),
        ("=SUM(rally_score)", None),
    ],
)
def test_names_are_respelled_only_in_calls(formula: str, expected: str | None) -> None:
    """Only a call of one of the functions, by its Excel name, outside quoted text."""
    assert respelled(formula) == expected
