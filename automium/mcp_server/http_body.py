"""Read an HTTP request body within a deadline, before the SDK sees the request.

uvicorn bounds no request read: a client that sends headers and part of a body holds the
request, and a server task, open for as long as it keeps the connection. And when a client
disconnects mid-body, the SDK's ``request.body()`` raises ``ClientDisconnect``, which the
SDK logs with a traceback.

:func:`bounded_body` wraps the whole app. For a POST it reads the body first: all of it
within ``seconds`` of the first read (else ``408`` and the connection is closed), at most
``max_bytes`` of it (else ``413``, as the SDK's own limit answers), and a client that leaves
before the end is logged in one line and answered with nothing (there is nobody to answer).
The SDK then receives the body in one message; its later reads (a streamed response waits
for the client to disconnect) go to the real ``receive``, unbounded, as they must. Other
methods carry no body the SDK reads and pass straight through.
"""

from __future__ import annotations

import logging

import anyio
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("automium.mcp")


def bounded_body(app: ASGIApp, max_bytes: int, seconds: float) -> ASGIApp:
    """``app``, with every POST body read in full within ``seconds`` (see the docstring)."""

    async def bounded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > max_bytes:
            await _refuse(send, 413, "Request body too large")
            return
        try:
            with anyio.fail_after(seconds):
                body = await _read_body(receive, max_bytes)
        except TimeoutError:
            log.info("closed a request whose body took longer than %s s", seconds)
            await _refuse(send, 408, "Request body timeout")
            return
        if body is None:
            log.info("the client left before its request body was complete")
            return
        if len(body) > max_bytes:
            await _refuse(send, 413, "Request body too large")
            return
        await app(scope, _replay(body, receive), send)

    return bounded


async def _read_body(receive: Receive, max_bytes: int) -> bytearray | None:
    """The whole body (or its first ``max_bytes`` + 1 bytes); None if the client left."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        body += message.get("body", b"")
        if len(body) > max_bytes or not message.get("more_body", False):
            return body


def _replay(body: bytearray, receive: Receive) -> Receive:
    pending: list[Message] = [{"type": "http.request", "body": bytes(body), "more_body": False}]

    async def replayed() -> Message:
        return pending.pop() if pending else await receive()

    return replayed


async def _refuse(send: Send, status: int, text: str) -> None:
    # "connection: close": the rest of the body is never read, so the connection cannot
    # carry another request.
    body = text.encode()
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
