"""Replay summaries say which evidence a run of each verdict needs and which lanes to read
first; given a run's events, they digest them lane by lane and classify the failure by the
debug_failed_run taxonomy, refusing events of another run or of another outcome; replay
timelines are checked for one run, unique seq and time running forward."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from automium import corpus
from automium.capabilities import BY_NAME
from automium.contracts import (
    ArtifactKind,
    ErrorCode,
    FailureClass,
    Journey,
    ReplayEvent,
    ReplayLane,
    ReplaySummary,
    RunSubmission,
    Verdict,
    to_document,
)
from automium.replay import (
    event_problems,
    event_reading,
    events_by_lane,
    order_events,
    required_kinds,
)
from automium.validation import check
from tests.answers import answered
from tests.cases import (
    MANIFEST_REF,
    PLANNER,
    RUN_ID,
    SUBMISSION,
    TOOLS,
    refusal,
    refused,
    run_request,
)

VERDICTS = ("passed", "failed", "errored", "blocked")
LANES = ("planner", "executor", "runtime", "assertion", "worker", "artifact")
SUMMARY = BY_NAME["automium_get_replay_summary"]


def summary_request(**overrides: Any) -> dict[str, Any]:
    return {**TOOLS[SUMMARY.name].successes["passed"], **overrides}


def summarise(document: object) -> ReplaySummary:
    summary = answered(SUMMARY, document)
    assert isinstance(summary, ReplaySummary)
    return summary


def kinds(verdict: str, retry_count: int = 0) -> set[str]:
    return {k.value for k in required_kinds(Verdict(verdict), retry_count)}


# --- summaries ------------------------------------------------------------------------------


@pytest.mark.parametrize("verdict", VERDICTS)
def test_a_run_that_retried_also_needs_a_trace(verdict: str) -> None:
    assert kinds(verdict, retry_count=2) == kinds(verdict) | {"trace"}


def test_a_failure_needs_strictly_more_evidence_than_a_pass() -> None:
    assert kinds("passed") < kinds("failed")


def test_a_failure_needs_every_artifact_kind() -> None:
    assert kinds("failed") == {k.value for k in ArtifactKind}


@pytest.mark.parametrize("verdict", VERDICTS)
@pytest.mark.parametrize("retry_count", [0, 1, 3000])
def test_required_kinds_come_in_vocabulary_order_without_repeats(
    verdict: str, retry_count: int
) -> None:
    listed = [k.value for k in required_kinds(Verdict(verdict), retry_count)]
    vocabulary = [k.value for k in ArtifactKind]

    assert listed == sorted(set(listed), key=vocabulary.index)


@pytest.mark.parametrize("verdict", VERDICTS)
def test_every_summary_names_the_replay_log_and_says_it_was_modeled(verdict: str) -> None:
    summary = summarise(summary_request(verdict=verdict))

    assert ArtifactKind.REPLAY_LOG in summary.required_artifact_kinds
    assert (summary.modeled.modeled, summary.modeled.executed) == (True, False)


# --- refusals -------------------------------------------------------------------------------


def test_an_unknown_verdict_is_refused_with_the_allowed_verdicts() -> None:
    (problem,) = refused(SUMMARY.answer, summary_request(verdict="flaky"))

    assert (problem.code, problem.path, problem.allowed) == (
        ErrorCode.INVALID_INPUT,
        "/verdict",
        VERDICTS,
    )


@pytest.mark.parametrize("retry_count", [-1, -1000])
def test_negative_retries_are_refused(retry_count: int) -> None:
    (problem,) = refused(SUMMARY.answer, summary_request(retryCount=retry_count))

    assert (problem.code, problem.path, problem.allowed) == (
        ErrorCode.INVALID_INPUT,
        "/retryCount",
        (),
    )


@pytest.mark.parametrize("retry_count", [1.5, "2", True])
def test_retries_that_are_no_integer_are_refused(retry_count: object) -> None:
    assert refusal(SUMMARY.answer, summary_request(retryCount=retry_count)) == [
        (ErrorCode.INVALID_INPUT, "/retryCount")
    ]


def test_a_manifest_ref_of_another_run_is_refused_with_the_runs_own_ref() -> None:
    document = summary_request(artifactManifestRef="artifacts:run/run-0000000000000000")

    (problem,) = refused(SUMMARY.answer, document)

    assert (problem.code, problem.path, problem.allowed) == (
        ErrorCode.INVALID_INPUT,
        "/artifactManifestRef",
        (MANIFEST_REF,),
    )


@pytest.mark.parametrize(
    "ref",
    [
        f"https://example.test/artifacts/{RUN_ID}",
        f"/artifacts/{RUN_ID}",
        f"replay:run/{RUN_ID}",
    ],
)
def test_a_manifest_ref_that_is_a_url_path_or_other_ref_is_refused(ref: str) -> None:
    assert refusal(SUMMARY.answer, summary_request(artifactManifestRef=ref)) == [
        (ErrorCode.INVALID_INPUT, "/artifactManifestRef")
    ]


def test_every_problem_of_a_summary_request_is_reported_at_once() -> None:
    document = summary_request(verdict="flaky", retryCount=-1, extra=True)

    assert refusal(SUMMARY.answer, document) == [
        (ErrorCode.INVALID_INPUT, "/extra"),
        (ErrorCode.INVALID_INPUT, "/retryCount"),
        (ErrorCode.INVALID_INPUT, "/verdict"),
    ]


# --- replay events --------------------------------------------------------------------------


# One type of each lane: these checks are about order, not about what an event says.
TYPE_OF_LANE = {
    "planner": "decision.made",
    "executor": "action.performed",
    "runtime": "page.loaded",
    "assertion": "assertion.passed",
    "worker": "worker.leased",
    "artifact": "artifact.captured",
}


def event(seq: int, offset_ms: int, lane: str = "executor", run_id: str = RUN_ID) -> ReplayEvent:
    return ReplayEvent.model_validate(
        {
            "schemaVersion": "automium.replay-event/v1",
            "runId": run_id,
            "seq": seq,
            "offsetMs": offset_ms,
            "lane": lane,
            "type": TYPE_OF_LANE[lane],
            "payload": {},
        }
    )


def test_events_are_ordered_by_seq() -> None:
    events = [event(2, 30), event(0, 10), event(1, 20)]

    assert [e.seq for e in order_events(events)] == [0, 1, 2]


def test_events_by_lane_lists_every_lane_in_vocabulary_order_each_in_seq_order() -> None:
    events = [
        event(3, 40, "artifact"),
        event(1, 20, "planner"),
        event(4, 50, "planner"),
        event(0, 10, "worker"),
        event(2, 30, "artifact"),
    ]

    grouped = events_by_lane(events)

    assert [lane.value for lane in grouped] == list(LANES)
    assert {lane.value: [e.seq for e in lane_events] for lane, lane_events in grouped.items()} == {
        "planner": [1, 4],
        "executor": [],
        "runtime": [],
        "assertion": [],
        "worker": [0],
        "artifact": [2, 3],
    }


def test_the_lane_vocabulary_is_the_designed_one() -> None:
    assert tuple(lane.value for lane in ReplayLane) == LANES


def test_a_sound_timeline_has_no_problems() -> None:
    events = [event(1, 20), event(0, 10), event(2, 20)]

    assert event_problems(events) == []


def test_an_empty_timeline_has_no_problems() -> None:
    assert event_problems([]) == []


TIMELINES: list[tuple[str, list[ReplayEvent], list[tuple[ErrorCode, str]]]] = [
    (
        "a seq used twice",
        [event(0, 0), event(1, 5), event(1, 5)],
        [(ErrorCode.INVALID_INPUT, "/2/seq")],
    ),
    (
        "time going backwards along seq",
        [event(0, 0), event(2, 10), event(1, 20)],
        [(ErrorCode.INVALID_INPUT, "/1/offsetMs")],
    ),
    (
        "both at once",
        [event(0, 50), event(1, 10), event(0, 60)],
        [(ErrorCode.INVALID_INPUT, "/2/seq"), (ErrorCode.INVALID_INPUT, "/1/offsetMs")],
    ),
]


@pytest.mark.parametrize(
    ("events", "expected"), [pytest.param(t, e, id=name) for name, t, e in TIMELINES]
)
def test_a_broken_timeline_is_reported_at_each_offending_event(
    events: list[ReplayEvent], expected: list[tuple[ErrorCode, str]]
) -> None:
    assert [(p.code, p.path) for p in event_problems(events)] == expected


def test_events_of_another_run_are_refused_each_with_the_run_as_allowed() -> None:
    events = [event(0, 0), event(1, 5, run_id="run-other"), event(2, 9, run_id="run-third")]

    found = event_reading.problems(RUN_ID, Verdict.FAILED, events)

    assert [(p.code, p.path, p.allowed) for p in found] == [
        (ErrorCode.EVENT_RUN_MISMATCH, "/events/1/runId", (RUN_ID,)),
        (ErrorCode.EVENT_RUN_MISMATCH, "/events/2/runId", (RUN_ID,)),
    ]


# --- summaries from events --------------------------------------------------------------------

# The lane of each event type, as replay-event.v1 describes it.
LANE_OF = {
    "worker.leased": "worker",
    "worker.released": "worker",
    "run.finished": "worker",
    "fixture.applied": "runtime",
    "fixture.check_failed": "runtime",
    "page.loaded": "runtime",
    "page.changed": "runtime",
    "policy.denied": "runtime",
    "runtime.crashed": "runtime",
    "decision.requested": "planner",
    "decision.made": "planner",
    "decision.rejected": "planner",
    "action.performed": "executor",
    "action.failed": "executor",
    "action.timed_out": "executor",
    "assertion.passed": "assertion",
    "assertion.failed": "assertion",
    "artifact.captured": "artifact",
}


def at(
    seq: int,
    event_type: str,
    step: str | None = None,
    /,
    *,
    verdict: str | None = None,
    run_id: str = RUN_ID,
    **payload: str | int,
) -> dict[str, Any]:
    """Event ``seq`` of a run's log, as a runner writes it; 250 ms apart. Positional
    parameters, so that a payload may have a ``kind``."""
    event: dict[str, Any] = {
        "schemaVersion": "automium.replay-event/v1",
        "runId": run_id,
        "seq": seq,
        "offsetMs": 250 * seq,
        "lane": LANE_OF[event_type],
        "type": event_type,
        "payload": payload,
    }
    if step is not None:
        event["stepId"] = step
    if verdict is not None:
        event["verdict"] = verdict
    return event


def decided(seq: int, step: str, intent: str, **target: str | int) -> dict[str, Any]:
    """A PlannerDecision of the worked example's planner, flattened as the contract says."""
    event = at(seq, "decision.made", step, plannerId=PLANNER["id"], intent=intent)
    event["payload"].update(target)
    return event


def started(fixture: str = "shop-lite.returning-buyer") -> list[dict[str, Any]]:
    return [
        at(0, "worker.leased", workerId="w-17", environmentProfileId="desktop-1280x720"),
        at(1, "fixture.applied", fixtureId=fixture),
    ]


def summary_of(verdict: str, events: list[dict[str, Any]], retry_count: int = 0) -> ReplaySummary:
    return summarise(summary_request(verdict=verdict, retryCount=retry_count, events=events))


def digest_of(verdict: str, events: list[dict[str, Any]], retry_count: int = 0) -> dict[str, Any]:
    document = to_document(summary_of(verdict, events, retry_count))
    assert check("replay-summary.v1", document) == []
    digested: dict[str, Any] = document["digest"]
    return digested


PAY: dict[str, str | int] = {"targetRole": "button", "targetName": "Place order"}
ADD: dict[str, str | int] = {"targetRole": "button", "targetName": "Add to cart", "targetNth": 0}


@dataclass(frozen=True)
class Case:
    """A run's log snippet, and what the summary should classify it as."""

    verdict: str
    events: list[dict[str, Any]]
    failure_class: str
    evidence: list[int]
    first_failure: tuple[int, str, str, str]
    """seq, lane, type and step of the failure the run is classified by."""

    @property
    def retry_count(self) -> int:
        """The retries the run's own end says it used."""
        (finished,) = (e for e in self.events if e["type"] == "run.finished")
        retries: int = finished["payload"]["retryCount"]
        return retries


# One realistic log per class of the taxonomy, on the worked example (shop-lite.buy-one-mug).
CLASSIFICATIONS: dict[str, Case] = {
    "policy_denial: the sandbox refuses to place a real order": Case(
        "blocked",
        [
            *started(),
            at(2, "decision.requested", "pay", route="checkout", snapshotNodes=15),
            decided(3, "pay", "click", **PAY),
            at(4, "policy.denied", "pay", policy="no-real-payments", intent="click"),
            at(5, "run.finished", verdict="blocked", retryCount=0),
        ],
        "policy_denial",
        [4],
        (4, "runtime", "policy.denied", "pay"),
    ),
    "fixture_issue: the returning buyer is signed out": Case(
        "errored",
        [
            *started(),
            decided(2, "open-home", "navigate", route="home"),
            at(3, "action.performed", "open-home", intent="navigate", attempt=1),
            at(4, "page.loaded", "open-home", route="login", redirectedFrom="home"),
            at(
                5,
                "fixture.check_failed",
                "open-home",
                reason="account:shop-lite/buyer is signed out",
            ),
            at(6, "run.finished", verdict="errored", retryCount=0),
        ],
        "fixture_issue",
        [5],
        (5, "runtime", "fixture.check_failed", "open-home"),
    ),
    "unsupported_intent: the planner asks to run a script": Case(
        "errored",
        [
            *started(),
            at(2, "decision.requested", "add", route="search", snapshotNodes=29),
            at(3, "decision.rejected", "add", intent="execute_script", reason="intent_not_allowed"),
            at(4, "run.finished", verdict="errored", retryCount=0),
        ],
        "unsupported_intent",
        [3],
        (3, "planner", "decision.rejected", "add"),
    ),
    "runtime_gap: placing the order never answers, twice": Case(
        "errored",
        [
            *started(),
            decided(2, "pay", "click", **PAY),
            at(3, "action.timed_out", "pay", intent="click", timeoutMs=30000, attempt=1),
            decided(4, "pay", "click", **PAY),
            at(5, "action.timed_out", "pay", intent="click", timeoutMs=30000, attempt=2),
            at(6, "run.finished", verdict="errored", retryCount=1),
        ],
        "runtime_gap",
        [3, 5],
        (3, "executor", "action.timed_out", "pay"),
    ),
    "runtime_gap: the browser crashes on the checkout page": Case(
        "errored",
        [
            *started(),
            decided(2, "checkout", "navigate", route="checkout"),
            at(3, "action.performed", "checkout", intent="navigate", attempt=1),
            at(4, "runtime.crashed", "checkout", reason="renderer process gone"),
            at(5, "run.finished", verdict="errored", retryCount=0),
        ],
        "runtime_gap",
        [4],
        (4, "runtime", "runtime.crashed", "checkout"),
    ),
    # Each failed attempt is cited with the decision it carried out.
    "planner_issue: the planner clicks a button the page lacks, twice": Case(
        "failed",
        [
            *started(),
            decided(2, "add", "click", targetRole="button", targetName="Add to basket"),
            at(3, "action.failed", "add", intent="click", reason="target_not_found", attempt=1),
            decided(4, "add", "click", targetRole="button", targetName="Add to basket"),
            at(5, "action.failed", "add", intent="click", reason="target_not_found", attempt=2),
            at(6, "run.finished", verdict="failed", retryCount=1),
        ],
        "planner_issue",
        [2, 3, 4, 5],
        (3, "executor", "action.failed", "add"),
    ),
    "product_issue: the order is placed but never confirmed": Case(
        "failed",
        [
            *started(),
            decided(2, "pay", "click", **PAY),
            at(3, "action.performed", "pay", intent="click", ref="e14", attempt=1),
            at(4, "page.loaded", "pay", route="checkout"),
            at(5, "assertion.failed", "pay", assertionId="confirmed", kind="route_is", attempt=1),
            at(6, "assertion.failed", "pay", assertionId="confirmed", kind="route_is", attempt=2),
            at(7, "run.finished", verdict="failed", retryCount=1),
        ],
        "product_issue",
        [5, 6],
        (5, "assertion", "assertion.failed", "pay"),
    ),
    # A failure that recovered is not the run's: the add retried and passed, the pay did not.
    "product_issue, after a planner slip that recovered": Case(
        "failed",
        [
            *started(),
            decided(2, "add", "click", targetRole="button", targetName="Add to basket"),
            at(3, "action.failed", "add", intent="click", reason="target_not_found", attempt=1),
            decided(4, "add", "click", **ADD),
            at(5, "action.performed", "add", intent="click", ref="e21", attempt=2),
            decided(6, "pay", "click", **PAY),
            at(7, "action.performed", "pay", intent="click", ref="e14", attempt=1),
            at(8, "assertion.failed", "pay", assertionId="thanks", kind="text_contains"),
            at(9, "run.finished", verdict="failed", retryCount=1),
        ],
        "product_issue",
        [8],
        (8, "assertion", "assertion.failed", "pay"),
    ),
}


@pytest.mark.parametrize("case", [pytest.param(c, id=name) for name, c in CLASSIFICATIONS.items()])
def test_a_failed_runs_events_are_classified_with_the_rule_and_the_events_it_rests_on(
    case: Case,
) -> None:
    found = digest_of(case.verdict, case.events, case.retry_count)
    seq, lane, kind, step = case.first_failure

    assert found["classification"]["failureClass"] == case.failure_class
    assert found["classification"]["eventSeqs"] == case.evidence
    assert found["firstFailure"] == {"seq": seq, "lane": lane, "type": kind, "stepId": step}
    assert found["failingStep"] == step


def test_every_class_of_the_taxonomy_has_a_classification_case() -> None:
    assert {c.failure_class for c in CLASSIFICATIONS.values()} == {
        failure_class.value for failure_class in FailureClass
    }


def test_each_class_is_decided_by_its_own_rule() -> None:
    # The rule names the events it looked for; one rule per class, never shared.
    rules = {
        digest_of(c.verdict, c.events, c.retry_count)["classification"]["rule"]: c.failure_class
        for c in CLASSIFICATIONS.values()
    }

    assert sorted(rules.values()) == sorted({c.failure_class for c in CLASSIFICATIONS.values()})


def test_a_digest_counts_the_events_of_each_lane() -> None:
    case = CLASSIFICATIONS["product_issue, after a planner slip that recovered"]

    found = digest_of(case.verdict, case.events, case.retry_count)

    assert (found["events"], found["lanes"]) == (
        10,
        {"planner": 3, "executor": 3, "runtime": 1, "assertion": 1, "worker": 2, "artifact": 0},
    )


def test_events_given_in_any_order_are_digested_in_seq_order() -> None:
    case = CLASSIFICATIONS["planner_issue: the planner clicks a button the page lacks, twice"]

    assert digest_of("failed", case.events[::-1], 1) == digest_of("failed", case.events, 1)


def test_a_snippet_that_shows_no_failure_of_a_failed_run_is_digested_without_a_class() -> None:
    # A snippet may stop before the failure: it is counted, not contradicted.
    snippet = [*started(), decided(2, "open-home", "navigate", route="home")]

    found = digest_of("failed", snippet)

    assert set(found) == {"events", "lanes"}


@pytest.mark.parametrize("events", [None, []], ids=["no events", "an empty list"])
def test_a_summary_without_events_has_no_digest(
    events: list[dict[str, Any]] | None,
) -> None:
    document = summary_request(verdict="failed") | ({} if events is None else {"events": events})

    summary = summarise(document)

    assert summary.digest is None
    assert summary == summarise(summary_request(verdict="failed"))


# A step that failed and passed on retry did not fail the run.
RECOVERED: dict[str, list[dict[str, Any]]] = {
    "an action that failed, then worked": [
        decided(0, "add", "click", targetRole="button", targetName="Add to basket"),
        at(1, "action.failed", "add", intent="click", reason="target_not_found", attempt=1),
        decided(2, "add", "click", **ADD),
        at(3, "action.performed", "add", intent="click", ref="e21", attempt=2),
    ],
    "an action that timed out, then worked": [
        decided(0, "pay", "click", **PAY),
        at(1, "action.timed_out", "pay", intent="click", timeoutMs=30000, attempt=1),
        decided(2, "pay", "click", **PAY),
        at(3, "action.performed", "pay", intent="click", ref="e14", attempt=2),
    ],
    "a decision the adapter rejected, then a valid one": [
        at(0, "decision.rejected", "add", intent="execute_script", reason="intent_not_allowed"),
        decided(1, "add", "click", **ADD),
        at(2, "action.performed", "add", intent="click", ref="e21", attempt=1),
    ],
    "an assertion that failed, then held": [
        at(0, "assertion.failed", "pay", assertionId="thanks", kind="text_contains", attempt=1),
        at(1, "assertion.passed", "pay", assertionId="thanks", kind="text_contains"),
    ],
}


@pytest.mark.parametrize("events", [pytest.param(e, id=name) for name, e in RECOVERED.items()])
def test_a_failure_that_recovered_on_retry_does_not_count(events: list[dict[str, Any]]) -> None:
    ended = [*events, at(len(events), "run.finished", verdict="passed", retryCount=1)]

    found = digest_of("passed", ended, retry_count=1)

    assert set(found) == {"events", "lanes"}  # no first failure, no failing step, no class


# What does not recover a failure: a success of something else.
NOT_RECOVERED: dict[str, list[dict[str, Any]]] = {
    "another assertion held": [
        at(0, "assertion.failed", "pay", assertionId="thanks", kind="text_contains"),
        at(1, "assertion.passed", "pay", assertionId="confirmed", kind="route_is"),
    ],
    "another step's action worked": [
        at(0, "action.failed", "add", intent="click", reason="target_not_found", attempt=1),
        at(1, "action.performed", "checkout", intent="navigate", attempt=1),
    ],
    "a new decision, but no action after it": [
        at(0, "action.failed", "add", intent="click", reason="target_not_found", attempt=1),
        decided(1, "add", "click", **ADD),
    ],
}


@pytest.mark.parametrize("events", [pytest.param(e, id=name) for name, e in NOT_RECOVERED.items()])
def test_a_passed_run_with_a_failure_that_never_recovered_is_refused(
    events: list[dict[str, Any]],
) -> None:
    (problem,) = refused(SUMMARY.answer, summary_request(verdict="passed", events=events))
    failing = next(i for i, e in enumerate(events) if e["type"].endswith("failed"))

    assert (problem.code, problem.path, problem.allowed) == (
        ErrorCode.EVENT_VERDICT_MISMATCH,
        f"/events/{failing}/type",
        (),
    )


@pytest.mark.parametrize(
    ("said", "ended"), [("passed", "failed"), ("failed", "passed"), ("errored", "blocked")]
)
def test_events_that_end_the_run_with_another_verdict_are_refused_with_the_verdict(
    said: str, ended: str
) -> None:
    events = [*started(), at(2, "run.finished", verdict=ended, retryCount=0)]

    (problem,) = refused(SUMMARY.answer, summary_request(verdict=said, events=events))

    assert (problem.code, problem.path, problem.allowed) == (
        ErrorCode.EVENT_VERDICT_MISMATCH,
        "/events/2/verdict",
        (said,),
    )


def test_events_of_another_run_are_refused_by_the_summary_at_each_event() -> None:
    other = "run-0123456789abcdef"
    events = [*started(), at(2, "decision.made", "open-home", run_id=other, intent="navigate")]
    events.append(at(3, "action.performed", "open-home", run_id=other, intent="navigate"))

    problems = refused(SUMMARY.answer, summary_request(verdict="failed", events=events))

    assert [(p.code, p.path, p.allowed) for p in problems] == [
        (ErrorCode.EVENT_RUN_MISMATCH, "/events/2/runId", (RUN_ID,)),
        (ErrorCode.EVENT_RUN_MISMATCH, "/events/3/runId", (RUN_ID,)),
    ]


def test_every_problem_of_the_events_is_reported_at_once_in_path_order() -> None:
    events = [
        *started(),
        at(1, "decision.made", "open-home", intent="navigate"),  # seq 1 again
        at(3, "run.finished", run_id="run-0123456789abcdef", verdict="passed"),
    ]

    assert refusal(SUMMARY.answer, summary_request(verdict="failed", events=events)) == [
        (ErrorCode.INVALID_INPUT, "/events/2/seq"),
        (ErrorCode.EVENT_RUN_MISMATCH, "/events/3/runId"),
        (ErrorCode.EVENT_VERDICT_MISMATCH, "/events/3/verdict"),
    ]


# --- the modeled timeline, read back ------------------------------------------------------------

RUN = BY_NAME["automium_create_run_submission"]
JOURNEYS = [pytest.param(j, id=j.id) for j in corpus.reference_journeys()]


def modeled(journey: Journey, failure: tuple[str, str] | None = None) -> RunSubmission:
    submission = answered(RUN, run_request(journey, failure))
    assert isinstance(submission, RunSubmission)
    return submission


def summary_of_timeline(submission: RunSubmission) -> dict[str, Any]:
    """The replay summary of a modeled timeline, as a caller holding it would ask for it."""
    events = [to_document(e) for e in submission.events or []]
    (finished,) = (e for e in events if e["type"] == "run.finished")
    summary = summarise(
        {
            "runId": submission.run_id,
            "verdict": submission.timeline.verdict.value,
            "retryCount": finished["payload"]["retryCount"],
            "artifactManifestRef": submission.artifact_manifest_ref,
            "events": events,
        }
    )
    return to_document(summary)


@pytest.mark.parametrize("failure_class", [c.value for c in FailureClass])
@pytest.mark.parametrize("journey", JOURNEYS)
def test_a_failing_variant_of_a_class_is_classified_as_that_class_at_its_step(
    journey: Journey, failure_class: str
) -> None:
    for step in journey.steps:
        submission = modeled(journey, (step.id, failure_class))
        found = summary_of_timeline(submission)["digest"]
        step_of = {e.seq: e.step_id for e in submission.events or []}

        assert (found["classification"]["failureClass"], found["failingStep"]) == (
            failure_class,
            step.id,
        )
        # The evidence is events of the failing step, in seq order.
        seqs = found["classification"]["eventSeqs"]
        assert {step_of[seq] for seq in seqs} == {step.id}
        assert seqs == sorted(set(seqs))


@pytest.mark.parametrize("journey", JOURNEYS)
def test_a_passing_timeline_is_digested_without_a_failure(journey: Journey) -> None:
    submission = modeled(journey)

    found = summary_of_timeline(submission)["digest"]

    assert found == {
        "events": submission.timeline.events,
        "lanes": to_document(submission.timeline)["lanes"],
    }


def test_a_summary_of_the_worked_examples_failing_variant_matches_its_snapshot(
    snapshot_json: SnapshotAssertion,
) -> None:
    # The demo's chain: the order is placed, but the confirmation does not show.
    failing = answered(
        RUN,
        {
            **SUBMISSION,
            "includeEvents": True,
            "failure": {"stepId": "pay", "failureClass": "product_issue"},
        },
    )
    assert isinstance(failing, RunSubmission)

    document = summary_of_timeline(failing)

    assert check("replay-summary.v1", document) == []
    assert document == snapshot_json


# --- contradictions ---------------------------------------------------------------------------


def test_a_run_finished_whose_retry_count_contradicts_the_runs_is_refused() -> None:
    events = [*started(), at(2, "run.finished", verdict="failed", retryCount=2)]

    document = summary_request(verdict="failed", retryCount=0, events=events)

    assert refusal(SUMMARY.answer, document) == [
        (ErrorCode.EVENT_RETRY_MISMATCH, "/events/2/payload/retryCount")
    ]


def test_events_after_the_worker_released_the_run_are_refused_each() -> None:
    events = [
        *started(),
        at(2, "run.finished", verdict="failed", retryCount=0),
        at(3, "worker.released", workerId="w-17"),
        at(4, "action.failed", "pay", intent="click", reason="late", attempt=1),
        at(5, "artifact.captured", kind="log", path="replay.jsonl"),
    ]
    document = summary_request(verdict="failed", events=events)

    assert refusal(SUMMARY.answer, document) == [
        (ErrorCode.EVENT_AFTER_RELEASE, "/events/4/seq"),
        (ErrorCode.EVENT_AFTER_RELEASE, "/events/5/seq"),
    ]
