"""The Excel functions' one list (xlrally.excel.registry): every list of them elsewhere (the
xlwings functions, LibreOffice Calc's) names the same functions, computed by the same code."""

from __future__ import annotations

import inspect

import pytest

import udfs
from xlrally.calc import catalogue
from xlrally.excel import functions
from xlrally.excel.registry import FUNCTIONS, add, remove


def test_udfs_registers_each_function_of_the_registry() -> None:
    """udfs (xlwings) has one function per registry entry, with the same arguments."""
    assert sorted(udfs.__all__) == sorted(FUNCTIONS)
    for name, function in FUNCTIONS.items():
        parameters = list(inspect.signature(getattr(udfs, name)).parameters)
        assert parameters == [a.name for a in function.arguments], name


def test_calc_gets_the_registrys_functions_in_its_order() -> None:
    """LibreOffice Calc's catalogue lists the registry's functions, in the Wizard's order."""
    assert tuple(FUNCTIONS) == catalogue.NAMES
    for found in catalogue.every_function():
        assert found.compute is FUNCTIONS[found.name].compute


def test_a_function_added_is_listed_and_computes_range_by_range() -> None:
    """A system's own function: added by name, computed cell by cell like the others, and
    removed again; names that are not Excel-like or taken are refused."""

    def double_points(points: object) -> object:
        """Twice the points."""
        return functions.cellwise(lambda p: 2 * float(p), ("points",), points)

    added = add("DOUBLE_POINTS", double_points)
    try:
        assert FUNCTIONS["DOUBLE_POINTS"] is added
        assert added.summary == "Twice the points."
        assert added.compute([[1.0], [None], ["x"]]) == [
            [2.0],
            [""],
            ["#VALUE! could not convert string to float: 'x'"],
        ]
        with pytest.raises(ValueError, match="already called"):
            add("DOUBLE_POINTS", double_points)
    finally:
        remove("DOUBLE_POINTS")
    assert "DOUBLE_POINTS" not in FUNCTIONS
    with pytest.raises(ValueError, match="capitals"):
        add("double", double_points)
