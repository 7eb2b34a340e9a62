"""Replay summaries say which evidence a run of each verdict needs and which lanes to read
first; replay timelines are checked for one run, unique seq and time running forward."""

from __future__ import annotations

from typing import Any

import pytest

from automium.capabilities import BY_NAME
from automium.contracts import (
    ArtifactKind,
    ErrorCode,
    ReplayEvent,
    ReplayLane,
    ReplaySummary,
    Verdict,
)
from automium.replay import digest, event_problems, events_by_lane, order_events, required_kinds
from tests.cases import MANIFEST_REF, RUN_ID, TOOLS, refusal, refused

VERDICTS = ("passed", "failed", "errored", "blocked")
LANES = ("planner", "executor", "runtime", "assertion", "worker", "artifact")
SUMMARY = BY_NAME["automium_get_replay_summary"]


def summary_request(**overrides: Any) -> dict[str, Any]:
    return {**TOOLS[SUMMARY.name].successes["passed"], **overrides}


def summarise(document: object) -> ReplaySummary:
    summary = SUMMARY.run(document)
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
    (problem,) = refused(SUMMARY.run, summary_request(verdict="flaky"))

    assert (problem.code, problem.path, problem.allowed) == (
        ErrorCode.INVALID_INPUT,
        "/verdict",
        VERDICTS,
    )


@pytest.mark.parametrize("retry_count", [-1, -1000])
def test_negative_retries_are_refused(retry_count: int) -> None:
    (problem,) = refused(SUMMARY.run, summary_request(retryCount=retry_count))

    assert (problem.code, problem.path, problem.allowed) == (
        ErrorCode.INVALID_INPUT,
        "/retryCount",
        (),
    )


@pytest.mark.parametrize("retry_count", [1.5, "2", True])
def test_retries_that_are_no_integer_are_refused(retry_count: object) -> None:
    assert refusal(SUMMARY.run, summary_request(retryCount=retry_count)) == [
        (ErrorCode.INVALID_INPUT, "/retryCount")
    ]


def test_a_manifest_ref_of_another_run_is_refused_with_the_runs_own_ref() -> None:
    document = summary_request(artifactManifestRef="artifacts:run/run-0000000000000000")

    (problem,) = refused(SUMMARY.run, document)

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
    assert refusal(SUMMARY.run, summary_request(artifactManifestRef=ref)) == [
        (ErrorCode.INVALID_INPUT, "/artifactManifestRef")
    ]


def test_every_problem_of_a_summary_request_is_reported_at_once() -> None:
    document = summary_request(verdict="flaky", retryCount=-1, extra=True)

    assert refusal(SUMMARY.run, document) == [
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

    found = digest.problems(RUN_ID, Verdict.FAILED, events)

    assert [(p.code, p.path, p.allowed) for p in found] == [
        (ErrorCode.EVENT_RUN_MISMATCH, "/events/1/runId", (RUN_ID,)),
        (ErrorCode.EVENT_RUN_MISMATCH, "/events/2/runId", (RUN_ID,)),
    ]
