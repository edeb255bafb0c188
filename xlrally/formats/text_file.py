"""A file to import as text: its encoding found from its bytes, never guessed.

What real files are: UTF-8 (with or without a byte order mark), Windows-1252 (what Excel's
"CSV" and older pairing programs save on Windows), UTF-16 with a byte order mark (Excel's
"Unicode Text"). The rule:

* a byte order mark says the encoding (UTF-8, UTF-16 little or big endian, UTF-32);
* without one, NUL bytes in every other place are UTF-16 without its mark;
* otherwise the file is UTF-8 if it all decodes as UTF-8;
* else, a file with no UTF-8 sequence at all is Windows-1252;
* a file that is UTF-8 in places and not in others mixes two encodings (a name pasted from
  another program): refused, naming the line and column of the first byte that is not UTF-8,
  since either reading would turn some names into new players (``José`` into ``JosÃ©``).

>>> decode_text("Player,Rank\\nJosé,1\\n".encode("cp1252"), "x.csv")
'Player,Rank\\nJosé,1\\n'
>>> decode_text("José".encode() + b",\\xe9", "x.csv")
Traceback (most recent call last):
...
xlrally.core.errors.XlrallyError: x.csv line 1, column 6: byte 0xE9 is not UTF-8, while the \
rest of the file is: the file mixes two encodings; save it again as UTF-8
"""

from __future__ import annotations

import codecs
import re

from xlrally.core.errors import XlrallyError

_UTF8_SEQUENCE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
    rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
    rb"|\xf4[\x80-\x8f][\x80-\xbf]{2}"
)
"""A character of more than one byte in UTF-8 (RFC 3629's table)."""
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_LINE_END = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """The lines of a text whatever its line ends (CR, as the TRF standard's Remark 1 says, LF,
    CRLF or a mix), without a byte order mark. Unlike :meth:`str.splitlines`, other control
    characters (form feed, U+2028 ...) stay in their line, where a reader sees them.

    >>> split_lines("\\ufeff012 A\\r001 x\\r\\n\\n042 y")
    ['012 A', '001 x', '', '042 y']
    """
    return _LINE_END.split(text.removeprefix("\ufeff"))


def _where(data: bytes, position: int, source: str) -> str:
    """``source line L, column C`` of a byte offset."""
    before = _LINE_BREAK.split(data[:position])
    column = len(before[-1].decode("utf-8", errors="replace")) + 1
    return f"{source} line {len(before)}, column {column}"


def _strict(data: bytes, encoding: str, source: str, start: int = 0) -> str:
    """``data`` from ``start`` decoded, refused at the first byte that is not ``encoding``."""
    try:
        return data[start:].decode(encoding)
    except UnicodeDecodeError as error:
        where = source if "16" in encoding or "32" in encoding else _where(data, start, source)
        if "8" in encoding:
            where = _where(data, start + error.start, source)
        raise XlrallyError(
            f"{where}: the file is not {encoding.upper()} throughout, as its start says "
            "(damaged?); save it again"
        ) from None


def decode_text(data: bytes, source: str) -> str:
    """The file's text (see the module docstring); raises XlrallyError naming the place."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _strict(data, encoding, source, len(bom))
    if b"\x00" in data:
        even, odd = data[0::2].count(0), data[1::2].count(0)
        if len(data) % 2 == 0 and max(even, odd) * 2 >= len(data) // 2 and min(even, odd) == 0:
            return _strict(data, "utf-16-be" if even else "utf-16-le", source)
        position = data.index(b"\x00")
        raise XlrallyError(
            f"{_where(data, position, source)}: a NUL byte: this is not a text file (a TRF file "
            "or a table as text: CSV, or text pasted from a web page or spreadsheet)"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        bad = error.start
    if _UTF8_SEQUENCE.search(data):
        raise XlrallyError(
            f"{_where(data, bad, source)}: byte 0x{data[bad]:02X} is not UTF-8, while the rest "
            "of the file is: the file mixes two encodings; save it again as UTF-8"
        )
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError as error:
        raise XlrallyError(
            f"{_where(data, error.start, source)}: byte 0x{data[error.start]:02X} is neither "
            "UTF-8 nor Windows-1252 text: save the file again as UTF-8"
        ) from None
