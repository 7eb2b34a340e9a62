# Everything a newcomer needs: `make demo` and `make test` build .venv from the lock file
# first (again whenever the lock file or pyproject.toml changes).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
UV_VERSION := 0.13.8
# Where pytest-cov fails the run; raise it as the code grows.
COVERAGE_FLOOR := 93

# Node packages for tests/test_interop.py (TS SDK client, Inspector, conformance suite):
# `npm ci` again whenever the lock file changes. Without npm, those tests skip themselves.
INTEROP := tests/interop
NODE_STAMP := $(INTEROP)/node_modules/.installed

.PHONY: demo test lint typecheck pytest regen lock bench clean interop-deps

# Bytecode is compiled here, once: the server never writes it (it sets
# sys.dont_write_bytecode before importing anything), so what is not compiled now would be
# compiled in memory at every start. uv compiles nothing unless told to, and the editable
# install leaves the repository package to be compiled in place.
COMPILE_PACKAGE := $(BIN)/python -m compileall -q automium generated/automium_contracts

$(STAMP): requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode --require-hashes -r requirements.lock
	$(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode --no-deps -e .
	$(COMPILE_PACKAGE)
	touch $@

demo: $(STAMP)
	$(BIN)/automium demo

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/python scripts/regen.py --check
	$(BIN)/ruff check automium scripts tests benchmarks
	$(BIN)/ruff format --check automium scripts tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

# Hypothesis draws a small budget of examples here and the full fuzzing budget when CI=true
# (profiles in tests/conftest.py; HYPOTHESIS_PROFILE=ci runs the CI budget locally).
pytest: $(STAMP) $(NODE_STAMP)
	$(BIN)/pytest -p no:cacheprovider --cov --cov-branch --cov-report=term --cov-fail-under=$(COVERAGE_FLOOR)

$(NODE_STAMP): $(INTEROP)/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		cd $(INTEROP) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error && touch node_modules/.installed; \
	else \
		echo "npm not found: skipping $(INTEROP) (the Node interop tests will be skipped)"; \
	fi

interop-deps: $(NODE_STAMP)

regen: $(STAMP)
	$(BIN)/python scripts/regen.py
	$(COMPILE_PACKAGE)

# Re-pin after editing dependencies in pyproject.toml.
lock: $(STAMP)
	$(BIN)/uv pip compile pyproject.toml --group dev --universal --python-version 3.11 \
		--generate-hashes --quiet -o requirements.lock

# Compiled first: the server measured is the one an install gives, whose bytecode is fresh
# (a module edited since would be compiled in memory at every cold start).
bench: $(STAMP) $(NODE_STAMP)
	$(COMPILE_PACKAGE)
	$(BIN)/python -m benchmarks.run
	$(BIN)/python -m tests.journey_mutants

clean:
	rm -rf $(VENV)
