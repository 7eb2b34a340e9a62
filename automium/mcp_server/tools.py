"""The seven v1 tools: one table read by both ``tools/list`` and ``tools/call``."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from mcp import types

from automium.api import OPERATIONS, Operation
from automium.contracts import ErrorCode, to_document
from automium.errors import AutomiumError
from automium.limits import check_arguments
from automium.mcp_server.errors import tool_error_result
from automium.mcp_server.schemas import published_schema
from automium.modeled import NOT_EXECUTED

Summary = Callable[[Mapping[str, Any]], str]

_READ_ONLY = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


@dataclass(frozen=True, slots=True)
class ToolSpec:
    name: str
    title: str
    description: str
    operation: Operation
    summary: Summary
    # The answer depends on the checked-in corpus only: built once per distinct arguments.
    static: bool = False


def _names(items: list[Mapping[str, Any]]) -> str:
    return ", ".join(str(item["id"]) for item in items)


def _verdict_line(doc: Mapping[str, Any]) -> str:
    kinds = ", ".join(doc["requiredArtifactKinds"])
    return f"Replay summary for {doc['runId']} ({doc['verdict']}): needs {kinds}."


def _compare_line(doc: Mapping[str, Any]) -> str:
    best = max(doc["planners"], key=lambda p: p["metrics"]["passRate"])
    return (
        f"Compared {len(doc['planners'])} planner(s) on {len(doc['appIds'])} app(s), "
        f"{doc['trialCount']} modeled trials, k={doc['repetitions']}; highest pass rate: "
        f"{best['planner']['id']} ({best['metrics']['passRate']:.0%})."
    )


_NO_SIDE_EFFECTS = "Read-only and deterministic: no browser, no network, nothing persisted."

TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "automium_list_apps",
        "List benchmark apps",
        "List the apps of Automium's owned benchmark corpus: ids, hosting, rationale, "
        "capabilities and route manifests. Use it first, to pick an app and its route ids. "
        + _NO_SIDE_EFFECTS,
        OPERATIONS["list_apps"],
        lambda d: f"{len(d['apps'])} apps in corpus {d['corpusVersion']}: {_names(d['apps'])}.",
        static=True,
    ),
    ToolSpec(
        "automium_list_fixtures",
        "List benchmark fixtures",
        "List the corpus fixtures (optionally of one app) with their environment profiles, "
        "seed and account refs (names only, never secrets) and artifact roots. Use it to pick "
        "a fixtureId and environmentProfileId. Does not seed or reset anything. "
        + _NO_SIDE_EFFECTS,
        OPERATIONS["list_fixtures"],
        lambda d: f"{len(d['fixtures'])} fixtures: {_names(d['fixtures'])}.",
        static=True,
    ),
    ToolSpec(
        "automium_compile_journey",
        "Validate and compile a journey",
        "Validate a journey against the corpus and the frozen intent vocabulary and compile it "
        "into its graph. An invalid journey returns an error listing every problem with its "
        "JSON path and allowed values. Does not run the journey or store it. " + _NO_SIDE_EFFECTS,
        OPERATIONS["compile_journey"],
        lambda d: (
            f"Journey {d['journeyId']} is valid: {d['stepCount']} steps, "
            f"{d['assertionCount']} assertions, {len(d['graph']['nodes'])} graph nodes."
        ),
    ),
    ToolSpec(
        "automium_create_run_submission",
        "Model a run submission",
        "Model the submission of a run of a journey with a planner: returns a deterministic "
        "run id and opaque artifact-manifest and replay-stream refs. It is modeled only: "
        "nothing is queued or executed. " + _NO_SIDE_EFFECTS,
        OPERATIONS["create_run_submission"],
        lambda d: f"Modeled run {d['runId']} of {d['journeyId']} (status {d['status']}).",
    ),
    ToolSpec(
        "automium_get_replay_summary",
        "Summarise a run's replay",
        "Build a replay summary from run metadata you supply (run id, verdict, retries, "
        "manifest ref): the artifact kinds a replay of that verdict needs and the lanes to "
        "read first. Reads no replay file. " + _NO_SIDE_EFFECTS,
        OPERATIONS["get_replay_summary"],
        _verdict_line,
    ),
    ToolSpec(
        "automium_get_artifact_manifest",
        "Build an artifact manifest",
        "Build a run's artifact manifest from entries you supply, checking kinds against the "
        "vocabulary and paths as relative POSIX paths under the root. Reads, writes and "
        "uploads no file. " + _NO_SIDE_EFFECTS,
        OPERATIONS["get_artifact_manifest"],
        lambda d: f"Artifact manifest for {d['runId']}: {len(d['entries'])} entries.",
    ),
    ToolSpec(
        "automium_compare_planners",
        "Compare planner backends",
        "Compare planner backends on the corpus's reference journeys: pass rate, "
        "repeatability (pass^k), median latency, token spend and recovery success, per planner "
        "and per app. Trials are modeled: no planner API is called and nothing is executed. "
        + _NO_SIDE_EFFECTS,
        OPERATIONS["compare_planners"],
        _compare_line,
    ),
)

TOOLS_BY_NAME: Mapping[str, ToolSpec] = {tool.name: tool for tool in TOOLS}


@cache
def list_tools_result() -> types.ListToolsResult:
    """Built once: the table and the schemas never change while serving."""
    return types.ListToolsResult(
        tools=[
            types.Tool(
                name=tool.name,
                title=tool.title,
                description=tool.description,
                input_schema=published_schema(tool.operation.input_contract),
                output_schema=published_schema(tool.operation.output_contract),
                annotations=_READ_ONLY,
            )
            for tool in TOOLS
        ]
    )


def input_schema_for(name: str) -> dict[str, Any] | None:
    tool = TOOLS_BY_NAME.get(name)
    return published_schema(tool.operation.input_contract) if tool else None


def unknown_tool(name: str) -> AutomiumError:
    return AutomiumError.single(
        ErrorCode.UNSUPPORTED_OPERATION,
        f"{name[:100]!r} is not a v1 tool. Automium v1 is model-only: live execution (running a "
        "browser, a planner or a queue) is not part of v1. Use one of the listed tools.",
        "",
        list(TOOLS_BY_NAME),
    )


def call(name: str, arguments: object) -> tuple[str, dict[str, Any]]:
    """Run tool ``name``: its one-line summary and its output document.

    Raises :class:`AutomiumError` for an unknown tool or a refused input.
    """
    tool = TOOLS_BY_NAME.get(name)
    if tool is None:
        raise unknown_tool(name)
    check_arguments(arguments)  # size and depth first: bounds the work of everything after
    document = to_document(tool.operation.run({} if arguments is None else arguments))
    summary = tool.summary(document)
    if "modeled" in document:
        summary += " " + NOT_EXECUTED
    return summary, document


def result(name: str, arguments: object) -> types.CallToolResult:
    """The MCP result of a call: its output, or an ``isError`` result carrying tool-error.v1."""
    tool = TOOLS_BY_NAME.get(name)
    try:
        if tool is not None and tool.static and isinstance(arguments, dict) and len(arguments) < 4:
            return _static_result(name, json.dumps(arguments, sort_keys=True))
        return success_result(*call(name, arguments))
    except AutomiumError as exc:
        return tool_error_result(exc)


@lru_cache(maxsize=32)  # a handful of distinct arguments exist (no filter, or one app id)
def _static_result(name: str, arguments: str) -> types.CallToolResult:
    return success_result(*call(name, json.loads(arguments)))


def success_result(summary: str, document: dict[str, Any]) -> types.CallToolResult:
    # Structured content for clients that read it; the same JSON as text for those that
    # only show text content (what the MCP spec asks of tools with an outputSchema).
    return types.CallToolResult(
        content=[
            types.TextContent(type="text", text=summary),
            types.TextContent(type="text", text=json.dumps(document, ensure_ascii=False)),
        ],
        structured_content=document,
    )
