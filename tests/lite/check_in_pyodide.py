"""Runs inside Pyodide (tests/lite/run_in_pyodide.mjs): install the wheels without their
dependencies (the file reader and the command line are not needed in Excel), import udfs and
the xlwings Lite entry point, compute the calls given in /check/input.json, refresh a league
through the Lite script over the test double of Excel, and answer with JSON.

The last expression is the answer (Pyodide's runPythonAsync returns it).
"""

import glob
import json
import site
import sys
import zipfile

for wheel in sorted(glob.glob("/check/*.whl")):
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site.getsitepackages()[0])
sys.path.insert(0, "/check")  # fake_xlwings, the test double of Excel

from fake_xlwings import FakeBook  # noqa: E402

import udfs  # noqa: E402
from xlrally.excel.lite import refresh_standings  # noqa: E402
from xlrally.excel.live import MemoryBook  # noqa: E402

with open("/check/input.json", encoding="utf-8") as given:
    task = json.load(given)
answers = [getattr(udfs, name)(*args) for name, args in task["calls"]]
book = FakeBook(MemoryBook(sheets=task["league"]))
refresh_standings(book)
json.dumps(
    {
        "platform": sys.platform,
        "python": sys.version.split()[0],
        "answers": answers,
        "standings": book.memory.sheets["Standings"],
        "alerts": book.app.alerts,
    },
    default=str,
)
