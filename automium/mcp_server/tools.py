"""``tools/list`` and ``tools/call``, derived from the capability table of the domain."""

from __future__ import annotations

import json
from functools import cache, lru_cache
from typing import Any

from mcp import types

from automium.capabilities import BY_NAME, CAPABILITIES, find
from automium.contracts import to_json
from automium.detail import shaped
from automium.errors import AutomiumError
from automium.mcp_server.errors import tool_error
from automium.mcp_server.schemas import input_schema, output_schema

# No destructiveHint: the spec gives it meaning only when readOnlyHint is false, and every
# session would pay 24 B a tool for it.
_READ_ONLY = types.ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)


@cache
def list_tools_result() -> types.ListToolsResult:
    """Built once: the table and the schemas never change while serving."""
    return types.ListToolsResult(
        tools=[
            types.Tool(
                name=capability.name,
                title=capability.title,
                description=capability.description,
                input_schema=input_schema(capability.input_contract),
                output_schema=output_schema(capability.output_contract),
                annotations=_READ_ONLY,
            )
            for capability in CAPABILITIES
        ]
    )


def input_schema_for(name: str) -> dict[str, Any] | None:
    try:
        return input_schema(find(name).input_contract)
    except AutomiumError:
        return None


def call_result(name: str, arguments: object) -> types.CallToolResult:
    """The result of ``tools/call``: the output, or an ``isError`` result (tool-error.v1).

    Absent arguments mean no arguments, as on the wire. The output is the default answer
    unless the arguments ask for ``detail: "full"`` (:mod:`automium.detail`); the summary
    line is the whole document's.
    """
    arguments = {} if arguments is None else arguments
    try:
        if _cacheable(name, arguments):
            summary, text = _cached_answer(name, json.dumps(arguments, sort_keys=True))
            return _success(summary, text, json.loads(text))
        summary, document = find(name).answer(arguments)
        document = shaped(name, arguments, document)
        return _success(summary, to_json(document), document)
    except AutomiumError as exc:
        return types.CallToolResult.model_validate(tool_error(exc))


def _cacheable(name: str, arguments: object) -> bool:
    capability = BY_NAME.get(name)
    # A handful of distinct arguments exist (no filter, or one app id); larger ones are
    # refused, so they are not worth a cache entry. Only strings: the cache key is JSON
    # text, and an in-process caller's value may be one json.dumps cannot write (a huge
    # int, bytes, 5,000 levels of lists), which the limits refuse at its path instead.
    return bool(capability and capability.cacheable) and (
        isinstance(arguments, dict)
        and len(arguments) < 4
        and all(isinstance(k, str) and isinstance(v, str) for k, v in arguments.items())
    )


@lru_cache(maxsize=32)
def _cached_answer(name: str, arguments: str) -> tuple[str, str]:
    # Text, not a result object: every call gets documents of its own, so a caller that
    # changes one answer cannot change the next.
    summary, document = find(name).answer(json.loads(arguments))
    return summary, to_json(document)


def _success(summary: str, text: str, document: dict[str, Any]) -> types.CallToolResult:
    # Structured content for clients that read it; the same JSON as text for those that
    # only show text content (what the MCP spec asks of tools with an outputSchema).
    return types.CallToolResult(
        content=[
            types.TextContent(type="text", text=summary),
            types.TextContent(type="text", text=text),
        ],
        structured_content=document,
        is_error=False,
    )
