"""The workbook format's old home, kept so that ``from xlrally.formats.layout import ...``
still works: everything is in :mod:`xlrally.formats.workbook` now (issue 31)."""

from xlrally.formats import workbook
from xlrally.formats.workbook import *  # noqa: F403

__all__ = workbook.__all__
