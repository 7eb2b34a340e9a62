"""How a failed run is classified: the failure classes of the v1 triage vocabulary."""

from __future__ import annotations

from collections.abc import Mapping

FAILURE_CLASSES: Mapping[str, str] = {
    "product_issue": "the app misbehaved: an assertion failed on a correct step sequence",
    "fixture_issue": "the starting state was wrong: missing seed data, locked or absent account",
    "planner_issue": "the planner chose a wrong or impossible action for what it saw",
    "unsupported_intent": "the journey needs an action outside the frozen intent vocabulary",
    "policy_denial": "a safety policy blocked the action (the run is blocked, not failed)",
    "runtime_gap": "the runtime could not do what was asked (timeouts, frames, crashes)",
}
