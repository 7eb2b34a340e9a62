"""The one facade over the generated contract package.

Everything generated from ``contracts/`` (pydantic models and bundled schemas) is reached
through here; nothing else imports ``automium_contracts``, so a change in the generator's
module layout touches this file only.

Models are imported on first use (PEP 562 ``__getattr__``): serving ``tools/list`` needs
only the bundled schemas, and building every model class would add tens of milliseconds to
each agent session's cold start.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:
    from automium_contracts.models.app_catalog_v1_schema import (
        AppCatalog,
    )
    from automium_contracts.models.artifact_manifest_input_v1_schema import (
        ArtifactManifestInput,
    )
    from automium_contracts.models.artifact_manifest_v1_schema import (
        ArtifactEntry,
        ArtifactManifest,
    )
    from automium_contracts.models.benchmark_report_v1_schema import (
        AppMetrics,
        BenchmarkReport,
        Metrics,
        PlannerReport,
        TokenSpend,
    )
    from automium_contracts.models.common_schema import (
        ArtifactKind,
        AssertionKind,
        Intent,
        Modeled,
        PlannerReference,
        RecoveryStrategy,
        ReplayLane,
        SemanticLocator,
        SnapshotRef,
        Verdict,
    )
    from automium_contracts.models.compare_planners_input_v1_schema import (
        ComparePlannersInput,
    )
    from automium_contracts.models.corpus_v1_schema import (
        App,
        Corpus,
        EnvironmentProfile,
        Fixture,
        Route,
    )
    from automium_contracts.models.fixture_catalog_v1_schema import (
        FixtureCatalog,
    )
    from automium_contracts.models.journey_compilation_v1_schema import (
        JourneyCompilation,
    )
    from automium_contracts.models.journey_graph_v1_schema import (
        Edge,
        EdgeTrigger,
        JourneyGraph,
        Node,
        NodeType,
    )
    from automium_contracts.models.journey_v1_schema import (
        Journey,
        OnExhausted,
        Recovery,
    )
    from automium_contracts.models.list_apps_input_v1_schema import (
        ListAppsInput,
    )
    from automium_contracts.models.list_fixtures_input_v1_schema import (
        ListFixturesInput,
    )
    from automium_contracts.models.planner_adapter_v1_schema import (
        PlannerAdapterMessage,
        PlannerDecision,
        PlannerRequest,
    )
    from automium_contracts.models.replay_event_v1_schema import (
        ReplayEvent,
    )
    from automium_contracts.models.replay_summary_input_v1_schema import (
        ReplaySummaryInput,
    )
    from automium_contracts.models.replay_summary_v1_schema import (
        ReplaySummary,
    )
    from automium_contracts.models.run_submission_input_v1_schema import (
        RunSubmissionInput,
    )
    from automium_contracts.models.run_submission_v1_schema import (
        RunSubmission,
    )
    from automium_contracts.models.semantic_snapshot_v1_schema import (
        SemanticSnapshot,
    )
    from automium_contracts.models.tool_error_v1_schema import (
        ErrorCode,
        Problem,
        ToolError,
    )

__all__ = [
    "App",
    "AppCatalog",
    "AppMetrics",
    "ArtifactEntry",
    "ArtifactKind",
    "ArtifactManifest",
    "ArtifactManifestInput",
    "AssertionKind",
    "BenchmarkReport",
    "ComparePlannersInput",
    "Corpus",
    "Edge",
    "EdgeTrigger",
    "EnvironmentProfile",
    "ErrorCode",
    "Fixture",
    "FixtureCatalog",
    "Intent",
    "Journey",
    "JourneyCompilation",
    "JourneyGraph",
    "ListAppsInput",
    "ListFixturesInput",
    "Metrics",
    "Modeled",
    "Node",
    "NodeType",
    "OnExhausted",
    "PlannerAdapterMessage",
    "PlannerDecision",
    "PlannerReference",
    "PlannerReport",
    "PlannerRequest",
    "Problem",
    "Recovery",
    "RecoveryStrategy",
    "ReplayEvent",
    "ReplayLane",
    "ReplaySummary",
    "ReplaySummaryInput",
    "Route",
    "RunSubmission",
    "RunSubmissionInput",
    "SemanticLocator",
    "SemanticSnapshot",
    "SnapshotRef",
    "TokenSpend",
    "ToolError",
    "Verdict",
    "bundled_schema",
    "bundled_schema_text",
    "check_schema",
    "contract_names",
    "model_for",
    "to_document",
]

_PACKAGE = "automium_contracts"
# Which generated module defines each re-exported name.
_HOMES: Mapping[str, tuple[str, ...]] = {
    "app_catalog_v1_schema": ("AppCatalog",),
    "artifact_manifest_input_v1_schema": ("ArtifactManifestInput",),
    "artifact_manifest_v1_schema": ("ArtifactEntry", "ArtifactManifest"),
    "benchmark_report_v1_schema": (
        "AppMetrics",
        "BenchmarkReport",
        "Metrics",
        "PlannerReport",
        "TokenSpend",
    ),
    "common_schema": (
        "ArtifactKind",
        "AssertionKind",
        "Intent",
        "Modeled",
        "PlannerReference",
        "RecoveryStrategy",
        "ReplayLane",
        "SemanticLocator",
        "SnapshotRef",
        "Verdict",
    ),
    "compare_planners_input_v1_schema": ("ComparePlannersInput",),
    "corpus_v1_schema": ("App", "Corpus", "EnvironmentProfile", "Fixture", "Route"),
    "fixture_catalog_v1_schema": ("FixtureCatalog",),
    "journey_compilation_v1_schema": ("JourneyCompilation",),
    "journey_graph_v1_schema": ("Edge", "EdgeTrigger", "JourneyGraph", "Node", "NodeType"),
    "journey_v1_schema": ("Journey", "OnExhausted", "Recovery"),
    "list_apps_input_v1_schema": ("ListAppsInput",),
    "list_fixtures_input_v1_schema": ("ListFixturesInput",),
    "planner_adapter_v1_schema": ("PlannerAdapterMessage", "PlannerDecision", "PlannerRequest"),
    "replay_event_v1_schema": ("ReplayEvent",),
    "replay_summary_input_v1_schema": ("ReplaySummaryInput",),
    "replay_summary_v1_schema": ("ReplaySummary",),
    "run_submission_input_v1_schema": ("RunSubmissionInput",),
    "run_submission_v1_schema": ("RunSubmission",),
    "semantic_snapshot_v1_schema": ("SemanticSnapshot",),
    "tool_error_v1_schema": ("ErrorCode", "Problem", "ToolError"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{_PACKAGE}.models.{module}"), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


@cache
def contract_names() -> tuple[str, ...]:
    """Names of every contract with a bundled schema, e.g. ``"journey.v1"``, sorted."""
    folder = resources.files(_PACKAGE) / "schemas"
    return tuple(
        sorted(
            entry.name.removesuffix(".json")
            for entry in folder.iterdir()
            if entry.name.endswith(".json")
        )
    )


def _read(folder: str, name: str) -> str:
    if name not in contract_names():
        raise KeyError(name)
    return (resources.files(_PACKAGE) / folder / f"{name}.json").read_text(encoding="utf-8")


@cache
def bundled_schema_text(name: str) -> str:
    """The bundled schema of contract ``name``, byte for byte as generated."""
    return _read("schemas", name)


@cache
def bundled_schema(name: str) -> Mapping[str, Any]:
    """The bundled schema of contract ``name``, parsed once (treat it as read-only)."""
    schema: dict[str, Any] = json.loads(bundled_schema_text(name))
    return schema


@cache
def check_schema(name: str) -> Mapping[str, Any]:
    """The validation-only projection of contract ``name`` (annotations dropped, unions
    dispatched on their tag), parsed once (treat it as read-only)."""
    schema: dict[str, Any] = json.loads(_read("checks", name))
    return schema


@cache
def model_for(contract: str) -> type[BaseModel]:
    """The model of a contract's root document (``common`` has none: it is only $defs).

    The generator names the module after the file and the class after the ``title``.
    """
    module = contract.replace("-", "_").replace(".", "_") + "_schema"
    model: type[BaseModel] = getattr(
        importlib.import_module(f"{_PACKAGE}.models.{module}"),
        bundled_schema(contract)["title"],
    )
    return model


def to_document(model: BaseModel) -> dict[str, Any]:
    """A model as its contract spells it on the wire: camelCase, absent fields left out.

    Leaving out ``None`` is exact because no contract has a nullable property: an
    optional field is either present with a value or absent.
    """
    document: dict[str, Any] = model.model_dump(mode="json", by_alias=True, exclude_none=True)
    return document
