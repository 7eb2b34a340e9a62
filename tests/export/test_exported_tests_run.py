"""Exported tests, proven: each format's files run against the owned apps served on
loopback, in one batch per format, and pass; a broken page's exported test fails at the
step where ``automium run`` fails.

``make test`` runs a slice (two journeys per format and one failing variant); under
``CI=true`` every reference journey runs. Without the apps, Node's packages or
pytest-playwright, each batch skips saying what is missing (under ``CI=true`` it fails).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from automium import corpus
from automium.export import export_journey
from tests.browser.journeys import EXPORT_VARIANTS, WORKED_EXAMPLE
from tests.export.runners import (
    CONFIG,
    NODE_PACKAGE,
    PLAYWRIGHT_CLI,
    Case,
    Outcome,
    reference,
    run_python,
    run_typescript,
)

REFERENCE_IDS = [j.id for j in corpus.reference_journeys()]
SLICE = ("todo-mvc.add-two-todos", "shop-lite.buy-one-mug")
JOURNEYS = REFERENCE_IDS if os.environ.get("CI") == "true" else list(SLICE)
# The worked example's broken pages, each failing for real at its step (proven in
# tests/browser/test_run_journeys.py): the exported tests must fail at the same one.
BROKEN = {Case(WORKED_EXAMPLE, v.fault): v for v in EXPORT_VARIANTS}
# Guarded journeys from the fixture that decides their guard the other way: the exported
# ``if`` skips the branch there, and the test still passes (under CI=true, all three).
OTHER_FIXTURES = [
    Case("bank-sandbox.explain-lock-when-locked", fixture_id="bank-sandbox.two-accounts"),
    Case("admin-console.open-import-when-allowed", fixture_id="admin-console.read-only-auditor"),
    Case("helpdesk.open-first-ticket-when-none", fixture_id="helpdesk.agent-open-queue"),
]
OTHERS = OTHER_FIXTURES if os.environ.get("CI") == "true" else OTHER_FIXTURES[:1]

Runner = Callable[[list[Case], Path], dict[str, Outcome]]


@pytest.mark.browser
@pytest.mark.parametrize("run", [run_typescript, run_python], ids=["ts", "py"])
def test_exported_tests_pass_against_the_apps_and_a_broken_page_fails_at_its_step(
    run: Runner, tmp_path: Path
) -> None:
    outcomes = run([*(Case(j) for j in JOURNEYS), *OTHERS, *BROKEN], tmp_path)

    broken = {case.name: variant for case, variant in BROKEN.items()}
    failed = {name: o for name, o in outcomes.items() if name not in broken and not o.passed}
    assert not failed, next(iter(failed.values())).output
    assert set(outcomes) == {*JOURNEYS, *(c.name for c in OTHERS), *broken}
    for name, variant in broken.items():
        outcome = outcomes[name]
        assert (outcome.passed, outcome.failing_step) == (False, variant.step_id), outcome.output


needs_node = pytest.mark.skipif(
    shutil.which("node") is None or not PLAYWRIGHT_CLI.is_file(),
    reason="no Node or no tests/export/node_modules (`make export-deps` installs it)",
)


@needs_node
@pytest.mark.subprocess  # runs @playwright/test under Node
def test_every_exported_spec_loads_in_playwright_test_with_its_goal_as_title(
    tmp_path: Path,
) -> None:
    projects = []
    for journey_id in REFERENCE_IDS:
        (exported,) = export_journey(reference(journey_id), ["ts"])
        (tmp_path / exported.file_name).write_text(exported.text, "utf-8")
        projects.append({"name": journey_id, "file": exported.file_name, "baseURL": "/"})
    (tmp_path / "node_modules").symlink_to(NODE_PACKAGE / "node_modules")
    env = {
        **os.environ,
        "AUTOMIUM_EXPORT_DIR": str(tmp_path),
        "AUTOMIUM_EXPORT_OUTPUT": str(tmp_path / "results"),
        "AUTOMIUM_EXPORT_PROJECTS": json.dumps(projects),
        "AUTOMIUM_EXPORT_REPORT": str(tmp_path / "report.json"),
        "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1",
    }

    listed = subprocess.run(
        [shutil.which("node") or "node", str(PLAYWRIGHT_CLI), "test", "--list", "-c", str(CONFIG)],
        cwd=NODE_PACKAGE,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert listed.returncode == 0, listed.stdout + listed.stderr
    report = json.loads((tmp_path / "report.json").read_text("utf-8"))
    titles = {spec["title"] for suite in report["suites"] for spec in suite["specs"]}
    assert titles == {reference(j)["goal"] for j in REFERENCE_IDS}
