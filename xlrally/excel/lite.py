"""xlwings Lite: the Refresh as a Lite script, for Lite's ``main.py``::

    from udfs import *  # noqa: F403  (the Excel functions)
    from xlrally.excel.lite import refresh_standings  # noqa: F401  (the Refresh script)

xlwings Lite runs Python inside Excel (Windows, macOS and the web) in Pyodide, with no Python
installed. This module needs only the scoring core, the live path and xlwings; not the file
reader (python-calamine) or the command line's click and rich. See docs/excel.md.
"""

from __future__ import annotations

from typing import Any

import xlwings as xw

from xlrally.excel.live import XlwingsBook, alert, refresh

__all__ = ["refresh_standings"]


@xw.script
def refresh_standings(book: Any) -> None:
    """Recompute the Standings sheet of the open workbook (Lite passes the book)."""
    alert(book, refresh(XlwingsBook(book)))
