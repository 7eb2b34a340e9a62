"""At most :data:`MAX_SESSIONS` Streamable HTTP sessions at once; the oldest idle one makes
room for a new one.

The SDK keeps a session (~40 KiB, and a server task) until its client ends it or it has
been idle for 30 minutes, and admits up to 10,000: one local client opened 464 sessions a
second, and 3,000 of them held 117 MiB. :func:`capped_sessions` wraps the app: it tracks,
per session, the requests being served (an open GET stream is one) and when the last one
ended. A request that opens a session while the cap is reached first closes the session
idle the longest (its id then answers 404, as an expired one does); when every session is
serving a request, it is answered ``503`` with a JSON-RPC error saying so.

The session table is the SDK's (``StreamableHTTPSessionManager._server_instances``, a
private attribute; ``tests/safety/test_http_sessions.py`` fails if it goes).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from mcp.server.streamable_http import MCP_SESSION_ID_HEADER, StreamableHTTPServerTransport
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("automium.mcp")

MAX_SESSIONS = 64
"""Open HTTP sessions at most: far more than the few clients of one machine need."""


@dataclass
class _Use:
    serving: int = 0
    idle_since: float = field(default_factory=time.monotonic)


def capped_sessions(app: ASGIApp, manager: StreamableHTTPSessionManager, cap: int) -> ASGIApp:
    """``app`` with at most ``cap`` sessions open (see the module docstring)."""
    uses: dict[str, _Use] = {}

    def sessions() -> Mapping[str, StreamableHTTPServerTransport]:
        return manager._server_instances  # the SDK's own table: no copy to drift

    async def make_room() -> bool:
        open_now = sessions()
        for gone in set(uses) - set(open_now):
            del uses[gone]
        if len(open_now) < cap:
            return True
        # A session not in ``uses`` yet is still being opened: busy.
        idle = [(uses[sid].idle_since, sid) for sid in open_now if sid in uses]
        idle = [(since, sid) for since, sid in idle if not uses[sid].serving]
        if not idle:
            return False
        _, oldest = min(idle)
        transport = manager._server_instances.pop(oldest)
        uses.pop(oldest, None)
        await transport.terminate()
        log.info("closed the session idle the longest, to open a new one (cap %d)", cap)
        return True

    async def capped(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        session_id = Headers(scope=scope).get(MCP_SESSION_ID_HEADER)
        if session_id is None and scope["method"] == "POST" and not await make_room():
            await _refuse(send, cap)
            return
        opened: list[str] = []

        async def noting_the_session(message: Message) -> None:
            if message["type"] == "http.response.start":
                found = Headers(raw=message.get("headers", [])).get(MCP_SESSION_ID_HEADER)
                if found is not None and session_id is None:
                    opened.append(found)
            await send(message)

        known = session_id is not None and session_id in sessions()
        use = uses.setdefault(session_id, _Use()) if known and session_id else _Use()
        use.serving += 1
        try:
            await app(scope, receive, noting_the_session)
        finally:
            use.serving -= 1
            use.idle_since = time.monotonic()
            for new in opened:
                uses.setdefault(new, _Use())

    return capped


async def _refuse(send: Send, cap: int) -> None:
    message = (
        f"Too many open sessions: all {cap} sessions are serving a request. End one "
        "(DELETE /mcp with its Mcp-Session-Id) or retry once a request has been answered."
    )
    body = json.dumps(
        {"jsonrpc": "2.0", "id": None, "error": {"code": -32000, "message": message}}
    ).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})
