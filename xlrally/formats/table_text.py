"""Reading a results table as text: a CSV file a poker timer or a Diplomacy tool exported, or a
table pasted from a web page or a spreadsheet (tab-separated).

The separator is found from the text (comma, semicolon, tab or ``|``); the header is the first
non-blank line. Rows end at CR, LF or CRLF (any of them, or a mix); a value holding a line
break, a line separator (U+2028) or another control character is refused. Every row has as
many values as the header, or fewer only where what it lacks is a column empty in every full
row (a pasted table drops empty cells at the end); a row with a value missing or one too many
is refused, naming its line, since reading it would shift a value into the wrong column.
Headers are matched like the workbook's own columns (case, spaces and punctuation ignored;
``Place`` and ``Finish`` are ``Rank``), and ``mapping`` names the others (``{"Pos":
"Rank"}``). Values stay text here: the import converts them, naming the line and column of
any that cannot be read.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from xlrally.core.errors import XlrallyError
from xlrally.core.names import norm
from xlrally.formats.text_file import split_lines
from xlrally.formats.workbook.vocabulary import COLUMNS, field_named

SEPARATORS = ",;\t|"
_NOT_TEXT = frozenset({"Zl", "Zp", "Cc"})
"""Unicode categories no value holds (a tab only separates): line and paragraph separators
(U+2028, U+2029), controls (a line break inside quotes, a form feed, a NUL)."""


class NotATable(XlrallyError):
    """The text has no header row naming a Player column; ``detail`` says what it has."""

    def __init__(self, source: str, detail: str) -> None:
        super().__init__(f"{source} {detail}")
        self.detail = detail


@dataclass(frozen=True)
class TextTable:
    """The rows of a table, each with its line number and its values by field."""

    columns: dict[str, str]
    """Field -> the header as written."""
    rows: tuple[tuple[int, dict[str, str]], ...]
    ignored: tuple[str, ...]
    """Headers that name no field xlrally reads."""


def _separator(text: str) -> str:
    sample = "\n".join(split_lines(text)[:20])
    try:
        return csv.Sniffer().sniff(sample, delimiters=SEPARATORS).delimiter
    except csv.Error:
        counts = {s: sample.count(s) for s in SEPARATORS}
        return max(counts, key=lambda s: counts[s])


def _records(text: str, separator: str, source: str) -> list[tuple[int, list[str]]]:
    """Each record with the line it starts on. Rows end at CR, LF or CRLF only; other
    separators (U+2028, a form feed) stay in their value, where they are refused."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator)
    records = []
    line = 1
    try:
        for row in reader:
            records.append((line, row))
            line = reader.line_num + 1
    except csv.Error as error:
        raise XlrallyError(
            f"{source} line {reader.line_num}: cannot be read as a table ({error})"
        ) from None
    return records


def field_of(header: str, mapping: Mapping[str, str]) -> str | None:
    """The field a header names: through ``mapping`` (header -> a workbook column name), else
    as a workbook column; None for neither."""
    mapped = {norm(k): v for k, v in mapping.items()}.get(norm(header))
    return field_named(mapped if mapped is not None else header)


def read_table_text(text: str, source: str, mapping: Mapping[str, str] | None = None) -> TextTable:
    """Read a table; ``source`` names it in errors.

    >>> t = read_table_text("Pos;Name;Chips\\n1;Ann;2\\n2;Ben;0\\n", "x.csv", {"Pos": "Rank"})
    >>> t.columns, t.rows[1], t.ignored
    ({'rank': 'Pos', 'player': 'Name'}, (3, {'rank': '2', 'player': 'Ben'}), ('Chips',))
    """
    mapping = mapping or {}
    _check_mapping(mapping)
    numbered = [
        (n, row)
        for n, row in _records(text, _separator(text), source)
        if any(c.strip() for c in row)
    ]
    if not numbered:
        raise XlrallyError(f"{source}: no table in the file")
    header_line, header = numbered[0]
    columns, positions, ignored = _header(header, header_line, mapping, source)
    _check_text(numbered, header, source)
    _check_widths(numbered, header_line, len(header), positions, source)
    rows = tuple(
        (n, {f: row[p].strip() for f, p in positions.items() if p < len(row) and row[p].strip()})
        for n, row in numbered[1:]
    )
    return TextTable(columns, rows, tuple(ignored))


def _check_mapping(mapping: Mapping[str, str]) -> None:
    """Each column ``--column`` names is one xlrally reads."""
    for heading, column in mapping.items():
        if field_named(column) is None:
            raise XlrallyError(
                f"--column {heading}={column}: {column!r} is not a column xlrally reads "
                f"(e.g. {', '.join(spellings[0] for spellings in COLUMNS.values())})"
            )


def _header(
    header: list[str], header_line: int, mapping: Mapping[str, str], source: str
) -> tuple[dict[str, str], dict[str, int], list[str]]:
    """The fields the header names (field -> the header as written, and its position), and
    the headers that name none; a header without a Player column is not a table."""
    columns: dict[str, str] = {}
    positions: dict[str, int] = {}
    ignored = []
    for position, title in enumerate(header):
        found = field_of(title, mapping)
        if found is None or found in columns:
            if title.strip():
                ignored.append(title.strip())
            continue
        columns[found] = title.strip()
        positions[found] = position
    if "player" not in columns:
        listed = ", ".join(repr(h.strip()) for h in header if h.strip()) or "none"
        raise NotATable(
            source,
            f"line {header_line}: no Player column (the headers are {listed}); name it with "
            "--column HEADER=Player",
        )
    return columns, positions, ignored


def _check_text(numbered: list[tuple[int, list[str]]], header: list[str], source: str) -> None:
    """No value holds a line separator or a control character."""
    for number, row in numbered:
        for position, value in enumerate(row):
            odd = next((c for c in value if unicodedata.category(c) in _NOT_TEXT), None)
            if odd is not None:
                column = header[position].strip() if position < len(header) else str(position + 1)
                raise XlrallyError(
                    f"{source} line {number}, column {column!r}: a line separator or control "
                    f"character (U+{ord(odd):04X}) inside the value {value.strip()[:40]!r}: "
                    "remove it (it may have come with a copy from a web page) and import again"
                )


def _check_widths(
    numbered: list[tuple[int, list[str]]],
    header_line: int,
    width: int,
    positions: Mapping[str, int],
    source: str,
) -> None:
    """Every row has as many values as the header, or fewer only where what it lacks is a
    column empty in every full row."""
    # A short row can only be read when what it lacks is a column empty in every full row (a
    # table pasted from a web page drops empty cells at the end): which value is missing from
    # a row is not written anywhere, and guessing would shift the values after it.
    empty = [
        position
        for position in range(width)
        if all(not r[position].strip() for _, r in numbered[1:] if len(r) > position)
    ]
    for number, row in numbered[1:]:
        lacking = range(len(row), width)
        extra = [v for v in row[width:] if v.strip()]
        short = any(p not in empty or p in positions.values() for p in lacking)
        if short or extra:
            what = (
                f"{len(extra)} more than the header names"
                if extra
                else "a value is missing (which one, the file does not say)"
            )
            raise XlrallyError(
                f"{source} line {number}: {len(row)} values where the header (line "
                f"{header_line}) has {width}: {what} (a row cut short, or a separator too "
                "many or too few, such as a comma inside a name not in quotes); correct the "
                "line and import again"
            )
