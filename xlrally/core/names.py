"""How names written by people are compared: sheet, column, setting and system names.

>>> norm(" Buy-in "), norm("World  Championship"), norm("Relative Reverse Order")
('buyin', 'worldchampionship', 'relativereverseorder')
"""

from __future__ import annotations

import re

_NOT_LETTERS = re.compile(r"[\W_]+")


def norm(name: object) -> str:
    """A name reduced to letters and digits, case-folded: spaces, punctuation and case never
    make two names differ."""
    return _NOT_LETTERS.sub("", str(name)).casefold()
