"""Differential conformance in Chromium: seeded random walks of every owned app's
fixtures, the page model compared with the page after every step
(:mod:`tests.browser.walks`). No walk of the budget may disagree; where one does, the
failure prints the shortest walk found, as a journey file a person can run.

``make test`` walks :data:`QUICK` per fixture, ``CI=true`` :data:`CI_BUDGET`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser

from automium import corpus
from automium.execution.contexts import fixture_context
from automium.hosting import AppServer, Fault
from automium.journeys import check_journey
from tests.browser import proof
from tests.browser.walks import Budget, journey_file, run_steps, shrink, walk_fixture

CI = os.environ.get("CI") == "true"
QUICK = Budget(walks=1, length=6)
CI_BUDGET = Budget(walks=5, length=12)
BUDGET = CI_BUDGET if CI else QUICK
FIXTURES = [f.id for f in corpus.fixtures() if f.app_id in proof.owned_apps()]


@pytest.fixture(scope="module")
def sessions() -> Iterator[dict[str, proof.Session]]:
    opened: dict[str, proof.Session] = {}
    yield opened
    for session in opened.values():
        session.close()


def _session(
    sessions: dict[str, proof.Session], browser: Browser, fixture_id: str
) -> proof.Session:
    if fixture_id not in sessions:
        sessions[fixture_id] = proof.Session.open(browser, fixture_id)
    return sessions[fixture_id]


@pytest.mark.parametrize("fixture_id", FIXTURES)
def test_no_walk_of_the_budget_disagrees_with_its_page_model(
    fixture_id: str, sessions: dict[str, proof.Session], chromium_browser: Browser
) -> None:
    session = _session(sessions, chromium_browser, fixture_id)
    found = [o for o in walk_fixture(session, BUDGET) if o.disagreement is not None]
    assert not found, "\n\n".join(f"{o.disagreement}\n{journey_file(o)}" for o in found)


def test_a_disagreement_is_found_shrunk_and_printed_as_a_runnable_journey(
    chromium_browser: Browser,
) -> None:
    """An app broken on purpose (its heading "Featured" renamed), walked with steps that
    have nothing to do with it first: the walk stops at the first step after which the
    page differs, shrinks to the navigate that shows it, and prints a journey file of that
    walk that compile accepts."""
    fixture = corpus.get_fixture("shop-lite.guest-empty-cart", "shop-lite")
    server = AppServer(
        fixture.app_id, fixture.id, faults=(Fault("rename", "heading", "Featured", "Popular"),)
    ).start()
    context = fixture_context(chromium_browser, fixture.app_id, fixture.id)
    context.set_default_timeout(proof.TIMEOUT_MS)
    session = proof.Session(fixture, server, context, context.new_page())
    try:
        steps: list[dict[str, Any]] = [
            {"intent": "navigate", "route": "cart"},
            {"intent": "click", "target": {"role": "link", "name": "Cart"}},
            {"intent": "navigate", "route": "home"},
            {"intent": "navigate", "route": "cart"},
        ]
        outcome = run_steps(session, steps)
        assert outcome.disagreement is not None
        assert (outcome.disagreement.step, outcome.disagreement.what) == (2, "aria")
        shrunk = shrink(session, outcome)
        assert shrunk.steps == [{"intent": "navigate", "route": "home"}]
        printed = json.loads(journey_file(shrunk))
    finally:
        session.close()
    assert [s["intent"] for s in printed["steps"]] == ["navigate"]
    assert "aria" in printed["goal"]
    assert check_journey(printed).problems == ()  # a journey file compile accepts
