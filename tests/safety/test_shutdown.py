"""Every way a session ends is a prompt, clean exit: code 0 and no traceback on stderr.

Over stdio: SIGINT, SIGTERM (the MCP shutdown sequence: close stdin, then SIGTERM), stdin
closing, and the client closing its end of stdout (noticed at the next answer). Over HTTP:
SIGINT and SIGTERM, with a session open. Each wait is bounded (the server must be gone
within :data:`PROMPTLY` seconds) and returns as soon as the process has exited.
"""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from tests.safety.raw_http import connect, http_server, initialize, port_of, response
from tests.safety.raw_stdio import SERVER, RawServer, call, raw_server, request

pytestmark = pytest.mark.subprocess

PROMPTLY = 10.0  # seconds; a clean exit takes well under one


def _assert_clean(server: RawServer, exit_code: int) -> None:
    assert exit_code == 0, b"".join(server.stderr).decode()[-2000:]
    assert b"Traceback" not in b"".join(server.stderr)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_ends_a_stdio_session_at_once_with_code_0(
    signum: signal.Signals, tmp_path: Path
) -> None:
    with raw_server(tmp_path) as server:
        server.handshake()
        server.process.send_signal(signum)
        _assert_clean(server, server.wait_exit(PROMPTLY))  # stdin is still open


def test_closing_stdin_ends_a_stdio_session_with_code_0(tmp_path: Path) -> None:
    with raw_server(tmp_path) as server:
        server.handshake()
        server.send(call(1, "automium_list_apps", {}))
        _assert_clean(server, server.close())
        assert json.loads(server.lines[-1])["id"] == 1  # what was asked before is answered


def test_a_client_that_closes_stdout_ends_the_session_with_code_0(tmp_path: Path) -> None:
    with _initialized(tmp_path) as process:
        assert process.stdin is not None
        assert process.stdout is not None
        process.stdout.close()
        process.stdin.write(call(1, "automium_list_apps", {}) + b"\n")  # its answer: EPIPE
        process.stdin.flush()
        _assert_exits_cleanly(process)  # stdin is still open


def test_a_client_that_stops_reading_holds_the_server_back_not_its_memory_nor_its_exit(
    tmp_path: Path,
) -> None:
    # 20,000 calls whose answers (8 KB each) nobody reads: the pipe fills, the answer being
    # written waits, so do the SDK's 64 requests in flight, and the server stops reading stdin
    # (it had grown past 200 MiB in 3 s); SIGTERM still ends it.
    flood = b"".join(call(i, "automium_list_apps", {}) + b"\n" for i in range(1, 20001))
    with _initialized(tmp_path) as process:
        writer = threading.Thread(target=_write_all, args=(process.stdin, flood), daemon=True)
        writer.start()
        writer.join(timeout=3.0)
        assert writer.is_alive(), "the server read every request while its answers went unread"
        peak_kib = _peak_rss_kib(process.pid)
        process.send_signal(signal.SIGTERM)
        _assert_exits_cleanly(process)
    assert peak_kib < 150 * 1024, f"peak RSS {peak_kib // 1024} MiB"  # ~70 MiB idle


@contextlib.contextmanager
def _initialized(tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A server past its initialize answer, on pipes of its own (a RawServer's reader thread
    would hold the stdout pipe that these tests close or leave unread)."""
    with subprocess.Popen(
        SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path
    ) as process:
        assert process.stdin is not None
        assert process.stdout is not None
        process.stdin.write(request(0, "initialize", _INITIALIZE) + b"\n")
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["id"] == 0
        yield process


def _assert_exits_cleanly(process: subprocess.Popen[bytes]) -> None:
    try:
        exit_code = process.wait(timeout=PROMPTLY)
    finally:
        process.kill()
    stderr = process.communicate()[1]
    assert exit_code == 0, stderr.decode()[-2000:]
    assert b"Traceback" not in stderr


def _write_all(pipe: IO[bytes], data: bytes) -> None:
    with contextlib.suppress(OSError):  # the server is gone: the rest is never read
        pipe.write(data)
        pipe.flush()


def _peak_rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))


_INITIALIZE = {
    "protocolVersion": "2025-11-25",
    "capabilities": {},
    "clientInfo": {"name": "shutdown-test", "version": "0"},
}


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_ends_the_http_server_with_code_0(signum: signal.Signals, tmp_path: Path) -> None:
    with raw_server(tmp_path, http_server()) as server:
        port = port_of(server)
        assert response(connect(port, initialize(port))).startswith(b"HTTP/1.1 200 ")
        server.process.send_signal(signum)  # with that session still open
        _assert_clean(server, server.wait_exit(PROMPTLY))
