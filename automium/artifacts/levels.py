"""What each evidence level leaves out of a run, as Playwright's trace modes (``on``,
``retain-on-failure``, ``off``) leave out a trace.

A run at any level keeps its logs (replay, console, planner transcript) and its manifest:
the replay summary classifies a failure from the events alone. ``on-failure`` records as
``full`` does and keeps the images, snapshots, trace and HAR only when the run did not
pass; ``verdict`` records none of them.
"""

from __future__ import annotations

from automium.contracts import ArtifactKind, EvidenceLevel, Verdict

K = ArtifactKind
_RECORDED_WITH_LOGS = (
    K.SCREENSHOT,
    K.TRACE,
    K.SEMANTIC_SNAPSHOT,
    K.DOM_SNAPSHOT,
    K.NETWORK_HAR,
)


def not_recorded(level: EvidenceLevel, verdict: Verdict) -> list[ArtifactKind]:
    """The kinds a run of ``verdict`` at full evidence would hold and ``level`` leaves out,
    in vocabulary order."""
    if level is EvidenceLevel.FULL or (
        level is EvidenceLevel.ON_FAILURE and verdict is not Verdict.PASSED
    ):
        return []
    # A full run encodes a video for a failed run only (from its trace).
    video = (K.VIDEO,) if verdict is Verdict.FAILED else ()
    return [kind for kind in ArtifactKind if kind in (*_RECORDED_WITH_LOGS, *video)]
