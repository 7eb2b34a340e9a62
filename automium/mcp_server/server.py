"""The composition root: ``build_server()`` wires the v1 tables into an SDK server.

Every handler delegates to its table module and converts failures in one place; nothing is
built at import time, and the prompt and resource tables load on their first request (a
start-up imports what ``tools/list`` needs, and no more).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from mcp import MCPError, types
from mcp.server import Server, ServerRequestContext

from automium import __version__
from automium.mcp_server import tools
from automium.mcp_server.errors import internal_error

log = logging.getLogger("automium.mcp")
R = TypeVar("R")

INSTRUCTIONS = (
    "Automium v1 is model-only browser QA. Read automium://apps and automium://fixtures, "
    "draft a journey (prompt draft_journey), compile it (automium_compile_journey), then "
    "model a run, its replay summary and artifact manifest, and compare planners. Every "
    "tool is read-only and deterministic: no browser, no network, nothing persisted or "
    "executed. Errors carry a code, a JSON path and the allowed values."
)


async def _list_tools(
    _ctx: ServerRequestContext, _params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    return tools.list_tools_result()


def _guarded(what: str, handler: Callable[..., R], *args: Any) -> R:
    """Run a table's handler; a failure nobody planned for is a bare -32603 (logged)."""
    try:
        return handler(*args)
    except MCPError:
        raise
    except Exception:
        raise internal_error(what) from None


async def _call_tool(
    _ctx: ServerRequestContext, params: types.CallToolRequestParams
) -> types.CallToolResult:
    log.debug("tools/call %s", params.name)
    return _guarded(
        f"tools/call {params.name[:100]}", tools.call_result, params.name, params.arguments
    )


async def _list_resources(
    _ctx: ServerRequestContext, _params: types.PaginatedRequestParams | None
) -> types.ListResourcesResult:
    from automium.mcp_server import resources  # loaded on first use

    return resources.list_resources_result()


async def _list_resource_templates(
    _ctx: ServerRequestContext, _params: types.PaginatedRequestParams | None
) -> types.ListResourceTemplatesResult:
    # Every resource has a fixed URI; clients such as the Inspector still ask, and an empty
    # list answers them where -32601 would read as a broken resources capability.
    return types.ListResourceTemplatesResult(resource_templates=[])


async def _read_resource(
    _ctx: ServerRequestContext, params: types.ReadResourceRequestParams
) -> types.ReadResourceResult:
    from automium.mcp_server import resources

    return _guarded("resources/read", resources.read, str(params.uri))


async def _list_prompts(
    _ctx: ServerRequestContext, _params: types.PaginatedRequestParams | None
) -> types.ListPromptsResult:
    from automium.mcp_server import prompts  # loaded on first use

    return prompts.list_prompts_result()


async def _get_prompt(
    _ctx: ServerRequestContext, params: types.GetPromptRequestParams
) -> types.GetPromptResult:
    from automium.mcp_server import prompts

    return _guarded(f"prompts/get {params.name[:100]}", prompts.get, params.name, params.arguments)


async def _complete(
    _ctx: ServerRequestContext, params: types.CompleteRequestParams
) -> types.CompleteResult:
    from automium.mcp_server import prompts

    values: list[str] = []
    if isinstance(params.ref, types.PromptReference):
        context = (params.context.arguments if params.context else None) or {}
        values = prompts.complete(
            params.ref.name, params.argument.name, params.argument.value, context
        )
    return types.CompleteResult(
        completion=types.Completion(values=values[:100], total=len(values), has_more=False)
    )


async def _set_logging_level(
    _ctx: ServerRequestContext, params: types.SetLevelRequestParams
) -> types.EmptyResult:
    # Handshake-era clients (2025-06-18, 2025-11-25) may send logging/setLevel. Automium
    # sends no log notifications at all, so every level is honoured trivially. Registered
    # with add_request_handler: Server(on_set_logging_level=...) warns at construction.
    log.debug("logging/setLevel %s (no log notifications are sent)", params.level)
    return types.EmptyResult()


def build_server() -> Server:
    """A ready-to-run Automium MCP server (not started)."""
    server = Server(
        "automium",
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=_list_tools,
        on_call_tool=_call_tool,
        on_list_resources=_list_resources,
        on_list_resource_templates=_list_resource_templates,
        on_read_resource=_read_resource,
        on_list_prompts=_list_prompts,
        on_get_prompt=_get_prompt,
        on_completion=_complete,
        get_tool_input_schema=tools.input_schema_for,
    )
    server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, _set_logging_level)
    return server
