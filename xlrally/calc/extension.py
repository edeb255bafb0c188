"""The LibreOffice extension (``xlrally libreoffice``): an ``.oxt`` built from the installed
package, so that it always computes what this xlrally computes.

What is in it, and why:

* ``xlrally.rdb``: the add-in's interface (:func:`idl`) compiled by the LibreOffice SDK's
  ``unoidl-write``. A treasurer has no SDK, so the compiled file is shipped in the package
  (``xlrally/calc/xlrally.rdb``); a test compiles :func:`idl` again where the SDK is installed
  and checks that the shipped file equals it.
* ``xlrally.components`` and ``xlrally_calc.py``: the Python components (passive registration):
  ``org.xlrally.calc.Functions`` (service ``com.sun.star.sheet.AddIn``) and
  ``org.xlrally.calc.Refresh`` (the ``xlrally:`` protocol handler).
* ``CalcAddIns.xcu``: each function's name, description and arguments in the Function Wizard,
  and its compatibility name (the name Excel knows it by), from ``udfs`` (the texts Excel's
  function wizard shows), so that both programs describe the functions alike.
* ``Addons.xcu``, ``ProtocolHandler.xcu``: Tools ▸ Add-Ons ▸ Refresh standings and a toolbar
  button, both dispatching ``xlrally:refresh``.
* ``Jobs.xcu``: a job run as each document opens, which gives the functions their Excel names
  back in an ``.xlsx`` another program wrote (:mod:`~xlrally.calc.names`).
* ``pythonpath/xlrally``: the package's pure-Python layers the components use (``core``,
  ``formats``, the Excel functions and refresh, ``calc``); no third-party package.
"""

from __future__ import annotations

import ast
import importlib.util
import zipfile
from collections.abc import Iterator
from html import escape
from pathlib import Path

from xlrally.calc.catalogue import every_function
from xlrally.core.version import __version__

IDENTIFIER = "org.xlrally.calc"
FUNCTIONS_SERVICE = "org.xlrally.calc.Functions"
REFRESH_SERVICE = "org.xlrally.calc.Refresh"
NAMES_SERVICE = "org.xlrally.calc.Names"
INTERFACE = "org.xlrally.calc.XFunctions"
PROTOCOL = "xlrally:"
REFRESH_URL = "xlrally:refresh"
TYPE_LIBRARY = Path(__file__).with_name("xlrally.rdb")

PACKAGE = Path(__file__).resolve().parent.parent
CARRIED = (
    "__init__.py",
    "core",
    "formats",
    "excel/__init__.py",
    "excel/arguments.py",
    "excel/blocks.py",
    "excel/functions.py",
    "excel/live.py",
    "excel/memory.py",
    "excel/registry.py",
    "excel/whole_ranges.py",
    "excel/xlwings_book.py",
    "calc",
)
"""What of the package goes into the extension (paths under ``xlrally/``)."""
LEFT_OUT = frozenset({"calc/odsbook.py"})
"""Carried folders' modules the extension does not need: ``xlrally new league.ods`` runs on the
command line (it needs XlsxWriter and LibreOffice's converter, not LibreOffice's Python)."""


def idl() -> str:
    """The add-in's interface in UNO IDL: one method per function, every argument ``any`` (a
    value, a range as rows of cells, or void when left out), the result rows of values (one
    row of one value for a single result): Calc takes an array back only in that type."""
    lines = ["module org { module xlrally { module calc {", "", "interface XFunctions"]
    lines.append("{")
    for f in every_function():
        args = ", ".join(f"[in] any {uno_name(a.name)}" for a in f.arguments)
        lines.append(f"    sequence< sequence< any > > {f.name}({args});")
    lines += ["};", "", "}; }; };", ""]
    return "\n".join(lines)


def uno_name(argument: str) -> str:
    """An argument's name in UNO IDL, which takes no underscore before a small letter:
    ``events_held`` is ``eventsHeld`` (the Function Wizard shows ``events_held``)."""
    head, *rest = argument.split("_")
    return head + "".join(word.capitalize() for word in rest)


def descriptions() -> dict[str, tuple[str, dict[str, str]]]:
    """For each function of ``udfs``: the first line of its docstring and each argument's help
    text, as Excel's function wizard shows them (read from the source: xlwings' decorators keep
    nothing where Excel is not)."""
    spec = importlib.util.find_spec("udfs")
    if spec is None or spec.origin is None:  # pragma: no cover - installed with xlrally
        msg = "the udfs package is not installed (reinstall xlrally)"
        raise RuntimeError(msg)
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    found: dict[str, tuple[str, dict[str, str]]] = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or not node.name.isupper():
            continue
        docs: dict[str, str] = {}
        for decorator in node.decorator_list:
            if isinstance(decorator, ast.Call) and getattr(decorator.func, "id", "") == "arg":
                values = [a.value for a in decorator.args if isinstance(a, ast.Constant)]
                values += [
                    k.value.value
                    for k in decorator.keywords
                    if k.arg == "doc" and isinstance(k.value, ast.Constant)
                ]
                docs[str(values[0])] = str(values[-1])
        found[node.name] = ((ast.get_docstring(node) or "").splitlines()[0], docs)
    return found


def _text(text: str) -> str:
    return escape(text, quote=False)


def _prop(name: str, value: str, localized: bool = True) -> str:
    lang = ' xml:lang="en-US"' if localized else ""
    return f'<prop oor:name="{name}"><value{lang}>{_text(value)}</value></prop>'


_XCU_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<oor:component-data xmlns:oor="http://openoffice.org/2001/registry" '
    'xmlns:xs="http://www.w3.org/2001/XMLSchema" oor:name="{name}" '
    'oor:package="org.openoffice.Office">\n'
)


def calc_addins_xcu() -> str:
    """The Function Wizard's texts and each function's compatibility name (``RALLY_SCORE``,
    for en-US: the name written to and read from ``.xlsx`` files)."""
    texts = descriptions()
    out = [
        _XCU_HEAD.format(name="CalcAddIns"),
        '<node oor:name="AddInInfo">',
        f'<node oor:name="{FUNCTIONS_SERVICE}" oor:op="replace">',
        '<node oor:name="AddInFunctions">',
    ]
    for f in every_function():
        summary, docs = texts[f.name]
        out += [
            f'<node oor:name="{f.name}" oor:op="replace">',
            _prop("DisplayName", f.name),
            _prop("Description", summary),
            _prop("Category", "Add-In", localized=False),
            _prop("CompatibilityName", f.name),
            '<node oor:name="Parameters">',
        ]
        for a in f.arguments:
            help_text = docs[a.name] + ("" if a.required else " (optional)")
            out += [
                f'<node oor:name="{uno_name(a.name)}" oor:op="replace">',
                _prop("DisplayName", a.name),
                _prop("Description", help_text),
                "</node>",
            ]
        out += ["</node>", "</node>"]
    out += ["</node>", "</node>", "</node>", "</oor:component-data>", ""]
    return "\n".join(out)


def _command(node: str) -> str:
    return "\n".join(
        [
            f'<node oor:name="{node}" oor:op="replace">',
            _prop("Context", "com.sun.star.sheet.SpreadsheetDocument", localized=False),
            _prop("URL", REFRESH_URL, localized=False),
            _prop("Title", "Refresh standings"),
            _prop("Target", "_self", localized=False),
            "</node>",
        ]
    )


def addons_xcu() -> str:
    """Tools ▸ Add-Ons ▸ Refresh standings, and a toolbar with the same command (Calc only)."""
    return "\n".join(
        [
            _XCU_HEAD.format(name="Addons"),
            '<node oor:name="AddonUI">',
            '<node oor:name="AddonMenu">',
            _command(f"{IDENTIFIER}.refresh"),
            "</node>",
            '<node oor:name="OfficeToolBar">',
            f'<node oor:name="{IDENTIFIER}.toolbar" oor:op="replace">',
            _command("refresh"),
            "</node>",
            "</node>",
            "</node>",
            "</oor:component-data>",
            "",
        ]
    )


def protocol_handler_xcu() -> str:
    return "\n".join(
        [
            _XCU_HEAD.format(name="ProtocolHandler"),
            '<node oor:name="HandlerSet">',
            f'<node oor:name="{REFRESH_SERVICE}" oor:op="replace">',
            '<prop oor:name="Protocols" oor:type="oor:string-list">',
            f"<value>{PROTOCOL}*</value></prop>",
            "</node>",
            "</node>",
            "</oor:component-data>",
            "",
        ]
    )


def jobs_xcu() -> str:
    """The ``OnLoad`` job that gives the functions their names back in an opened ``.xlsx``."""
    return "\n".join(
        [
            _XCU_HEAD.format(name="Jobs"),
            '<node oor:name="Jobs">',
            f'<node oor:name="{NAMES_SERVICE}" oor:op="replace">',
            _prop("Service", NAMES_SERVICE, localized=False),
            "</node>",
            "</node>",
            '<node oor:name="Events">',
            '<node oor:name="OnLoadFinished" oor:op="fuse">',
            '<node oor:name="JobList">',
            f'<node oor:name="{NAMES_SERVICE}" oor:op="replace"/>',
            "</node>",
            "</node>",
            "</node>",
            "</oor:component-data>",
            "",
        ]
    )


COMPONENTS = f"""<?xml version="1.0" encoding="UTF-8"?>
<components xmlns="http://openoffice.org/2010/uno-components">
  <component loader="com.sun.star.loader.Python" uri="./xlrally_calc.py">
    <implementation name="{FUNCTIONS_SERVICE}">
      <service name="com.sun.star.sheet.AddIn"/>
      <service name="{FUNCTIONS_SERVICE}"/>
    </implementation>
    <implementation name="{REFRESH_SERVICE}">
      <service name="com.sun.star.frame.ProtocolHandler"/>
    </implementation>
    <implementation name="{NAMES_SERVICE}">
      <service name="{NAMES_SERVICE}"/>
    </implementation>
  </component>
</components>
"""

ENTRY = '''"""LibreOffice loads this file: xlrally's Calc functions and Refresh standings command.

The code is xlrally's own, in pythonpath/ beside this file; it goes first on the path, so that
an xlrally installed in LibreOffice's Python for other uses cannot stand in for it. A Python
older than xlrally's is refused with its version (LibreOffice shows the message).
"""

import os
import sys

if sys.version_info < (3, 10):
    _FOUND = ".".join(map(str, sys.version_info[:3]))
    raise ImportError(
        f"xlrally needs Python 3.10 or later in LibreOffice; this LibreOffice's Python is {_FOUND}"
    )

_HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pythonpath")
if _HERE not in sys.path[:1]:
    sys.path.insert(0, _HERE)
for _name in [m for m in sys.modules if m == "xlrally" or m.startswith("xlrally.")]:
    del sys.modules[_name]  # an xlrally imported from elsewhere before this one

from xlrally.calc.components import g_ImplementationHelper  # noqa: E402, F401
'''

_MEDIA = {
    "xlrally.rdb": "application/vnd.sun.star.uno-typelibrary;type=RDB",
    "xlrally.components": "application/vnd.sun.star.uno-components",
    "CalcAddIns.xcu": "application/vnd.sun.star.configuration-data",
    "Addons.xcu": "application/vnd.sun.star.configuration-data",
    "ProtocolHandler.xcu": "application/vnd.sun.star.configuration-data",
    "Jobs.xcu": "application/vnd.sun.star.configuration-data",
}


def manifest() -> str:
    entries = "\n".join(
        f' <manifest:file-entry manifest:media-type="{media}" manifest:full-path="{path}"/>'
        for path, media in _MEDIA.items()
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<manifest:manifest xmlns:manifest="http://openoffice.org/2001/manifest">\n'
        f"{entries}\n</manifest:manifest>\n"
    )


def description() -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<description xmlns="http://openoffice.org/extensions/description/2006"
    xmlns:xlink="http://www.w3.org/1999/xlink">
  <identifier value="{IDENTIFIER}"/>
  <version value="{__version__}"/>
  <display-name><name lang="en">xlrally: league, rally and rating standings</name></display-name>
  <extension-description><src lang="en" xlink:href="description-en.txt"/></extension-description>
</description>
"""


DESCRIPTION_TEXT = (
    "The xlrally functions (RALLY_SCORE, NEAU_POINTS, DIPPOUCH_RATING, PRIZE_SHARE and friends, "
    "as in Excel) and Tools > Add-Ons > Refresh standings, which writes the Standings sheet as "
    "`xlrally sync` does.\n"
)


def carried_files() -> Iterator[tuple[str, Path]]:
    """(path in the extension, file) for each package file the extension carries."""
    for item in CARRIED:
        source = PACKAGE / item
        files = [source] if source.is_file() else sorted(source.rglob("*.py"))
        for path in files:
            inside = path.relative_to(PACKAGE).as_posix()
            if inside not in LEFT_OUT:
                yield f"pythonpath/xlrally/{inside}", path


def build(out: Path) -> Path:
    """Write the extension to ``out`` (written whole to a temporary file, then renamed)."""
    parts: dict[str, bytes] = {
        "META-INF/manifest.xml": manifest().encode(),
        "description.xml": description().encode(),
        "description-en.txt": DESCRIPTION_TEXT.encode(),
        "xlrally.components": COMPONENTS.encode(),
        "xlrally_calc.py": ENTRY.encode(),
        "xlrally.rdb": TYPE_LIBRARY.read_bytes(),
        "CalcAddIns.xcu": calc_addins_xcu().encode(),
        "Addons.xcu": addons_xcu().encode(),
        "ProtocolHandler.xcu": protocol_handler_xcu().encode(),
        "Jobs.xcu": jobs_xcu().encode(),
    }
    for name, path in carried_files():
        parts[name] = path.read_bytes()
    temporary = out.with_name(f".{out.name}.tmp")
    with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    temporary.replace(out)
    return out
