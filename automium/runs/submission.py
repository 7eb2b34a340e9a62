"""Turn a run request into a modeled submission.

The run id is a digest of the canonical submission (sorted keys, no whitespace, with the
corpus version), so the same request always gives the same id and refs: an agent can retry
freely, and two agents asking the same thing agree on the answer.
"""

from __future__ import annotations

import hashlib
import json

from automium import corpus
from automium.contracts import RunSubmission, RunSubmissionInput, to_document
from automium.errors import AutomiumError, Problem
from automium.modeled import modeled


def run_id_for(request: RunSubmissionInput) -> str:
    canonical = json.dumps(
        {"corpusVersion": corpus.CORPUS_VERSION, **to_document(request)},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return "run-" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def create_run_submission(request: RunSubmissionInput) -> RunSubmission:
    problems: list[Problem] = []
    if app_problem := corpus.app_problem(request.app_id, "/appId"):
        problems.append(app_problem)
    if fixture_problem := corpus.fixture_problem(request.fixture_id, request.app_id, "/fixtureId"):
        problems.append(fixture_problem)
    try:
        corpus.get_environment_profile(request.environment_profile_id)
    except AutomiumError as exc:
        problems.extend(exc.problems)
    if problems:
        raise AutomiumError(problems)
    run_id = run_id_for(request)
    return RunSubmission(
        schema_version="automium.run-submission/v1",
        corpus_version=corpus.CORPUS_VERSION,
        run_id=run_id,
        journey_id=request.journey_id,
        app_id=request.app_id,
        fixture_id=request.fixture_id,
        planner=request.planner,
        environment_profile_id=request.environment_profile_id,
        status="queued",
        artifact_manifest_ref=f"artifacts:run/{run_id}",
        replay_stream_ref=f"replay:run/{run_id}",
        modeled=modeled("Modeled run submission: nothing was queued and no worker was leased."),
    )
