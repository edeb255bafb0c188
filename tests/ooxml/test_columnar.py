"""A big Results sheet read as columns (fastexcel) gives the league its rows give
(python-calamine), or is left to the rows reader: on sheets written every way (XlsxWriter's
shared strings, inline strings under a namespace prefix, titles above the header, blank rows,
a text among numbers, dates), on generated sheets, and on every sheet of the corpus.

Whether a sheet is big enough is :data:`~xlrally.ooxml.columnar.COLUMNS_FROM`; the tests set
it to 0 (every sheet is big) or past any size (every sheet read as rows).
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from conftest import IN_CI
from helpers import open_book, rally_sheets, rewrite, write_book
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xlrally.core.errors import XlrallyError
from xlrally.formats.cells import blank
from xlrally.formats.workbook import read_league
from xlrally.formats.workbook.tables import Book, find_table, read_table
from xlrally.ooxml import columnar
from xlrally.ooxml.formulas import FormulaScan, scan_formulas
from xlrally.ooxml.reader import FileSheets

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
CORPUS_FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() in {".xlsx", ".xlsm"})
NEVER = 2**62


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """The list says, for each read of the Results sheet as columns, whether fastexcel's
    columns were taken (the other sheets, small in a real league, are not counted)."""
    outcomes: list[bool] = []
    read = columnar.read_columns

    def spied(path: Path, name: str, *args: Any) -> columnar.Columns | None:
        found = read(path, name, *args)
        if name == "Results":
            outcomes.append(found is not None)
        return found

    monkeypatch.setattr(columnar, "read_columns", spied)
    return outcomes


def league_both_ways(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    """The league read as rows, then with every sheet big (its error's text, if it has one)."""
    found: list[object] = []
    for size in (NEVER, 0):
        monkeypatch.setattr(columnar, "COLUMNS_FROM", size)
        try:
            with FileSheets(path) as source:
                found.append(read_league(source))
        except XlrallyError as error:
            found.append(str(error))
    return found[0], found[1]


def test_a_plain_results_sheet_is_read_as_columns_into_the_same_league(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[bool]
) -> None:
    sheets = rally_sheets()
    sheets["Results"] += [["Dec 2025", f"Player {i}", i % 3, 4, None] for i in range(50)]
    path = write_book(tmp_path / "league.xlsx", sheets)
    rows, columns = league_both_ways(path, monkeypatch)
    assert taken == [True]
    assert columns == rows
    assert "Bobby" in {r.player for r in rows.results}  # type: ignore[attr-defined]


def test_titles_blank_rows_and_unnamed_columns_read_as_the_rows_read_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[bool]
) -> None:
    """Two title rows above the header (fastexcel counts rows from the first holding a cell),
    a blank row (left out), then rows the rows reader keeps, each with its event missing: one
    of spaces, one whose only value is in a column without a header, one of zeros."""
    sheets = rally_sheets()
    header, *body = sheets["Results"]
    sheets["Results"] = [
        ["Club Rally", "results of the season"],
        [],
        [None, *header],
        *([None, *row] for row in body),
        [],
        [None, "  ", " "],
        [None, None, None, None, None, None, "a note"],
        [None, None, None, 0, 0],
        *([None, "May 2026", f"Player {i}", 1, 2, 0] for i in range(30)),
    ]
    path = write_book(tmp_path / "league.xlsx", sheets)
    rows, columns = league_both_ways(path, monkeypatch)
    assert taken
    assert all(taken)
    assert columns == rows
    assert str(rows).splitlines() == [f"Results!B{n}: event is missing" for n in (8, 9, 10)]


def test_a_sync_reads_ahead_below_a_title_and_takes_the_rows_below_the_header(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[bool]
) -> None:
    """A sync reads the Results ahead, below the first row of two cells: here a title over
    columns of texts (numbers typed as text, as pasted from a CSV), which fastexcel reads. The
    league's reader finds the header a row lower and takes the columns below it."""
    sheets = rally_sheets()
    header, *body = sheets["Results"]
    sheets["Results"] = [
        ["Club Rally", "2026"],
        header,
        *(
            [event, player, *(str(v) if v is not None else None for v in rest)]
            for event, player, *rest in body
        ),
        *(["May 2026", f"Player {i}", "1", "2", "0"] for i in range(30)),
    ]
    path = write_book(tmp_path / "league.xlsx", sheets)
    monkeypatch.setattr(columnar, "COLUMNS_FROM", 0)
    with FileSheets(path) as source:
        source.read_ahead("Results")
        assert taken == [True]
        ahead = read_league(source)
    assert taken == [True]  # not read again
    rows, _ = league_both_ways(path, monkeypatch)
    assert ahead == rows
    assert len(ahead.results) == 33


@pytest.mark.parametrize(
    ("cell", "why"),
    [
        ("N/A", "a text in a column of numbers"),
        (dt.date(2026, 5, 9), "a date"),
    ],
)
def test_a_sheet_fastexcel_cannot_show_it_reads_alike_is_read_as_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[bool], cell: object, why: str
) -> None:
    sheets = rally_sheets()
    sheets["Results"] += [["Dec 2025", f"Player {i}", 1, 4, 0] for i in range(40)]
    sheets["Results"][30][2] = cell
    path = write_book(tmp_path / "league.xlsx", sheets)
    rows, columns = league_both_ways(path, monkeypatch)
    assert taken == [False], why
    assert columns == rows
    assert "Results!C31" in str(rows)  # the cell is reported, not dropped


def test_inline_strings_under_a_namespace_prefix_are_read_as_columns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[bool]
) -> None:
    """A sheet as some programs write it: ``x:`` elements, inline strings, attributes in
    single quotes."""
    path = write_book(tmp_path / "league.xlsx", rally_sheets())
    rows = [["Event", "Player", "Points", "Games", "Byes"]] + [
        ["Dec 2025", f"Player {i}", i % 2, 2, 0] for i in range(45)
    ]
    path = rewrite(path, {_part(path, "Results"): _prefixed_sheet(rows)})
    rows_league, columns_league = league_both_ways(path, monkeypatch)
    assert taken == [True]
    assert columns_league == rows_league


def test_rows_without_their_numbers_are_read_as_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[bool]
) -> None:
    path = write_book(tmp_path / "league.xlsx", rally_sheets())
    rows: list[list[Any]] = [
        ["Event", "Player", "Points", "Games", "Byes"],
        ["Dec 2025", "Ann", 1, 1, 0],
    ]
    xml = _prefixed_sheet(rows).replace(b" r='1'", b"").replace(b" r='2'", b"")
    path = rewrite(path, {_part(path, "Results"): xml})
    rows_league, columns_league = league_both_ways(path, monkeypatch)
    assert taken == []  # the head could not be cut out
    assert columns_league == rows_league


def _part(path: Path, sheet: str) -> str:
    with FileSheets(path) as source:
        ref = source.package.sheet(sheet)
        assert ref is not None
        return ref.part


def _prefixed_sheet(rows: list[list[Any]]) -> bytes:
    def cell(r: int, c: int, value: Any) -> str:
        ref = f"{'ABCDE'[c]}{r}"
        if isinstance(value, str):
            return f"<x:c r='{ref}' t='inlineStr'><x:is><x:t>{value}</x:t></x:is></x:c>"
        return f"<x:c r='{ref}'><x:v>{value}</x:v></x:c>"

    body = "".join(
        f"<x:row r='{r}'>{''.join(cell(r, c, v) for c, v in enumerate(row))}</x:row>"
        for r, row in enumerate(rows, start=1)
    )
    return (
        "<?xml version='1.0' encoding='UTF-8'?><x:worksheet xmlns:x='http://schemas."
        "openxmlformats.org/spreadsheetml/2006/main'><x:dimension ref='A1:E9'/>"
        f"<x:sheetData>{body}</x:sheetData></x:worksheet>"
    ).encode()


EVENTS = st.sampled_from(["Dec 2025", "May 2026", "", "  ", None])
NAMES = st.sampled_from(["Bobby", "José", " Ann ", "Zoë", "", None])
NUMBERS = st.one_of(
    st.none(),
    st.integers(-2, 9),
    st.sampled_from([0.5, 2.5, 1e-9]),
    st.sampled_from(["3", " ", "x", True, False]),
)
ROWS = st.lists(st.tuples(EVENTS, NAMES, NUMBERS, NUMBERS, NUMBERS), max_size=25)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=ROWS, titles=st.integers(0, 3), left=st.integers(0, 2))
def test_generated_results_read_alike_both_ways(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    body: list[tuple[Any, ...]],
    titles: int,
    left: int,
) -> None:
    """Any Results sheet gives the same league (or the same message) either way."""
    sheets = rally_sheets()
    header = sheets["Results"][0]
    sheets["Results"] = [
        *([f"Title {i}", "of two cells"][: 1 + i % 2] for i in range(titles)),
        [None] * left + header,
        *([None] * left + list(row) for row in body),
    ]
    path = write_book(tmp_path_factory.mktemp("gen") / "league.xlsx", sheets)
    rows, columns = league_both_ways(path, monkeypatch)
    assert columns == rows
    assert _typed(rows_both_ways(path, "Results", monkeypatch))


def rows_both_ways(
    path: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[list[Any]], list[list[Any]]]:
    """The sheet's rows read by python-calamine, then made of fastexcel's columns where
    that is taken (else python-calamine's again)."""
    found = []
    for size in (NEVER, 0):
        monkeypatch.setattr(columnar, "COLUMNS_FROM", size)
        with FileSheets(path) as source:
            found.append(source.values(name))
    return found[0], found[1]


def _typed(pair: tuple[list[list[Any]], list[list[Any]]]) -> bool:
    """Whether both are the same rows, cell by cell, value and type."""
    mine, theirs = pair
    return [[(type(v), v) for v in row] for row in mine] == [
        [(type(v), v) for v in row] for row in theirs
    ]


@pytest.mark.skipif(
    not CORPUS_FILES and not IN_CI, reason="../shared/corpus is not beside the checkout"
)
def test_every_corpus_sheet_read_as_columns_holds_what_its_rows_hold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every sheet of the corpus's workbooks, with its header taken as a sync takes it
    (:func:`~xlrally.ooxml.columnar.likely_header`): where fastexcel's columns are taken, the
    table made of them is the table made of python-calamine's rows, cell by cell (an empty
    text and an empty cell alike), and the rows made of them (an import's) are python-
    calamine's, value and type; a sheet either reader refuses is counted, not compared."""
    monkeypatch.setattr(columnar, "COLUMNS_FROM", 0)
    counts = {"taken": 0, "rows": 0, "refused": 0}
    different = []
    for path in CORPUS_FILES:
        try:
            names = FileSheets(path).sheet_names()
        except XlrallyError:
            counts["refused"] += 1
            continue
        for name in names:
            outcome = _compared(path, name)
            counts[outcome if outcome in counts else "taken"] += 1
            if outcome not in counts:
                different.append(f"{path.name}!{name}: {outcome}")
            elif outcome == "taken" and not _same_rows(path, name, monkeypatch):
                different.append(f"{path.name}!{name}: its rows made of the columns differ")
    assert different == []
    # the spike's count (docs/performance.md, seventh session): 830 of 997 sheets with rows
    assert counts["taken"] >= 800, counts


def _same_rows(path: Path, name: str, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Whether the sheet's rows made of fastexcel's columns are python-calamine's."""
    same = _typed(rows_both_ways(path, name, monkeypatch))
    monkeypatch.setattr(columnar, "COLUMNS_FROM", 0)
    return same


def _compared(path: Path, name: str) -> str:
    """ "taken" (the same), "rows" (left to the rows reader), "refused", or what differs."""
    try:
        with FileSheets(path) as source:
            head = source.head(name)
            if head is None:
                return "rows"
            header = columnar.likely_header(head)
            below = source.columns_below(name, header)
            if below is None:
                return "rows"
            with FileSheets(path) as plain:
                rows = plain.values(name)
    except XlrallyError:
        return "refused"
    kept = [
        (number, row)
        for number, row in enumerate(rows[header + 1 :])
        if any(row) or not all(map(blank, row))  # find_table's rows with a value
    ]
    if [number for number, _ in kept] != list(below.rows):
        return f"rows kept {list(below.rows)[:5]} against {[n for n, _ in kept][:5]}"
    width = max([below.width, *map(len, rows)])
    columns = [below.column(at) for at in range(width)]
    for index, (number, row) in enumerate(kept):
        for at, column in enumerate(columns):
            mine = None if column[index] == "" else column[index]
            theirs = row[at] if at < len(row) and row[at] != "" else None
            if type(mine) is not type(theirs) or mine != theirs:
                return f"row {header + 2 + number} column {at}: {mine!r} against {theirs!r}"
    return "taken"


def test_read_table_finds_the_header_in_the_head_as_find_table_does_in_the_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The header, its columns and its texts come from the head; a sheet without a header
    gets the rows' message."""
    monkeypatch.setattr(columnar, "COLUMNS_FROM", 0)
    sheets = rally_sheets()
    sheets["Results"] = [["Club Rally"], [], *sheets["Results"]]
    sheets["Notes"] = [["Anything"], ["else"]]
    path = write_book(tmp_path / "league.xlsx", sheets)
    with FileSheets(path) as source:
        book = Book(source)
        table = read_table(book, "Results", ("event", "player", "points"))
        with FileSheets(path) as plain:
            rows = find_table("Results", plain.values("Results"), ("event", "player", "points"))
        assert (table.header, table.columns, table.headers) == (3, rows.columns, rows.headers)
        assert list(table.numbers) == list(rows.numbers)
        with pytest.raises(XlrallyError) as refused:
            read_table(book, "Notes", ("event",))
    with pytest.raises(XlrallyError) as expected:
        find_table("Notes", [["Anything"], ["else"]], ("event",))
    assert str(refused.value) == str(expected.value)


def test_the_head_is_cut_before_the_first_row_past_it() -> None:
    rows = b"".join(b'<row r="%d"><c r="A%d"><v>%d</v></c></row>' % (n, n, n) for n in range(1, 60))
    xml = (
        b'<?xml version="1.0"?><worksheet xmlns="main"><dimension ref="A1:A59"/><sheetData>'
        + rows
        + b"</sheetData></worksheet>"
    )
    head = columnar._head_xml(iter([xml[:100], xml[100:]]))
    assert head is not None
    assert b'<row r="40">' in head
    assert b'r="41"' not in head
    assert b"dimension" not in head
    assert head.endswith(b"</sheetData></worksheet>")


def test_a_sheet_with_gaps_leaves_pyarrows_own_allocator_unused(tmp_path: Path) -> None:
    """pyarrow's default allocator (mimalloc) reserves 1 GB of address space at its first use,
    half of an isolated worker's limit (xlrally.app.isolate): finding a sheet's rows without a
    value uses the system's. In a fresh process, whose allocator nothing used before."""
    sheets = rally_sheets()
    sheets["Results"] += [
        [],
        ["Dec 2025", "  "],
        *(["May 2026", f"Player {i}", 1, 4] for i in range(40)),
    ]
    sheets["Results"][10][2] = None  # no column of numbers in every row: the compute path
    path = write_book(tmp_path / "league.xlsx", sheets)
    code = (
        "import sys; from xlrally.ooxml import columnar; columnar.COLUMNS_FROM = 0\n"
        "from xlrally.ooxml.reader import FileSheets\n"
        "from xlrally.formats.workbook import read_league\n"
        "with FileSheets(sys.argv[1]) as source:\n"
        "    assert source.head('Results') is not None\n"
        "    assert source.columns_below('Results', 0) is not None\n"
        "    try:\n"
        "        read_league(source)\n"
        "    except Exception:\n"
        "        pass  # the row of spaces is a problem; the read is what is looked at\n"
        "import pyarrow; print(pyarrow.default_memory_pool().max_memory())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["0"]


class PanicException(BaseException):
    """As pyo3 raises a panic in Rust code (``pyo3_runtime.PanicException``): not an
    Exception, so that ``except Exception`` lets it through."""


def test_a_panic_in_fastexcel_leaves_the_sheet_to_the_rows_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[bool]
) -> None:
    import fastexcel

    def panics(*_: object, **__: object) -> None:
        raise PanicException("called `Option::unwrap()` on a `None` value")

    monkeypatch.setattr(fastexcel, "read_excel", panics)
    path = write_book(tmp_path / "league.xlsx", rally_sheets())
    rows, columns = league_both_ways(path, monkeypatch)
    assert taken == [False]
    assert columns == rows


def test_a_workbook_without_the_columnar_libraries_reads_as_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[bool]
) -> None:
    """xlwings Lite (Pyodide) has neither fastexcel nor pyarrow."""
    monkeypatch.setattr(columnar, "available", lambda: False)
    monkeypatch.setattr(columnar, "COLUMNS_FROM", 0)
    path = write_book(tmp_path / "league.xlsx", rally_sheets())
    with FileSheets(path) as source:
        assert source.head("Results") is None
    assert taken == []


def test_a_workbook_under_another_suffix_is_read_as_rows(tmp_path: Path) -> None:
    """fastexcel reads the file by its path: a workbook under another suffix (opened by
    content) is read as rows."""
    path = write_book(tmp_path / "league.xlsx", rally_sheets())
    other = path.rename(tmp_path / "league.results")
    assert zipfile.is_zipfile(other)
    with FileSheets(other) as source:
        assert source.head("Results") is None


def test_a_sheet_tried_as_columns_then_read_as_rows_has_its_formulas_checked_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken: list[bool]
) -> None:
    """A date column sends the sheet to the rows reader after fastexcel's try; the formula
    check (a second pass over the sheet's XML) is made before either read, not again."""
    sheets = rally_sheets()
    results = sheets["Results"]
    sheets["Results"] = [[*results[0], "Date"], *([*r, dt.date(2025, 12, 6)] for r in results[1:])]
    path = tmp_path / "league.xlsx"
    book = open_book(path, sheets)
    book.get_worksheet_by_name("Results").write_formula("H2", "=1+1", None, 2)
    book.close()
    scans: list[object] = []
    scan = scan_formulas

    def counted(chunks: Iterable[bytes]) -> FormulaScan:
        scans.append(chunks)
        return scan(chunks)

    monkeypatch.setattr("xlrally.ooxml.package.scan_formulas", counted)
    monkeypatch.setattr(columnar, "COLUMNS_FROM", 0)
    with FileSheets(path) as source:
        read_league(source)
    assert taken == [False]
    assert len(scans) == 1
