"""The MCP boundary: the only package that imports ``mcp``.

It validates nothing itself beyond routing (the domain's operations check their contracts),
delegates to :mod:`automium.api`, shapes MCP results and converts domain errors. If the SDK
changes, only this package changes.
"""

from automium.mcp_server.server import build_server

__all__ = ["build_server"]
