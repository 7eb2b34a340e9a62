"""The stdio transport's line handling, in process: framing with a cap, what each line
becomes (a message, an error line, nothing), the answers owed (the in-flight bound) and
what the end of input waits for.

The framer must give the same frames however the stream is cut into chunks; a failure of
the parser of any kind (a pyo3 ``PanicException`` is a ``BaseException``) costs one error
line, never the session. The wire fuzzer runs a whole session in process over pipes on
lines hypothesis draws by class (valid calls, reused ids, cancels, non-finite numbers,
long integers, control characters in names, bytes that are no JSON) and checks that every
line that could be a request is answered, with its id or ``null`` as JSON-RPC says, and
that no id is ever answered twice.
"""

from __future__ import annotations

import collections
import json
import os
from typing import Any

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp import types

from automium.mcp_server._stdio import serve_session
from automium.mcp_server._stdio.decoding import MAX_INTEGER_DIGITS, Reply, decode
from automium.mcp_server._stdio.lines import Line, LineFramer, Oversized
from automium.mcp_server._stdio.pending import PendingAnswers
from automium.mcp_server.server import build_server
from tests.conftest import examples


def _frames(stream: bytes, cuts: list[int], max_bytes: int = 16) -> list[Any]:
    framer = LineFramer(max_bytes)
    frames, start = [], 0
    for cut in [*sorted(cuts), len(stream)]:
        frames += framer.feed(stream[start:cut])
        start = max(start, cut)
    return frames + framer.finish()


# --- framing --------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")), max_size=6),
    cuts=st.lists(st.integers(min_value=0, max_value=300), max_size=8),
    ending=st.sampled_from([b"\n", b"\r\n"]),
)
def test_any_chunking_gives_the_same_frames(
    lines: list[bytes], cuts: list[int], ending: bytes
) -> None:
    stream = b"".join(line + ending for line in lines)
    expected: list[Any] = []
    for line in lines:
        raw = line + ending[:-1]  # what comes before the newline; the cap counts all of it
        body = raw.removesuffix(b"\r")
        expected.append(Line(body) if len(raw) <= 16 else Oversized(len(body)))
    assert _frames(stream, cuts) == expected


def test_the_last_line_without_a_line_end_is_framed_at_end_of_input() -> None:
    assert _frames(b"a\nbc", []) == [Line(b"a"), Line(b"bc")]
    assert _frames(b"a\n", []) == [Line(b"a")]


def test_an_oversized_line_holds_no_more_than_the_cap() -> None:
    framer = LineFramer(max_bytes=1024)
    framer.feed(b"{" + b"1," * 10_000)
    assert len(framer._line) == 0  # the point is what it holds
    assert framer.feed(b"9}\r\n") == [Oversized(20_003)]


def test_the_cap_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_bytes"):
        LineFramer(max_bytes=0)


# --- what a line becomes --------------------------------------------------------------------


def _error(reply: object) -> dict[str, Any]:
    assert isinstance(reply, Reply)
    answer: dict[str, Any] = json.loads(reply.line)
    return answer


class _Panic(BaseException):
    """Stands for pyo3's ``PanicException``, which derives from ``BaseException``."""


@pytest.mark.parametrize(
    ("line", "code", "answer_id"),
    [
        (b'{"jsonrpc":"2.0","id":NaN,"method":"ping"}', -32600, None),
        (b'{"jsonrpc":"2.0","id":Infinity,"method":"ping"}', -32600, None),
        (b'{"jsonrpc":"2.0","id":-Infinity,"method":"ping"}', -32600, None),
        # a non-finite member before the id: refused for what it is, not for the id
        (b'{"jsonrpc":"2.0","x":NaN,"id":4,"method":"ping"}', -32600, None),
        (
            b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"a":[-Infinity]}}',
            -32600,
            None,
        ),
        (b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}', -32600, 1.5),
        (b'{"jsonrpc":"2.0","id":"a","method":5}', -32600, "a"),
        (b'{"jsonrpc":"2.0","id":true,"method":"ping"}', -32600, None),
        (b'{"jsonrpc":"2.0","id":12', -32700, None),  # not JSON: the id is not read
        (b"[1]", -32600, None),
    ],
)
def test_what_a_line_that_is_no_request_is_answered(line: bytes, code: int, answer_id: Any) -> None:
    answer = _error(decode(Line(line)))
    assert (answer["error"]["code"], answer["id"]) == (code, answer_id)


def test_nan_inside_a_string_is_text_not_a_number() -> None:
    line = b'{"jsonrpc":"2.0","id":3,"method":"ping","params":{"a":"NaN and Infinity"}}'
    assert not isinstance(decode(Line(line)), Reply)


@pytest.mark.parametrize("digits", [MAX_INTEGER_DIGITS, MAX_INTEGER_DIGITS + 1, 5001])
def test_integers_are_taken_up_to_the_digit_limit_and_refused_past_it(digits: int) -> None:
    line = b'{"jsonrpc":"2.0","id":3,"method":"ping","params":{"a":' + b"9" * digits + b"}}"
    item = decode(Line(line))
    if digits <= MAX_INTEGER_DIGITS:
        assert not isinstance(item, Reply)
    else:
        answer = _error(item)
        assert (answer["error"]["code"], answer["id"]) == (-32600, None)
        assert "4,300 digits" in answer["error"]["message"]


@pytest.mark.parametrize("failure", [_Panic("rust panicked"), MemoryError(), RecursionError()])
def test_any_failure_of_the_parser_is_a_parse_error_for_that_line(
    failure: BaseException, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Exploding:
        def validate_json(self, *_args: object, **_kwargs: object) -> object:
            raise failure

    monkeypatch.setattr(types, "jsonrpc_message_adapter", Exploding())
    answer = _error(decode(Line(b'{"jsonrpc":"2.0","id":9,"method":"tools/list"}')))
    assert (answer["id"], answer["error"]["code"]) == (None, -32700)
    assert type(failure).__name__ in answer["error"]["message"]


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, SystemExit])
def test_an_interrupt_is_never_swallowed(
    interrupt: type[BaseException], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Interrupted:
        def validate_json(self, *_args: object, **_kwargs: object) -> object:
            raise interrupt

    monkeypatch.setattr(types, "jsonrpc_message_adapter", Interrupted())
    with pytest.raises(interrupt):
        decode(Line(b"{}"))


def test_an_oversized_line_is_refused_with_the_cap_in_its_data() -> None:
    answer = _error(decode(Oversized(10**8)))
    assert answer["id"] is None  # discarded unread: JSON-RPC answers such a line with null
    assert answer["error"]["data"] == {"code": "limit_exceeded", "maxBytes": 4 * 2**20}
    assert "100000000 bytes" in answer["error"]["message"]


# --- the answers owed --------------------------------------------------------------------


@pytest.mark.anyio
async def test_the_end_of_input_waits_for_every_answer_still_owed() -> None:
    pending = PendingAnswers()
    pending.expect(1)
    pending.expect("b")
    pending.settle(1)
    with anyio.move_on_after(0.05) as waited:
        await pending.drained()
    assert waited.cancelled_caught  # "b" is still owed
    pending.settle("b")
    with anyio.fail_after(5):
        await pending.drained()


def test_ids_compare_as_the_sdk_correlates_them() -> None:
    pending = PendingAnswers()
    pending.expect(7)
    assert [pending.owes(7), pending.owes("7"), pending.owes(8)] == [True, True, False]


@pytest.mark.anyio
async def test_the_bound_counts_every_answer_owed_and_a_stuck_one_is_not_waited_for_ever() -> None:
    pending = PendingAnswers(limit=2)
    pending.expect(1)
    pending.expect(2)
    with anyio.move_on_after(0.05) as waited:
        await pending.room()
    assert waited.cancelled_caught
    pending.settle(2)
    with anyio.fail_after(5):
        await pending.room()
        await pending.drained(seconds=0.01)  # 1 is never answered: the wait has a bound


# --- the wire fuzzer: a whole session in process ------------------------------------------

HANDSHAKE = [
    {
        "jsonrpc": "2.0",
        "id": "hello",
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "wire-fuzzer", "version": "0"},
        },
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
]
POOL = st.sampled_from([1, 2, "a", "2"])  # few ids, so they are reused while in flight
CONTROL_NAMES = st.text(
    st.sampled_from("ab \x00\x1c\x1d\x1e\x1f\x85\u2028\n\r\t\x7f"), min_size=1, max_size=6
)


def _request(request_id: Any, method: str, params: Any = None) -> dict[str, Any]:
    message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    return message if params is None else {**message, "params": params}


def _line(cls: str, message: Any) -> tuple[str, bytes, Any]:
    return cls, json.dumps(message).encode(), message


LINES = st.one_of(
    st.builds(lambda i: _line("valid call", _request(i, "ping")), POOL),
    st.builds(
        lambda i: _line("reused id", _request(i, "tools/call", {"name": "automium_list_apps"})),
        POOL,
    ),
    st.builds(
        lambda i: _line(
            "cancel",
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": i}},
        ),
        POOL,
    ),
    st.builds(
        lambda literal, in_id: (
            "non-finite number",
            (
                b'{"jsonrpc":"2.0","id":' + literal + b',"method":"ping"}'
                if in_id
                else b'{"jsonrpc":"2.0","x":' + literal + b',"id":3,"method":"ping"}'
            ),
            None,
        ),
        st.sampled_from([b"NaN", b"Infinity", b"-Infinity"]),
        st.booleans(),
    ),
    st.builds(
        lambda i, n: (
            "long integer",
            b'{"jsonrpc":"2.0","id":' + json.dumps(i).encode() + b',"method":"ping","params":'
            b'{"a":' + b"7" * n + b"}}",
            None,
        ),
        POOL,
        st.sampled_from([MAX_INTEGER_DIGITS + 1, 5001]),
    ),
    st.builds(
        lambda i, name: _line(
            "control characters in names",
            _request(i, "tools/call", {"name": name, "arguments": {name: name}}),
        ),
        POOL,
        CONTROL_NAMES,
    ),
    st.builds(
        lambda b: ("not JSON", b, None),
        st.binary(max_size=30)
        .map(lambda b: b.replace(b"\n", b" "))
        .filter(lambda b: b.strip(b" \t\r") != b""),  # a blank line is framing noise
    ),
)
DRAWN: collections.Counter[str] = collections.Counter()


def _session(lines: list[bytes]) -> list[dict[str, Any]]:
    """Every line the server wrote for ``lines`` (after the handshake), once stdin closed."""
    stdin_read, stdin_write = os.pipe()
    stdout_read, stdout_write = os.pipe()
    wire = b"".join(json.dumps(m).encode() + b"\n" for m in HANDSHAKE)
    wire += b"".join(line + b"\n" for line in lines)
    assert len(wire) < 60_000  # fits the pipe: written before the session starts
    os.write(stdin_write, wire)
    os.close(stdin_write)

    async def run() -> None:
        with anyio.fail_after(30):
            await serve_session(build_server(), stdin_read, stdout_write)

    try:
        anyio.run(run)
    finally:
        os.close(stdin_read)
        os.close(stdout_write)
    with os.fdopen(stdout_read, "rb") as out:
        answers = [json.loads(line) for line in out.read().splitlines()]
    return [a for a in answers if a.get("id") != "hello"]


@settings(max_examples=examples(200), deadline=None)
@given(drawn=st.lists(LINES, min_size=1, max_size=12))
def test_every_line_that_could_be_a_request_is_answered_once_with_its_id_or_null(
    drawn: list[tuple[str, bytes, Any]],
) -> None:
    DRAWN.update(cls for cls, _, _ in drawn)
    answers = _session([line for _, line, _ in drawn])
    requests = [m for _, _, m in drawn if isinstance(m, dict) and "id" in m]
    cancelled = {json.dumps(m["params"]["requestId"]) for _, _, m in drawn if m and "id" not in m}
    sent = collections.Counter(json.dumps(m["id"]) for m in requests)
    answered = collections.Counter(json.dumps(a["id"]) for a in answers if a["id"] is not None)
    reused = collections.Counter(
        json.dumps(a["error"]["data"]["requestId"])
        for a in answers
        if a["id"] is None and a.get("error", {}).get("data", {}).get("requestId") is not None
    )
    not_requests = sum(1 for cls, _, m in drawn if m is None)
    null_others = sum(1 for a in answers if a["id"] is None) - sum(reused.values())
    assert all(a.get("jsonrpc") == "2.0" for a in answers)
    assert null_others == not_requests  # each line that is no valid request: one null answer
    for key, count in sent.items():
        # each request: its answer, or a refusal of its reused id, or dropped once cancelled
        got = answered[key] + reused[key]
        assert got == count or (key in cancelled and got <= count), (key, answers)
    assert set(answered) <= set(sent)


def test_the_wire_fuzzer_draws_every_class() -> None:
    """Run after the fuzzer (file order): what it drew, per class (``pytest -s`` prints it)."""
    print(f"\nwire fuzzer, lines drawn per class: {dict(sorted(DRAWN.items()))}")
    if DRAWN:
        assert len(DRAWN) == 7


@pytest.mark.anyio
async def test_the_answers_owed_are_bounded_in_bytes_not_only_in_count() -> None:
    pending = PendingAnswers(limit=64, max_bytes=1000)
    pending.expect(1)
    pending.sized(1, 600)  # made, not written: the client does not read
    pending.expect(2)  # not made yet: as big as the largest answer lately, 600
    assert pending.owed_bytes == 1200
    with anyio.move_on_after(0.05) as waited:
        await pending.room()
    assert waited.cancelled_caught  # a third request waits, though only 2 of 64 are owed
    pending.settle(1)
    with anyio.fail_after(5):
        await pending.room()
    assert pending.owed_bytes == 600


@pytest.mark.anyio
async def test_one_answer_bigger_than_the_bound_is_still_let_through() -> None:
    pending = PendingAnswers(limit=64, max_bytes=10)
    pending.sized("x", 10_000)  # an answer of a request no longer owed: its size is kept
    with anyio.fail_after(5):
        await pending.room()
