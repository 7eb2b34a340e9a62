"""Serve over Streamable HTTP at ``/mcp``, on the loopback interface only.

The listening socket is always 127.0.0.1: Automium has no authentication, so only processes
on this machine may reach it. ``localhost`` is accepted as a spelling of
127.0.0.1 (it is bound as the IPv4 address, never resolved); every other host, including
``0.0.0.0``, ``::``, ``::1`` and LAN addresses, is refused before anything is bound.
DNS-rebinding protection is on: the Host header must name this exact port on 127.0.0.1 or
localhost (else 421) and a browser Origin must be one of those two (else 403).

Logs go to stderr only: uvicorn's own logging config (access log on stdout) is disabled, so
its records reach the root handler the CLI set up.

Reads are bounded where the app can bound them: a POST body must arrive in full within
``read_timeout`` seconds (10 by default) and be at most 4 MiB (see
:mod:`~automium.mcp_server.http_body`). uvicorn itself times nothing out before a request's
headers are complete; README "known gaps" says what that leaves. At most 64 sessions are
open at once (see :mod:`~automium.mcp_server.http_sessions`).
"""

from __future__ import annotations

import logging
import socket
import sys

import uvicorn
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE, TransportSecuritySettings
from starlette.types import ASGIApp

from automium.defaults import ACCEPTED_HOSTS, LOOPBACK
from automium.mcp_server.http_body import bounded_body
from automium.mcp_server.http_sessions import MAX_SESSIONS, capped_sessions
from automium.mcp_server.server import build_server

log = logging.getLogger("automium.mcp")

PATH = "/mcp"
# Open GET/SSE streams never end by themselves; stop waiting for them on shutdown.
_SHUTDOWN_GRACE_SECONDS = 3
READ_TIMEOUT_SECONDS = 10.0
"""How long a request body may take to arrive: on loopback 4 MiB takes milliseconds."""


class RefusedHost(ValueError):
    """``--host`` names something other than the loopback address."""


def check_host(host: str) -> str:
    """The address to bind for ``host``: always 127.0.0.1, or :class:`RefusedHost`."""
    if host not in ACCEPTED_HOSTS:
        raise RefusedHost(
            f"refusing to serve on {host!r}: Automium serves HTTP on {LOOPBACK} only "
            f"(--host {LOOPBACK} or localhost); it has no authentication, so it must never be "
            "reachable from another machine or interface."
        )
    return LOOPBACK


def security_settings(port: int) -> TransportSecuritySettings:
    """Host/Origin allow-lists naming exactly this port (no ``:*`` wildcards)."""
    names = (LOOPBACK, "localhost")
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{name}:{port}" for name in names],
        allowed_origins=[f"http://{name}:{port}" for name in names],
    )


def build_app(port: int, read_timeout: float = READ_TIMEOUT_SECONDS) -> ASGIApp:
    """The ASGI app for a server listening on 127.0.0.1:``port`` (not started)."""
    server = build_server()
    app = server.streamable_http_app(
        streamable_http_path=PATH,
        host=LOOPBACK,
        transport_security=security_settings(port),
        max_sessions=MAX_SESSIONS,
    )
    capped = capped_sessions(app, server.session_manager, MAX_SESSIONS)
    return bounded_body(capped, DEFAULT_MAX_REQUEST_BODY_SIZE, read_timeout)


def _bind(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((LOOPBACK, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def serve_http(host: str, port: int, read_timeout: float = READ_TIMEOUT_SECONDS) -> None:
    """Serve until interrupted. Raises :class:`RefusedHost` before binding anything, and
    ``OSError`` if the port cannot be bound."""
    address = check_host(host)
    with _bind(port) as sock:
        port = sock.getsockname()[1]  # the chosen one when port was 0
        config = uvicorn.Config(
            build_app(port, read_timeout),
            log_config=None,
            timeout_graceful_shutdown=_SHUTDOWN_GRACE_SECONDS,
            lifespan="on",
        )
        # Always printed (whatever the log level): with --port 0 it is the only way to learn
        # the port. Connections made from now on wait in the listen backlog until uvicorn
        # has started the session manager.
        print(f"automium: serving MCP at http://{address}:{port}{PATH}", file=sys.stderr)
        sys.stderr.flush()
        try:
            uvicorn.Server(config).run(sockets=[sock])
        except KeyboardInterrupt:  # uvicorn re-raises the SIGINT/SIGTERM it shut down for
            log.info("stopped")
