"""How a failed run is classified: the failure classes of the v1 triage vocabulary, each with
the events that show it (``replay.event_reading`` decides a class from them)."""

from __future__ import annotations

from collections.abc import Mapping

from automium.contracts import FailureClass

F = FailureClass
FAILURE_CLASSES: Mapping[str, str] = {
    F.PRODUCT_ISSUE.value: "the app misbehaved: an assertion failed after every action "
    "succeeded (assertion.failed)",
    F.FIXTURE_ISSUE.value: "the starting state was wrong: missing seed data, a locked or absent "
    "account (fixture.check_failed)",
    F.PLANNER_ISSUE.value: "the planner chose a wrong or impossible action for what it saw (an "
    "action.failed on the element of its decision.made)",
    F.UNSUPPORTED_INTENT.value: "the journey needs an action outside the frozen intent "
    "vocabulary (a decision.rejected by the adapter)",
    F.POLICY_DENIAL.value: "a safety policy blocked the action: the run is blocked, not failed "
    "(policy.denied)",
    F.RUNTIME_GAP.value: "the runtime could not do what was asked: timeouts, frames, crashes "
    "(action.timed_out, runtime.crashed)",
}
