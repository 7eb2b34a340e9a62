"""The domain's public operations, one per v1 capability, over raw JSON arguments.

Each operation validates its arguments against its input contract (so it accepts exactly
what the published schema accepts, plus the corpus's own checks), delegates to the domain
package that owns the rule, and returns a model of its output contract. Adapters (the MCP
server, tests, scripts) call these and never re-implement a rule.

The table itself is cheap to import: each operation imports its domain package when it
first runs, so an MCP session can list tools without loading the domain.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from automium.contracts import model_for


@dataclass(frozen=True, slots=True)
class Operation:
    """One capability: its input and output contracts and the function that runs it."""

    input_contract: str
    output_contract: str
    handle: Callable[[Any], BaseModel]
    # False when ``handle`` checks the raw arguments itself (a journey's validator checks
    # the contract and the corpus in one pass, so it gets the raw document).
    parse_first: bool = True

    def run(self, arguments: object) -> BaseModel:
        """Check ``arguments`` against the input contract, then run; raises AutomiumError."""
        if not self.parse_first:
            return self.handle(arguments)
        from automium import corpus
        from automium.validation import parse

        model = model_for(self.input_contract)
        return self.handle(parse(self.input_contract, arguments, model, corpus.vocabularies()))


def _list_apps(_request: Any) -> BaseModel:
    from automium import corpus

    return corpus.app_catalog()


def _list_fixtures(request: Any) -> BaseModel:
    from automium import corpus

    return corpus.fixture_catalog(request.app_id)


def _compile_journey(document: object) -> BaseModel:
    from automium.journeys import compile_journey

    return compile_journey(document)


def _create_run_submission(request: Any) -> BaseModel:
    from automium.runs import create_run_submission

    return create_run_submission(request)


def _get_replay_summary(request: Any) -> BaseModel:
    from automium.replay import replay_summary

    return replay_summary(request)


def _get_artifact_manifest(request: Any) -> BaseModel:
    from automium.artifacts import build_manifest

    return build_manifest(request)


def _compare_planners(request: Any) -> BaseModel:
    from automium.benchmark import compare_planners

    return compare_planners(request)


OPERATIONS: dict[str, Operation] = {
    "list_apps": Operation("list-apps-input.v1", "app-catalog.v1", _list_apps),
    "list_fixtures": Operation("list-fixtures-input.v1", "fixture-catalog.v1", _list_fixtures),
    "compile_journey": Operation(
        "journey.v1", "journey-compilation.v1", _compile_journey, parse_first=False
    ),
    "create_run_submission": Operation(
        "run-submission-input.v1", "run-submission.v1", _create_run_submission
    ),
    "get_replay_summary": Operation(
        "replay-summary-input.v1", "replay-summary.v1", _get_replay_summary
    ),
    "get_artifact_manifest": Operation(
        "artifact-manifest-input.v1", "artifact-manifest.v1", _get_artifact_manifest
    ),
    "compare_planners": Operation(
        "compare-planners-input.v1", "benchmark-report.v1", _compare_planners
    ),
}
