# One entry point for every check; .ci/run calls the same commands.
PY ?= .venv/bin/python

.PHONY: check lint type test bench template mutate mutate-deletions soak

check: lint type test

lint:
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

type:
	$(PY) -m mypy

test:
	$(PY) -m pytest

bench:
	$(PY) benchmarks/bench_sync.py
	$(PY) benchmarks/bench_players.py
	$(PY) benchmarks/bench_batch.py
	$(PY) benchmarks/bench_functions.py
	$(PY) benchmarks/bench_page.py
	$(PY) benchmarks/bench_commands.py
	$(PY) benchmarks/bench_calc.py
	$(PY) benchmarks/bench_import.py
	$(PY) benchmarks/bench_lean.py

template:
	$(PY) tools/remake_examples.py

# Mutation testing (issue 18; docs/testing.md): mutmut over the core, the reader, the writer, the
# Excel functions and the live refresh, then the score per module and the survivors; then the
# deletion mutants of the write path's safety calls (issue 28), which mutmut does not make.
mutate:
	$(PY) -m pip install -q -e '.[mutation]'
	$(PY) -m mutmut run || true
	$(PY) tools/mutation_report.py --survivors docs/mutation-survivors.md
	$(PY) tools/deletion_mutants.py

# The deletion mutants alone: each safety call of the write path removed in turn, the write
# path's tests run against each; fails if one survives that a test could notice.
mutate-deletions:
	$(PY) tools/deletion_mutants.py

# The whole suite 10 times in a row with a CPU hog beside it, each run with a TMPDIR of its own
# that must be empty afterwards (issue 28; docs/testing.md).
soak:
	$(PY) tools/soak.py --runs 10 --hogs 1
