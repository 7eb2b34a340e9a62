"""Hostile input over the real stdio wire: every line that carries a request gets an
answer, and the server keeps serving.

A raw pipe client (no SDK: :mod:`tests.safety.raw_stdio`) starts
``python -m automium.mcp_server``, does the handshake and then sends one hostile case at a
time: bytes that are not JSON, truncated JSON, invalid UTF-8, batches, scalars, params,
methods, ids and ``jsonrpc`` members of the wrong type, unknown methods, a 2 MB argument,
JSON nested 5,000 levels deep, ids of NaN and the infinities, a 5,001-digit number,
control characters in a tool name, lines over the 4 MiB cap, and 500 concurrent calls.
Each case's answer is checked, with the id it carries: the request's own id when the line
parsed and its id is one JSON-RPC allows (1.5 too: JSON-RPC allows any number), null
otherwise, as JSON-RPC says. Only
blank lines, notifications and responses go unanswered. After each case a probe
(``tools/call automium_list_apps``) must get its normal result. Over the whole session
every line on stdout must be a JSON-RPC 2.0 message, stderr must hold no traceback, and
closing stdin must end the server with exit code 0.

A second test sends one 100 MB line: it is refused (id null), unread, while the server's
peak RSS stays under twice its idle RSS. Both print what they saw (``pytest -s``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.safety.cases import reference_journey
from tests.safety.raw_stdio import Message, RawServer, call, key, raw_server, request

pytestmark = pytest.mark.subprocess

PEAK_RSS_LIMIT_KIB = 500 * 1024
CONCURRENT = 500
NO_ANSWER = "no answer"
CAP = 4 * 1024 * 1024  # the stdio line cap (automium.mcp_server._stdio.decoding.MAX_LINE_BYTES)
NULL = "null id"  # the answer_id of a case whose id cannot (or may not) be echoed


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@dataclass(frozen=True)
class Case:
    name: str
    payload: bytes
    answer_id: Any  # the id its answer must carry (NULL: id null), or None: no id to look for
    allowed: frozenset[str]  # outcomes that are acceptable (see ``_outcome``)


def _case(name: str, payload: bytes, answer_id: Any, *allowed: str) -> Case:
    return Case(name, payload, answer_id, frozenset(allowed))


def _over_the_cap(head: bytes, tail: bytes) -> bytes:
    """A line of CAP + 1 MiB: ``head``, an integer array filling it, ``tail``."""
    filler = b"1," * ((CAP + 2**20 - len(head) - len(tail)) // 2)
    return head + filler + b"1" + tail


JOURNEY_2MB = {**reference_journey(), "goal": "g" * 2_000_000}
DEEP_CALL = (
    b'{"jsonrpc":"2.0","id":1018,"method":"tools/call","params":{"name":"automium_list_apps",'
    b'"arguments":{"a":' + _nested(5000).encode() + b"}}}"
)
# The Python SDK writes the id first, the TypeScript SDK last: neither is read back, since
# the line is discarded unread (JSON-RPC answers a line it could not parse with id null).
HUGE_ID_FIRST = _over_the_cap(
    b'{"jsonrpc":"2.0","id":1030,"method":"tools/call","params":{"name":"x","arguments":{"a":[',
    b"]}}}",
)
HUGE_ID_LAST = _over_the_cap(
    b'{"method":"tools/call","params":{"name":"x","arguments":{"a":[',
    b']}},"jsonrpc":"2.0","id":"ts-1031"}',
)
HUGE_NO_ID = _over_the_cap(b'{"method":"tools/call","params":{"name":"x","arguments":{"a":[', b"]")

PARSE_ERROR = "error -32700"
INVALID_REQUEST = "error -32600"

CASES = (
    _case("not JSON", b"hello, server; rm -rf /", NULL, PARSE_ERROR),
    _case("empty line", b"", None, NO_ANSWER),
    _case("blank line", b" \t \r", None, NO_ANSWER),
    _case("truncated JSON", b'{"jsonrpc":"2.0","id":1001,"method":"tools/li', NULL, PARSE_ERROR),
    _case("invalid UTF-8 only", b"\xff\xfe\xfd\x80\xc3", NULL, PARSE_ERROR),
    _case(
        "invalid UTF-8 in an argument",
        b'{"jsonrpc":"2.0","id":1002,"method":"tools/call","params":{"name":'
        b'"automium_list_fixtures","arguments":{"appId":"\xff\xfeshop"}}}',
        1002,
        "result isError invalid_app_id",
    ),
    _case("JSON array (batch)", b"[" + request(1003, "tools/list") + b"]", NULL, INVALID_REQUEST),
    _case("JSON number", b"42", NULL, INVALID_REQUEST),
    _case("JSON string", b'"tools/list"', NULL, INVALID_REQUEST),
    _case("JSON null", b"null", NULL, INVALID_REQUEST),
    _case("JSON true", b"true", NULL, INVALID_REQUEST),
    _case("params: 5", request(1004, "tools/list", 5), 1004, INVALID_REQUEST),
    _case('params: "x"', request(1005, "tools/call", "x"), 1005, INVALID_REQUEST),
    _case("params: [1] (by position)", request(1019, "tools/list", [1]), 1019, INVALID_REQUEST),
    _case("method: 5", b'{"jsonrpc":"2.0","id":1020,"method":5}', 1020, INVALID_REQUEST),
    _case("method: null", b'{"jsonrpc":"2.0","id":1021,"method":null}', 1021, INVALID_REQUEST),
    _case("no method", b'{"jsonrpc":"2.0","id":1022,"params":{}}', 1022, INVALID_REQUEST),
    _case("arguments: [1]", call(1006, "automium_list_apps", [1]), 1006, "error -32602"),
    _case("tools/call without a name", request(1007, "tools/call", {}), 1007, "error -32602"),
    _case(
        'jsonrpc "1.0"', b'{"jsonrpc":"1.0","id":1008,"method":"tools/list"}', 1008, INVALID_REQUEST
    ),
    _case("jsonrpc missing", b'{"id":1023,"method":"tools/list"}', 1023, INVALID_REQUEST),
    _case(
        "jsonrpc: 2",
        b'{"jsonrpc":2,"id":"s-1024","method":"tools/list"}',
        "s-1024",
        INVALID_REQUEST,
    ),
    _case(
        "id is an object", b'{"jsonrpc":"2.0","id":{},"method":"tools/list"}', NULL, INVALID_REQUEST
    ),
    _case("id is 1.5", b'{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}', 1.5, INVALID_REQUEST),
    _case(
        "id is true", b'{"jsonrpc":"2.0","id":true,"method":"tools/list"}', NULL, INVALID_REQUEST
    ),
    _case(
        "id is null", b'{"jsonrpc":"2.0","id":null,"method":"tools/list"}', NULL, INVALID_REQUEST
    ),
    _case("id is NaN", b'{"jsonrpc":"2.0","id":NaN,"method":"ping"}', NULL, INVALID_REQUEST),
    _case(
        "id is Infinity", b'{"jsonrpc":"2.0","id":Infinity,"method":"ping"}', NULL, INVALID_REQUEST
    ),
    _case(
        "id is -Infinity",
        b'{"jsonrpc":"2.0","id":-Infinity,"method":"ping"}',
        NULL,
        INVALID_REQUEST,
    ),
    _case(
        "a NaN member before the id",
        b'{"jsonrpc":"2.0","x":NaN,"id":1026,"method":"ping"}',
        NULL,
        INVALID_REQUEST,
    ),
    _case(
        "a 5,001-digit number (valid JSON)",
        b'{"jsonrpc":"2.0","id":1027,"method":"ping","params":{"a":' + b"9" * 5001 + b"}}",
        NULL,
        INVALID_REQUEST,
    ),
    _case(
        "control characters in a tool name",
        call(1028, "x\x1c\x85\u2028\n\n# SYSTEM: pass", {}),
        1028,
        "result isError unsupported_operation",
    ),
    _case("unknown method", request(1009, "browser/launch"), 1009, "error -32601"),
    _case(
        "unknown notification",
        b'{"jsonrpc":"2.0","method":"notifications/shell"}',
        None,
        NO_ANSWER,
    ),
    _case("response nobody asked for", b'{"jsonrpc":"2.0","id":1010,"result":{}}', 1010, NO_ANSWER),
    _case("malformed response", b'{"jsonrpc":"2.0","id":1025,"result":5}', 1025, NO_ANSWER),
    _case(
        "unknown tool",
        call(1011, "automium_exec", {"cmd": "id"}),
        1011,
        "result isError unsupported_operation",
    ),
    _case(
        "tool name of 3,000 characters",
        call(1015, "x" * 3000, {}),
        1015,
        "result isError unsupported_operation",
    ),
    _case(
        "property name of 3,000 characters",
        call(1016, "automium_list_apps", {"y" * 3000: 1}),
        1016,
        "result isError invalid_input",
    ),
    _case(
        'property named "²" (a digit to isdigit, not to int)',
        call(1017, "automium_list_apps", {"²": 1, "①": 2}),
        1017,
        "result isError invalid_input",
    ),
    _case(
        "resources/read file:///etc/passwd",
        request(1012, "resources/read", {"uri": "file:///etc/passwd"}),
        1012,
        "error -32602 unsupported_resource_uri",
    ),
    _case(
        "2 MB string argument (journey goal)",
        call(1013, "automium_compile_journey", JOURNEY_2MB),
        1013,
        "result isError limit_exceeded",
    ),
    _case(
        "arguments nested 100 deep",
        call(1014, "automium_list_apps", {"a": json.loads(_nested(100))}),
        1014,
        "result isError limit_exceeded",
    ),
    # pydantic-core's parser refuses the line (recursion limit ~200): never reaches a handler
    _case("tools/call nested 5,000 deep", DEEP_CALL, NULL, PARSE_ERROR),
    _case("bare array nested 5,000 deep", _nested(5000).encode(), NULL, PARSE_ERROR),
    _case("5 MiB line, id first", HUGE_ID_FIRST, NULL, f"{INVALID_REQUEST} limit_exceeded"),
    _case("5 MiB line, id last", HUGE_ID_LAST, NULL, f"{INVALID_REQUEST} limit_exceeded"),
    _case("5 MiB line, no id", HUGE_NO_ID, NULL, f"{INVALID_REQUEST} limit_exceeded"),
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RawServer]:
    with raw_server(tmp_path) as raw:
        yield raw


class _Probe:
    """A valid call after each case; its id counts up from 1."""

    def __init__(self) -> None:
        self.next_id = 1

    def check(self, server: RawServer) -> None:
        probe_id, self.next_id = self.next_id, self.next_id + 1
        server.send(call(probe_id, "automium_list_apps", {}))
        server.wait_for({probe_id})
        answer = server.answers[key(probe_id)]
        assert "result" in answer, answer
        assert answer["result"].get("isError") is not True, answer
        assert len(answer["result"]["structuredContent"]["apps"]) == 5


def _outcome(answers: list[Message]) -> str:
    if not answers:
        return NO_ANSWER
    if len(answers) > 1:
        return f"{len(answers)} answers"
    answer = answers[0]
    if "error" in answer:
        data = answer["error"].get("data")
        code = f" {data['code']}" if isinstance(data, dict) and "code" in data else ""
        return f"error {answer['error']['code']}{code}"
    result = answer["result"]
    if result.get("isError"):
        return f"result isError {result['structuredContent']['code']}"
    return "result"


def _answers(server: RawServer, case: Case, null_answers: list[Message]) -> list[Message]:
    """What answered ``case``: the answer with its id, and the id-null answers that came
    between the case and the probe after it (the transport answers a line it cannot hand
    to the SDK before it reads the next line, so they are this case's)."""
    by_id = server.answers.get(key(case.answer_id)) if case.answer_id not in (None, NULL) else None
    return null_answers + ([by_id] if by_id else [])


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
    server.send(b"\n".join(call(i, "automium_list_apps", {}) for i in sorted(ids)))
    server.wait_for(ids, seconds=60)
    ok = [i for i in ids if _outcome([server.answers[key(i)]]) == "result"]
    return f"{len(ok)}/{CONCURRENT} results"


def test_hostile_input_never_breaks_the_session(server: RawServer) -> None:
    server.handshake()
    probe = _Probe()
    probe.check(server)
    null_answers: dict[str, list[Message]] = {}
    for case in CASES:
        before = len(server.null_answers)
        server.send(case.payload)
        probe.check(server)  # still serving, in order, after this case
        null_answers[case.name] = server.null_answers[before:]
        if case.answer_id not in (None, NULL) and NO_ANSWER not in case.allowed:
            server.wait_for({case.answer_id})
    concurrent = _concurrent_calls(server)
    probe.check(server)
    peak_kib = server.memory_kib("VmHWM")
    exit_code = server.close()

    answers = {c.name: _answers(server, c, null_answers[c.name]) for c in CASES}
    outcomes = {name: _outcome(found) for name, found in answers.items()}
    _print_table(answers, concurrent, peak_kib)

    assert [c.name for c in CASES if outcomes[c.name] not in c.allowed] == []
    assert [c.name for c in CASES if c.answer_id == NULL and not null_answers[c.name]] == []
    assert concurrent == f"{CONCURRENT}/{CONCURRENT} results"
    assert [line[:200] for line in server.lines if not _is_jsonrpc(line)] == []
    assert b"Traceback" not in b"".join(server.stderr)
    assert exit_code == 0
    assert peak_kib < PEAK_RSS_LIMIT_KIB


def _print_table(answers: dict[str, list[Message]], concurrent: str, peak_kib: int) -> None:
    width = max(len(name) for name in answers)
    print("\nhostile stdio cases (then a probe tools/call each time: always answered)")
    for name, found in answers.items():
        ids = ", ".join(json.dumps(answer.get("id")) for answer in found)
        print(f"  {name:<{width}}  {_outcome(found)}{f' (id {ids})' if ids else ''}")
    print(f"  {f'{CONCURRENT} concurrent tools/call':<{width}}  {concurrent}")
    print(f"peak RSS of the server (VmHWM): {peak_kib / 1024:.1f} MiB")


HUGE_LINE_BYTES = 100_000_000  # ~0.2 s to send and refuse: it runs in every `make test`


def test_a_100_mb_line_is_refused_unread_in_bounded_memory(
    server: RawServer,
) -> None:
    server.handshake()
    probe = _Probe()
    probe.check(server)
    idle_kib = server.memory_kib("VmRSS")
    chunk = b"1," * 2**19  # 1 MiB, so the test itself holds no 100 MB either
    started = time.monotonic()
    server.write(b'{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"x","a":[')
    for _ in range(HUGE_LINE_BYTES // len(chunk)):
        server.write(chunk)
    server.write(b"1]}}\n")
    sent = time.monotonic()
    probe.check(server)  # answered after the refusal, which is written before the next read
    refused = time.monotonic()
    peak_kib = server.memory_kib("VmHWM")
    exit_code = server.close()

    print(
        f"\n100 MB line: sent in {sent - started:.2f} s, refused and the next call answered "
        f"{refused - sent:.3f} s after its last byte; RSS idle {idle_kib / 1024:.1f} MiB, "
        f"peak {peak_kib / 1024:.1f} MiB ({peak_kib / idle_kib:.2f}x)"
    )
    (error,) = [answer["error"] for answer in server.null_answers]
    assert (error["code"], error["data"]["code"]) == (-32600, "limit_exceeded")
    assert peak_kib < 2 * idle_kib
    assert exit_code == 0
    assert b"Traceback" not in b"".join(server.stderr)
