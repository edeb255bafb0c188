"""xlwings Lite: the two files a treasurer pastes into the xlwings Lite editor.

xlwings Lite runs Python inside Excel (Windows, macOS and the web) in Pyodide, with no Python
installed, from the workbook's own ``main.py`` and ``requirements.txt``. ``xlrally lite
FOLDER`` (:func:`write_lite`) writes both:

* ``main.py`` *defines* the Refresh script, ``refresh_standings(book: xw.Book)`` with
  ``@script``: Lite hands the workbook only to a parameter annotated ``xw.Book`` (xlwings'
  ``custom_scripts_call``), and its Run list shows the scripts whose ``def`` is in main.py
  itself. It brings in the Excel functions with ``from udfs import *``.
* ``requirements.txt``: what Lite installs, each line something a browser can fetch: xlwings
  from the package index, and xlrally either carried inside main.py (the default: the modules
  the functions and the Refresh use, packed by the xlrally that writes the files, so that
  nothing needs to be built or put on a web server) or from a requirement given with
  ``--requirement`` (``xlrally`` once it is on the package index, or the https address of its
  wheel on a server that sends CORS headers). See docs/excel.md.

The Refresh needs only the scoring core, the live path and xlwings; not the file reader
(python-calamine), XlsxWriter or the command line's click and rich.
"""

from __future__ import annotations

import base64
import io
import zipfile
from pathlib import Path
from typing import Any

from xlrally.core.version import __version__
from xlrally.excel.live import XlwingsBook, alert, refresh

__all__ = ["main_py", "refresh_in_lite", "requirements_txt", "write_lite"]

XLWINGS = "xlwings>=0.37.8"
"""The xlwings the Lite files are tested with (its remote engine, in Pyodide)."""

LEFT_OUT = ("app", "ooxml", "calc", "api.py", "cli.py", "__main__.py", "template.py")
"""What Lite does not need: the command line, the file and LibreOffice backends, new workbooks."""


def refresh_in_lite(book: Any) -> None:
    """What the Lite script does: refresh the workbook, say what happened in a message box
    and in the Lite pane's output."""
    outcome = refresh(XlwingsBook(book))
    print(outcome.message)  # the Lite pane shows what a script prints
    alert(book, outcome)


_SCRIPT = '''\
@script
def refresh_standings(book: xw.Book):
    """Recompute the Standings sheet from the Events and Results sheets."""
    refresh_in_lite(book)
'''

_HEAD = '''\
"""xlrally {version} in xlwings Lite, written by `xlrally lite`: the Excel functions
(=RALLY_SCORE, =NEAU_POINTS, ...) and the Refresh script (run refresh_standings from the
xlwings Lite pane). Your own functions and scripts can go at the end."""

import xlwings as xw
from xlwings import script
'''

_BUNDLED = '''
# xlrally itself: the modules the functions and the Refresh use, packed by `xlrally lite`
# (a zip archive, base64). Nothing to install: Python imports them from the archive.
import base64, pathlib, sys, tempfile  # noqa: E401, E402

_XLRALLY = pathlib.Path(tempfile.gettempdir(), "xlrally-{version}.zip")
_XLRALLY.write_bytes(base64.b64decode("""
{archive}"""))
if str(_XLRALLY) not in sys.path:
    sys.path.insert(0, str(_XLRALLY))
'''

_IMPORTS = """
from udfs import *  # noqa: E402, F403  (the Excel functions)
from xlrally.excel.lite import refresh_in_lite  # noqa: E402


"""


def archive() -> bytes:
    """The installed xlrally's modules that Lite needs, and udfs, as a zip archive that
    Python imports from (zipimport), in a fixed order and with fixed dates."""
    package = Path(__file__).resolve().parents[1]  # xlrally, installed beside udfs
    files = [p for p in sorted(package.rglob("*.py")) if not _left_out(p.relative_to(package))]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as packed:
        for path in [*files, package.parent / "udfs" / "__init__.py"]:
            name = path.relative_to(package.parent).as_posix()
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            packed.writestr(info, path.read_bytes())
    return buffer.getvalue()


def _left_out(relative: Path) -> bool:
    return relative.parts[0] in LEFT_OUT or relative.name in LEFT_OUT


def main_py(requirement: str | None = None) -> str:
    """Lite's main.py: xlrally carried inside it (no ``requirement``), or installed from
    requirements.txt."""
    text = _HEAD.format(version=__version__)
    if requirement is None:
        encoded = base64.b64encode(archive()).decode("ascii")
        lines = "\n".join(encoded[i : i + 96] for i in range(0, len(encoded), 96))
        text += _BUNDLED.format(version=__version__, archive=lines)
    return text + _IMPORTS + _SCRIPT


def requirements_txt(requirement: str | None = None) -> str:
    """Lite's requirements.txt: xlwings, and xlrally's own line when it is installed."""
    lines = [XLWINGS] if requirement is None else [XLWINGS, requirement]
    return "\n".join(lines) + "\n"


def write_lite(folder: Path, requirement: str | None = None) -> list[Path]:
    """Write main.py and requirements.txt for xlwings Lite into ``folder`` (made if needed)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in (
        ("main.py", main_py(requirement)),
        ("requirements.txt", requirements_txt(requirement)),
    ):
        path = folder / name
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    return written
