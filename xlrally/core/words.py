"""Counts in words (``3 players``), in a module of its own with no imports, so that the command
line's answer for an unchanged file (:mod:`xlrally.app.unchanged`) loads nothing else;
:mod:`xlrally.core.numbers` re-exports it."""

from __future__ import annotations


def plural(count: int, word: str, *, grouped: bool = False) -> str:
    """``1 event``, ``2 events``; ``grouped``: thousands separated (``1,250 warnings``).

    >>> plural(1, "event"), plural(3, "player"), plural(1250, "warning", grouped=True)
    ('1 event', '3 players', '1,250 warnings')
    """
    return (f"{count:,}" if grouped else f"{count}") + f" {word}" + ("" if count == 1 else "s")
