"""The bytes a sync writes into the benchmarks' workbooks, recorded and compared part by part.

    python benchmarks/same_bytes.py record before.json [--big]
    python benchmarks/same_bytes.py check before.json [--big]

A speed-up must not change what is written. ``record`` syncs a copy of every benchmark
workbook with ``xlrally sync`` (the command line, as a user runs it) and keeps, for each part
of each synced file, its size and CRC-32; ``check`` does the same with the code as it is now
and lists every part that differs. The weekly sync is recorded too: the file synced, one
result changed (as a week's new results change it), synced again. ``--big`` adds the
1,048,575-row league (a few minutes).

Parts another issue changes on purpose (e.g. ``docProps/custom.xml``, whose fingerprint and
digest of the rules issue 32 changes) are reported as they come: say which and why.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import leagues  # noqa: E402
from make_workbook import make  # noqa: E402

CASES = {
    "rally 200k": leagues.Shape("rally", 200_000, 3000),
    "neau 200k": leagues.Shape("neau", 200_000, 3000),
    "absolute 200k": leagues.Shape("absolute", 200_000, 3000),
    "rally 47k players": leagues.Shape("rally", 200_000, 47_000, events=60),
    "reverse 20k": leagues.Shape("reverse", 20_000, 500),
    "dippouch 20k": leagues.Shape("dippouch", 20_000, 500),
}
BIG = {"rally 1,048,575 rows": leagues.Shape("rally", 1_048_575, 10_000)}


def parts(path: Path) -> dict[str, list[int]]:
    """Each part's [size, CRC-32]."""
    with zipfile.ZipFile(path) as package:
        return {i.filename: [i.file_size, i.CRC] for i in package.infolist()}


def sync(path: Path) -> None:
    command = [sys.executable, "-m", "xlrally", "sync", str(path)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def synced(folder: Path, big: bool) -> dict[str, dict[str, list[int]]]:
    """The parts of each benchmark workbook after a sync, and after the weekly sync."""
    found = {}
    sources: dict[str, Path] = {}
    plain = folder / "plain.xlsx"
    make(str(plain), 2000, 100)
    featured = folder / "featured.xlsx"
    make(str(featured), 2000, 100, features=True)
    sources |= {"make_workbook 2000x100": plain, "make_workbook features": featured}
    for name, shape in (CASES | (BIG if big else {})).items():
        sources[name] = leagues.cached(shape)
    for name, source in sources.items():
        copy = folder / "copy.xlsx"
        shutil.copyfile(source, copy)
        sync(copy)
        found[name] = parts(copy)
        if name in {"rally 200k", "neau 200k", "make_workbook 2000x100"}:
            leagues.change_a_result(copy)
            sync(copy)
            found[f"{name}, weekly"] = parts(copy)
        print(f"synced {name}", file=sys.stderr)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("record", "check"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--big", action="store_true", help="the 1,048,575-row league too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="xlrally-bytes-") as name:
        found = synced(Path(name), args.big)
    if args.action == "record":
        args.file.write_text(json.dumps(found, indent=1, sort_keys=True), encoding="utf-8")
        print(f"recorded {len(found)} synced workbooks in {args.file}")
        return
    before = json.loads(args.file.read_text(encoding="utf-8"))
    differ = 0
    for case, now in found.items():
        then = before.get(case)
        if then is None:
            print(f"{case}: not recorded before")
            continue
        changed = sorted(p for p in then.keys() | now.keys() if then.get(p) != now.get(p))
        differ += bool(changed)
        print(f"{case}: " + (f"differs in {', '.join(changed)}" if changed else "same bytes"))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
