"""A raw newline-delimited JSON-RPC client over a subprocess's stdin/stdout.

Deliberately not the SDK client: it writes one line, waits for the line answering it and
stops the clock when that line is complete (before parsing it), so the client's own cost
is a few microseconds and identical for every server it drives.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any

PROTOCOL_VERSION = "2025-11-25"
_TIMEOUT_S = 60.0
_CHUNK = 1 << 16


class PipeError(RuntimeError):
    """The server died, timed out or answered with something unexpected."""


@dataclass(frozen=True, slots=True)
class Reply:
    """One response: its decoded message, its raw line and how long it took (seconds)."""

    message: dict[str, Any]
    raw: bytes
    seconds: float

    @property
    def result(self) -> dict[str, Any]:
        if "result" not in self.message:
            raise PipeError(f"not a result: {self.raw[:300]!r}")
        result: dict[str, Any] = self.message["result"]
        return result


class PipeClient:
    """One server process and a JSON-RPC session with it (handshake era, 2025-11-25)."""

    def __init__(self, argv: Sequence[str], cwd: str | None = None) -> None:
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            cwd=cwd,
            bufsize=0,
        )
        if self.process.stdin is None or self.process.stdout is None:  # pragma: no cover
            raise PipeError("Popen gave no pipes")
        self._in = self.process.stdin
        self._out_fd = self.process.stdout.fileno()
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out_fd, selectors.EVENT_READ)
        self._buffer = b""
        self._next_id = 0

    @property
    def pid(self) -> int:
        return self.process.pid

    def _read_line(self, deadline: float) -> bytes:
        while True:
            newline = self._buffer.find(b"\n")
            if newline >= 0:
                line, self._buffer = self._buffer[:newline], self._buffer[newline + 1 :]
                return line
            remaining = deadline - time.perf_counter()
            if remaining <= 0 or not self._selector.select(remaining):
                raise PipeError(f"no response within {_TIMEOUT_S:.0f}s; {self.stderr_tail()}")
            chunk = os.read(self._out_fd, _CHUNK)
            if not chunk:
                raise PipeError(f"server closed stdout; {self.stderr_tail()}")
            self._buffer += chunk

    def request(self, method: str, params: dict[str, Any] | None = None) -> Reply:
        """Send a request and wait for its response; the clock covers write → full line."""
        self._next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        data = json.dumps(message, separators=(",", ":")).encode() + b"\n"
        start = time.perf_counter()
        self._in.write(data)
        deadline = start + _TIMEOUT_S
        while True:
            line = self._read_line(deadline)
            seconds = time.perf_counter() - start
            reply: dict[str, Any] = json.loads(line)
            if reply.get("id") == self._next_id:
                return Reply(reply, line, seconds)
            # A notification or a server request: not ours; keep reading.

    def notify(self, method: str) -> None:
        message = {"jsonrpc": "2.0", "method": method}
        self._in.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    def initialize(self) -> Reply:
        reply = self.request(
            "initialize",
            {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "automium-bench", "version": "0"},
            },
        )
        self.notify("notifications/initialized")
        return reply

    def call_tool(self, name: str, arguments: dict[str, Any]) -> Reply:
        return self.request("tools/call", {"name": name, "arguments": arguments})

    def peak_rss_kib(self) -> int:
        """``VmHWM`` (peak resident set) of the server process, in KiB; 0 if unknown."""
        try:
            with open(f"/proc/{self.pid}/status", encoding="ascii") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def stderr_tail(self) -> str:
        self._stderr.seek(0)
        tail = self._stderr.read()[-800:].decode(errors="replace")
        return f"server stderr: {tail or '(empty)'}"

    def close(self) -> None:
        """EOF on stdin (only after every response arrived), then wait for the exit."""
        self._selector.close()
        try:
            self._in.close()
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        finally:
            if self.process.stdout is not None:
                self.process.stdout.close()
            self._stderr.close()

    def __enter__(self) -> PipeClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
