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
from automium.mcp_server.errors import COMPLETE, tool_error
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


def answer(name: str, arguments: object) -> tuple[str, dict[str, Any]]:
    """Run tool ``name``: its one-line summary and its output document (no MCP types).

    Absent arguments mean no arguments, as on the wire. Raises :class:`AutomiumError` for an
    unknown tool or a refused input. The document is the default answer unless the
    arguments ask for ``detail: "full"`` (:mod:`automium.detail`); the summary line is the
    whole document's.
    """
    summary, document = find(name).answer({} if arguments is None else arguments)
    return summary, shaped(name, arguments, document)


def call_result(name: str, arguments: object) -> types.CallToolResult:
    """The MCP result of ``tools/call`` as a model, for in-process callers: the output, or an
    ``isError`` result (tool-error.v1)."""
    return types.CallToolResult.model_validate(wire_result(name, arguments))


def wire_result(name: str, arguments: object) -> dict[str, Any]:
    """The MCP result of ``tools/call`` as the wire spells it, which is what the server gives
    the SDK: its runner serialises a dict as it is, where a ``CallToolResult`` model is
    dumped first, one more walk of the answer's documents (~30 µs for a comparison)."""
    try:
        if _cacheable(name, arguments):
            summary, text = _cached_answer(name, json.dumps(arguments, sort_keys=True))
            return _success(summary, text, json.loads(text))
        summary, document = answer(name, arguments)
        return _success(summary, to_json(document), document)
    except AutomiumError as exc:
        return tool_error(exc)


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
    summary, document = answer(name, json.loads(arguments))
    return summary, to_json(document)


def _success(summary: str, text: str, document: dict[str, Any]) -> dict[str, Any]:
    # Structured content for clients that read it; the same JSON as text for those that
    # only show text content (what the MCP spec asks of tools with an outputSchema).
    return {
        "content": [{"type": "text", "text": summary}, {"type": "text", "text": text}],
        "structuredContent": document,
        "isError": False,
        **COMPLETE,
    }
