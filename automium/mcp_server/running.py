"""Serving until stopped, on either transport: what ``automium serve`` and
``python -m automium.mcp_server`` share.

SIGINT and SIGTERM stop the server cleanly with exit code 0, as does stdin closing (stdio) or
the client closing stdout (stdio, at the next write). Stopping on request is the normal end
of a session (MCP's stdio shutdown is "close stdin, then SIGTERM"), so it is no failure and
leaves no traceback; exit code 1 means the server could not serve (port taken), 2 a refused
host.
"""

from __future__ import annotations

import logging
import signal
import sys

from automium.defaults import LOOPBACK

DEFAULT_PORT = 4200


def serve(
    http: bool = False,
    host: str | None = None,
    port: int | None = None,
    read_timeout: float | None = None,
) -> int:
    """Serve until stopped; the exit code."""
    # SIGTERM stops the server as SIGINT does (uvicorn and the stdio transport each take
    # both over while they serve; this covers the start-up and the teardown around them).
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        if http:
            return _serve_http(
                host or LOOPBACK, DEFAULT_PORT if port is None else port, read_timeout
            )
        from automium.mcp_server.stdio import serve_stdio

        serve_stdio()
    except KeyboardInterrupt:
        logging.getLogger("automium.mcp").info("stopped")
    return 0


def _serve_http(host: str, port: int, read_timeout: float | None) -> int:
    from automium.mcp_server.http import RefusedHost, serve_http

    options = {} if read_timeout is None else {"read_timeout": read_timeout}
    try:
        serve_http(host, port, **options)
    except RefusedHost as exc:
        print(f"automium serve: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"automium serve: error: cannot listen on port {port}: {exc}", file=sys.stderr)
        return 1
    return 0
