"""The fixtures of the LibreOffice tests (defined in office.py, which mypy checks: a second
conftest module would clash with tests/conftest.py under mypy)."""

from office import calc, oxt

__all__ = ["calc", "oxt"]
