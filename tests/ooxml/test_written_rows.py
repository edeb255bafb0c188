"""A standings table's rows handed to the writer sparsely (``SparseRow``: issue 33's sheet
written straight from the standings) are written byte for byte as the same rows cell by cell,
with the same digest of their values: for any row, and for every system's example league."""

from __future__ import annotations

import pytest
from helpers import memory_book
from hypothesis import given, settings
from hypothesis import strategies as st

from xlrally.core.league import compute_standings
from xlrally.core.systems import SYSTEMS
from xlrally.formats.cells import Cell, Look, SheetRow, SparseRow, row_cells
from xlrally.formats.grid import standings_grid, standings_sheet
from xlrally.formats.workbook import read_league
from xlrally.ooxml.sheet_xml import sheet_xml
from xlrally.ooxml.styles import Styles
from xlrally.ooxml.written_rows import number_texts

BOLD = Look(bold=True, number_format="0.00")
GREYED = Look(italic=True, grey=True, number_format="(0.00)")
NUMBERS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(-(10**16), 10**16),
    st.sampled_from([-0.0, 0.0, 999999999999999.5, -999999999999999.5, 1e15, 0.1 + 0.2]),
)
CELLS = st.builds(
    Cell, st.one_of(st.none(), NUMBERS, st.text(max_size=5)), st.sampled_from([Look(), BOLD])
)


@st.composite
def sparse_rows(draw: st.DrawFn) -> SparseRow:
    head = tuple(draw(st.lists(CELLS, max_size=3)))
    width = draw(st.integers(0, 8))
    spread = range(len(head), len(head) + width)
    columns = sorted(draw(st.sets(st.sampled_from(spread), max_size=width))) if width else []
    values = [draw(NUMBERS) for _ in columns]
    looks = [draw(st.sampled_from([BOLD, GREYED])) for _ in columns]
    tail = tuple(draw(st.lists(CELLS, max_size=2)))
    return SparseRow(head, columns, values, looks, len(head) + width, tail)


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(sparse_rows(), min_size=1, max_size=4))
def test_a_sparse_row_is_written_as_its_cells(rows: list[SheetRow]) -> None:
    header: list[SheetRow] = [(Cell("Rank"), Cell("Player"))]
    sparse = sheet_xml([*header, *rows], Styles(None), {}, False)
    cells = sheet_xml([*header, *map(row_cells, rows)], Styles(None), {}, False)
    assert sparse == cells


@settings(max_examples=300, deadline=None)
@given(values=st.lists(NUMBERS, max_size=6))
def test_numbers_formatted_together_are_each_one_alone(values: list[float]) -> None:
    """The one-``%`` path (plain numbers) and the number-by-number one agree."""
    alone = [number_texts([value])[0] for value in values]
    assert number_texts(values) == alone


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_every_systems_example_is_written_as_its_cells(key: str) -> None:
    standings = compute_standings(read_league(memory_book(key)))
    sparse = sheet_xml(standings_sheet(standings), Styles(None), {}, False)
    cells = sheet_xml(standings_grid(standings), Styles(None), {}, False)
    assert sparse == cells
    assert any(isinstance(row, SparseRow) for row in standings_sheet(standings))
