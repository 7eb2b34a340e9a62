"""What trials executed by ``automium run --planner`` add to a recorded report: failures by
class (as WebArena-Verified breaks them down) and the planner's median decision latency.

Pure: it reads the records it is given, as the rest of the report does.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from automium.contracts import FailureClass, RecordedTrial

_EXECUTED_FIELDS = (
    "failureClass",
    "decisionLatencyMs",
    "artifactManifestRef",
)
_ATTRIBUTES = dict(
    zip(
        _EXECUTED_FIELDS,
        (
            "failure_class",
            "decision_latency_ms",
            "artifact_manifest_ref",
        ),
        strict=True,
    )
)
_CLASS_ORDER = {c: i for i, c in enumerate(FailureClass)}


def executed_fields(records: Sequence[RecordedTrial]) -> list[str]:
    """The executed-trial fields some record holds, in the contract's order."""
    return [
        f for f in _EXECUTED_FIELDS if any(getattr(r, _ATTRIBUTES[f]) is not None for r in records)
    ]


def executed_metrics(records: Sequence[RecordedTrial], planner_id: str) -> dict[str, Any]:
    """``decisionLatencyMs`` and ``failuresByClass`` of one planner's records."""
    mine = [r for r in records if r.planner_id == planner_id]
    latencies = [r.decision_latency_ms for r in mine if r.decision_latency_ms is not None]
    classes = Counter(r.failure_class for r in mine if not r.passed and r.failure_class)
    ranked = sorted(classes.items(), key=lambda item: (-item[1], _CLASS_ORDER[item[0]]))
    return {
        "decisionLatencyMs": int(statistics.median(latencies)) if latencies else None,
        "failuresByClass": [{"failureClass": c.value, "failures": n} for c, n in ranked],
    }
