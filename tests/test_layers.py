"""The package's layers import only downwards (docs/architecture.md), checked from the source.

Each module's imports are read with :mod:`ast` (including imports inside functions and under
``TYPE_CHECKING``), so a new import that points up a layer, or reaches for another module's
private name, fails here before it is merged.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "xlrally"

# What each layer may import from xlrally (prefixes), and which third-party packages.
ALLOWED: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "core": (("xlrally.core",), ()),
    "formats": (("xlrally.core", "xlrally.formats"), ()),
    "ooxml": (
        ("xlrally.ooxml", "xlrally.core.errors", "xlrally.formats.cells", "xlrally.formats.looks"),
        ("defusedxml", "python_calamine", "fastexcel", "pyarrow", "lxml"),
    ),
    "excel": (("xlrally.core", "xlrally.formats", "xlrally.excel"), ("xlwings", "xlsxwriter")),
    # Inside LibreOffice: its UNO bridge, and the extension's own types (org.xlrally); on the
    # command line (`new league.ods`, calc/odsbook.py): defusedxml for LibreOffice's parts.
    "calc": (
        ("xlrally.core", "xlrally.formats", "xlrally.excel", "xlrally.calc"),
        ("uno", "unohelper", "com", "org", "defusedxml"),
    ),
    "app": (
        (
            "xlrally.core",
            "xlrally.formats",
            "xlrally.ooxml",
            "xlrally.excel",
            "xlrally.calc.odsbook",  # `new league.ods`; not the modules that run inside Calc
            "xlrally.app",
        ),
        ("xlsxwriter", "rich", "platformdirs"),
    ),
}


def imports(path: Path) -> list[tuple[int, str, tuple[str, ...]]]:
    """(line, module, names imported from it) for every import statement in the file."""
    found: list[tuple[int, str, tuple[str, ...]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module, tuple(a.name for a in node.names)))
    return found


def layer_modules() -> list[tuple[str, Path]]:
    return [(layer, path) for layer in ALLOWED for path in sorted((PACKAGE / layer).rglob("*.py"))]


@pytest.mark.parametrize(("layer", "path"), layer_modules(), ids=str)
def test_each_layer_imports_only_the_layers_below(layer: str, path: Path) -> None:
    """No module imports a layer above its own, or a third-party package its layer must not use."""
    allowed_xlrally, allowed_third_party = ALLOWED[layer]
    wrong = []
    for line, module, names in imports(path):
        top = module.split(".")[0]
        if top == "xlrally":
            targets = [module] + [f"{module}.{name}" for name in names]
            if module == "xlrally" or not any(
                t == a or t.startswith(a + ".") for t in targets for a in allowed_xlrally
            ):
                wrong.append(f"line {line}: {module}")
        elif top not in {*sys.stdlib_module_names, "__future__", *allowed_third_party}:
            wrong.append(f"line {line}: {module} (third-party)")
    assert wrong == [], f"{path.relative_to(ROOT)} imports above its layer: {wrong}"


def all_modules() -> list[Path]:
    return [*sorted(PACKAGE.rglob("*.py")), *sorted((ROOT / "udfs").rglob("*.py"))]


@pytest.mark.parametrize("path", all_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_takes_another_modules_private_names(path: Path) -> None:
    """``from xlrally.x import _helper`` couples two modules through a name meant for one."""
    private = [
        f"line {line}: {module}.{name}"
        for line, module, names in imports(path)
        if module.startswith("xlrally")
        for name in names
        if name.startswith("_") and not name.startswith("__")
    ]
    assert private == []


def test_udfs_is_a_thin_layer_over_the_excel_functions() -> None:
    """The Excel-facing ``udfs`` package registers functions; what they compute lives in
    ``xlrally.excel.functions``."""
    modules = {module for _, module, _ in imports(ROOT / "udfs" / "__init__.py")}
    assert {m for m in modules if m.startswith("xlrally")} == {"xlrally.excel"}


def test_every_folder_says_what_it_holds_and_may_import() -> None:
    """Each layer's ``__init__`` docstring names what the layer may import."""
    for layer in ALLOWED:
        doc = ast.get_docstring(ast.parse((PACKAGE / layer / "__init__.py").read_text()))
        assert doc is not None
        assert "May import" in doc, layer


def module_name(path: Path) -> str:
    """``xlrally/core/systems/__init__.py`` -> ``xlrally.core.systems``."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and of ``udfs`` -> the modules of theirs it imports (every
    import, as :func:`imports` reads them): ``from a.b import c`` is an import of the module
    ``a.b.c`` when there is one, else of ``a.b`` (whose ``__init__`` defines ``c``). The top package ``xlrally`` (the public
    API, which imports everything) is left out: nothing inside imports it."""
    modules = {module_name(path): path for path in all_modules()}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for _, module, names in imports(path):
            for imported in names or ("",):
                submodule = f"{module}.{imported}"
                targets.add(submodule if submodule in modules else module)
        targets &= set(modules)
        graph[name] = targets - {"xlrally"}
    return graph


def loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import loops: each set of modules that import each other, round and round (the
    strongly connected components of more than one module, or a module importing itself),
    found by Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = [stack.pop()]
            while component[-1] != module:
                component.append(stack.pop())
            if len(component) > 1 or module in graph[module]:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_import_loops() -> None:
    """Issue 31: core/model.py and core/systems/__init__.py imported each other (for types
    only). No module imports one that imports it back, however many steps round, counting
    the imports made only for type checking or inside functions."""
    assert loops(import_graph()) == []


def test_the_loop_check_finds_a_loop() -> None:
    """The check itself: a loop of three, and one module importing itself, are found."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert loops(graph) == [["a", "b", "c"], ["e"]]
