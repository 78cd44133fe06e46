# `make run` and `make test` work on a fresh machine: each creates .venv when missing and
# installs the project with the pinned versions in constraints.txt, once per change of either file.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export PIP_CONSTRAINT := $(CURDIR)/constraints.txt
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: run test lint fuzz bench lock clean

run: $(STAMP)
	$(BIN)/quiz

# The static checks first (`make lint`); a finding fails the run before any test starts.
# Tests run on every core (pytest-xdist; PYTEST_WORKERS=0 runs them in one process), with one BLAS
# thread per process so that two workers do not each start a thread per core.
PYTEST_WORKERS ?= auto
test: lint
	OPENBLAS_NUM_THREADS=1 $(BIN)/python -m pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

# Static checks: ruff with the rules in pyproject.toml, then mypy on the files [tool.mypy] lists
# (strict on engine/ and the quiz core, basic on quiz/ui).
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# The fuzzers of tests/corpus/test_fuzz_hostile.py with many more examples than `make test` gives them.
FUZZ_EXAMPLES ?= 5000
fuzz: $(STAMP)
	QUIZ_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/python -m pytest tests/corpus/test_fuzz_hostile.py -q -p no:cacheprovider --hypothesis-show-statistics

# Every script in bench/ but its helpers (bench/_*.py). QUIZ_BENCH_SMOKE=1 runs each on tiny inputs, in a
# few seconds, to see that all still run to their end (tests/cli/test_bench_smoke.py does so).
bench: $(STAMP)
	@set -e; for script in bench/*.py; do case $$(basename $$script) in _*) continue;; esac; \
		echo "== $$script"; $(BIN)/python $$script; done

$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "Python 3.11 or newer is needed as $(PYTHON) (set PYTHON=...)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --editable '.[test]'
	touch $(STAMP)

# Re-resolve the newest versions allowed by pyproject.toml and pin them again.
lock:
	rm -rf .venv-lock && $(PYTHON) -m venv .venv-lock
	PIP_CONSTRAINT= .venv-lock/bin/pip install --quiet '.[test]' hatchling
	head -n 2 constraints.txt > constraints.txt.new
	.venv-lock/bin/pip freeze --exclude attention-quiz >> constraints.txt.new
	rm -rf .venv-lock && mv constraints.txt.new constraints.txt

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
