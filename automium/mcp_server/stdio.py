"""Serve one MCP session over stdio: stdout carries JSON-RPC only; logs go to stderr.

The transport is Automium's own (:mod:`automium.mcp_server._stdio` says what it replaces
in the SDK's, and why).
"""

from __future__ import annotations

import anyio

from automium.mcp_server._stdio import serve_session
from automium.mcp_server._stdio.descriptors import claimed_stdio, non_blocking
from automium.mcp_server.server import build_server


def serve_stdio() -> None:
    """Serve one session on stdin/stdout until stdin ends, stdout closes or a signal."""
    anyio.run(_serve)


async def _serve() -> None:
    server = build_server()
    with claimed_stdio() as (wire_in, wire_out), non_blocking(wire_out):
        await serve_session(server, wire_in, wire_out)
