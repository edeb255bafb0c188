"""``import xlrally`` loads no scoring, file or command code until a name is used (issue 33:
the unchanged file's check and ``--help`` paid for the whole package), and every public name
is still there, the same object as in its module."""

from __future__ import annotations

import importlib
import subprocess
import sys

import xlrally


def modules_after(code: str) -> set[str]:
    """The xlrally modules loaded by ``code`` in a fresh interpreter."""
    run = f"import sys; {code}; print(' '.join(m for m in sys.modules if m.startswith('xlrally')))"
    out = subprocess.run([sys.executable, "-c", run], check=True, capture_output=True, text=True)
    return set(out.stdout.split())


def test_importing_the_package_loads_only_its_version() -> None:
    """The package itself holds no code that runs on import but its version."""
    assert modules_after("import xlrally") == {"xlrally", "xlrally.core", "xlrally.core.version"}


def test_a_name_loads_its_own_module_and_what_that_needs() -> None:
    """``rally_score`` brings the core, not the file writer, the page or the command line."""
    loaded = modules_after("from xlrally import rally_score")
    assert "xlrally.core.systems.rally" in loaded
    above = ("xlrally.ooxml", "xlrally.formats", "xlrally.app", "xlrally.cli", "xlrally.api")
    assert not {m for m in loaded if m.startswith(above)}


def test_every_public_name_is_its_modules_object() -> None:
    """Each name of ``__all__`` is what its module defines (and ``dir`` lists it)."""
    for name in xlrally.__all__:
        module, attribute = xlrally._LAZY[name]
        assert getattr(xlrally, name) is getattr(importlib.import_module(module), attribute)
        assert name in dir(xlrally)
    assert set(xlrally.__all__) == set(xlrally._LAZY)


def test_an_unknown_name_is_an_attribute_error() -> None:
    """A misspelt name fails as on any module (``hasattr`` works)."""
    assert not hasattr(xlrally, "rally_scores")
