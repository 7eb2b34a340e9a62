"""A raw pipe client for ``python -m automium.mcp_server`` (no SDK): what the hostile-input,
shutdown and no-writes tests drive the real server with.

Threads read the server's stdout and stderr into queues, so every wait is bounded and
returns as soon as its line arrives (never a sleep). Answers are kept by the JSON text of
their id (``1001``, ``"a"``, ``1.5`` stay apart); answers with a null id, which the
transport gives to lines whose id it cannot read, are kept in arrival order.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROTOCOL_VERSION = "2025-11-25"
WAIT_SECONDS = 30.0  # a bound, never a sleep: every wait returns as soon as its line arrives
SERVER = [sys.executable, "-m", "automium.mcp_server"]

Message = dict[str, Any]


def key(request_id: Any) -> str:
    """How an answer is filed: the JSON text of its id."""
    return json.dumps(request_id)


def request(request_id: Any, method: str, params: Any = None) -> bytes:
    message: Message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message).encode()


def call(request_id: Any, tool: str, arguments: Any) -> bytes:
    return request(request_id, "tools/call", {"name": tool, "arguments": arguments})


def without_coverage(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment minus coverage's subprocess switches: coverage's data files are the
    test harness's writes, not the server's."""
    return {k: v for k, v in (environ or os.environ).items() if not k.startswith("COVERAGE_")}


@dataclass
class RawServer:
    """The server on pipes; see the module docstring."""

    process: subprocess.Popen[bytes]
    lines: list[bytes] = field(default_factory=list)  # every stdout line, in order
    stderr: list[bytes] = field(default_factory=list)
    answers: dict[str, Message] = field(default_factory=dict)  # by key(id), first one kept
    null_answers: list[Message] = field(default_factory=list)  # id null, in arrival order
    _inbox: queue.Queue[bytes | None] = field(default_factory=queue.Queue)
    _errors: queue.Queue[bytes | None] = field(default_factory=queue.Queue)
    _readers: list[threading.Thread] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._readers = [
            threading.Thread(target=self._pump, args=(self.process.stdout, self._inbox)),
            threading.Thread(target=self._pump, args=(self.process.stderr, self._errors)),
        ]
        for reader in self._readers:
            reader.daemon = True
            reader.start()

    @staticmethod
    def _pump(pipe: Any, into: queue.Queue[bytes | None]) -> None:
        with contextlib.suppress(ValueError, OSError):  # the test closed the pipe itself
            for line in pipe:
                into.put(line)
        into.put(None)

    def send(self, payload: bytes) -> None:
        self.write(payload + b"\n")

    def write(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def wait_for(self, ids: set[Any], seconds: float = WAIT_SECONDS) -> None:
        """Read stdout until every id in ``ids`` has an answer (or fail after ``seconds``)."""
        wanted = {key(i) for i in ids}
        deadline = time.monotonic() + seconds
        while not wanted <= self.answers.keys():
            try:
                line = self._inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                missing = sorted(wanted - self.answers.keys())[:5]
                raise AssertionError(f"no answer within {seconds} s for ids {missing}") from None
            if line is None:
                raise AssertionError("the server closed stdout")
            self._record(line)

    def wait_for_stderr(
        self, text: bytes | tuple[bytes, ...], seconds: float = WAIT_SECONDS
    ) -> None:
        """Read stderr until a line contains ``text`` (or one of them), else fail after
        ``seconds``."""
        texts = text if isinstance(text, tuple) else (text,)
        deadline = time.monotonic() + seconds
        while not any(t in line for line in self.stderr for t in texts):
            try:
                line = self._errors.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"{text!r} not on stderr within {seconds} s") from None
            if line is None:
                raise AssertionError(f"stderr closed without {text!r}")
            self.stderr.append(line)

    def _record(self, line: bytes) -> None:
        self.lines.append(line)
        with contextlib.suppress(ValueError, AttributeError, TypeError):
            message = json.loads(line)
            if message.get("id") is None:
                self.null_answers.append(message)
            else:
                self.answers.setdefault(key(message["id"]), message)

    def memory_kib(self, field_name: str) -> int:
        """``VmRSS`` (now) or ``VmHWM`` (peak) of the server, in KiB."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        line = next(ln for ln in status.splitlines() if ln.startswith(f"{field_name}:"))
        return int(line.split()[1])

    def wait_exit(self, seconds: float = WAIT_SECONDS) -> int:
        """The exit code once the server has ended; everything it wrote is recorded."""
        code = self.process.wait(timeout=seconds)
        for reader in self._readers:
            reader.join(timeout=seconds)
        while (line := self._inbox.get_nowait()) is not None:
            self._record(line)
        while (line := self._errors.get_nowait()) is not None:
            self.stderr.append(line)
        return code

    def close(self) -> int:
        """Close stdin (how an MCP client ends a session) and wait for the exit code."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.wait_exit()

    def handshake(self) -> None:
        self.send(
            request(
                0,
                "initialize",
                {
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": {},
                    "clientInfo": {"name": "hostile-raw-client", "version": "0"},
                },
            )
        )
        self.wait_for({0})
        assert self.answers[key(0)]["result"]["protocolVersion"] == PROTOCOL_VERSION
        self.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')


@contextlib.contextmanager
def raw_server(
    cwd: Path, command: list[str] | None = None, env: dict[str, str] | None = None
) -> Iterator[RawServer]:
    """The server started on pipes in ``cwd`` (nothing may depend on the working
    directory); killed afterwards if the test left it running."""
    process = subprocess.Popen(
        command or SERVER,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
    )
    try:
        yield RawServer(process)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=WAIT_SECONDS)
        for pipe in (process.stdin, process.stdout, process.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
