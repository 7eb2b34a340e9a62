"""The six fixed v1 resources. Anything else is refused: there is no general file access."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from mcp import types

from automium import contracts
from automium.contracts import bundled_schema_text
from automium.errors import AutomiumError
from automium.mcp_server.errors import refused_params

JSON = "application/json"


@dataclass(frozen=True, slots=True)
class ResourceSpec:
    uri: str
    name: str
    title: str
    description: str
    read: Callable[[], str]


def _corpus_json(listing: str) -> str:
    # The corpus is loaded on first read, not when the server starts.
    from automium import corpus

    catalog = corpus.app_catalog() if listing == "app_catalog" else corpus.fixture_catalog()
    return contracts.to_json(contracts.to_document(catalog))


def _contract(name: str, what: str) -> ResourceSpec:
    return ResourceSpec(
        f"automium://contracts/{name.replace('.', '-')}",
        f"contract-{name}",
        f"Contract {name}",
        f"The {what} contract (JSON Schema 2020-12, bundled: no external refs).",
        lambda: bundled_schema_text(name),
    )


RESOURCES: tuple[ResourceSpec, ...] = (
    ResourceSpec(
        "automium://apps",
        "apps",
        "Benchmark apps",
        "The owned benchmark apps with hosting, rationale, capabilities and route manifests.",
        lambda: _corpus_json("app_catalog"),
    ),
    ResourceSpec(
        "automium://fixtures",
        "fixtures",
        "Benchmark fixtures",
        "Every fixture of the corpus with the environment profiles they use.",
        lambda: _corpus_json("fixture_catalog"),
    ),
    _contract("planner-adapter.v1", "planner adapter (planner requests and decisions)"),
    _contract("replay-event.v1", "replay event"),
    _contract("semantic-snapshot.v1", "semantic snapshot"),
    _contract("artifact-manifest.v1", "artifact manifest"),
)

RESOURCES_BY_URI: Mapping[str, ResourceSpec] = {r.uri: r for r in RESOURCES}


@cache
def list_resources_result() -> types.ListResourcesResult:
    return types.ListResourcesResult(
        resources=[
            types.Resource(
                uri=r.uri, name=r.name, title=r.title, description=r.description, mime_type=JSON
            )
            for r in RESOURCES
        ]
    )


def read(uri: str) -> types.ReadResourceResult:
    # Exact match only: case variants, "..", queries and fragments are other URIs.
    spec = RESOURCES_BY_URI.get(uri)
    if spec is None:
        raise refused_params(
            AutomiumError.single(
                contracts.ErrorCode.UNSUPPORTED_RESOURCE_URI,
                f"Unknown resource {uri[:200]!r}; v1 serves a fixed list of resources only.",
                "",
                list(RESOURCES_BY_URI),
            )
        )
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=spec.uri, mime_type=JSON, text=spec.read())]
    )
