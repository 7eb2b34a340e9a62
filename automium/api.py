"""The domain's public operations, one per v1 capability, over raw JSON arguments.

Each operation validates its arguments against its input contract (so it accepts exactly
what the published schema accepts, plus the corpus's own checks), delegates to the domain
package that owns the rule, and returns a model of its output contract. Adapters (the MCP
server, tests, scripts) call these and never re-implement a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel

from automium import corpus
from automium.artifacts import build_manifest
from automium.benchmark import compare_planners
from automium.contracts import (
    ArtifactManifestInput,
    ComparePlannersInput,
    ListAppsInput,
    ListFixturesInput,
    ReplaySummaryInput,
    RunSubmissionInput,
)
from automium.journeys import compile_journey
from automium.replay import replay_summary
from automium.runs import create_run_submission
from automium.validation import parse

In = TypeVar("In", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class Operation:
    """One capability: its input and output contracts and the function that runs it."""

    input_contract: str
    output_contract: str
    run: Callable[[object], BaseModel]

    @classmethod
    def typed(
        cls,
        input_contract: str,
        output_contract: str,
        model: type[In],
        fn: Callable[[In], BaseModel],
    ) -> Operation:
        """An operation whose arguments are checked against ``input_contract`` first."""

        def run(arguments: object) -> BaseModel:
            return fn(parse(input_contract, arguments, model, corpus.vocabularies()))

        return cls(input_contract, output_contract, run)


def _list_fixtures(request: ListFixturesInput) -> BaseModel:
    return corpus.fixture_catalog(request.app_id)


OPERATIONS: dict[str, Operation] = {
    "list_apps": Operation.typed(
        "list-apps-input.v1", "app-catalog.v1", ListAppsInput, lambda _: corpus.app_catalog()
    ),
    "list_fixtures": Operation.typed(
        "list-fixtures-input.v1", "fixture-catalog.v1", ListFixturesInput, _list_fixtures
    ),
    # A journey is checked by its own validator: the contract and the corpus in one pass.
    "compile_journey": Operation("journey.v1", "journey-compilation.v1", compile_journey),
    "create_run_submission": Operation.typed(
        "run-submission-input.v1", "run-submission.v1", RunSubmissionInput, create_run_submission
    ),
    "get_replay_summary": Operation.typed(
        "replay-summary-input.v1", "replay-summary.v1", ReplaySummaryInput, replay_summary
    ),
    "get_artifact_manifest": Operation.typed(
        "artifact-manifest-input.v1", "artifact-manifest.v1", ArtifactManifestInput, build_manifest
    ),
    "compare_planners": Operation.typed(
        "compare-planners-input.v1", "benchmark-report.v1", ComparePlannersInput, compare_planners
    ),
}
