# Everything a newcomer needs: `make demo` and `make test` build .venv from the lock file
# first (again whenever the lock file or pyproject.toml changes).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
UV_VERSION := 0.13.8
# Where pytest-cov fails the run; raise it as the code grows.
COVERAGE_FLOOR := 93
# A worker per core, at most four (each browser-tier worker runs a Chromium of its own); a
# file's tests stay on one worker, so its module fixtures (a served app, a run) are built
# once. `PYTEST_WORKERS=` runs everything in one process.
PYTEST_WORKERS ?= -n auto --maxprocesses=4 --dist loadfile

# Node packages for tests/test_interop.py (TS SDK client, Inspector, conformance suite):
# `npm ci` again whenever the lock file changes. Without npm, those tests skip themselves.
INTEROP := tests/interop
NODE_STAMP := $(INTEROP)/node_modules/.installed
# @playwright/test for tests/export (exported specs run against the apps): no browser is
# downloaded, the specs launch the provisioned Chromium.
EXPORT_NODE := tests/export
EXPORT_STAMP := $(EXPORT_NODE)/node_modules/.installed

.PHONY: demo check test lint browser typecheck pytest regen lock bench clean interop-deps export-deps

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

test: $(STAMP) browser lint typecheck pytest

# The quick tier, for every edit (about 21 s on 2 cores): no test that starts a process, another client
# or a browser, and no differential fuzzing (markers in pyproject.toml). `make test` runs them
# all, with the linters and the type check. Every test under tests/browser is marked browser;
# not collecting them spares each process importing them.
check: $(STAMP)
	HYPOTHESIS_PROFILE=check $(BIN)/pytest -p no:cacheprovider -q $(PYTEST_WORKERS) \
		-m "not subprocess and not interop and not browser and not fuzz" --ignore=tests/browser

lint: $(STAMP)
	$(BIN)/python scripts/regen.py --check
	$(BIN)/ruff check automium automium_build scripts tests benchmarks
	$(BIN)/ruff format --check automium automium_build scripts tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

# Hypothesis draws a small budget of examples here and the full fuzzing budget when CI=true
# (profiles in tests/conftest.py; HYPOTHESIS_PROFILE=ci runs the CI budget locally).
pytest: $(STAMP) $(NODE_STAMP) $(EXPORT_STAMP) browser
	$(BIN)/pytest -p no:cacheprovider $(PYTEST_WORKERS) --cov --cov-branch --cov-report=term --cov-fail-under=$(COVERAGE_FLOOR)

browser: $(STAMP)
	@$(BIN)/python -m automium.execution.chromium >/dev/null; status=$$?; \
	if [ $$status -eq 0 ]; then :; \
	elif [ $$status -ne 1 ]; then exit $$status; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get install -y -q chromium-headless-shell || \
		{ apt-get update -q && apt-get install -y -q chromium-headless-shell; }; \
	else \
		$(BIN)/python -m playwright install chromium; \
	fi

$(NODE_STAMP): $(INTEROP)/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		cd $(INTEROP) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error && touch node_modules/.installed; \
	else \
		echo "npm not found: skipping $(INTEROP) (the Node interop tests will be skipped)"; \
	fi

interop-deps: $(NODE_STAMP)

$(EXPORT_STAMP): $(EXPORT_NODE)/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		cd $(EXPORT_NODE) && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --ignore-scripts --no-audit --no-fund --loglevel=error && touch node_modules/.installed; \
	else \
		echo "npm not found: skipping $(EXPORT_NODE) (the exported TypeScript tests will be skipped)"; \
	fi

export-deps: $(EXPORT_STAMP)

regen: $(STAMP)
	$(BIN)/python scripts/regen.py
	$(COMPILE_PACKAGE)

# Re-pin after editing dependencies in pyproject.toml.
lock: $(STAMP)
	$(BIN)/uv pip compile pyproject.toml --group dev --all-extras --universal --python-version 3.11 \
		--generate-hashes --quiet -o requirements.lock

# Compiled first: the server measured is the one an install gives, whose bytecode is fresh
# (a module edited since would be compiled in memory at every cold start).
bench: $(STAMP) $(NODE_STAMP)
	$(COMPILE_PACKAGE)
	$(BIN)/python -m benchmarks.run
	$(BIN)/python -m tests.journey_mutants

clean:
	rm -rf $(VENV)
