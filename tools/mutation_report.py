"""Summarise the last `mutmut run` (issue 18): killed and survived mutants per module, and the
score, for docs/testing.md. Run by `make mutate` after the run; reads `mutmut results --all`."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter, defaultdict

KILLED = {"killed", "timeout", "segfault", "caught by type check"}
"""Outcomes where the tests (or the type checker) noticed the mutant."""


def main() -> None:
    listing = subprocess.run(
        [sys.executable, "-m", "mutmut", "results", "--all", "true"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    by_module: dict[str, Counter[str]] = defaultdict(Counter)
    survivors = []
    for line in listing.splitlines():
        match = re.match(r"\s*(\S+)__mutmut_\d+: (.+)$", line)
        if not match:
            continue
        name, status = match.groups()
        module = name.rsplit(".", 1)[0]
        by_module[module][status] += 1
        if status == "survived":
            survivors.append(line.split(":")[0].strip())
    heads = ("mutants", "killed", "survived", "no test", "score")
    print(f"{'module':40s} " + " ".join(f"{h:>8s}" for h in heads))
    totals: Counter[str] = Counter()
    for module in sorted(by_module):
        counts = by_module[module]
        totals.update(counts)
        print(_row(module, counts))
    print(_row("all", totals))
    print(f"\n{len(survivors)} survivors (mutmut show NAME shows one):")
    for name in survivors:
        print(f"  {name}")


def _row(name: str, counts: Counter[str]) -> str:
    killed = sum(counts[s] for s in KILLED)
    survived = counts["survived"]
    untested = counts["no tests"]
    total = sum(counts.values())
    score = 100 * killed / max(killed + survived + untested, 1)
    return f"{name:40s} {total:8d} {killed:8d} {survived:8d} {untested:8d} {score:7.1f}%"


if __name__ == "__main__":
    main()
