"""Hostile input over the real stdio wire: the server answers what it can, drops what it
cannot parse, and keeps serving.

A raw pipe client (no SDK) starts ``python -m automium.mcp_server``, does the handshake and
then sends one hostile case at a time: bytes that are not JSON, truncated JSON, invalid
UTF-8, batches, scalars, params of the wrong type, unknown methods, a 2 MB argument, JSON
nested 5,000 levels deep, and 500 concurrent calls. After each case a probe
(``tools/call automium_list_apps``) must get its normal result. Over the whole session
every line on stdout must be a JSON-RPC 2.0 message, stderr must hold no traceback, and
closing stdin must end the server with exit code 0. The test prints what the server
answered to each case and its peak RSS (``pytest -s``).
"""

from __future__ import annotations

import contextlib
import json
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.safety.cases import reference_journey

PROTOCOL_VERSION = "2025-11-25"
WAIT_SECONDS = 30.0  # a bound, never a sleep: every wait returns as soon as its line arrives
PEAK_RSS_LIMIT_KIB = 500 * 1024
CONCURRENT = 500
NO_ANSWER = "no answer"

Message = dict[str, Any]


def _request(request_id: int, method: str, params: Any = None) -> bytes:
    message: Message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message).encode()


def _call(request_id: int, tool: str, arguments: Any) -> bytes:
    return _request(request_id, "tools/call", {"name": tool, "arguments": arguments})


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@dataclass(frozen=True)
class Case:
    name: str
    payload: bytes
    request_id: int | None  # the id the payload carries, if a server could read one
    allowed: frozenset[str]  # outcomes that are acceptable (see ``_outcome``)


def _case(name: str, payload: bytes, request_id: int | None, *allowed: str) -> Case:
    return Case(name, payload, request_id, frozenset(allowed))


# A parse failure may be dropped (what the SDK does: it logs at DEBUG and reads on) or
# answered as JSON-RPC says (-32700 / -32600 with id null); both keep the session alive.
UNPARSABLE = ("no answer", "error -32700", "error -32600")
INVALID_REQUEST = (*UNPARSABLE, "error -32602")

JOURNEY_2MB = {**reference_journey(), "goal": "g" * 2_000_000}
DEEP_CALL = (
    b'{"jsonrpc":"2.0","id":1018,"method":"tools/call","params":{"name":"automium_list_apps",'
    b'"arguments":{"a":' + _nested(5000).encode() + b"}}}"
)

CASES = (
    _case("not JSON", b"hello, server; rm -rf /", None, *UNPARSABLE),
    _case("empty line", b"", None, *UNPARSABLE),
    _case("truncated JSON", b'{"jsonrpc":"2.0","id":1001,"method":"tools/li', 1001, *UNPARSABLE),
    _case("invalid UTF-8 only", b"\xff\xfe\xfd\x80\xc3", None, *UNPARSABLE),
    _case(
        "invalid UTF-8 in an argument",
        b'{"jsonrpc":"2.0","id":1002,"method":"tools/call","params":{"name":'
        b'"automium_list_fixtures","arguments":{"appId":"\xff\xfeshop"}}}',
        1002,
        "result isError invalid_app_id",
    ),
    _case("JSON array (batch)", b"[" + _request(1003, "tools/list") + b"]", 1003, *UNPARSABLE),
    _case("JSON number", b"42", None, *UNPARSABLE),
    _case("JSON string", b'"tools/list"', None, *UNPARSABLE),
    _case("JSON null", b"null", None, *UNPARSABLE),
    _case("JSON true", b"true", None, *UNPARSABLE),
    _case("params: 5", _request(1004, "tools/list", 5), 1004, *INVALID_REQUEST),
    _case('params: "x"', _request(1005, "tools/call", "x"), 1005, *INVALID_REQUEST),
    _case("arguments: [1]", _call(1006, "automium_list_apps", [1]), 1006, "error -32602"),
    _case("tools/call without a name", _request(1007, "tools/call", {}), 1007, "error -32602"),
    _case('jsonrpc "1.0"', b'{"jsonrpc":"1.0","id":1008,"method":"tools/list"}', 1008, *UNPARSABLE),
    _case("id is an object", b'{"jsonrpc":"2.0","id":{},"method":"tools/list"}', None, *UNPARSABLE),
    _case("id is 1.5", b'{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}', None, *UNPARSABLE),
    _case("unknown method", _request(1009, "browser/launch"), 1009, "error -32601"),
    _case(
        "unknown notification",
        b'{"jsonrpc":"2.0","method":"notifications/shell"}',
        None,
        NO_ANSWER,
    ),
    _case("response nobody asked for", b'{"jsonrpc":"2.0","id":1010,"result":{}}', None, NO_ANSWER),
    _case(
        "unknown tool",
        _call(1011, "automium_exec", {"cmd": "id"}),
        1011,
        "result isError unsupported_operation",
    ),
    _case(
        "tool name of 3,000 characters",
        _call(1015, "x" * 3000, {}),
        1015,
        "result isError unsupported_operation",
    ),
    _case(
        "property name of 3,000 characters",
        _call(1016, "automium_list_apps", {"y" * 3000: 1}),
        1016,
        "result isError invalid_input",
    ),
    _case(
        'property named "²" (a digit to isdigit, not to int)',
        _call(1017, "automium_list_apps", {"²": 1, "①": 2}),
        1017,
        "result isError invalid_input",
    ),
    _case(
        "resources/read file:///etc/passwd",
        _request(1012, "resources/read", {"uri": "file:///etc/passwd"}),
        1012,
        "error -32602",
    ),
    _case(
        "2 MB string argument (journey goal)",
        _call(1013, "automium_compile_journey", JOURNEY_2MB),
        1013,
        "result isError limit_exceeded",
    ),
    _case(
        "arguments nested 100 deep",
        _call(1014, "automium_list_apps", {"a": json.loads(_nested(100))}),
        1014,
        "result isError limit_exceeded",
    ),
    # pydantic-core's parser refuses the line (recursion limit ~200): never reaches a handler
    _case("tools/call nested 5,000 deep", DEEP_CALL, 1018, *UNPARSABLE),
    _case("bare array nested 5,000 deep", _nested(5000).encode(), None, *UNPARSABLE),
)


@dataclass
class RawServer:
    """``python -m automium.mcp_server`` on pipes, read by threads into queues."""

    process: subprocess.Popen[bytes]
    lines: list[bytes] = field(default_factory=list)  # every stdout line, in order
    stderr: list[bytes] = field(default_factory=list)
    answers: dict[Any, Message] = field(default_factory=dict)  # by id
    _inbox: queue.Queue[bytes | None] = field(default_factory=queue.Queue)
    _readers: list[threading.Thread] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._inbox.put(line)
        self._inbox.put(None)

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        self.stderr.extend(self.process.stderr)

    def send(self, payload: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(payload + b"\n")
        self.process.stdin.flush()

    def wait_for(self, ids: set[Any], seconds: float = WAIT_SECONDS) -> None:
        """Read stdout until every id in ``ids`` has an answer (or fail after ``seconds``)."""
        deadline = time.monotonic() + seconds
        while not ids <= self.answers.keys():
            try:
                line = self._inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                missing = sorted(ids - self.answers.keys(), key=str)[:5]
                raise AssertionError(f"no answer within {seconds} s for ids {missing}") from None
            if line is None:
                raise AssertionError("the server closed stdout")
            self._record(line)

    def _record(self, line: bytes) -> None:
        self.lines.append(line)
        with contextlib.suppress(ValueError, AttributeError, TypeError):
            message = json.loads(line)
            self.answers.setdefault(_key(message.get("id")), message)

    def peak_rss_kib(self) -> int:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(next(ln for ln in status.splitlines() if ln.startswith("VmHWM:")).split()[1])

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        code = self.process.wait(timeout=WAIT_SECONDS)
        for reader in self._readers:
            reader.join(timeout=WAIT_SECONDS)
        while (line := self._inbox.get_nowait()) is not None:  # whatever came after the last wait
            self._record(line)
        return code


def _key(request_id: Any) -> Any:
    # JSON-RPC ids are strings or numbers; anything else (an error's null id) groups apart.
    return request_id if isinstance(request_id, str | int) else repr(request_id)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RawServer]:
    process = subprocess.Popen(
        [sys.executable, "-m", "automium.mcp_server"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,  # nothing may depend on the working directory
    )
    raw = RawServer(process)
    try:
        yield raw
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=WAIT_SECONDS)
        for pipe in (process.stdin, process.stdout, process.stderr):
            if pipe is not None:
                pipe.close()


def _handshake(server: RawServer) -> None:
    server.send(
        _request(
            0,
            "initialize",
            {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "hostile-raw-client", "version": "0"},
            },
        )
    )
    server.wait_for({0})
    assert server.answers[0]["result"]["protocolVersion"] == PROTOCOL_VERSION
    server.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')


class _Probe:
    """A valid call after each case; its id counts up from 1."""

    def __init__(self) -> None:
        self.next_id = 1

    def check(self, server: RawServer) -> None:
        probe_id, self.next_id = self.next_id, self.next_id + 1
        server.send(_call(probe_id, "automium_list_apps", {}))
        server.wait_for({probe_id})
        answer = server.answers[probe_id]
        assert "result" in answer, answer
        assert answer["result"].get("isError") is not True, answer
        assert len(answer["result"]["structuredContent"]["apps"]) == 5


def _outcome(answer: Message | None) -> str:
    if answer is None:
        return NO_ANSWER
    if "error" in answer:
        return f"error {answer['error']['code']}"
    result = answer["result"]
    if result.get("isError"):
        return f"result isError {result['structuredContent']['code']}"
    return "result"


def _is_jsonrpc(line: bytes) -> bool:
    try:
        message = json.loads(line)
    except ValueError:
        return False
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return False
    if "method" in message:
        return isinstance(message["method"], str)
    return "id" in message and (("result" in message) != ("error" in message))


def _concurrent_calls(server: RawServer) -> str:
    ids = set(range(5000, 5000 + CONCURRENT))
    server.send(b"\n".join(_call(i, "automium_list_apps", {}) for i in sorted(ids)))
    server.wait_for(ids, seconds=60)
    ok = [i for i in ids if _outcome(server.answers[i]) == "result"]
    return f"{len(ok)}/{CONCURRENT} results"


def test_hostile_input_never_breaks_the_session(server: RawServer) -> None:
    _handshake(server)
    probe = _Probe()
    probe.check(server)
    pending: dict[str, Case] = {}
    for case in CASES:
        server.send(case.payload)
        probe.check(server)  # still serving, in order, after this case
        if case.request_id is not None and NO_ANSWER not in case.allowed:
            server.wait_for({case.request_id})
        pending[case.name] = case
    concurrent = _concurrent_calls(server)
    probe.check(server)
    peak_kib = server.peak_rss_kib()
    exit_code = server.close()

    outcomes = {
        name: _outcome(server.answers.get(case.request_id) if case.request_id else None)
        for name, case in pending.items()
    }
    unattributed = [m for k, m in server.answers.items() if not isinstance(k, int)]
    _print_table(outcomes, concurrent, peak_kib, unattributed)

    assert [name for name, c in pending.items() if outcomes[name] not in c.allowed] == []
    assert concurrent == f"{CONCURRENT}/{CONCURRENT} results"
    assert [line[:200] for line in server.lines if not _is_jsonrpc(line)] == []
    assert b"Traceback" not in b"".join(server.stderr)
    assert exit_code == 0
    assert peak_kib < PEAK_RSS_LIMIT_KIB


def _print_table(
    outcomes: dict[str, str], concurrent: str, peak_kib: int, unattributed: list[Message]
) -> None:
    width = max(len(name) for name in outcomes)
    print("\nhostile stdio cases (then a probe tools/call each time: always answered)")
    for name, outcome in outcomes.items():
        print(f"  {name:<{width}}  {outcome}")
    print(f"  {f'{CONCURRENT} concurrent tools/call':<{width}}  {concurrent}")
    for message in unattributed:
        print(f"  answered with a non-request id: {json.dumps(message)[:160]}")
    print(f"peak RSS of the server (VmHWM): {peak_kib / 1024:.1f} MiB")
