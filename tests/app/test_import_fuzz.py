"""Fuzzing the import: real-looking TRF and CSV files, whole or damaged as files get damaged
(a line that moved or was cut, a line a mail program wrapped, a truncated download, tabs,
padding by bytes, rows short of a value, a stray line separator, one name in another
encoding), through `xlrally import` as the user runs it.

Every case must be a correct import (each player's points, games and byes, or rank, exactly as
an independent statement of the rule gives them for the file as it was made) or one `Error:`
line with the workbook unchanged and no temporary file left; none may import a wrong score.
Damage that keeps the meaning (other line ends, a byte order mark, records in another order,
names padded by bytes) must import correctly.

The rule, stated here on its own (docs/import.md's tables, from the TRF standard's codes and
the rally seed: only byes leave the divisor): against an opponent, 1 = 0 W D L are games worth
1, ½, 0, + is a bye (setting `Forfeit wins`' default), - a missed round; against no opponent
(0000 or blank), U 1 W + are the pairing bye, H = D F byes asked for (setting `Requested
byes`' default: byes), Z 0 L - and blank missed rounds.

A CSV has no redundancy a cut could be caught by (a table cut at a line end is a shorter
table), so files are truncated only in the TRF cases, whose records check each other.
Hypothesis is derandomized and keeps no database: a failure reproduces on the next run.
"""

from __future__ import annotations

import datetime as dt
import functools
import random
import shutil
import tempfile
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import write_book
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from python_calamine import CalamineWorkbook

from xlrally.cli import cli
from xlrally.ooxml.writer import TEMP_SUFFIX

FIRST = ["Ann", "Ben", "José", "Zoë", "Mikhail", "Siobhán", "Li", "Åsa", "Oliver", "Eve", "Tom"]
LAST = ["Smith", "Jones", "Müller", "Ólafsson", "Nguyen", "O'Brien", "Lee", "Kovač", "Grant"]
GAME = {"1": 1.0, "=": 0.5, "0": 0.0, "W": 1.0, "D": 0.5, "L": 0.0}
PAIRING_BYE = {"U", "1", "W", "+"}
ASKED_BYE = {"H", "=", "D", "F"}
STANDARD = {"1": 1, "W": 1, "+": 1, "F": 1, "U": 1, "=": 0.5, "D": 0.5, "H": 0.5}
FUZZ = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=300,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@dataclass
class Made:
    """A file as made, and what it must import as."""

    data: bytes
    expected: dict[str, tuple[float, ...]]
    """By the name the league shows: (points, games, byes), or (rank,)."""
    encoding: str
    unfinished: bool = False
    """The last round holds only asked-for byes (no game, forfeit or pairing bye): programs
    write such byes before the round is paired, so the event reads as unfinished
    (docs/import.md, FIDE TRF: refused unless ``--rounds`` says to score the rounds played)."""


def names(rnd: random.Random, count: int) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    while len(found) < count:
        pair = (rnd.choice(LAST), rnd.choice(FIRST) + ("" if rnd.random() < 0.7 else " Jr"))
        if pair not in found:
            found.append(pair)
    return found


def rally_line(entries: list[tuple[int, str]]) -> tuple[float, int, int]:
    """The rule, stated on its own (see the module docstring)."""
    points, games, byes = 0.0, 0, 0
    for opponent, code in entries:
        if opponent and code in GAME:
            points += GAME[code]
            games += 1
        elif (opponent and code == "+") or (not opponent and code in PAIRING_BYE | ASKED_BYE):
            byes += 1
    return points, games, byes


def make_trf(seed: int, players: int, rounds: int) -> Made:
    """A Swiss as a pairing program writes it: each round paired at random, the odd player a
    pairing bye (written the old way, ``0000 - +``, or the new, ``0000 - U``), some byes asked
    for (``0000 - H``, ``0000 - =``, a blank opponent), late entries and withdrawals (blank or
    ``Z``), forfeits, short games; both sides of every game, points columns that add up."""
    rnd = random.Random(seed)
    people = names(rnd, players)
    late = {p: rnd.randint(1, rounds) for p in range(players) if rnd.random() < 0.15}
    gone = {p: rnd.randint(1, rounds) for p in range(players) if rnd.random() < 0.1}
    blocks: list[list[str]] = [[] for _ in range(players)]
    entries: list[list[tuple[int, str]]] = [[] for _ in range(players)]
    for r in range(rounds):
        here = [p for p in range(players) if late.get(p, 0) <= r < gone.get(p, rounds)]
        for p in set(range(players)) - set(here):
            style = rnd.choice(["          ", "  0000 - Z", "  0000 - 0", "       -  "])
            blocks[p].append(style)
            entries[p].append((0, style[-1].strip()))
        asked = {p for p in here if rnd.random() < 0.1}
        for p in asked:
            style = rnd.choice(["  0000 - H", "  0000 - =", "       - =", "  0000 - F"])
            blocks[p].append(style)
            entries[p].append((0, style[-1]))
        paired = [p for p in here if p not in asked]
        rnd.shuffle(paired)
        if len(paired) % 2:
            p = paired.pop()
            style = rnd.choice(["  0000 - U", "  0000 - +", "  0000 - 1", "       - U"])
            blocks[p].append(style)
            entries[p].append((0, style[-1]))
        for a, b in zip(paired[::2], paired[1::2], strict=True):
            mine, theirs = rnd.choice(
                [
                    *[("1", "0"), ("0", "1"), ("=", "="), ("1", "0"), ("0", "1"), ("=", "=")],
                    *[("+", "-"), ("-", "+"), ("W", "L"), ("-", "-"), ("D", "D")],
                ]
            )
            blocks[a].append(f"  {b + 1:4d} w {mine}")
            blocks[b].append(f"  {a + 1:4d} b {theirs}")
            entries[a].append((b + 1, mine))
            entries[b].append((a + 1, theirs))
    lines = ["012 Fuzz Open", "042 2025/12/06", f"XXR {rounds}"]
    if rnd.random() < 0.6:
        lines.insert(2, f"062 {players}")
    expected: dict[str, tuple[float, ...]] = {}
    for p, (last, first) in enumerate(people):
        points = sum(STANDARD.get(code, 0) for _, code in entries[p])
        name = f"{last}, {first}"
        line = f"001 {p + 1:4d}      {name:<33.33s} {1500 + p:4d}".ljust(80)
        lines.append(f"{line}{points:4.1f} {p + 1:4d}" + "".join(blocks[p]))
        line_points, games, byes = rally_line(entries[p])
        if games:
            expected[f"{first} {last}"] = (line_points, games, byes)
    ending = rnd.choice(["\r", "\n", "\r\n"])
    text = ending.join(lines) + ending
    encoding = rnd.choice(["utf-8", "utf-8", "cp1252"]) if _fits(text, "cp1252") else "utf-8"
    last_round = [entries[p][-1] for p in range(players)]
    unfinished = not any(opponent or code in PAIRING_BYE for opponent, code in last_round)
    return Made(text.encode(encoding), expected, encoding, unfinished)


def _fits(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return False
    return True


def make_csv(seed: int, players: int) -> Made:
    """A poker timer's results: Place and Name (some names quoted: a comma in them), chips, in
    UTF-8, Windows-1252 or Excel's UTF-16 "Unicode Text" (tab-separated)."""
    rnd = random.Random(seed)
    people = [f"{first} {last}" for last, first in names(rnd, players)]
    if rnd.random() < 0.3:
        people[0] = "Smith, Ann"  # a comma: quoted
    encoding = rnd.choice(["utf-8", "cp1252", "utf-16"])
    if encoding == "cp1252" and not all(_fits(n, "cp1252") for n in people):
        encoding = "utf-8"
    separator = "\t" if encoding == "utf-16" else rnd.choice([",", ";"])
    rows = [separator.join(["Place", "Name", "Chips"])]
    for place, name in enumerate(people, start=1):
        shown = f'"{name}"' if separator in name else name
        rows.append(separator.join([str(place), shown, str(rnd.randint(0, 9000))]))
    ending = rnd.choice(["\n", "\r\n"])
    text = ending.join(rows) + ending
    data = ("\ufeff" + text).encode("utf-16-le") if encoding == "utf-16" else text.encode(encoding)
    return Made(data, {n: (float(i),) for i, n in enumerate(people, start=1)}, encoding)


def padded_records(made: Made) -> int:
    """How many records "padded by bytes" changes (those with accents)."""
    text = made.data.decode(made.encoding)
    return sum(1 for line in text.splitlines() if line.startswith("001") and not line.isascii())


def damaged(made: Made, kind: str, rnd: random.Random, trf: bool) -> bytes:
    """The file with one kind of damage (``kind``), at a place ``rnd`` picks."""
    text = made.data.decode("utf-16" if made.encoding == "utf-16" else made.encoding)
    ending = "\r\n" if "\r\n" in text else "\r" if "\r" in text else "\n"
    lines = text.split(ending)
    body = [i for i, line in enumerate(lines) if line.startswith("001") or (not trf and i > 0)]
    body = [i for i in body if lines[i]]
    at = rnd.choice(body)
    line = lines[at]
    if kind == "line ends":
        text = rnd.choice(["\r", "\n", "\r\n"]).join(lines)
    elif kind == "byte order mark":
        text = "\ufeff" + text
    elif kind == "reordered":
        records = [lines[i] for i in body]
        rnd.shuffle(records)
        for i, record in zip(body, records, strict=True):
            lines[i] = record
        text = ending.join(lines)
    elif kind == "one character more":
        column = rnd.randint(14, min(len(line), 90))
        lines[at] = line[:column] + rnd.choice("xé ") + line[column:]
        text = ending.join(lines)
    elif kind == "one character less":
        column = rnd.randint(4, len(line) - 1)
        lines[at] = line[:column] + line[column + 1 :]
        text = ending.join(lines)
    elif kind == "tab":
        column = line.find("  ", rnd.randint(0, max(0, len(line) - 3)))
        lines[at] = line[:column] + "\t" + line[column + 2 :] if column >= 0 else line + "\t"
        text = ending.join(lines)
    elif kind == "wrapped":
        spaces = [i for i, c in enumerate(line) if c == " " and 40 < i < len(line) - 2]
        cut = rnd.choice(spaces) if spaces else len(line) // 2
        lines[at : at + 1] = [
            line[:cut],
            line[cut:].lstrip(" ") if rnd.random() < 0.7 else line[cut:],
        ]
        text = ending.join(lines)
    elif kind == "truncated":
        whole = text.encode("utf-8")
        return whole[: rnd.randint(len(whole) // 3, len(whole) - 1)]
    elif kind == "line dropped":
        del lines[at]
        text = ending.join(lines)
    elif kind == "unicode digit":
        digits = [i for i, c in enumerate(line) if c.isdigit() and i > 3]
        if digits:
            i = rnd.choice(digits)
            lines[at] = line[:i] + rnd.choice("²٣𝟑") + line[i + 1 :]
        text = ending.join(lines)
    elif kind == "padded by bytes":  # the name padded to 33 bytes, not characters
        for i in body:
            name = lines[i][14:47]
            extra = len(name.encode("utf-8")) - len(name)
            lines[i] = lines[i][: 47 - extra] + lines[i][47:] if extra else lines[i]
        return ending.join(lines).encode("utf-8")
    elif kind == "value missing":  # one value and its separator gone
        separator = next(c for c in ";\t," if c in lines[0])
        values = line.split(separator)
        if '"' not in line and len(values) > 1:
            del values[rnd.randrange(len(values))]
        lines[at] = separator.join(values)
        text = ending.join(lines)
    elif kind == "value too many":  # a separator where a space was (a name split in two)
        separator = next(c for c in ";\t," if c in lines[0])
        if '"' not in line:
            lines[at] = line.replace(" ", separator, 1)
        text = ending.join(lines)
    elif kind == "line separator":
        column = rnd.randint(0, len(line))
        lines[at] = line[:column] + "\u2028" + line[column:]
        text = ending.join(lines)
    elif kind == "another encoding":  # one line in Windows-1252 inside a UTF-8 file
        encoded = [x.encode("utf-8") for x in lines]
        if _fits(lines[at], "cp1252"):
            encoded[at] = lines[at].encode("cp1252")
        return ending.encode().join(encoded)
    elif kind == "nul":
        column = rnd.randint(0, len(line))
        lines[at] = line[:column] + "\x00" + line[column:]
        text = ending.join(lines)
    if made.encoding == "utf-16":
        return text.encode("utf-16-le") if text.startswith("\ufeff") else text.encode("utf-16")
    try:
        return text.encode(made.encoding)
    except UnicodeEncodeError:
        return text.encode("utf-8")


KEEPS_MEANING = {"none", "line ends", "byte order mark", "reordered", "padded by bytes"}
"""Damage that keeps the meaning: must import correctly ("padded by bytes" when at least two
records have accents: the file then shows throughout that it pads by bytes)."""
TRF_DAMAGE = [
    "none",
    "line ends",
    "byte order mark",
    "reordered",
    "padded by bytes",
    "one character more",
    "one character less",
    "tab",
    "wrapped",
    "truncated",
    "line dropped",
    "unicode digit",
]
CSV_DAMAGE = [
    "none",
    "line ends",
    "byte order mark",
    "reordered",
    "value missing",
    "value too many",
    "line separator",
    "another encoding",
    "nul",
]

RALLY: dict[str, Any] = {
    "Settings": [["Setting", "Value"], ["System", "rally"]],
    "Events": [["Event", "Date", "Rounds"]],
    "Results": [["Event", "Player", "Points", "Games", "Byes"]],
}
POKER: dict[str, Any] = {
    "Settings": [["Setting", "Value"], ["System", "absolute"]],
    "Points": [["Rank", "Points"], *[[r, 20 - r] for r in range(1, 20)]],
    "Events": [["Event", "Date"]],
    "Results": [["Event", "Player", "Rank"]],
}


@functools.cache
def book(system: str) -> bytes:
    """An empty league of the system, made once (a workbook's bytes)."""
    with tempfile.TemporaryDirectory(prefix="xlrally-fuzz-book-") as folder:
        league = write_book(Path(folder) / "league.xlsx", RALLY if system == "rally" else POKER)
        return league.read_bytes()


def imported(book: Path) -> dict[str, tuple[float, ...]]:
    """The Results rows as the real reader reads them: name -> the numbers after the name."""
    sheet = CalamineWorkbook.from_path(str(book)).get_sheet_by_name("Results").to_python()
    return {
        str(row[1]): tuple(float(v) if isinstance(v, int | float) else 0.0 for v in row[2:])
        for row in sheet[1:]
        if row[1] != ""
    }


FOLDERS: list[Path] = []
"""The folders `run` made in the running test (removed after it: see `_folders_removed`)."""


def run(book_bytes: bytes, source: bytes, suffix: str, *options: str) -> tuple[Any, Path, bytes]:
    folder = Path(tempfile.mkdtemp(prefix="xlrally-fuzz-"))
    FOLDERS.append(folder)
    book = folder / "league.xlsx"
    book.write_bytes(book_bytes)
    path = folder / f"event{suffix}"
    path.write_bytes(source)
    result = CliRunner().invoke(cli, ["import", str(book), str(path), *options])
    return result, book, book_bytes


def check(
    result: Any, book: Path, before: bytes, expected: dict[str, tuple[float, ...]], kind: str
) -> None:
    """A correct import, or one `Error:` line and nothing changed (never a wrong score)."""
    leftovers = [p.name for p in book.parent.iterdir() if p.name.endswith(TEMP_SUFFIX)]
    assert leftovers == []
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        event("imported")
        assert imported(book) == expected, (kind, result.output)
        return
    event(f"refused ({kind})")
    assert kind not in KEEPS_MEANING, result.output
    assert result.exit_code == 1, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    assert book.read_bytes() == before


@pytest.fixture(autouse=True)
def _folders_removed() -> Iterator[None]:
    """Each case's folder removed once the test has checked it (hundreds of cases a test: a
    folder left behind by each filled /tmp). Done here, not in the test's body, because a
    derandomized Hypothesis test's examples follow its body's source."""
    yield
    while FOLDERS:
        shutil.rmtree(FOLDERS.pop(), ignore_errors=True)


@pytest.fixture(autouse=True)
def _in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The import without the isolated child (the same code, faster for hundreds of cases;
    the isolation is tested in test_import_commit.py)."""
    monkeypatch.setattr("xlrally.app.isolate.AVAILABLE", False)


@FUZZ
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 14),
    rounds=st.integers(1, 7),
    kind=st.sampled_from(TRF_DAMAGE),
    where=st.integers(0, 2**32),
)
def test_trf_files_whole_or_damaged(
    seed: int, players: int, rounds: int, kind: str, where: int
) -> None:
    """A TRF file imports correctly, or is refused with one line and nothing changed."""
    made = make_trf(seed, players, rounds)
    source = damaged(made, kind, random.Random(where), trf=True) if kind != "none" else made.data
    if kind == "padded by bytes" and padded_records(made) < 2:
        kind = "padded by bytes, one record"  # no evidence the file pads by bytes: refused
    result, league, before = run(book("rally"), source, ".trf", "--date", "2025-12-06")
    if not made.expected:  # nobody played a game: nothing to import, said as an error
        event("nobody played a game")
        assert result.exit_code == 1
        return
    if made.unfinished:  # the last round only asked-for byes: an unfinished event
        event("the last round only asked-for byes")
        assert result.exit_code == 1
        assert "--rounds" in result.output
        assert league.read_bytes() == before
        return
    check(result, league, before, made.expected, kind)


@FUZZ
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 12),
    kind=st.sampled_from(CSV_DAMAGE),
    where=st.integers(0, 2**32),
)
def test_csv_files_whole_or_damaged(seed: int, players: int, kind: str, where: int) -> None:
    """A CSV imports correctly, or is refused with one line and nothing changed."""
    made = make_csv(seed, players)
    source = damaged(made, kind, random.Random(where), trf=False) if kind != "none" else made.data
    result, league, before = run(
        book("poker"), source, ".csv", "--date", "2026-01-08", "--event", "Week 1"
    )
    check(result, league, before, made.expected, kind)


def test_the_rule_stated_here_matches_the_seed() -> None:
    """The fuzzer's own statement of the rule on the seed's Example 3 (Mikhail: 1.5 from four
    games, a bye, gone before round six: 100 × 1.5 / 5 + 4 = 34), and on byes against no
    opponent (the issue's worked case: `0000 - =` then three losses: 3)."""
    points, games, byes = rally_line([(2, "="), (2, "1"), (2, "0"), (2, "0"), (0, "U"), (0, "")])
    assert int(100 * points / (6 - byes) + games) == 34
    points, games, byes = rally_line([(0, "="), (2, "0"), (2, "0"), (2, "0")])
    assert int(100 * points / (4 - byes) + games) == 3
    assert unicodedata.name("\u2028") == "LINE SEPARATOR"
    assert dt.date(2025, 12, 6).isoformat() == "2025-12-06"
