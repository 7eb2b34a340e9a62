"""Over HTTP at most 64 sessions are open: a client that opens session after session (one
opened 464 a second, and 3,000 sessions held 117 MiB) has the oldest idle ones closed, and
the server's memory stays flat; when all 64 are serving a request, a new one is refused
``503`` with a JSON-RPC error that says why."""

from __future__ import annotations

import json
import os
import re
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from automium.mcp_server.http_sessions import MAX_SESSIONS
from tests.safety.raw_http import connect, http_server, initialize, port_of, response
from tests.safety.raw_stdio import RawServer, raw_server

pytestmark = pytest.mark.subprocess

SESSIONS = 3_000 if os.environ.get("CI") == "true" else 600
GROWTH_BOUND_KIB = 12 * 1024  # 600 sessions kept cost ~24 MiB; 64 cost ~2.5 MiB


@pytest.fixture
def http(tmp_path: Path) -> Iterator[tuple[RawServer, int]]:
    with raw_server(tmp_path, http_server()) as server:
        yield server, port_of(server)


def _open_session(port: int) -> str:
    answer = response(connect(port, initialize(port)))
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:300]
    found = re.search(rb"(?i)mcp-session-id: ([0-9a-f]+)", answer)
    assert found is not None
    return found[1].decode()


def _get(port: int, session_id: str, method: str = "GET") -> bytes:
    head = (
        f"{method} /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n"
        f"Mcp-Protocol-Version: 2025-11-25\r\nMcp-Session-Id: {session_id}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode()


def _status(sock: socket.socket) -> bytes:
    """The status line of the answer on ``sock``, read as soon as it arrives."""
    received = b""
    while b"\r\n" not in received:
        chunk = sock.recv(4096)
        if not chunk:
            break
        received += chunk
    return received.split(b"\r\n", 1)[0]


def test_a_session_flood_keeps_64_sessions_and_flat_memory(http: tuple[RawServer, int]) -> None:
    server, port = http
    first = _open_session(port)
    for _ in range(MAX_SESSIONS):
        _open_session(port)
    idle_kib = server.memory_kib("VmRSS")
    for _ in range(SESSIONS):
        newest = _open_session(port)
    flooded_kib = server.memory_kib("VmRSS")
    print(
        f"\n{SESSIONS:,} more HTTP sessions: RSS {idle_kib / 1024:.1f} MiB with "
        f"{MAX_SESSIONS} open, {flooded_kib / 1024:.1f} MiB after"
    )
    assert flooded_kib - idle_kib < GROWTH_BOUND_KIB
    with connect(port, _get(port, first)) as sock:
        assert _status(sock) == b"HTTP/1.1 404 Not Found"  # the oldest idle one was closed
    with connect(port, _get(port, newest)) as sock:
        assert _status(sock) == b"HTTP/1.1 200 OK"


def test_past_the_cap_with_every_session_busy_a_new_one_is_refused_503(
    http: tuple[RawServer, int],
) -> None:
    server, port = http
    streams, ids = [], []
    try:
        for _ in range(MAX_SESSIONS):
            ids.append(_open_session(port))
            sock = connect(port, _get(port, ids[-1]))
            assert _status(sock) == b"HTTP/1.1 200 OK"  # an open GET stream: a busy session
            streams.append(sock)
        refused = response(connect(port, initialize(port)))
        ended = response(connect(port, _get(port, ids[0], "DELETE")))
        reopened = _open_session(port)  # one session ended: there is room again
    finally:
        for sock in streams:
            sock.close()
    assert refused.startswith(b"HTTP/1.1 503 ")
    error = json.loads(refused.split(b"\r\n\r\n", 1)[1])["error"]
    assert f"all {MAX_SESSIONS} sessions are serving a request" in error["message"]
    assert ended.startswith(b"HTTP/1.1 200 ")
    assert reopened
    server.process.terminate()
    assert server.wait_exit() == 0
    assert b"Traceback" not in b"".join(server.stderr)
