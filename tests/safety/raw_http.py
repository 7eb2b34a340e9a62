"""Raw HTTP/1.1 against ``automium serve --http``: requests written byte by byte, so a test
can stop in the middle of a body, or leave, as a hostile or broken client does."""

from __future__ import annotations

import json
import re
import socket
import sys

from tests.safety.raw_stdio import RawServer

READ_SECONDS = 10.0  # a bound on every socket read, never a sleep


def http_server(*options: str) -> list[str]:
    """The command line of ``automium serve --http`` on a free port, logging at INFO."""
    return [
        sys.executable,
        "-c",
        "import sys; from automium.cli import main; sys.exit(main())",
        "--log-level",
        "INFO",
        "serve",
        "--http",
        "--port",
        "0",
        *options,
    ]


def port_of(server: RawServer) -> int:
    """The port the server printed once it listens (connections made from then on wait in
    the backlog until uvicorn has started)."""
    server.wait_for_stderr(b"serving MCP at")
    found = re.search(rb"http://127\.0\.0\.1:(\d+)/mcp", b"".join(server.stderr))
    assert found is not None
    return int(found[1])


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw-http", "version": "0"},
    },
}


def initialize(port: int, body: bytes | None = None) -> bytes:
    """An ``initialize`` POST (headers and body) as the wire carries it."""
    payload = body or json.dumps(INITIALIZE).encode()
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\nConnection: close\r\n"
        f"Content-Length: {len(payload)}\r\n\r\n"
    )
    return head.encode() + payload


def connect(port: int, data: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=READ_SECONDS)
    sock.sendall(data)
    return sock


def response(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (bounded per read)."""
    received = b""
    with sock:
        while chunk := sock.recv(65536):
            received += chunk
    return received
