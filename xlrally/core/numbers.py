"""Small helpers shared by the scoring modules: checked whole numbers and display formatting
(numbers, counts of things, places): each written once, here."""

from __future__ import annotations

import math
from numbers import Real

from xlrally.core.errors import ScoringError

MAX_ROUNDS = 1_000
"""An event of more rounds is a typing slip (``1e9`` for 9), not a tournament (a double round
robin of 30 plays 58): refused at its cell, as it would score 1,000,000,000."""

MAX_PLAYERS = 1_000_000
"""An event's field: the largest online poker fields are a few hundred thousand."""

MAX_AMOUNT = 1e12
"""Money (a buy-in, a total, a pot, a prize) over a million million is a slip, not a club's:
refused at its cell (larger prizes overflowed into an internal error)."""


def at_most(number: float, limit: float, field: str) -> None:
    """Refuse a number over its sanity limit, naming the field.

    >>> at_most(1e9, MAX_ROUNDS, "rounds")
    Traceback (most recent call last):
    ...
    xlrally.core.errors.ScoringError: rounds must be at most 1,000, not 1,000,000,000
    """
    if number > limit:
        raise ScoringError(
            f"{field} must be at most {grouped(limit)}, not {grouped(number)}", field
        )


def grouped(number: float) -> str:
    """A large number for people: digits grouped by thousands, in powers of ten past 10^15.

    >>> grouped(1e9), grouped(1234.5), grouped(1e300)
    ('1,000,000,000', '1,234', '1e+300')
    """
    return f"{number:,.0f}" if abs(number) < 1e15 else f"{number:g}"


def whole(value: object, field: str, *, minimum: int = 0) -> int:
    """Return ``value`` as an int if it is a whole number >= ``minimum`` (Excel sends 4.0 for 4).

    >>> whole(4.0, "rounds")
    4
    >>> whole(2.5, "rounds")
    Traceback (most recent call last):
    ...
    xlrally.core.errors.ScoringError: rounds must be a whole number, not 2.5
    """
    if type(value) is int and value >= minimum:  # the common cases, checked fast
        return value
    if type(value) is float and value.is_integer() and value >= minimum:
        return int(value)
    number = real(value, field)
    if not float(number).is_integer():
        raise ScoringError(f"{field} must be a whole number, not {show(number)}", field)
    result = int(number)
    if result < minimum:
        if minimum == 0:
            raise ScoringError(f"{field} must not be negative ({result})", field)
        raise ScoringError(f"{field} must be at least {minimum}, not {result}", field)
    return result


def real(value: object, field: str) -> float | int:
    """Return ``value`` if it is a finite number (bool is not a number here)."""
    if type(value) is int or (type(value) is float and math.isfinite(value)):
        return value
    if value is None:
        raise ScoringError(f"{field} is missing", field)
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ScoringError(f"{field} must be a number, not {value!r}", field)
    if not math.isfinite(float(value)):
        raise ScoringError(f"{field} must be a finite number, not {value!r}", field)
    return value  # type: ignore[return-value]


def non_negative(value: object, field: str) -> float | int:
    """Return ``value`` if it is a finite number >= 0."""
    number = real(value, field)
    if number < 0:
        raise ScoringError(f"{field} must not be negative ({show(number)})", field)
    return number


def show(value: float, places: int = 2) -> str:
    """Format a number for people: whole numbers bare, others rounded to ``places`` decimals.

    >>> show(4.0), show(1.5), show(7.0710678), show(60.019), show(-0.0), show(-0.004)
    ('4', '1.5', '7.07', '60.02', '0', '0')
    >>> show(2.675), show(1e20), show(2.5, 0), show(12)  # 2.675 is 2.67499999... as a float
    ('2.67', '100000000000000000000', '2', '12')

    Not cached: a big league shows a few hundred thousand distinct scores, for which a cache's
    look-up and upkeep cost twice the formatting.
    """
    if type(value) is not float:
        if type(value) is int:
            return str(value)
        value = float(value)
    if value.is_integer():  # a whole float's digits, as formatting then stripping gives them
        return str(int(value))
    # correctly rounded, as round() is: half to even
    text = f"{value:.2f}" if places == 2 else f"{value:.{places}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st ...

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def fixed(value: float, places: int) -> str:
    """A number with exactly ``places`` decimals (``62.90``), or whole when ``places`` is 0."""
    return f"{float(value):.{places}f}"
