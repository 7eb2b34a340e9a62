"""Serve over stdio: stdout carries JSON-RPC only; logs go to stderr."""

from __future__ import annotations

import anyio
from mcp.server.stdio import stdio_server

from automium.mcp_server.server import build_server


async def _serve() -> None:
    server = build_server()
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def serve_stdio() -> None:
    anyio.run(_serve)
