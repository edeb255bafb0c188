"""A small, safe formula language for a league's own points rule: a text such as
``10 × sqrt(players) / sqrt(place)`` parsed into a tree of a few node kinds, then evaluated
over named numbers. Nothing is ever handed to Python's ``eval``: the only names are those the
caller allows and the functions listed below, so a formula can compute and nothing else.

A hand-written tokenizer and recursive-descent parser (about 200 lines) rather than a parsing
library: the core is the standard library only, the grammar is six rules, and what matters
most, the column of every mistake in the message, is simplest to keep exact by hand.

Grammar, loosest first (``-2 ^ 2`` is −4 as in mathematics, not 4 as in Excel)::

    sum     := product (("+" | "-") product)*
    product := unary (("*" | "/") unary)*
    unary   := ("-" | "+") unary | power
    power   := postfix ("^" unary)?              (right to left: 2 ^ 3 ^ 2 = 2 ^ 9)
    postfix := atom "%"?                          (15% = 0.15)
    atom    := number | name | name "(" sum ("," sum)* ")" | "(" sum ")" | "[" sum "]"
             | "√" postfix

``×``, ``·`` and ``÷``, ``−`` are read as ``*``, ``/`` and ``-``; ``**`` as ``^``; square
brackets as parentheses (the PokerStars page writes ``10 * [sqrt(n)/sqrt(k)]``). Names are
read in any case; a name with a hyphen (``buy-in``, ``re-buys``) is one name when the caller
allows it, so ``buy-in`` is never ``buy − in``.

Functions (Excel's meaning where Excel has one): ``sqrt(x)``, ``ln(x)`` (natural), ``log(x)``
(base 10, as Excel's LOG; ``log(x, base)``), ``log10(x)``, ``exp(x)``, ``abs(x)``,
``min(a, b, ...)``, ``max(a, b, ...)``, ``round(x)`` or ``round(x, places)`` (halves away from
zero, as Excel's ROUND), ``floor(x)``, ``ceil(x)``.

>>> f = parse("10 × sqrt(players) / sqrt(place) × (1 + log10(buy-in + 0.25))",
...           names=("players", "place", "buy-in"))
>>> round(f.evaluate({"players": 150, "place": 3, "buy-in": 20}), 2)   # PokerStars' example
163.09
>>> f.working({"players": 150, "place": 3, "buy-in": 20})
'10 × √150 / √3 × (1 + log10(20 + 0.25)) = 163.09'
>>> parse("10 * sqrt(palyers)", names=("players", "place"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
xlrally.core.expression.FormulaError: formula column 11: unknown name 'palyers' (did you ...
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from xlrally.core.errors import ScoringError
from xlrally.core.numbers import show

__all__ = [
    "FUNCTIONS",
    "MAX_LENGTH",
    "Binary",
    "Call",
    "Formula",
    "FormulaError",
    "Name",
    "Node",
    "Number",
    "Unary",
    "parse",
]

MAX_LENGTH = 1000
"""A longer formula is refused: it is pasted data, not a league's rule."""
MAX_DEPTH = 50
"""Parentheses nested deeper than this are refused (Python's own recursion stays far off)."""


class FormulaError(ScoringError):
    """A formula that cannot be read or computed, naming the column (1 = its first character)
    of the mistake: ``formula column 11: unknown name 'palyers'``."""

    def __init__(self, message: str, column: int | None = None, field: str = "formula") -> None:
        where = f"formula column {column}" if column is not None else "formula"
        super().__init__(f"{where}: {message}", field)
        self.column = column
        self.reason = message


# ---------------------------------------------------------------- the tree


@dataclass(frozen=True)
class Number:
    """A number written in the formula, with its text as written (``0.25``, ``15%``)."""

    value: float
    text: str
    at: int


@dataclass(frozen=True)
class Name:
    """A named number (``players``), given when the formula is evaluated."""

    name: str
    at: int


@dataclass(frozen=True)
class Unary:
    """``-x`` or ``+x``."""

    op: str
    operand: Node
    at: int


@dataclass(frozen=True)
class Binary:
    """``a + b``, ``a - b``, ``a * b``, ``a / b`` or ``a ^ b``."""

    op: str
    left: Node
    right: Node
    at: int


@dataclass(frozen=True)
class Call:
    """A function applied to its arguments: ``sqrt(players)``."""

    function: str
    args: tuple[Node, ...]
    at: int


Node = Number | Name | Unary | Binary | Call


def _round(x: float, places: float = 0) -> float:
    """Excel's ROUND: halves away from zero (``round(2.5)`` is 3, Python's is 2)."""
    digits = int(places)
    if digits != places:
        raise ValueError("round's places must be a whole number")
    scale = 10.0**digits
    # The nearest decimal of x first, so that 1.005 (stored as 1.00499...) still rounds up.
    scaled = round(x * scale, 9)
    return math.copysign(math.floor(abs(scaled) + 0.5), x) / scale


def _log(x: float, base: float = 10) -> float:
    if base <= 0 or base == 1:
        raise ValueError(f"log's base must be more than 0 and not 1, not {show(base)}")
    return math.log(x, base)


@dataclass(frozen=True)
class _Function:
    run: Callable[..., float]
    arity: tuple[int, int | None]
    """The least and most arguments (None: any number)."""
    domain: Callable[[float], bool] | None = None
    """What the first argument must satisfy, and the words for it."""
    needs: str = ""


FUNCTIONS: dict[str, _Function] = {
    "sqrt": _Function(math.sqrt, (1, 1), lambda x: x >= 0, "a number of at least 0"),
    "ln": _Function(math.log, (1, 1), lambda x: x > 0, "a number more than 0"),
    "log": _Function(_log, (1, 2), lambda x: x > 0, "a number more than 0"),
    "log10": _Function(math.log10, (1, 1), lambda x: x > 0, "a number more than 0"),
    "exp": _Function(math.exp, (1, 1)),
    "abs": _Function(abs, (1, 1)),
    "min": _Function(min, (1, None)),
    "max": _Function(max, (1, None)),
    "round": _Function(_round, (1, 2)),
    "floor": _Function(math.floor, (1, 1)),
    "ceil": _Function(math.ceil, (1, 1)),
}
"""The functions a formula may call, by name."""


# ---------------------------------------------------------------- reading


_OPERATORS = {
    "+": "+",
    "-": "-",
    "−": "-",  # minus sign
    "–": "-",  # en dash, as word processors turn a minus
    "*": "*",
    "×": "*",
    "·": "*",
    "/": "/",
    "÷": "/",
    "^": "^",
    "%": "%",
    "(": "(",
    ")": ")",
    "[": "(",
    "]": ")",
    ",": ",",
    "√": "√",
}


@dataclass(frozen=True)
class _Token:
    kind: str
    """``number``, ``name``, an operator (as in :data:`_OPERATORS`' values) or ``end``."""
    text: str
    at: int


def _tokens(text: str, hyphenated: Sequence[str]) -> list[_Token]:
    tokens: list[_Token] = []
    i, n = 0, len(text)
    lowered = text.casefold()
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        if c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            j = i
            while j < n and text[j].isdigit():
                j += 1
            if j < n and text[j] == ".":
                j += 1
                while j < n and text[j].isdigit():
                    j += 1
            tokens.append(_Token("number", text[i:j], i + 1))
            i = j
            continue
        if c.isalpha() or c == "_":
            match = next((h for h in hyphenated if lowered.startswith(h, i)), None)
            j = i + len(match) if match is not None else i
            if match is None or (j < n and (text[j].isalnum() or text[j] == "_")):
                j = i
                while j < n and (text[j].isalnum() or text[j] == "_"):
                    j += 1
            tokens.append(_Token("name", text[i:j], i + 1))
            i = j
            continue
        if text.startswith("**", i):
            tokens.append(_Token("^", "**", i + 1))
            i += 2
            continue
        if c in _OPERATORS:
            tokens.append(_Token(_OPERATORS[c], c, i + 1))
            i += 1
            continue
        raise FormulaError(f"{c!r} is not part of a formula", i + 1)
    tokens.append(_Token("end", "", n + 1))
    return tokens


def _shown(token: _Token) -> str:
    return "the end of the formula" if token.kind == "end" else repr(token.text)


class _Parser:
    def __init__(self, text: str, names: Mapping[str, str]) -> None:
        self.names = names  # folded spelling -> the name as the caller gives it
        hyphenated = sorted((n for n in names if "-" in n), key=len, reverse=True)
        self.tokens = _tokens(text, hyphenated)
        self.index = 0
        self.depth = 0

    @property
    def token(self) -> _Token:
        return self.tokens[self.index]

    def take(self) -> _Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def expect(self, kind: str, what: str) -> _Token:
        if self.token.kind != kind:
            raise FormulaError(f"expected {what}, found {_shown(self.token)}", self.token.at)
        return self.take()

    def formula(self) -> Node:
        if self.token.kind == "end":
            raise FormulaError("the formula is empty", None)
        node = self.sum()
        if self.token.kind != "end":
            if self.token.kind in {"number", "name", "(", "√"}:
                message = f"expected an operator before {_shown(self.token)}"
            elif self.token.kind == ")":
                message = f"{_shown(self.token)} closes no parenthesis"
            elif self.token.kind == ",":
                message = "a comma separates a function's arguments; write decimals with a point"
            else:
                message = f"unexpected {_shown(self.token)}"
            raise FormulaError(message, self.token.at)
        return node

    def sum(self) -> Node:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise FormulaError(f"parentheses nested deeper than {MAX_DEPTH}", self.token.at)
        node = self.product()
        while self.token.kind in {"+", "-"}:
            op = self.take()
            node = Binary(op.kind, node, self.product(), op.at)
        self.depth -= 1
        return node

    def product(self) -> Node:
        node = self.unary()
        while self.token.kind in {"*", "/"}:
            op = self.take()
            node = Binary(op.kind, node, self.unary(), op.at)
        return node

    def unary(self) -> Node:
        if self.token.kind in {"+", "-"}:
            op = self.take()
            return Unary(op.kind, self.unary(), op.at)
        return self.power()

    def power(self) -> Node:
        node = self.postfix()
        if self.token.kind == "^":
            op = self.take()
            return Binary("^", node, self.unary(), op.at)
        return node

    def postfix(self) -> Node:
        node = self.atom()
        if self.token.kind == "%":
            sign = self.take()
            if not isinstance(node, Number):
                raise FormulaError("% follows a number (15%), not a name or a bracket", sign.at)
            return Number(node.value / 100, node.text + "%", node.at)
        return node

    def atom(self) -> Node:
        token = self.token
        if token.kind == "number":
            self.take()
            return Number(float(token.text), token.text, token.at)
        if token.kind == "√":
            self.take()
            return Call("sqrt", (self.postfix(),), token.at)
        if token.kind == "(":
            self.take()
            node = self.sum()
            self.expect(")", "a closing parenthesis")
            return node
        if token.kind == "name":
            self.take()
            folded = token.text.casefold()
            if self.token.kind == "(":
                return self.call(token, folded)
            if folded in self.names:
                return Name(self.names[folded], token.at)
            if folded in FUNCTIONS:
                raise FormulaError(f"{token.text} needs its argument in parentheses", token.at)
            raise FormulaError(self.unknown(token.text), token.at)
        raise FormulaError(f"expected a number or a name, found {_shown(token)}", token.at)

    def call(self, name: _Token, folded: str) -> Node:
        if folded not in FUNCTIONS:
            close = difflib.get_close_matches(folded, FUNCTIONS, 1, 0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            listed = ", ".join(FUNCTIONS)
            raise FormulaError(f"unknown function {name.text!r}{hint}: use {listed}", name.at)
        self.take()  # (
        args = [self.sum()]
        while self.token.kind == ",":
            self.take()
            args.append(self.sum())
        self.expect(")", f"a closing parenthesis after {folded}'s arguments")
        least, most = FUNCTIONS[folded].arity
        if len(args) < least or (most is not None and len(args) > most):
            wanted = str(least) if least == most else f"{least} to {most}"
            if most is None:
                wanted = f"at least {least}"
            raise FormulaError(
                f"{folded} takes {wanted} argument{'' if wanted == '1' else 's'}, not {len(args)}",
                name.at,
            )
        return Call(folded, tuple(args), name.at)

    def unknown(self, text: str) -> str:
        allowed = list(dict.fromkeys(self.names.values()))
        close = difflib.get_close_matches(text.casefold(), list(self.names), 1, 0.6)
        hint = f" (did you mean {self.names[close[0]]!r}?)" if close else ""
        listed = ", ".join(allowed) if allowed else "none"
        return f"unknown name {text!r}{hint}: use {listed}"


# ---------------------------------------------------------------- computing and showing


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "unary": 3, "^": 4}
_SHOWN = {"+": "+", "-": "−", "*": "×", "/": "/", "^": "^"}


def _power(a: float, b: float, at: int) -> float:
    """``a ^ b``, refused where it has no real value or is too large."""
    if a == 0 and b < 0:
        raise FormulaError(f"0 to a negative power ({show(b)})", at)
    if a < 0 and not float(b).is_integer():
        raise FormulaError(f"a negative number ({show(a)}) to a fractional power", at)
    try:
        return float(a**b)
    except OverflowError:
        raise FormulaError(f"{show(a)} ^ {show(b)} is too large", at) from None


@dataclass(frozen=True)
class Formula:
    """A parsed formula: its text, its tree, and the names it uses."""

    text: str
    tree: Node
    names: frozenset[str]
    """The names the formula uses (a caller need not supply the others)."""

    def evaluate(self, values: Mapping[str, float]) -> float:
        """The formula's value for ``values`` (a number per name it uses). Raises
        :class:`FormulaError` naming the column of what cannot be computed (a square root of a
        negative number, a division by 0) and the numbers involved."""
        value = self._compiled(values)
        if not math.isfinite(value):
            raise FormulaError(f"the result is not a finite number ({value})", None)
        return value

    @cached_property
    def _compiled(self) -> _Compiled:
        """The tree made once into nested Python functions (:func:`_compile`), so that a
        formula computed for many rows is not walked node by node for each."""
        return _compile(self.tree)

    def working(self, values: Mapping[str, float], places: int = 2) -> str:
        """The formula with the numbers put in, and its value:
        ``10 × √150 / √3 = 70.71``."""
        return f"{self.shown(values)} = {show(self.evaluate(values), places)}"

    def shown(self, values: Mapping[str, float] | None = None) -> str:
        """The formula as xlrally writes it (``×``, ``−``, ``√``), each name replaced by its
        number when ``values`` are given."""
        return _show(self.tree, values, 0)


_Compiled = Callable[[Mapping[str, float]], float]
"""A formula's tree (or a part of it) made into a function of the named numbers."""


def _compile(node: Node) -> _Compiled:
    """``node`` as a function of the named numbers: the same value, and the same error at the
    same column, as walking the tree node by node would give (operands left before right, a
    function's arguments in order, then its domain checked, as the operators and the calls
    do), without looking at each node's kind again for every row.

    >>> _compile(parse("2 * x + 1", ("x",)).tree)({"x": 3.0})
    7.0
    """
    if isinstance(node, Number):
        number = node.value
        return lambda values: number
    if isinstance(node, Name):
        return _compile_name(node.name, node.at)
    if isinstance(node, Unary):
        operand = _compile(node.operand)
        return (lambda values: -operand(values)) if node.op == "-" else operand
    if isinstance(node, Binary):
        return _compile_binary(node)
    return _compile_call(node)


def _compile_name(name: str, at: int) -> _Compiled:
    def named(values: Mapping[str, float]) -> float:
        if name not in values:
            raise FormulaError(f"{name} is not known here", at)
        return float(values[name])

    return named


def _compile_binary(node: Binary) -> _Compiled:
    left, right, op, at = _compile(node.left), _compile(node.right), node.op, node.at
    if op == "+":
        return lambda values: left(values) + right(values)
    if op == "-":
        return lambda values: left(values) - right(values)
    if op == "*":
        if isinstance(node.left, Number):  # 10 × sqrt(players): the number kept at hand
            factor = node.left.value
            return lambda values: factor * right(values)
        return lambda values: left(values) * right(values)
    if op == "/":

        def divided(values: Mapping[str, float]) -> float:
            a = left(values)
            b = right(values)
            if b == 0:
                raise FormulaError(f"division by 0 ({show(a)} / 0)", at)
            return a / b

        return divided
    return lambda values: _power(left(values), right(values), at)


def _compile_call(node: Call) -> _Compiled:
    name, at = node.function, node.at
    function = FUNCTIONS[name]
    run, domain, needs = function.run, function.domain, function.needs
    args = [_compile(arg) for arg in node.args]

    def called(values: Mapping[str, float]) -> float:
        numbers = [arg(values) for arg in args]
        if domain is not None and not domain(numbers[0]):
            raise FormulaError(f"{name} needs {needs}, not {show(numbers[0])}", at)
        try:
            result = float(run(*numbers))
        except (ValueError, OverflowError) as error:
            raise FormulaError(f"{name}: {error}", at) from None
        return result

    if len(args) != 1:
        return called
    (only,) = args

    def called_once(values: Mapping[str, float]) -> float:  # one argument: no list
        number = only(values)
        if domain is not None and not domain(number):
            raise FormulaError(f"{name} needs {needs}, not {show(number)}", at)
        try:
            result = float(run(number))
        except (ValueError, OverflowError) as error:
            raise FormulaError(f"{name}: {error}", at) from None
        return result

    return called_once


def _show(node: Node, values: Mapping[str, float] | None, outer: int) -> str:
    if isinstance(node, Number):
        return node.text
    if isinstance(node, Name):
        if values is None or node.name not in values:
            return node.name
        number = float(values[node.name])
        text = show(number)
        return f"({text})" if number < 0 and outer else text
    if isinstance(node, Unary):
        inner = _show(node.operand, values, _PRECEDENCE["unary"])
        text = ("−" if node.op == "-" else "+") + inner
        return f"({text})" if outer > _PRECEDENCE["unary"] else text
    if isinstance(node, Binary):
        level = _PRECEDENCE[node.op]
        if node.op == "^":  # right to left: the left side needs brackets at the same level
            left = _show(node.left, values, level + 1)
            right = _show(node.right, values, level)
        else:  # left to right: the right side needs them (a − (b − c))
            left = _show(node.left, values, level)
            right = _show(node.right, values, level + 1)
        text = (
            f"{left}{_SHOWN['^']}{right}" if node.op == "^" else f"{left} {_SHOWN[node.op]} {right}"
        )
        return f"({text})" if outer > level else text
    args = [_show(arg, values, 0) for arg in node.args]
    if node.function == "sqrt":
        only = node.args[0]
        simple = isinstance(only, Number | Name) and not args[0].startswith("(")
        return f"√{args[0]}" if simple else f"√({args[0]})"
    return f"{node.function}({', '.join(args)})"


def _walk(node: Node) -> Iterable[Node]:
    yield node
    if isinstance(node, Unary):
        yield from _walk(node.operand)
    elif isinstance(node, Binary):
        yield from _walk(node.left)
        yield from _walk(node.right)
    elif isinstance(node, Call):
        for arg in node.args:
            yield from _walk(arg)


def parse(text: str, names: Iterable[str], aliases: Mapping[str, str] | None = None) -> Formula:
    """Read ``text`` as a formula over ``names`` (and ``aliases``: another spelling -> one of
    the names, e.g. ``buyin`` -> ``buy-in``). Raises :class:`FormulaError` naming the column of
    the first mistake. Formulas are cached: a league reads one per event.

    >>> parse("2 ^ 3 ^ 2", ()).evaluate({}), parse("-2 ^ 2", ()).evaluate({})
    (512.0, -4.0)
    >>> parse("(1 + 2", ())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    xlrally.core.expression.FormulaError: formula column 7: expected a closing parenthesis, ...
    """
    return _parse(text, tuple(names), tuple(sorted((aliases or {}).items())))


@lru_cache(maxsize=256)
def _parse(text: str, names: tuple[str, ...], aliases: tuple[tuple[str, str], ...]) -> Formula:
    if len(text) > MAX_LENGTH:
        raise FormulaError(f"the formula is {len(text)} characters long; at most {MAX_LENGTH}")
    spellings = {name.casefold(): name for name in names}
    spellings.update((alias.casefold(), name) for alias, name in aliases)
    tree = _Parser(text, spellings).formula()
    used = frozenset(node.name for node in _walk(tree) if isinstance(node, Name))
    return Formula(text, tree, used)
