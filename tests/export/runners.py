"""Run a batch of exported tests, in either format, and read which step each failed at.

Everything that knows where this machine keeps things is here, once: the Chromium lookup,
how an app is served in a fixture's state, where a fixture's secrets come from. The tests
in ``test_exported_tests_run.py`` only say which journeys run and what they expect.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from automium import corpus
from automium.contracts import to_document
from automium.execution.chromium import LAUNCH_ARGS, find_chromium
from automium.export import export_journey
from automium.export.fixture_files import DEFAULT_ROOT, FILES_ENV
from automium.export.plan import secret_env
from automium.hosting import AppServer, Fault
from automium.hosting.bundles import secret

ROOT = Path(__file__).resolve().parents[2]
NODE_PACKAGE = ROOT / "tests" / "export"
PLAYWRIGHT_CLI = NODE_PACKAGE / "node_modules" / "@playwright" / "test" / "cli.js"
CONFIG = NODE_PACKAGE / "playwright.config.mjs"
BATCH_SECONDS = 600.0
EXPECT_MS = 2000
"""Each web-first assertion's bound: the apps render synchronously on loopback, and a
failing variant's assertion waits it out (the exported files keep their own action
timeouts)."""
SERVE_SECONDS = 30.0


def unavailable(reason: str) -> None:
    """Skip, except under CI=true, where what the proof needs must be there."""
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


def chromium() -> dict[str, str]:
    """The variables that point both runners at the Chromium everything else launches, with
    the same flags."""
    found = find_chromium()
    if found is None:
        unavailable("no Chromium: `make test` provisions chromium-headless-shell")
    return {"AUTOMIUM_CHROMIUM": str(found), "AUTOMIUM_CHROMIUM_FLAGS": json.dumps(LAUNCH_ARGS)}


def secret_values(fixture_id: str, app_id: str) -> dict[str, str]:
    """The exported tests' secret variables for a fixture, from the app's seed accounts."""
    fixture = corpus.get_fixture(fixture_id, app_id)
    return {secret_env(r.root): secret(app_id, r.root) for r in fixture.secret_refs}


def reference(journey_id: str) -> dict[str, Any]:
    journey = next(j for j in corpus.reference_journeys() if j.id == journey_id)
    return to_document(journey)


@contextlib.contextmanager
def served(app_id: str, fixture_id: str, fault: Fault | None = None) -> Iterator[str]:
    """The base URL of ``app_id`` served on loopback in ``fixture_id``'s state, fresh from
    its seed, for as long as the context lasts; ``fault`` breaks the page as a failing
    variant needs (as ``automium run --fault`` does)."""
    with AppServer(app_id, fixture_id, faults=(fault,) if fault else ()) as server:
        yield server.url


@dataclass(frozen=True, slots=True)
class Case:
    """One exported test to run: a reference journey, perhaps on a broken page, perhaps
    from another fixture of its app (a guarded journey, whose guard that fixture decides
    the other way)."""

    journey_id: str
    fault: Fault | None = None
    fixture_id: str | None = None

    @property
    def name(self) -> str:
        name = (
            self.journey_id if self.fixture_id is None else f"{self.journey_id}@{self.fixture_id}"
        )
        if self.fault is None:
            return name
        return f"{name}+{self.fault.kind}:{self.fault.role}:{self.fault.name}"

    def document(self) -> dict[str, Any]:
        document = reference(self.journey_id)
        return document if self.fixture_id is None else {**document, "fixtureId": self.fixture_id}


@dataclass(frozen=True, slots=True)
class Outcome:
    passed: bool
    failing_step: str | None
    output: str


def _batch(
    cases: Sequence[Case], fmt: str, folder: Path, stack: contextlib.ExitStack
) -> list[tuple[Case, str, str, dict[str, str]]]:
    """Each case exported into a folder of its own, its app served until ``stack`` closes
    (each case on a fresh server: a journey changes its app's state).
    Returns (case, folder name, base URL, secret variables)."""
    batch = []
    for case in cases:
        document = case.document()
        (exported,) = export_journey(document, [fmt])
        where = folder / re.sub(r"[^A-Za-z0-9]", "_", case.name)
        where.mkdir(parents=True)
        (where / exported.file_name).write_text(exported.text, "utf-8")
        secrets = secret_values(document["fixtureId"], document["appId"])
        url = stack.enter_context(served(document["appId"], document["fixtureId"], case.fault))
        batch.append((case, where.name, url, secrets))
    return batch


Batch = Callable[[Path, Mapping[str, str], Mapping[str, str]], dict[str, Outcome]]


def _run(cases: Sequence[Case], fmt: str, folder: Path, batch: Batch) -> dict[str, Outcome]:
    """Every case's exported file in one run of ``batch``; outcomes by case name."""
    with contextlib.ExitStack() as stack:
        exported = _batch(cases, fmt, folder, stack)
        urls = {where: url for _, where, url, _ in exported}
        secrets = {k: v for *_, values in exported for k, v in values.items()}
        outcomes = batch(folder, urls, secrets)
    return {case.name: outcomes[where] for case, where, _, _ in exported}


def run_typescript(cases: Sequence[Case], folder: Path) -> dict[str, Outcome]:
    """Every case's spec in one ``@playwright/test`` run, one project per case."""
    return _run(cases, "ts", folder, playwright_test)


def run_python(cases: Sequence[Case], folder: Path) -> dict[str, Outcome]:
    """Every case's module in one pytest run, with pytest-playwright's ``page`` fixture."""
    return _run(cases, "py", folder, pytest_playwright)


def playwright_test(
    folder: Path, urls: Mapping[str, str], env: Mapping[str, str]
) -> dict[str, Outcome]:
    """Run the spec in each subfolder of ``folder`` named in ``urls`` against its base URL,
    in one ``@playwright/test`` run (a project per subfolder); outcomes by subfolder."""
    if shutil.which("node") is None or not PLAYWRIGHT_CLI.is_file():
        unavailable("no Node or no tests/export/node_modules (`make export-deps`)")
    projects = [{"name": w, "file": f"{w}/*.spec.ts", "baseURL": u} for w, u in urls.items()]
    (folder / "node_modules").symlink_to(NODE_PACKAGE / "node_modules")
    report = folder / "report.json"
    result = subprocess.run(
        [shutil.which("node") or "node", str(PLAYWRIGHT_CLI), "test", "--config", str(CONFIG)],
        cwd=NODE_PACKAGE,
        env={
            **os.environ,
            FILES_ENV: str(ROOT / DEFAULT_ROOT),
            "AUTOMIUM_EXPECT_TIMEOUT": str(EXPECT_MS),
            **env,
            "AUTOMIUM_EXPORT_DIR": str(folder),
            "AUTOMIUM_EXPORT_OUTPUT": str(folder / "results"),
            "AUTOMIUM_EXPORT_PROJECTS": json.dumps(projects),
            "AUTOMIUM_EXPORT_REPORT": str(report),
            **chromium(),
            "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1",
        },
        capture_output=True,
        text=True,
        timeout=BATCH_SECONDS,
        check=False,
    )
    if not report.is_file():
        pytest.fail(f"@playwright/test wrote no report:\n{result.stdout}\n{result.stderr}")
    return _typescript_outcomes(json.loads(report.read_text("utf-8")), result.stdout)


def _typescript_outcomes(report: Mapping[str, Any], output: str) -> dict[str, Outcome]:
    outcomes = {}
    for test in _tests(report.get("suites", [])):
        result = test["results"][-1]
        failed = next((s["title"] for s in result.get("steps", []) if s.get("error")), None)
        outcomes[test["projectName"]] = Outcome(result["status"] == "passed", failed, output)
    return outcomes


def _tests(suites: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    for suite in suites:
        for spec in suite.get("specs", []):
            yield from spec.get("tests", [])
        yield from _tests(suite.get("suites", []))


_PYTEST_CONFTEST = """\
import json
import os

import pytest
from playwright.sync_api import expect

expect.set_options(timeout=int(os.environ.get("AUTOMIUM_EXPECT_TIMEOUT", "5000")))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": os.environ["AUTOMIUM_CHROMIUM"],
        "args": json.loads(os.environ["AUTOMIUM_CHROMIUM_FLAGS"]),
    }


@pytest.fixture
def browser_context_args(browser_context_args, request):
    urls = json.loads(os.environ["AUTOMIUM_BASE_URLS"])
    return {**browser_context_args, "base_url": urls[request.path.parent.name]}
"""


def pytest_playwright(
    folder: Path, urls: Mapping[str, str], env: Mapping[str, str]
) -> dict[str, Outcome]:
    """Run the module in each subfolder of ``folder`` named in ``urls`` against its base
    URL, in one pytest run; outcomes by subfolder."""
    for needed in ("playwright", "pytest_playwright"):
        if importlib.util.find_spec(needed) is None:
            unavailable(f"{needed} is not installed (pytest-playwright runs the Python exports)")
    (folder / "conftest.py").write_text(_PYTEST_CONFTEST, "utf-8")
    (folder / "pytest.ini").write_text("[pytest]\n", "utf-8")
    report = folder / "report.xml"
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"]
    command += ["-c", str(folder / "pytest.ini"), "--rootdir", str(folder), "--tb=short"]
    command += ["--import-mode=importlib", f"--junitxml={report}", str(folder)]
    result = subprocess.run(
        command,
        cwd=folder,
        env={
            **os.environ,
            FILES_ENV: str(ROOT / DEFAULT_ROOT),
            "AUTOMIUM_EXPECT_TIMEOUT": str(EXPECT_MS),
            **env,
            "AUTOMIUM_BASE_URLS": json.dumps(dict(urls)),
            **chromium(),
        },
        capture_output=True,
        text=True,
        timeout=BATCH_SECONDS,
        check=False,
    )
    if not report.is_file():
        pytest.fail(f"pytest wrote no report:\n{result.stdout}\n{result.stderr}")
    return _python_outcomes(report, folder, result.stdout)


def _python_outcomes(report: Path, folder: Path, output: str) -> dict[str, Outcome]:
    outcomes = {}
    for testcase in ET.parse(report).getroot().iter("testcase"):
        where = testcase.get("classname", "").split(".")[0]
        (module,) = (folder / where).glob("test_*.py")
        failure = testcase.find("failure")
        if failure is None:
            failure = testcase.find("error")
        step = None if failure is None else _failing_step(module, failure.text or "")
        outcomes[where] = Outcome(failure is None, step, output)
    return outcomes


def _failing_step(module: Path, traceback: str) -> str | None:
    """The ``# step`` comment above the test function's line the traceback points at."""
    lines = module.read_text("utf-8").splitlines()
    start = next(i for i, line in enumerate(lines, 1) if line.startswith("def test_"))
    at = [int(n) for n in re.findall(rf"{re.escape(module.name)}:(\d+)", traceback)]
    inside = [n for n in at if n > start]
    if not inside:
        return None
    for line in reversed(lines[: min(inside)]):
        if found := re.match(r"\s+# step ([^:]+)", line):
            return found.group(1)
    return None
