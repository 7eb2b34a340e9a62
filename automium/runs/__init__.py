"""Modeled run submissions: a deterministic run id and opaque refs; nothing is queued."""

from automium.runs.submission import create_run_submission, reference_refs, run_id_for

__all__ = ["create_run_submission", "reference_refs", "run_id_for"]
