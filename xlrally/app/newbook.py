"""``xlrally new``: a new league workbook, plain (.xlsx) or with a refresh button (.xlsm for
Excel, .ods for LibreOffice Calc: :mod:`xlrally.calc.odsbook`).

The macro-enabled workbook takes its VBA project from the xlwings package installed on this
machine: ``quickstart.xlsm``, whose VBA project holds only the ``SampleCall`` macro and a
reference to the xlwings add-in. So the workbook follows whichever xlwings add-in is installed
(upgrading xlwings and its add-in keeps every league workbook working), where the standalone
quickstart would pin a copy of one version's VBA module, DLL and AppleScript names included
(xlwings issue #2337). The macro runs ``main()`` of a Python module named after the
workbook, so ``new`` writes that small module beside the workbook. Nothing from xlwings is
copied into this repository.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import keyword
import sys
import zipfile
from pathlib import Path

from xlsxwriter.exceptions import XlsxWriterException

from xlrally.core.errors import NewBookError
from xlrally.excel.template import build_workbook

BUTTON_MACRO = "SampleCall"
"""The macro of xlwings' quickstart workbooks: RunPython of ``<workbook name>.main()``."""

QUICKSTART = "quickstart.xlsm"

COMPANION = '''"""Run by the "Refresh standings" button of {workbook} (xlwings RunPython).

xlwings' quickstart macro imports the module named after the workbook and calls main().
"""

from xlrally.excel.live import refresh_caller


def main() -> None:
    """Recompute the Standings sheet of the workbook that called."""
    refresh_caller()
'''


def xlwings_vba_project() -> bytes:
    """The vbaProject.bin of xlwings' add-in quickstart workbook, from the installed xlwings."""
    spec = importlib.util.find_spec("xlwings")
    if spec is None or spec.origin is None:
        msg = "a .xlsm workbook needs xlwings installed (pip install xlwings)"
        raise NewBookError(msg)
    quickstart = Path(spec.origin).parent / QUICKSTART
    if not quickstart.exists():
        msg = f"the installed xlwings has no {QUICKSTART}: reinstall xlwings"
        raise NewBookError(msg)
    with zipfile.ZipFile(quickstart) as book:
        return book.read("xl/vbaProject.bin")


TAKEN = frozenset({"xlrally", "udfs", "xlwings", "main", "test", "tests"})
"""Module names a league workbook may not have: importing its companion module would shadow
xlrally's own packages or xlwings (or the module would not be the companion)."""


def _now() -> dt.datetime:
    """Now, in UTC without a zone (what XlsxWriter records as the creation time)."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)


def module_name_problem(stem: str) -> str | None:
    """Why a workbook named ``stem`` cannot have a working refresh button, or None.

    The button imports a module named after the workbook (xlwings' quickstart macro), so the
    name must be importable and must not shadow anything the refresh imports."""
    if not stem.isidentifier() or keyword.iskeyword(stem):
        return (
            f"{stem!r} cannot be a Python module name, and the refresh button imports a module "
            "named after the workbook: use letters, digits and underscores, starting with a "
            "letter (e.g. chess_rally.xlsm)"
        )
    if stem.lower() in TAKEN or stem in sys.stdlib_module_names:
        return (
            f"{stem!r} is already the name of a Python module (xlrally's, xlwings' or Python's "
            "own); the button's module, named after the workbook, would hide it: choose another "
            "name (e.g. chess_rally.xlsm)"
        )
    return None


def has_refresh_button(path: Path) -> bool:
    """Whether the workbook has a form button bound to the quickstart macro (as ``new`` makes)."""
    try:
        with zipfile.ZipFile(path) as book:
            drawings = [n for n in book.namelist() if n.lower().endswith(".vml")]
            return any(f"!{BUTTON_MACRO}<".encode() in book.read(n) for n in drawings)
    except (OSError, zipfile.BadZipFile):
        return False


def button_warnings(path: Path) -> list[str]:
    """What would stop the refresh button of a copied or renamed workbook from running.

    A copy saved as ``league (1).xlsm`` or ``league_2026.xlsm`` keeps the button, whose macro
    now imports ``league (1)`` or ``league_2026``: the name must be importable and the module
    must sit beside the workbook."""
    if path.suffix.lower() != ".xlsm" or not has_refresh_button(path):
        return []
    problem = module_name_problem(path.stem)
    if problem is not None:
        return [f"Refresh button: {problem}; then run `xlrally button` on the renamed file"]
    if not path.with_suffix(".py").exists():
        return [
            f"Refresh button: it runs {path.with_suffix('.py').name} beside the workbook, "
            f"which is missing (a renamed or copied workbook): run `xlrally button {path}` "
            "to write it"
        ]
    return []


def write_companion(path: Path) -> Path:
    """Write the module the refresh button of ``path`` runs; returns its path."""
    problem = module_name_problem(path.stem)
    if problem is not None:
        raise NewBookError(problem)
    module = path.with_suffix(".py")
    module.write_text(COMPANION.format(workbook=path.name), encoding="utf-8")
    return module


def make_new(path: Path, system: str) -> list[Path]:
    """Write the new workbook (and, for .xlsm, its companion module); returns what was written."""
    try:
        return _make_new(path, system)
    except (OSError, XlsxWriterException) as error:
        reason = getattr(error, "strerror", None) or str(error)
        msg = f"cannot write the workbook: {reason}"
        raise NewBookError(msg) from None


def _make_new(path: Path, system: str) -> list[Path]:
    suffix = path.suffix.lower()
    if suffix == ".xlsx":
        build_workbook(path, system, created=_now())
        return [path]
    if suffix == ".ods":  # for LibreOffice Calc, converted by LibreOffice (xlrally.calc)
        from xlrally.calc.odsbook import build_ods

        build_ods(path, system, created=_now())
        return [path]
    if suffix != ".xlsm":
        msg = "the file name must end in .xlsx, .xlsm or .ods"
        raise NewBookError(msg)
    problem = module_name_problem(path.stem)
    if problem is not None:
        raise NewBookError(problem)
    build_workbook(path, system, xlwings_vba_project(), BUTTON_MACRO, created=_now())
    return [path, write_companion(path)]
