"""A raw newline-delimited JSON-RPC client over a subprocess's stdin/stdout.

Deliberately not the SDK client: it writes one line, waits for the line answering it and
stops the clock when that line is complete (before parsing it), so the client's own cost
is a few microseconds and identical for every server it drives.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

PROTOCOL_VERSION = "2025-11-25"


class PipeError(RuntimeError):
    """The server died or answered with something other than a result."""


@dataclass(frozen=True, slots=True)
class Reply:
    """One response: its result, its raw line and how long it took (seconds)."""

    result: dict[str, Any]
    raw: bytes
    seconds: float


class PipeClient:
    """One server process and a JSON-RPC session with it (handshake era, 2025-11-25)."""

    def __init__(self, argv: Sequence[str], cwd: str, env: Mapping[str, str]) -> None:
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            cwd=cwd,
            env=env,
        )
        if self.process.stdin is None or self.process.stdout is None:  # pragma: no cover
            raise PipeError("Popen gave no pipes")
        self._in, self._out = self.process.stdin, self.process.stdout
        self._next_id = 0

    def _send(self, message: dict[str, Any]) -> None:
        self._in.write(
            json.dumps({"jsonrpc": "2.0", **message}, separators=(",", ":")).encode() + b"\n"
        )
        self._in.flush()

    def request(self, method: str, params: dict[str, Any] | None = None) -> Reply:
        """Send a request and wait for its result; the clock covers write → full line."""
        self._next_id += 1
        start = time.perf_counter()
        self._send({"id": self._next_id, "method": method, "params": params or {}})
        while True:
            line = self._out.readline()
            seconds = time.perf_counter() - start
            if not line:
                raise PipeError(f"the server closed stdout; {self.stderr_tail()}")
            message: dict[str, Any] = json.loads(line)
            if message.get("id") == self._next_id:  # else a notification: keep reading
                if "result" not in message:
                    raise PipeError(f"not a result: {line[:300]!r}")
                return Reply(message["result"], line.rstrip(b"\n"), seconds)

    def initialize(self) -> None:
        client = {"name": "automium-bench", "version": "0"}
        self.request(
            "initialize",
            {"protocolVersion": PROTOCOL_VERSION, "capabilities": {}, "clientInfo": client},
        )
        self._send({"method": "notifications/initialized"})

    def call_tool(self, name: str, arguments: dict[str, Any]) -> Reply:
        return self.request("tools/call", {"name": name, "arguments": arguments})

    def peak_rss_kib(self) -> int:
        """``VmHWM`` (peak resident set) of the server process, in KiB; 0 if unknown."""
        try:
            with open(f"/proc/{self.process.pid}/status", encoding="ascii") as status:
                return next((int(ln.split()[1]) for ln in status if ln.startswith("VmHWM:")), 0)
        except OSError:
            return 0

    def stderr_tail(self) -> str:
        self._stderr.seek(0)
        return f"server stderr: {self._stderr.read()[-800:].decode(errors='replace') or '(empty)'}"

    def close(self) -> None:
        """EOF on stdin (only after every response arrived), then wait for the exit."""
        try:
            self._in.close()
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        finally:
            self._out.close()
            self._stderr.close()

    def __enter__(self) -> PipeClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
