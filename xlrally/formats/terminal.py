"""Text for a terminal: the control characters in it made visible, so that a name read from a
workbook cannot drive the terminal it is printed on.

A player's name holding ``ESC ] 0 ; … BEL`` sets the terminal window's title; ``ESC [ 1 A``
moves the cursor up and ``ESC [ 2 K`` clears the line, so a name printed after an
``Error:`` line could hide it; a carriage return writes over the start of the line; Unicode's
bidirectional overrides (U+202E) show the text after them reversed. Each of these is shown
as the Python escape that names it (``\\x1b``, ``\\r``, ``\\u202e``: ECMA-48 §5 lists the C0
and C1 control sets, Unicode's UAX #9 §2 the explicit directional formatting characters);
a new line and a tab are kept (they lay out xlrally's own output).
"""

from __future__ import annotations

__all__ = ["visible"]

_BIDI = (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C)
"""The explicit directional formatting characters (embeddings, overrides, isolates) and the
implicit marks (LRM, RLM, ALM): each can reorder what follows it on the line."""

_SHOWN = {
    code: f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    for code in (*range(0x00, 0x20), *range(0x7F, 0xA0), *_BIDI)
    if chr(code) not in "\n\t"
}
"""Each character to show as its escape: C0 controls but new line and tab, DEL, C1 controls,
and the directional formatting characters."""
_SHOWN[ord("\r")] = "\\r"


def visible(text: str) -> str:
    r"""``text`` with its control characters shown as their escapes.

    >>> visible("Ann\x1b]0;owned\x07 Lee")
    'Ann\\x1b]0;owned\\x07 Lee'
    >>> visible("Bob\r\nError: none") == "Bob\\r\nError: none"
    True
    >>> visible("\u202egnirts")
    '\\u202egnirts'
    >>> visible("José Müller\t3")
    'José Müller\t3'
    """
    if text.isprintable():  # the common case: nothing to show (new lines and tabs are not)
        return text
    return text.translate(_SHOWN)
