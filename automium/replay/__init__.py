"""Replay summaries from caller-supplied run metadata, and replay event helpers."""

from automium.replay.events import event_problems, events_by_lane, order_events
from automium.replay.summary import (
    INSPECT_LANES,
    REQUIRED_ARTIFACT_KINDS,
    manifest_ref_problem,
    replay_summary,
    required_kinds,
)
from automium.replay.triage import FAILURE_CLASSES

__all__ = [
    "FAILURE_CLASSES",
    "INSPECT_LANES",
    "REQUIRED_ARTIFACT_KINDS",
    "event_problems",
    "events_by_lane",
    "manifest_ref_problem",
    "order_events",
    "replay_summary",
    "required_kinds",
]
