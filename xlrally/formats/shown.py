"""How many warnings are shown, in a module of its own so that the command line's summary of
an unchanged file loads nothing else (issue 33); :mod:`xlrally.formats.view` re-exports it."""

from __future__ import annotations

from collections.abc import Sequence

from xlrally.core.words import plural

SHOWN_WARNINGS = 20
"""Warnings shown in a sheet, page, message box or terminal; a league of 100,000 players can
have thousands of look-alike names, which would drown the rest."""


def shown_warnings(warnings: Sequence[str], limit: int = SHOWN_WARNINGS) -> list[str]:
    """At most ``limit`` warnings, then one line counting the others.

    >>> shown_warnings(["a", "b", "c"], 2)
    ['a', 'b', '... and 1 more warning: `xlrally check --all FILE` lists every one']
    """
    if len(warnings) <= limit:
        return list(warnings)
    more = len(warnings) - limit
    return [
        *warnings[:limit],
        f"... and {plural(more, 'more warning', grouped=True)}: `xlrally check --all FILE` lists "
        "every one",
    ]
