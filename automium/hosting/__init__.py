"""Serving the corpus's owned apps on loopback: an adapter, like ``mcp_server``.

The domain never imports this package and the MCP server never imports it: the server is
model-only, while this package opens sockets. ``automium apps serve``, the browser tier of
the tests and ``automium run`` all serve an app through :class:`AppServer`.
"""

from automium.hosting.server import AppServer, Fault

__all__ = ["AppServer", "Fault"]
