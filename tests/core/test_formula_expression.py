"""The formula language (xlrally.core.expression): what it reads, what it refuses, and where.

Every expected value is worked by hand (beside it); every column is counted in the text.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xlrally.core.expression import (
    FUNCTIONS,
    Binary,
    FormulaError,
    Name,
    Node,
    Number,
    Unary,
    parse,
)
from xlrally.core.numbers import show

NAMES = ("players", "place", "buy-in", "re-buys", "knockouts")
ALIASES = {"buyin": "buy-in", "rebuys": "re-buys"}
VALUES = {"players": 150, "place": 3, "buy-in": 20, "re-buys": 2, "knockouts": 1}


def value(text: str) -> float:
    return parse(text, NAMES, ALIASES).evaluate(VALUES)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 + 2 * 3", 7),  # products first
        ("(1 + 2) * 3", 9),
        ("[1 + 2] * 3", 9),  # the PokerStars page's brackets
        ("10 - 4 - 3", 3),  # left to right: (10 − 4) − 3
        ("2 ^ 3 ^ 2", 512),  # right to left: 2 ^ 9
        ("2 ** 3", 8),
        ("-2 ^ 2", -4),  # as in mathematics (Excel says 4)
        ("2 ^ -1", 0.5),
        ("15%", 0.15),
        ("200 × 15%", 30),
        ("6 ÷ 4", 1.5),
        ("7 − 2", 5),  # the minus sign
        ("3 · 4", 12),
        ("√16 + 1", 5),
        ("√(9 + 16)", 5),
        ("players - place", 147),
        ("PLAYERS / Place", 50),  # names in any case
        ("buy-in - re-buys", 18),  # one name each, never buy − in
        ("buyin + rebuys", 22),  # the aliases
        ("knockouts * 10", 10),
        ("log(1000)", 3),  # Excel's LOG: base 10
        ("log(8, 2)", 3),
        ("log10(0.01)", -2),
        ("ln(1)", 0),
        ("exp(0)", 1),
        ("abs(-3)", 3),
        ("min(4, 2, 9)", 2),
        ("max(players, 200)", 200),
        ("round(2.5)", 3),  # halves away from zero, as Excel's ROUND
        ("round(-2.5)", -3),
        ("round(1.005, 2)", 1.01),
        ("round(1234, -2)", 1200),
        ("floor(2.7)", 2),
        ("ceil(2.1)", 3),
        (".5 + 1.", 1.5),
    ],
)
def test_what_a_formula_computes(text: str, expected: float) -> None:
    """Each operator, function and spelling gives the value worked by hand."""
    assert value(text) == pytest.approx(expected)


def test_the_pokerstars_formula_as_its_page_writes_it() -> None:
    """The source's own text (n, k, b as names) gives its worked example: 163.09."""
    formula = parse("10 * [sqrt(n)/sqrt(k)] * [1+log(b+0.25)]", ("n", "k", "b"))
    assert round(formula.evaluate({"n": 150, "k": 3, "b": 20}), 2) == 163.09
    assert formula.names == {"n", "k", "b"}


@pytest.mark.parametrize(
    ("text", "column", "reason"),
    [
        ("", None, "the formula is empty"),
        ("1 +", 4, "expected a number or a name, found the end of the formula"),
        ("2 3", 3, "expected an operator before '3'"),
        ("(1 + 2", 7, "expected a closing parenthesis, found the end of the formula"),
        ("1 + 2)", 6, "')' closes no parenthesis"),
        ("sqrt 4", 1, "sqrt needs its argument in parentheses"),
        ("sqrt(1, 2)", 1, "sqrt takes 1 argument, not 2"),
        ("round(1, 2, 3)", 1, "round takes 1 to 2 arguments, not 3"),
        (
            "10 * palyers",
            6,
            "unknown name 'palyers' (did you mean 'players'?): use players, place, buy-in, re-buys, knockouts",
        ),
        (
            "sqroot(place)",
            1,
            "unknown function 'sqroot' (did you mean 'sqrt'?): use " + ", ".join(FUNCTIONS),
        ),
        ("10 $ 2", 4, "'$' is not part of a formula"),
        ("place%", 6, "% follows a number (15%), not a name or a bracket"),
        (
            "0,25 * players",
            2,
            "a comma separates a function's arguments; write decimals with a point",
        ),
        ("__import__(1)", 1, "unknown function '__import__': use " + ", ".join(FUNCTIONS)),
        ("__import__('os')", 12, '"\'" is not part of a formula'),
        ("players.__class__", 8, "'.' is not part of a formula"),
    ],
)
def test_a_mistake_is_named_at_its_column(text: str, column: int | None, reason: str) -> None:
    """What cannot be read says what and where (column 1 is the first character); nothing
    a formula says can reach Python (no attribute, no call but the listed functions)."""
    with pytest.raises(FormulaError) as caught:
        parse(text, NAMES, ALIASES)
    assert (caught.value.column, caught.value.reason) == (column, reason)
    where = f"formula column {column}" if column else "formula"
    assert caught.value.message == f"{where}: {reason}"
    assert caught.value.field == "formula"


@pytest.mark.parametrize(
    ("text", "column", "reason"),
    [
        ("sqrt(place - players)", 1, "sqrt needs a number of at least 0, not -147"),
        ("10 / (place - 3)", 4, "division by 0 (10 / 0)"),
        ("log(place - 3)", 1, "log needs a number more than 0, not 0"),
        ("ln(0)", 1, "ln needs a number more than 0, not 0"),
        ("log(8, 1)", 1, "log: log's base must be more than 0 and not 1, not 1"),
        ("(0 - 8) ^ 0.5", 9, "a negative number (-8) to a fractional power"),
        ("10 ^ 400", 4, "10 ^ 400 is too large"),
        ("0 ^ -1", 3, "0 to a negative power (-1)"),
        ("exp(1000)", 1, "exp: math range error"),
    ],
)
def test_what_cannot_be_computed_is_named_with_its_numbers(
    text: str, column: int, reason: str
) -> None:
    """A value the formula cannot compute names the column and the numbers involved."""
    with pytest.raises(FormulaError) as caught:
        value(text)
    assert (caught.value.column, caught.value.reason) == (column, reason)


def test_a_formula_too_long_or_too_deep_is_refused() -> None:
    """Pasted data is not a rule: over 1,000 characters, or brackets 51 deep, are refused."""
    with pytest.raises(FormulaError, match="1001 characters long; at most 1000"):
        parse("1" + " " * 1000, ())
    with pytest.raises(FormulaError, match="nested deeper than 50"):
        parse("(" * 51 + "1" + ")" * 51, ())
    assert parse("(" * 49 + "1" + ")" * 49, ()).evaluate({}) == 1


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("10*sqrt(players)/sqrt(place)", "10 × √150 / √3"),
        ("a-(b-c)", "2 − (3 − 4)"),
        ("a-b-c", "2 − 3 − 4"),
        ("a/(b*c)", "2 / (3 × 4)"),
        ("(a+b)*c", "(2 + 3) × 4"),
        ("2^-a", "2^(−2)"),
        ("(-a)^2", "(−2)^2"),
        ("sqrt(a+b)", "√(2 + 3)"),
        ("max(a, 15%)", "max(2, 15%)"),
        ("a - n", "2 − (-1)"),  # a number is shown as show() writes it
    ],
)
def test_the_working_puts_the_numbers_in(text: str, shown: str) -> None:
    """The working is the formula as xlrally writes it (×, −, √), with each name's number and
    only the brackets the order needs."""
    formula = parse(text, ("a", "b", "c", "n", "players", "place"))
    numbers = {"a": 2, "b": 3, "c": 4, "n": -1, "players": 150, "place": 3}
    assert formula.shown(numbers) == shown
    assert formula.working(numbers).startswith(f"{shown} = ")


LEAVES = st.one_of(
    st.sampled_from(["a", "b", "c"]),
    st.integers(0, 20).map(str),
    st.sampled_from(["0.5", "15%", "2.25"]),
)


def _formulas() -> st.SearchStrategy[str]:
    return st.recursive(
        LEAVES,
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "^"]), inner).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"
            ),
            inner.map(lambda x: f"-{x}"),
            inner.map(lambda x: f"sqrt(abs({x}))"),
            st.tuples(inner, inner).map(lambda t: f"max({t[0]}, {t[1]})"),
        ),
        max_leaves=8,
    )


@given(_formulas())
@settings(max_examples=200, deadline=None)
def test_the_working_reads_back_as_the_same_formula(text: str) -> None:
    """What the working writes (with names, before the numbers go in) is read back to the same
    value: the brackets it leaves out were not needed."""
    numbers = {"a": 2.0, "b": 3.0, "c": 0.5}
    original = parse(text, ("a", "b", "c"))
    again = parse(original.shown(), ("a", "b", "c"))
    try:
        expected = original.evaluate(numbers)
    except FormulaError:
        with pytest.raises(FormulaError):
            again.evaluate(numbers)
        return
    assert math.isclose(again.evaluate(numbers), expected, rel_tol=1e-12, abs_tol=1e-12)


def walked(node: Node, values: dict[str, float]) -> float:
    """The tree computed node by node, as the formula language defines it (the evaluator
    before formulas were compiled, kept here as the oracle of the compiled one)."""
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Name):
        if node.name not in values:
            raise FormulaError(f"{node.name} is not known here", node.at)
        return float(values[node.name])
    if isinstance(node, Unary):
        operand = walked(node.operand, values)
        return -operand if node.op == "-" else operand
    if isinstance(node, Binary):
        a, b = walked(node.left, values), walked(node.right, values)
        if node.op == "+":
            return a + b
        if node.op == "-":
            return a - b
        if node.op == "*":
            return a * b
        if node.op == "/":
            if b == 0:
                raise FormulaError(f"division by 0 ({show(a)} / 0)", node.at)
            return a / b
        if a == 0 and b < 0:
            raise FormulaError(f"0 to a negative power ({show(b)})", node.at)
        if a < 0 and not float(b).is_integer():
            raise FormulaError(f"a negative number ({show(a)}) to a fractional power", node.at)
        try:
            return float(a**b)
        except OverflowError:
            raise FormulaError(f"{show(a)} ^ {show(b)} is too large", node.at) from None
    function = FUNCTIONS[node.function]
    args = [walked(arg, values) for arg in node.args]
    if function.domain is not None and not function.domain(args[0]):
        raise FormulaError(f"{node.function} needs {function.needs}, not {show(args[0])}", node.at)
    try:
        return float(function.run(*args))
    except (ValueError, OverflowError) as error:
        raise FormulaError(f"{node.function}: {error}", node.at) from None


def _any_formulas() -> st.SearchStrategy[str]:
    """Formulas of every node kind and function, with names that may be missing and numbers
    that make domains, divisions and powers fail."""
    leaves = st.one_of(
        st.sampled_from(["a", "b", "c", "z"]),
        st.sampled_from(["0", "1", "2", "0.5", "15%", "400", "1000"]),
    )
    functions = st.sampled_from(sorted(FUNCTIONS))
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "^", "×", "÷"]), inner).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"
            ),
            inner.map(lambda x: f"-{x}"),
            inner.map(lambda x: f"+{x}"),
            inner.map(lambda x: f"√{x}"),
            st.tuples(functions, st.lists(inner, min_size=1, max_size=3)).map(
                lambda t: f"{t[0]}({', '.join(t[1])})"
            ),
        ),
        max_leaves=10,
    )


@given(_any_formulas(), st.sampled_from([-3.0, -0.5, 0.0, 0.5, 2.0, 10.0]))
@settings(max_examples=400, deadline=None)
def test_the_compiled_formula_is_the_tree_walked(text: str, a: float) -> None:
    """A formula made once into Python functions gives what walking its tree node by node
    gives: the same value, or the same error at the same column with the same words."""
    try:
        formula = parse(text, ("a", "b", "c", "z"))
    except FormulaError:
        return  # a wrong number of arguments: nothing to compute
    values = {"a": a, "b": 3.0, "c": 0.5}  # z is not known here
    expected: float | tuple[int | None, str]
    try:
        number = walked(formula.tree, values)
        finite = math.isfinite(number)
        expected = number if finite else (None, f"the result is not a finite number ({number})")
    except FormulaError as error:
        expected = (error.column, error.reason)
    except (TypeError, ValueError, OverflowError, ZeroDivisionError) as error:
        expected = (-1, f"{type(error).__name__}: {error}")
    try:
        got: float | tuple[int | None, str] = formula.evaluate(values)
    except FormulaError as error:
        got = (error.column, error.reason)
    except (TypeError, ValueError, OverflowError, ZeroDivisionError) as error:
        got = (-1, f"{type(error).__name__}: {error}")
    assert got == expected
