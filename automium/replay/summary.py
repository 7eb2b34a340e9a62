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
    ErrorCode,
    ReplayLane,
    ReplaySummary,
    ReplaySummaryInput,
    Verdict,
)
from automium.errors import AutomiumError
from automium.modeled import modeled

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


def parse_verdict(text: str) -> Verdict:
    """The verdict spelled ``text``; anything else is ``invalid_input``."""
    if text not in Verdict.__members__.values():
        raise AutomiumError.single(
            ErrorCode.INVALID_INPUT, f"verdict {text[:40]!r} is not a v1 verdict", "", list(Verdict)
        )
    return Verdict(text)


def required_kinds(verdict: Verdict, retry_count: int) -> list[ArtifactKind]:
    kinds = REQUIRED_ARTIFACT_KINDS[verdict] | ({K.TRACE} if retry_count > 0 else set())
    return [kind for kind in ArtifactKind if kind in kinds]


def replay_summary(request: ReplaySummaryInput) -> ReplaySummary:
    expected_ref = f"artifacts:run/{request.run_id}"
    if request.artifact_manifest_ref != expected_ref:
        raise AutomiumError.single(
            ErrorCode.INVALID_INPUT,
            f"artifactManifestRef names another run; for run {request.run_id} it is "
            f"{expected_ref!r}",
            "/artifactManifestRef",
            [expected_ref],
        )
    return ReplaySummary(
        schema_version="automium.replay-summary/v1",
        run_id=request.run_id,
        verdict=request.verdict,
        retry_count=request.retry_count,
        artifact_manifest_ref=request.artifact_manifest_ref,
        required_artifact_kinds=required_kinds(request.verdict, request.retry_count),
        inspect_lanes=list(INSPECT_LANES[request.verdict]),
        modeled=modeled("Replay summary modeled from the run metadata given; no replay was read."),
    )
