"""Runs inside Pyodide (tests/lite/run_in_pyodide.mjs) as xlwings Lite runs a workbook's
main.py, and answers with JSON (the last expression: Pyodide's runPythonAsync returns it).

1. Install the wheels given (xlwings; xlrally too when main.py does not carry it) by
   unpacking them, without their dependencies: Lite needs none of them.
2. Make the module ``main`` from main.py's source as the Lite runtime does
   (xlwings-server ``xlwings_server/wasm/wasm_runtime.py``, ``create_module_from_string``:
   ``spec_from_loader(name, loader=None)``, ``module_from_spec``, ``exec``, ``sys.modules``).
3. Register the functions (``custom_functions_meta``), call each as Office.js does
   (``custom_functions_call`` with the body of xlwings-server's
   ``static/js/custom-functions/custom-functions-code.js`` ``base()``, lines 253-271: every
   argument a matrix, an omitted one null), list the scripts (``custom_scripts_meta``), and
   run the Refresh on each workbook payload as the Lite runtime does (wasm_runtime.py
   ``custom_scripts_call``: ``typehint_to_value={xw.Book: xw.Book(json=payload)}``).
"""

import glob
import importlib.util
import json
import site
import sys
import zipfile
from typing import Any

for wheel in sorted(glob.glob("/check/*.whl")):
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site.getsitepackages()[0])

import xlwings as xw  # noqa: E402
import xlwings.server  # noqa: E402

with open("/check/main.py", encoding="utf-8") as source:
    code = source.read()
spec = importlib.util.spec_from_loader("main", loader=None)
assert spec is not None
main = importlib.util.module_from_spec(spec)
exec(code, main.__dict__)  # what the Lite runtime does with main.py
sys.modules["main"] = main

with open("/check/input.json", encoding="utf-8") as given:
    task = json.load(given)


def body(name: str, args: list[Any]) -> dict[str, Any]:
    return {
        "client": "Office.js",
        "func_name": name,
        "args": args,
        "caller_address": "[league.xlsx]Results!H2",
        "session_id": "check",
        "culture_info_name": "en-US",
        "date_format": "m/d/yyyy",
        "version": xw.__version__,
        "runtime": "1.4",
    }


async def run() -> tuple[list[Any], dict[str, Any]]:
    answers = [
        await xlwings.server.custom_functions_call(body(name, args), main)
        for name, args in task["calls"]
    ]
    refreshed = {}
    for system, payload in task["books"].items():
        book = xw.Book(json=payload)
        result = await xlwings.server.custom_scripts_call(
            main, "refresh_standings", typehint_to_value={xw.Book: book}
        )
        refreshed[system] = result.json()["actions"]
    return answers, refreshed


answers, refreshed = await run()  # type: ignore[top-level-await]  # noqa: F704, PLE1142
meta = xlwings.server.custom_functions_meta(main)  # type: ignore[no-untyped-call]
json.dumps(
    {
        "platform": sys.platform,
        "python": sys.version.split()[0],
        "functions": [f["name"] for f in meta["functions"]],
        "scripts": xlwings.server.custom_scripts_meta(main),  # type: ignore[no-untyped-call]
        "answers": answers,
        "actions": refreshed,
    },
    default=str,
)
