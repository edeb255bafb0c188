"""Summarise the last `mutmut run` (issue 18): killed and survived mutants per module, and the
score, for docs/testing.md. Run by `make mutate` after the run; reads `mutmut results --all`.

    python tools/mutation_report.py [--survivors docs/mutation-survivors.md]

``--survivors`` also writes every survivor with the line it changed and its kind (below), from
the mutated copies mutmut leaves in ``mutants/``.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

KILLED = {"killed", "timeout", "segfault", "caught by type check"}
"""Outcomes where the tests (or the type checker) noticed the mutant."""

KINDS = {
    "wording": "a string changed (`XX` added): mostly message words, checked by key words",
    "case": "the letter case of a string",
    "none": "a value or an argument replaced by `None`",
    "dropped": "an argument dropped (often one equal to its default)",
    "logic": "an operator, a number or a condition: the kind that hides real gaps",
}
"""The kinds of survivors, as docs/testing.md explains them."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--survivors", type=Path, help="write every survivor to this file")
    args = parser.parse_args()
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
    changes = [(name, *_change(name)) for name in survivors]
    kinds = Counter(kind for _, _, _, kind in changes)
    print(
        f"\n{len(survivors)} survivors by kind: " + ", ".join(f"{k} {n}" for k, n in kinds.items())
    )
    equivalent = sum(1 for _, before, after, _ in changes if equivalent_reason(before, after))
    print(f"of which equivalent by a rule of EQUIVALENT: {equivalent}")
    if args.survivors:
        args.survivors.write_text(_markdown(changes, kinds), encoding="utf-8")
        print(f"written: {args.survivors}")


def _row(name: str, counts: Counter[str]) -> str:
    killed = sum(counts[s] for s in KILLED)
    survived = counts["survived"]
    untested = counts["no tests"]
    total = sum(counts.values())
    score = 100 * killed / max(killed + survived + untested, 1)
    return f"{name:40s} {total:8d} {killed:8d} {survived:8d} {untested:8d} {score:7.1f}%"


_FUNCTIONS: dict[Path, dict[str, str]] = {}


def _functions(path: Path) -> dict[str, str]:
    """Every function of a mutated module by name, as source text (cached per file)."""
    if path not in _FUNCTIONS:
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        _FUNCTIONS[path] = {
            node.name: "\n".join(lines[node.lineno - 1 : node.end_lineno])
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }
    return _FUNCTIONS[path]


def _change(mutant: str) -> tuple[str, str, str]:
    """The line before and after the mutation, and its kind (see :data:`KINDS`)."""
    module, _, function = mutant.rpartition(".")
    path = Path("mutants") / (module.replace(".", "/") + ".py")
    if not path.exists():
        path = path.with_suffix("") / "__init__.py"
    functions = _functions(path)
    original = functions.get(function.rsplit("__mutmut_", 1)[0] + "__mutmut_orig", "")
    mutated = functions.get(function, "")
    diff = difflib.unified_diff(original.splitlines()[1:], mutated.splitlines()[1:], n=0)
    lines = [d for d in diff if d[:1] in "+-" and not d.startswith(("+++", "---"))]
    before = " ".join(d[1:].strip() for d in lines if d.startswith("-"))
    after = " ".join(d[1:].strip() for d in lines if d.startswith("+"))
    return before, after, _kind(before, after)


def _kind(before: str, after: str) -> str:
    if "XX" in after and "XX" not in before:
        return "wording"
    if before.lower() == after.lower():
        return "case"
    if "None" in after and "None" not in before:
        return "none"
    if len(after) < len(before) and set(after.split()) < set(before.split()):
        return "dropped"
    return "logic"


EQUIVALENT = (
    (
        re.compile(r"strict=True"),
        re.compile(r"strict=(None|False)|, \)"),
        "equivalent: each zip here is of sequences built to one length (strict only asserts it)",
    ),
    (
        re.compile(r'"utf-8"', re.IGNORECASE),
        re.compile(r'"UTF-8"'),
        "equivalent: Python looks codec names up without case",
    ),
    (
        re.compile(r"1e-9"),
        re.compile(r"(1e-9.*(>=|<=))|((>=|<=).*1e-9)"),
        "equivalent: a tolerance for float error, met with equality only by chance",
    ),
)
"""Survivors that are equivalent by a rule that holds wherever the pattern appears in the
mutated modules: (the line as written, the line as mutated, the reason)."""


def equivalent_reason(before: str, after: str) -> str:
    """The reason a survivor is equivalent, when one of :data:`EQUIVALENT` holds; else ""."""
    for written, mutated, reason in EQUIVALENT:
        if written.search(before) and mutated.search(after):
            return reason
    return ""


def _markdown(changes: list[tuple[str, str, str, str]], kinds: Counter[str]) -> str:
    out = [
        "# Mutants the tests did not kill",
        "",
        "Written by `tools/mutation_report.py --survivors` from the last `make mutate` (see",
        "docs/testing.md for the run, the scores and what each kind means). Each row: the",
        "function, the line as written, the line as mutated.",
        "",
    ]
    for kind, meaning in KINDS.items():
        rows = [c for c in changes if c[3] == kind]
        out += [f"## {kind} ({kinds[kind]}): {meaning}", ""]
        out += ["| mutant | written | mutated | equivalent? |", "|---|---|---|---|"]
        for name, before, after, _ in rows:
            shown = name.replace("ǁ", ".").replace("__mutmut_", " #")
            reason = equivalent_reason(before, after)
            out.append(f"| `{shown}` | `{_cell(before)}` | `{_cell(after)}` | {reason} |")
        out.append("")
    return "\n".join(out)


def _cell(code: str) -> str:
    code = code if len(code) <= 100 else code[:99] + "…"
    return code.replace("|", "\\|").replace("`", "'")


if __name__ == "__main__":
    main()
