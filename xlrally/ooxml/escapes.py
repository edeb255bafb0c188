"""Text as a cell of a sheet's XML holds it: the XML specials escaped, and the characters XML
cannot hold written as Excel writes them (``_xHHHH_``)."""

from __future__ import annotations

import html
import re

NOT_IN_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
"""Characters XML 1.0 cannot hold, even as a character reference: a cell's text holds them
as Excel's ``_xHHHH_``; a name (a sheet's) cannot."""
_ESCAPE_LIKE = re.compile("_(x[0-9A-Fa-f]{4}_)")


def xml_text(text: str) -> str:
    """Escape text for a cell: XML specials, characters XML cannot hold (as Excel's _xHHHH_),
    and literal ``_xHHHH_`` sequences (so that Excel shows them as typed).

    >>> xml_text("=SUM(A1) & <b>")
    '=SUM(A1) &amp; &lt;b&gt;'
    >>> xml_text("bell\\x07 _x0041_")
    'bell_x0007_ _x005F_x0041_'
    """
    text = _ESCAPE_LIKE.sub(r"_x005F_\1", text)
    text = NOT_IN_XML.sub(lambda m: f"_x{ord(m.group()):04X}_", text)
    return html.escape(text, quote=False)
