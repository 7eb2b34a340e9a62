"""The app host under clients that stall in the middle of a sign-in body.

``python -m benchmarks.stalled_clients [N]`` opens N connections (default 200) that each
send a sign-in's headers and half its body and then nothing, and meanwhile times real
requests (the shell, and a complete sign-in) against the same host; then the same requests
with no stalled client, for the ratio. It prints one line per figure.
"""

from __future__ import annotations

import socket
import statistics
import sys
import threading
import time

from automium.hosting import AppServer

_REAL = 20


def _request(port: int, raw: bytes) -> float:
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(raw)
        while conn.recv(65536):
            pass
    return time.perf_counter() - started


def _real(port: int) -> list[float]:
    shell = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    body = b'{"profile": {"email": "ada@example.com"}, "secrets": {"password": "x"}}'
    sign_in = (
        f"POST /api/sign-in HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    return [_request(port, raw) for _ in range(_REAL // 2) for raw in (shell, sign_in)]


def main(stalled: int = 200) -> None:
    with AppServer("shop-lite", "shop-lite.guest-empty-cart") as server:
        port = int(server.url.rsplit(":", 1)[1])
        quiet = _real(port)
        head = (
            f"POST /api/sign-in HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 60\r\n\r\n"
        ).encode()
        clients = []
        for _ in range(stalled):
            conn = socket.create_connection(("127.0.0.1", port), timeout=30)
            conn.sendall(head + b'{"profile": {"em')
            clients.append(conn)
        time.sleep(0.2)  # every stalled client has its thread, waiting on the body
        threads_held = threading.active_count()
        loaded = _real(port)
        for conn in clients:
            conn.close()
    print(f"stalled clients: {stalled}, host threads while they stall: {threads_held}")
    print(f"real request, quiet host: median {statistics.median(quiet) * 1000:.2f} ms")
    print(
        f"real request, {stalled} stalled: median {statistics.median(loaded) * 1000:.2f} ms, "
        f"slowest {max(loaded) * 1000:.2f} ms, all {len(loaded)} answered"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
