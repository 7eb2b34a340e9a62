"""Guards for real: each guarded reference journey, run in headless Chromium from its own
fixture and from the fixture that decides its guard the other way, passes in both, takes the
branch its page models say, and records it as an event the manifest and replay summary name.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from automium.contracts import Verdict
from automium.execution.executor import Options, run_journey
from tests.browser.journeys import TIMEOUT_MS
from tests.cases import reference_journey

# (journey, fixture, the step that opens the branch, the branch taken)
BRANCHES = [
    ("bank-sandbox.explain-lock-when-locked", "bank-sandbox.locked-account", "why", "holds"),
    ("bank-sandbox.explain-lock-when-locked", "bank-sandbox.two-accounts", "why", "fails"),
    ("admin-console.open-import-when-allowed", "admin-console.admin-user", "open-import", "holds"),
    (
        "admin-console.open-import-when-allowed",
        "admin-console.read-only-auditor",
        "open-import",
        "fails",
    ),
    ("helpdesk.open-first-ticket-when-none", "helpdesk.customer-new", "start-ticket", "holds"),
    ("helpdesk.open-first-ticket-when-none", "helpdesk.agent-open-queue", "start-ticket", "fails"),
]


@pytest.mark.browser
@pytest.mark.parametrize(
    ("journey_id", "fixture_id", "step_id", "branch"),
    BRANCHES,
    ids=[f"{j}@{f.split('.', 1)[1]}" for j, f, _, _ in BRANCHES],
)
def test_a_guarded_journey_takes_the_branch_its_fixture_decides_and_says_so(
    chromium_browser: Browser,
    tmp_path: Path,
    journey_id: str,
    fixture_id: str,
    step_id: str,
    branch: str,
) -> None:
    document = {**reference_journey(journey_id), "fixtureId": fixture_id}

    outcome = run_journey(document, chromium_browser, Options(tmp_path, TIMEOUT_MS, video=False))

    assert outcome.verdict is Verdict.PASSED, outcome.summary_line
    taken = [e for e in outcome.events if e["type"] == "branch.taken"]
    assert [(e["stepId"], e["payload"]["branch"]) for e in taken] == [(step_id, branch)]
    expected = [{"stepId": step_id, "branch": branch}]
    assert outcome.manifest["branches"] == expected
    assert outcome.summary["digest"]["branches"] == expected
    performed = {e["stepId"] for e in outcome.events if e["type"] == "action.performed"}
    assert (step_id in performed) == (branch == "holds")
