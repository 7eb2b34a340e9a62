"""The baseline: a bare low-level MCP server on the same SDK with one ``echo`` tool.

It does what every server on this SDK must do (import it, handshake, list tools, answer a
call with text and structured content) and nothing else, so Automium's numbers read as
ratios against it. Run it by path: ``python benchmarks/bare_server.py`` (stdio).
"""

from __future__ import annotations

import json
from typing import Any

import anyio
from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server


def _object(description: str) -> dict[str, Any]:
    return {"type": "object", "description": description, "additionalProperties": True}


ECHO = types.Tool(
    name="echo",
    description="Echo the arguments back, as text and as structured content.",
    input_schema=_object("Any JSON object; it is returned unchanged."),
    output_schema=_object("The arguments, unchanged."),
)


async def _list_tools(
    _ctx: ServerRequestContext, _params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[ECHO])


async def _call_tool(
    _ctx: ServerRequestContext, params: types.CallToolRequestParams
) -> types.CallToolResult:
    arguments: dict[str, Any] = dict(params.arguments or {})
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(arguments, ensure_ascii=False))],
        structured_content=arguments,
        is_error=params.name != "echo",
    )


async def _serve() -> None:
    server = Server(
        "bare-echo", version="0.0.0", on_list_tools=_list_tools, on_call_tool=_call_tool
    )
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(_serve)
