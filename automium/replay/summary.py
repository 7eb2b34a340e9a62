"""What a replay of a run needs, by verdict.

Failures need more evidence than passes: a pass only has to show that the journey ended
where it should, while a failure must let a reader tell a product bug from a fixture, planner,
policy or runtime problem. The table (kinds in vocabulary order):

========  ==================================================================================
verdict   required artifact kinds
========  ==================================================================================
passed    screenshot, semantic-snapshot, replay-log
failed    screenshot, video, trace, semantic-snapshot, dom-snapshot, replay-log, console-log,
          network-har, planner-transcript
errored   trace, replay-log, console-log, network-har, planner-transcript
blocked   semantic-snapshot, replay-log, planner-transcript
========  ==================================================================================

A run that retried (``retryCount > 0``) also needs a ``trace``, to show each attempt.
``errored`` has no screenshot because the page may never have rendered; ``blocked`` is a
policy denial, explained by what the planner saw and asked for.
"""

from __future__ import annotations

from collections.abc import Mapping

from automium.contracts import (
    ArtifactKind,
    Digest,
    ErrorCode,
    EventType,
    ReplayEvent,
    ReplayLane,
    ReplaySummary,
    ReplaySummaryInput,
    Verdict,
    present,
)
from automium.errors import AutomiumError, Problem, quoted
from automium.modeled import modeled
from automium.replay import event_reading

K = ArtifactKind
REQUIRED_ARTIFACT_KINDS: Mapping[Verdict, frozenset[ArtifactKind]] = {
    Verdict.PASSED: frozenset({K.SCREENSHOT, K.SEMANTIC_SNAPSHOT, K.REPLAY_LOG}),
    Verdict.FAILED: frozenset(ArtifactKind),
    Verdict.ERRORED: frozenset(
        {K.TRACE, K.REPLAY_LOG, K.CONSOLE_LOG, K.NETWORK_HAR, K.PLANNER_TRANSCRIPT}
    ),
    Verdict.BLOCKED: frozenset({K.SEMANTIC_SNAPSHOT, K.REPLAY_LOG, K.PLANNER_TRANSCRIPT}),
}

L = ReplayLane
INSPECT_LANES: Mapping[Verdict, tuple[ReplayLane, ...]] = {
    Verdict.PASSED: (L.ASSERTION, L.ARTIFACT),
    Verdict.FAILED: (L.ASSERTION, L.EXECUTOR, L.PLANNER, L.RUNTIME, L.ARTIFACT),
    Verdict.ERRORED: (L.RUNTIME, L.WORKER, L.EXECUTOR, L.ARTIFACT),
    Verdict.BLOCKED: (L.PLANNER, L.EXECUTOR, L.ARTIFACT),
}


def required_kinds(verdict: Verdict, retry_count: int) -> list[ArtifactKind]:
    kinds = REQUIRED_ARTIFACT_KINDS[verdict] | ({K.TRACE} if retry_count > 0 else set())
    return [kind for kind in ArtifactKind if kind in kinds]


def manifest_ref_problem(run_id: str, ref: str) -> Problem | None:
    """Why ``ref`` is not run ``run_id``'s artifact manifest ref, if it is not."""
    expected = f"artifacts:run/{run_id}"
    if ref == expected:
        return None
    return Problem(
        ErrorCode.INVALID_INPUT,
        f"artifactManifestRef names another run; for run {run_id} it is {quoted(expected)}",
        "/artifactManifestRef",
        (expected,),
    )


def replay_summary(request: ReplaySummaryInput) -> ReplaySummary:
    problems = [manifest_ref_problem(request.run_id, request.artifact_manifest_ref)]
    events = request.events or []
    found = [p for p in problems if p is not None] + event_reading.problems(
        request.run_id, request.verdict, events, request.retry_count
    )
    if found:
        raise AutomiumError(found)
    return ReplaySummary(
        schema_version="automium.replay-summary/v1",
        run_id=request.run_id,
        verdict=request.verdict,
        retry_count=request.retry_count,
        artifact_manifest_ref=request.artifact_manifest_ref,
        required_artifact_kinds=required_kinds(request.verdict, request.retry_count),
        inspect_lanes=list(INSPECT_LANES[request.verdict]),
        **present(digest=_digest(request.verdict, events) if events else None),
        modeled=modeled(
            "Replay summary modeled from the run metadata given"
            + (" and the events given" if events else "")
            + "; no replay was read."
        ),
    )


def _digest(verdict: Verdict, events: list[ReplayEvent]) -> Digest:
    found = event_reading.digest(verdict, events)
    document: dict[str, object] = {"events": found.events, "lanes": dict(found.lanes)}
    if found.first_failure is not None:
        first = found.first_failure
        document["firstFailure"] = {
            "seq": first.seq,
            "lane": first.lane,
            "type": first.type,
            **({"stepId": first.step_id} if first.step_id else {}),
        }
        if first.step_id:
            document["failingStep"] = first.step_id
    if found.classification is not None:
        document["classification"] = {
            "failureClass": found.classification.failure_class,
            "rule": found.classification.rule,
            "eventSeqs": list(found.classification.event_seqs),
        }
    if branches := branches_taken(events):
        document["branches"] = branches
    return Digest.model_validate(document)


def branches_taken(events: list[ReplayEvent]) -> list[dict[str, str]]:
    """Each guard a run evaluated, in ``seq`` order, and the branch it took."""
    return [
        {"stepId": str(e.step_id), "branch": str(e.payload.get("branch"))}
        for e in sorted(events, key=lambda e: e.seq)
        if e.type == EventType.BRANCH_TAKEN
        and e.step_id
        and e.payload.get("branch") in ("holds", "fails")
    ]
