"""Spike (issue 33): would a columnar read of the Results sheet be faster, and would it read
the same values? Not part of `make bench`. xlrally now reads a big sheet this way
(``xlrally/ooxml/columnar.py``, which takes the header from the sheet's own first rows, not
from the first row as this spike does); the spike stays as the measure of the read alone:

    python benchmarks/spike_fastexcel.py speed LEAGUE.xlsx [--rounds 3]
    python benchmarks/spike_fastexcel.py same ../shared/corpus

fastexcel (calamine, like python-calamine, but into Arrow columns, no Python object per cell)
with pyarrow (Arrow columns into Python lists; fastexcel's report of the cells it could not
convert comes with it) is measured against python-calamine's rows
(the read floor's and the sync's reader), both giving the Results sheet's columns as lists.

``same`` reads every sheet of every Open XML workbook under a folder both ways, the way a
columnar fast path would have to: the header in the sheet's first row, each column of one type
(``dtype_coercion="strict"``, no cell of another type: a sheet with a column of mixed types
would be left to the rows reader). It counts the sheets the columnar read takes and, among
them, those whose values differ from python-calamine's (an empty text read as an empty cell
both ways): a fast path is safe only where that count is 0.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_sync import measure  # noqa: E402
from lean_sync import columns  # noqa: E402

RESULTS = "Results"


def by_rows(path: str, sheet: str) -> tuple[list[Any], list[list[Any]]]:
    """The sheet's first row, and its columns below it, from python-calamine's rows (from A1,
    as xlrally reads them)."""
    from python_calamine import CalamineWorkbook

    rows = (
        CalamineWorkbook.from_path(path).get_sheet_by_name(sheet).to_python(skip_empty_area=False)
    )
    return (rows[0] if rows else []), columns(rows, max(map(len, rows), default=0))


def by_columns(path: str, sheet: str) -> list[tuple[int, str, list[Any]]] | str:
    """The sheet's columns from fastexcel (the first row the header, each column of one
    type): each column's position from A1, its header and its values below the header; or
    why fastexcel refuses the sheet so. A cell of another type than its column's is a
    refusal (``to_arrow_with_errors``): fastexcel reads it as an empty cell otherwise, even
    with ``dtype_coercion="strict"`` (a text "N/A" in a column of numbers: the corpus's
    ``temperature-fallible.xlsx``)."""
    import fastexcel

    try:
        loaded = fastexcel.read_excel(path).load_sheet_by_name(
            sheet, header_row=0, dtype_coercion="strict", schema_sample_rows=None
        )
        table, errors = loaded.to_arrow_with_errors()
    except Exception as error:  # fastexcel's own: mixed types, no rows ...
        return f"fastexcel refuses it ({type(error).__name__})"
    if errors is not None and errors.errors:
        return "a cell of another type than its column's"
    return [
        (info.absolute_index, info.name, table.column(i).to_pylist())
        for i, info in enumerate(loaded.selected_columns)
    ]


def speed(path: str, rounds: int) -> None:
    """Each way in fresh processes, alternating: wall seconds, median."""
    times: dict[str, list[float]] = {"rows": [], "columns": []}
    for _ in range(rounds):
        for way, measured in times.items():
            measured.append(measure([sys.executable, __file__, "one", path, way]).seconds)
    for way, measured in times.items():
        each = ", ".join(f"{t:.2f}" for t in measured)
        print(f"{way:8} {statistics.median(measured):.2f}s ({each})")


def one(path: str, way: str) -> None:
    (by_rows if way == "rows" else by_columns)(path, RESULTS)


def same(folder: Path) -> None:
    """Count, over every sheet of every .xlsx/.xlsm under ``folder``, what the columnar read
    takes and whether it reads what python-calamine reads."""
    from python_calamine import CalamineWorkbook

    counts: Counter[str] = Counter()
    for path in sorted([*folder.rglob("*.xlsx"), *folder.rglob("*.xlsm")]):
        try:
            names = CalamineWorkbook.from_path(str(path)).sheet_names
        except Exception:
            counts["workbook python-calamine cannot open"] += 1
            continue
        for name in names:
            outcome = _compared(str(path), name)
            counts[outcome] += 1
            if outcome.startswith("TAKEN, DIFFERENT"):
                print(f"{path}: {name}: {outcome}")
    for outcome, count in counts.most_common():
        print(f"{count:6}  {outcome}")


def _compared(path: str, sheet: str) -> str:
    # Each read in a child: either reader may abort the process on a hostile sheet.
    done = subprocess.run(
        [sys.executable, __file__, "compare", path, sheet],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return done.stdout.strip() or f"child died ({done.returncode})"


def compare(path: str, sheet: str) -> str:
    try:
        header, body = by_rows(path, sheet)
    except Exception:
        return "python-calamine cannot read the sheet"
    if not header:
        return "empty sheet"
    if all(v == "" or v is None for v in header):
        return "left to the rows reader: the first row is empty"
    columns = by_columns(path, sheet)
    if isinstance(columns, str):
        return f"left to the rows reader: {columns}"
    got = {at: _trimmed([None if v == "" else v for v in values]) for at, _, values in columns}
    wanted = {
        at: _trimmed([None if v == "" else v for v in column]) for at, column in enumerate(body)
    }
    wanted = {at: values for at, values in wanted.items() if values or at in got}
    if got.keys() != wanted.keys():
        return f"TAKEN, DIFFERENT: columns {sorted(got)[:5]} against {sorted(wanted)[:5]}"
    for at, values in got.items():
        mine, theirs = _typed(values), _typed(wanted[at])
        if mine != theirs:
            pairs = zip(mine, theirs, strict=False)
            first = next(((i, a, b) for i, (a, b) in enumerate(pairs) if a != b), "length")
            return f"TAKEN, DIFFERENT: values (column {at}: {first!r:.120})"
    renamed = any(name != str(header[at]) for at, name, _ in columns)
    return "taken, the same values" + (" (a header renamed)" if renamed else "")


def _typed(values: list[Any]) -> list[tuple[type, Any]]:
    """Each value with its type: 2 and 2.0, or 1 and True, are different cells to xlrally."""
    return [(type(value), value) for value in values]


def _trimmed(values: list[Any]) -> list[Any]:
    """Without the empty cells at the end (one reader pads the area, the other not)."""
    end = len(values)
    while end and values[end - 1] is None:
        end -= 1
    return values[:end]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["speed", "same", "one", "compare"])
    parser.add_argument("path")
    parser.add_argument("extra", nargs="?")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.what == "speed":
        speed(args.path, args.rounds)
    elif args.what == "same":
        same(Path(args.path))
    elif args.what == "one":
        one(args.path, args.extra)
    else:
        print(compare(args.path, args.extra))


if __name__ == "__main__":
    main()
