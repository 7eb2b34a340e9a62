"""Reads over Streamable HTTP are bounded, and a client that leaves costs one log line.

A POST whose body stops half way is answered ``408`` once ``--read-timeout`` has passed
(0.5 s here; 10 s by default) and its connection closed; a client that disconnects in the
middle of its body leaves no traceback (the SDK's ``request.body()`` used to raise
``ClientDisconnect`` and log it); a body declared over 4 MiB is refused ``413`` unread.
After each, the server still answers a full request. Every wait is bounded and returns as
soon as its bytes or its log line arrive.

The wrapper is also run in process, for what the wire cannot show deterministically (a
server that refuses an upload half way resets the connection, and the client may lose the
answer): a streamed body over the cap, the body handed on in one message, later reads and
GETs passed through untouched.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from automium.mcp_server.http_body import bounded_body
from tests.safety.raw_http import connect, http_server, initialize, port_of, response
from tests.safety.raw_stdio import RawServer, raw_server

READ_TIMEOUT = "0.5"


@pytest.fixture
def http(tmp_path: Path) -> Iterator[tuple[RawServer, int]]:
    with raw_server(tmp_path, http_server("--read-timeout", READ_TIMEOUT)) as server:
        yield server, port_of(server)


def _still_serving(port: int) -> None:
    assert response(connect(port, initialize(port))).startswith(b"HTTP/1.1 200 ")


def _stop(server: RawServer) -> bytes:
    server.process.terminate()
    assert server.wait_exit() == 0
    return b"".join(server.stderr)


@pytest.mark.subprocess
def test_a_body_that_stops_half_way_is_answered_408_and_closed(
    http: tuple[RawServer, int],
) -> None:
    server, port = http
    request = initialize(port)
    answer = response(connect(port, request[:-20]))  # returns once the server closes
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert answer.endswith(b"Request body timeout")
    _still_serving(port)
    assert b"Traceback" not in _stop(server)


@pytest.mark.subprocess
def test_a_client_that_leaves_mid_body_leaves_no_traceback(http: tuple[RawServer, int]) -> None:
    server, port = http
    connect(port, initialize(port)[:-20]).close()
    server.wait_for_stderr((b"left before its request body", b"Error handling POST request"))
    _still_serving(port)
    stderr = _stop(server)
    assert b"Traceback" not in stderr
    assert b"ClientDisconnect" not in stderr


@pytest.mark.subprocess
def test_a_declared_body_over_4_mib_is_refused_413_unread(http: tuple[RawServer, int]) -> None:
    server, port = http
    head = initialize(port).split(b"\r\n\r\n")[0].replace(b"Content-Length: ", b"X-Was: ")
    answer = response(connect(port, head + b"\r\nContent-Length: 5000000\r\n\r\n"))
    assert answer.startswith(b"HTTP/1.1 413 ")
    _still_serving(port)
    assert b"Traceback" not in _stop(server)


# --- the wrapper in process: what the wire cannot show deterministically ---------------------

Sent = list[dict[str, Any]]


def _app(called: list[list[Message]]) -> ASGIApp:
    async def app(_scope: Scope, receive: Receive, send: Send) -> None:
        called.append([await receive(), await receive()])
        await send({"type": "http.response.start", "status": 200, "headers": []})

    return app


def _receive(*messages: Message) -> Receive:
    queue = list(messages)

    async def receive() -> Message:
        if queue:
            return queue.pop(0)
        await anyio.Event().wait()  # a client that sends nothing more
        raise AssertionError("unreachable")

    return receive


async def _run(
    messages: list[Message], method: str = "POST", seconds: float = 5
) -> tuple[Sent, list[list[Message]]]:
    sent: Sent = []
    called: list[list[Message]] = []

    async def send(message: Message) -> None:
        sent.append(dict(message))

    scope = {"type": "http", "method": method, "headers": []}
    await bounded_body(_app(called), max_bytes=10, seconds=seconds)(
        scope, _receive(*messages), send
    )
    return sent, called


def _chunk(body: bytes, more: bool = True) -> Message:
    return {"type": "http.request", "body": body, "more_body": more}


@pytest.mark.anyio
async def test_a_streamed_body_over_the_cap_is_refused_413() -> None:
    sent, called = await _run([_chunk(b"123456"), _chunk(b"7890X")])
    assert (sent[0]["status"], called) == (413, [])


@pytest.mark.anyio
async def test_the_body_reaches_the_app_in_one_message_and_later_reads_pass_through() -> None:
    disconnect = {"type": "http.disconnect"}
    sent, called = await _run([_chunk(b"12"), _chunk(b"34", more=False), disconnect])
    assert called == [[_chunk(b"1234", more=False), disconnect]]
    assert sent[0]["status"] == 200


@pytest.mark.anyio
async def test_a_client_gone_mid_body_is_answered_nothing() -> None:
    assert await _run([_chunk(b"12"), {"type": "http.disconnect"}]) == ([], [])


@pytest.mark.anyio
async def test_a_body_slower_than_the_deadline_is_answered_408() -> None:
    sent, called = await _run([_chunk(b"12")], seconds=0.05)
    assert (sent[0]["status"], called) == (408, [])


@pytest.mark.anyio
async def test_a_get_is_not_touched() -> None:
    disconnect = {"type": "http.disconnect"}
    _, called = await _run([disconnect, disconnect], method="GET", seconds=0.05)
    assert called == [[disconnect, disconnect]]
