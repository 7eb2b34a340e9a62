"""A raw newline-delimited JSON-RPC client over a subprocess's stdin/stdout.

Deliberately not the SDK client: it writes one line, waits for the line answering it and
stops the clock when that line is complete (before parsing it), so the client's own cost
is a few microseconds and identical for every server it drives.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

PROTOCOL_VERSION = "2025-11-25"


@dataclass(frozen=True, slots=True)
class Reply:
    """One response: its result, its raw line and how long it took (seconds)."""

    result: dict[str, Any]
    raw: bytes
    seconds: float


class PipeClient:
    """A JSON-RPC session with one server process (handshake era, 2025-11-25), opened as an
    agent opens one: initialize, initialized, tools/list, each step timed from the spawn."""

    def __init__(self, process: subprocess.Popen[bytes], started: float) -> None:
        assert process.stdin is not None
        assert process.stdout is not None
        self.pid, self._in, self._out, self._next_id = process.pid, process.stdin, process.stdout, 0
        client = {"name": "automium-bench", "version": "0"}
        hello = {"protocolVersion": PROTOCOL_VERSION, "capabilities": {}, "clientInfo": client}
        self.request("initialize", hello)
        self._send({"method": "notifications/initialized"})
        self.to_initialize = time.perf_counter() - started
        self.tools: list[dict[str, Any]] = self.request("tools/list").result["tools"]
        self.to_tools_list = time.perf_counter() - started

    def _send(self, message: dict[str, Any]) -> None:
        line = json.dumps({"jsonrpc": "2.0", **message}, separators=(",", ":"))
        self._in.write(line.encode() + b"\n")
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
                raise RuntimeError(f"the server closed stdout before answering {method}")
            message: dict[str, Any] = json.loads(line)
            if message.get("id") == self._next_id:  # else a notification: keep reading
                if "result" not in message:
                    raise RuntimeError(f"not a result: {line[:300]!r}")
                return Reply(message["result"], line.rstrip(b"\n"), seconds)

    def call_tool(self, name: str, arguments: dict[str, Any]) -> Reply:
        return self.request("tools/call", {"name": name, "arguments": arguments})

    def peak_rss_kib(self) -> int:
        """``VmHWM`` (peak resident set) of the server process, in KiB (Linux, as the run)."""
        with open(f"/proc/{self.pid}/status", encoding="ascii") as status:
            return next((int(ln.split()[1]) for ln in status if ln.startswith("VmHWM:")), 0)


@contextmanager
def session(argv: Sequence[str], cwd: str, env: Mapping[str, str]) -> Iterator[PipeClient]:
    """Start a server (its stderr goes to ours), open a session with it and close its stdin
    at the end (EOF)."""
    started, pipe = time.perf_counter(), subprocess.PIPE
    with subprocess.Popen(argv, stdin=pipe, stdout=pipe, cwd=cwd, env=env) as process:
        yield PipeClient(process, started)
