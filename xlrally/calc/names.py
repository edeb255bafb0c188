"""The functions' names in formulas another program wrote into an ``.xlsx``.

LibreOffice 7.4 reads an ``.xlsx`` formula's function names only by Calc's own long names for an
add-in (``ORG.XLRALLY.CALC.FUNCTIONS.RALLY_SCORE``, what it writes): its OOXML formula map takes
an add-in's upper-case programmatic names alone (``ScCompiler::fillFromAddInCollectionUpperName``;
the compatibility name is added to that map only by the later
``fillFromAddInCollectionExcelName``, absent from 7.4's ``libsclo.so``). So ``=RALLY_SCORE(C2,4)``
typed in Excel, or written by XlsxWriter, opens as ``#NAME?``, its name lower-cased
(``=rally_score(C2;4)``). Calc's API grammar does know the compatibility name, so the extension
gives such a formula its name back when the document has opened (the ``OnLoad`` job,
:func:`respelled`), and Calc computes it.

>>> respelled("=rally_score(C2;4)+_xludf.neau_points(A1;B1;;1)")
'=RALLY_SCORE(C2;4)+NEAU_POINTS(A1;B1;;1)'
>>> respelled("=SUM(A1:A3)") is None
True
"""

from __future__ import annotations

import re

from xlrally.calc.catalogue import NAMES

_CALL = re.compile(r"(?<![\w.])(?:_xludf\.)?(" + "|".join(NAMES) + r")(?=\s*\()", re.IGNORECASE)


def respelled(formula: str) -> str | None:
    """``formula`` with each of the functions called by its Excel name (texts in quotes left
    as they are), or None when it calls none of them."""
    parts = re.split(r'("[^"]*")', formula)
    changed = False
    for index in range(0, len(parts), 2):
        new = _CALL.sub(lambda m: m.group(1).upper(), parts[index])
        changed |= new != parts[index]
        parts[index] = new
    return "".join(parts) if changed else None
