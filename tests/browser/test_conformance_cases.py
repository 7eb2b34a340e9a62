"""Each journey that once split a page model from its app, run for real
(:mod:`tests.conformance_cases`): the outcome is the one the case records, and it agrees
with compile's verdict (valid silently passes, refused fails)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from automium.contracts import Verdict
from automium.execution.executor import Options, run_journey
from tests.conformance_cases import CASES, Case
from tests.journey_mutants import REFUSED, VALID

TIMEOUT_MS = 1000


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_each_case_runs_as_compile_says(
    case: Case, chromium_browser: Browser, tmp_path: Path
) -> None:
    outcome = run_journey(
        copy.deepcopy(case.journey),
        chromium_browser,
        Options(tmp_path, TIMEOUT_MS, video=False),
        refused_too=True,
    )
    assert (outcome.verdict is Verdict.PASSED) == case.passes
    if case.static == VALID:
        assert case.passes
    if case.static == REFUSED:
        assert not case.passes
