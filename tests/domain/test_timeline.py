"""The modeled timeline of a run: for every reference journey, the ``replay-event.v1``
stream a run would record, every lane filled, in seq order with time running forward; and
its failing variants, which stop at the failing step with the verdict of their class."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from automium import corpus
from automium.capabilities import BY_NAME
from automium.contracts import Journey, RunSubmission, bundled_schema, to_document
from automium.journeys import reference_journeys
from automium.validation import check
from tests.answers import answered
from tests.cases import FAILURE_CLASSES, PLANNER, SUBMISSION, run_request

RUN = BY_NAME["automium_create_run_submission"]
LANES = ("planner", "executor", "runtime", "assertion", "worker", "artifact")
# The verdict each failing variant ends with (automium/runs/timeline.py's table).
VERDICT_OF = {
    "product_issue": "failed",
    "planner_issue": "failed",
    "unsupported_intent": "errored",
    "policy_denial": "blocked",
    "runtime_gap": "errored",
    "fixture_issue": "errored",
}
# The event that shows each class at the failing step.
SHOWN_BY = {
    "product_issue": "assertion.failed",
    "planner_issue": "action.failed",
    "unsupported_intent": "decision.rejected",
    "policy_denial": "policy.denied",
    "runtime_gap": "action.timed_out",
    "fixture_issue": "fixture.check_failed",
}
# Each reference journey as it runs: a journey that uses another has its steps first.
JOURNEYS = [pytest.param(c.model, id=i) for i, c in reference_journeys().items()]


@cache
def _submitted(document_json: str) -> dict[str, Any]:
    submission = answered(RUN, json.loads(document_json))
    assert isinstance(submission, RunSubmission)
    return to_document(submission)


def submitted(journey: Journey, failure: tuple[str, str] | None = None) -> dict[str, Any]:
    """The submission document of ``journey`` (its failing variant with ``failure``), with
    its events; each one is modeled once per test session, the tests only read it."""
    return _submitted(json.dumps(run_request(journey, failure), sort_keys=True))


def not_known_of(journey: Journey) -> frozenset[str]:
    """The assertions compile lists unchecked: a modeled run cannot know them."""
    return reference_journeys()[journey.id].unchecked_assertions()


def order_of(journey: Journey) -> Any:
    steps = [s.id for s in journey.steps]
    after = {a.id: (steps.index(a.after_step), i) for i, a in enumerate(journey.assertions)}
    return after.__getitem__


def problems_of_a_stream(run_id: str, events: list[dict[str, Any]]) -> list[str]:
    """What is wrong with ``events`` as one run's stream: each problem in words."""
    found = [
        f"event {i}: {p.code} at {p.path}"
        for i, event in enumerate(events)
        for p in check("replay-event.v1", event)
    ]
    found += [
        f"event {i} is of run {e['runId']}" for i, e in enumerate(events) if e["runId"] != run_id
    ]
    seqs = [e["seq"] for e in events]
    if seqs != list(range(len(events))):
        found.append(f"seqs are not 0..{len(events) - 1} in order: {seqs}")
    offsets = [e["offsetMs"] for e in events]
    if offsets != sorted(offsets):
        found.append(f"offsets go back in time: {offsets}")
    return found


def lane_counts(events: list[dict[str, Any]]) -> dict[str, int]:
    counts = Counter(e["lane"] for e in events)
    return {lane: counts[lane] for lane in LANES}


# --- the modeled timeline of every reference journey -------------------------------------------


@pytest.mark.parametrize("journey", JOURNEYS)
def test_a_journeys_timeline_is_one_valid_replay_stream_that_fills_every_lane(
    journey: Journey,
) -> None:
    submission = submitted(journey)
    events = submission["events"]

    assert problems_of_a_stream(submission["runId"], events) == []
    assert all(count > 0 for count in lane_counts(events).values()), lane_counts(events)


@pytest.mark.parametrize("journey", JOURNEYS)
def test_a_submission_reports_what_its_timeline_holds(journey: Journey) -> None:
    submission = submitted(journey)
    events = submission["events"]
    finished = [e for e in events if "verdict" in e]

    not_known = not_known_of(journey)
    assert submission["timeline"] == {
        "events": len(events),
        "lanes": lane_counts(events),
        "steps": len(journey.steps),
        "verdict": "passed",
        "requiredArtifactKinds": ["screenshot", "semantic-snapshot", "replay-log"],
        **({"assertionsNotKnown": sorted(not_known, key=order_of(journey))} if not_known else {}),
    }
    assert "eventsLeftOut" not in submission
    # Only the event that ends the run carries the verdict, and it agrees.
    assert [(e["type"], e["verdict"]) for e in finished] == [("run.finished", "passed")]


@pytest.mark.parametrize("journey", JOURNEYS)
def test_a_timeline_walks_the_journey_step_by_step_on_every_lane(journey: Journey) -> None:
    events = submitted(journey)["events"]
    steps = [step.id for step in journey.steps]

    def of(kind: str) -> list[dict[str, Any]]:
        return [e for e in events if e["type"] == kind]

    # A worker holds the run from its first event to its last.
    assert (events[0]["type"], events[-1]["type"]) == ("worker.leased", "worker.released")
    assert [e["payload"]["fixtureId"] for e in of("fixture.applied")] == [journey.fixture_id]
    # Per step, in order: a PlannerRequest, a PlannerDecision by this planner, an action.
    assert [e["stepId"] for e in of("decision.requested")] == steps
    assert [(e["stepId"], e["payload"]["plannerId"]) for e in of("decision.made")] == [
        (step, PLANNER["id"]) for step in steps
    ]
    assert [(e["stepId"], e["payload"]["intent"]) for e in of("action.performed")] == [
        (step.id, step.intent) for step in journey.steps
    ]
    # Every assertion is checked after its step: it passes, or, where compile could not
    # check it, the model says it cannot know.
    not_known = not_known_of(journey)
    checked = [(e["stepId"], e["payload"]["assertionId"]) for e in of("assertion.passed")]
    unknown = [(e["stepId"], e["payload"]["assertionId"]) for e in of("assertion.unknown")]
    in_order = [
        (a.after_step, a.id) for step in steps for a in journey.assertions if a.after_step == step
    ]
    assert checked == [(s, a) for s, a in in_order if a not in not_known]
    assert unknown == [(s, a) for s, a in in_order if a in not_known]
    # One artifact per kind the verdict requires; the run's pages load on the runtime lane.
    assert [e["payload"]["kind"] for e in of("artifact.captured")] == submitted(journey)[
        "timeline"
    ]["requiredArtifactKinds"]
    assert of("page.loaded")


def test_the_events_are_returned_only_when_asked_for() -> None:
    for include in (None, False):
        document = {**SUBMISSION, **({} if include is None else {"includeEvents": include})}
        submission = RUN.answer(document)[1]

        assert ("events" in submission, "eventsLeftOut" in submission) == (False, False)
        assert submission["timeline"]["events"] > 0  # the numbers are always there


# --- failing variants --------------------------------------------------------------------------


def failing_variants(journey: Journey) -> list[tuple[str, str]]:
    return [(step.id, failure_class) for step in journey.steps for failure_class in FAILURE_CLASSES]


@pytest.mark.parametrize("failure_class", FAILURE_CLASSES)
@pytest.mark.parametrize("journey", JOURNEYS)
def test_a_failing_variant_at_any_step_is_a_valid_stream_that_stops_at_that_step(
    journey: Journey, failure_class: str
) -> None:
    steps = [step.id for step in journey.steps]
    for step_id in steps:
        submission = submitted(journey, (step_id, failure_class))
        events = submission["events"]
        reached = steps[: steps.index(step_id) + 1]

        assert problems_of_a_stream(submission["runId"], events) == [], step_id
        assert submission["timeline"]["failure"] == {
            "stepId": step_id,
            "failureClass": failure_class,
        }
        assert (submission["timeline"]["verdict"], submission["timeline"]["steps"]) == (
            VERDICT_OF[failure_class],
            len(reached),
        )
        # The class shows at the failing step, and nothing happens to a later step.
        assert any(
            e["type"] == SHOWN_BY[failure_class] and e["stepId"] == step_id for e in events
        ), step_id
        assert {e["stepId"] for e in events if "stepId" in e} <= set(reached), step_id
        # However early it fails, the run is leased, ends, and leaves its evidence.
        counts = lane_counts(events)
        assert counts["worker"] == 3, step_id
        assert counts["artifact"] > 0, step_id
        assert [e["payload"]["kind"] for e in events if e["type"] == "artifact.captured"] == (
            submission["timeline"]["requiredArtifactKinds"]
        ), step_id


def test_a_failing_variant_that_retried_says_so_and_requires_a_trace() -> None:
    # The worked example retries once (maxAttempts 2): a runtime gap at pay times out twice.
    (journey,) = (j for j in corpus.reference_journeys() if j.id == SUBMISSION["journeyId"])
    submission = submitted(journey, ("pay", "runtime_gap"))
    events = submission["events"]

    timed_out = [e["payload"]["attempt"] for e in events if e["type"] == "action.timed_out"]
    (finished,) = [e for e in events if e["type"] == "run.finished"]
    assert (timed_out, finished["payload"]["retryCount"]) == ([1, 2], 1)
    assert "trace" in submission["timeline"]["requiredArtifactKinds"]


# --- what the contract says of each event type --------------------------------------------------


def _event_types() -> Mapping[str, tuple[str, frozenset[str]]]:
    """Type -> (lane, payload keys), as replay-event.v1 describes each type to an agent."""
    definition = bundled_schema("replay-event.v1")["$defs"]["EventType"]
    description: str = definition["description"]
    starts = sorted((description.index(f"{t} ("), t) for t in definition["enum"])
    ends = [start for start, _ in starts[1:]] + [len(description)]
    described = {}
    for (start, kind), end in zip(starts, ends, strict=True):
        text = description[start + len(kind) + 2 : end]
        lane = text.split(":", 1)[0]
        keys = re.search(r"\(payload ([^)]*)\)", text)
        described[kind] = (lane, frozenset(keys.group(1).split(", ") if keys else ()))
    return described


def every_modeled_event() -> list[dict[str, Any]]:
    return [
        event
        for journey in corpus.reference_journeys()
        for failure in [None, *failing_variants(journey)]
        for event in submitted(journey, failure)["events"]
    ]


def test_every_modeled_event_is_on_the_lane_the_contract_gives_its_type() -> None:
    described = _event_types()

    assert {
        (e["type"], e["lane"])
        for e in every_modeled_event()
        if described[e["type"]][0] != e["lane"]
    } == set()


def test_every_payload_key_of_a_modeled_event_is_one_the_contract_lists() -> None:
    described = _event_types()

    undocumented = {
        (e["type"], key)
        for e in every_modeled_event()
        for key in e["payload"]
        if key not in described[e["type"]][1]
    }
    assert undocumented == set()


# --- snapshot ----------------------------------------------------------------------------------


def test_the_worked_example_s_timeline_matches_its_snapshot(
    snapshot_json: SnapshotAssertion,
) -> None:
    document = RUN.answer({**SUBMISSION, "includeEvents": True})[1]

    assert check("run-submission.v1", document) == []
    assert document == snapshot_json
