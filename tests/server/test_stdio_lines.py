"""The stdio transport's line handling, in process: framing with a cap, reading the id of a
line without parsing it, what each line becomes (a message, an error line, nothing), and
what the end of input waits for (the answers still due, within a bound).

The framer must give the same frames however the stream is cut into chunks; the id reader
must agree with a real JSON parser on every object whose id it reports, and report one
whenever the id is the first or last member; a failure of the parser of any kind — a
pyo3 ``PanicException`` is a ``BaseException`` — costs one error line, never the session.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp import types

from automium.mcp_server.envelope import last_member, reply_id, scan_members
from automium.mcp_server.framing import Line, LineFramer, Oversized
from automium.mcp_server.inbound import Reply, decode
from automium.mcp_server.inflight import InFlight
from tests.conftest import fixed

FLOATS = st.floats(allow_nan=False, allow_infinity=False)  # JSON has no NaN or Infinity
JSON_SCALARS = st.none() | st.booleans() | st.integers() | FLOATS | st.text()
JSON = st.recursive(
    JSON_SCALARS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=12,
)
IDS = st.integers() | st.text() | FLOATS
MEMBERS = st.dictionaries(st.sampled_from(["jsonrpc", "method", "params", "x", "ID"]), JSON)


def _frames(stream: bytes, cuts: list[int], max_bytes: int = 16, window: int = 4) -> list[Any]:
    framer = LineFramer(max_bytes, window)
    frames, start = [], 0
    for cut in [*sorted(cuts), len(stream)]:
        frames += framer.feed(stream[start:cut])
        start = max(start, cut)
    return frames + framer.finish()


# --- framing --------------------------------------------------------------------------------


@settings(max_examples=fixed(300), deadline=None)
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
        tail = raw[-4:].removesuffix(b"\r")
        expected.append(Line(body) if len(raw) <= 16 else Oversized(raw[:4], tail, len(body)))
    assert _frames(stream, cuts) == expected


def test_the_last_line_without_a_line_end_is_framed_at_end_of_input() -> None:
    assert _frames(b"a\nbc", []) == [Line(b"a"), Line(b"bc")]
    assert _frames(b"a\n", []) == [Line(b"a")]


def test_an_oversized_line_holds_no_more_than_the_cap() -> None:
    framer = LineFramer(max_bytes=1024, window=8)
    framer.feed(b"{" + b"1," * 10_000)
    assert len(framer._line) == 0  # the point is what it holds
    assert framer.feed(b"9}\n") == [Oversized(b"{1,1,1,1", b"1,1,1,9}", 20_003)]


def test_the_window_must_fit_the_cap() -> None:
    with pytest.raises(ValueError, match="window"):
        LineFramer(max_bytes=4, window=8)


# --- reading the id without parsing ---------------------------------------------------------


@settings(max_examples=fixed(300), deadline=None)
@given(members=MEMBERS, request_id=IDS, first=st.booleans(), cut=st.integers(0, 200))
def test_the_id_is_read_from_either_end_and_never_misread(
    members: dict[str, Any], request_id: Any, first: bool, cut: int
) -> None:
    ordered = {"id": request_id, **members} if first else {**members, "id": request_id}
    line = json.dumps(ordered).encode()
    expected = json.dumps(request_id).encode()
    if first:
        assert scan_members(line).members["id"].raw == expected
    else:
        assert last_member(line) == ("id", scan_members(line).members["id"])
    # A window of the line reports the id right, or not at all.
    head, tail = (
        scan_members(line[:cut]).members.get("id"),
        last_member(line[-cut:] if cut else b""),
    )
    assert head is None or json.loads(head.raw or b"") == request_id
    assert tail is None or tail[0] != "id" or json.loads(tail[1].raw or b"") == request_id


@settings(max_examples=fixed(300), deadline=None)
@given(value=JSON)
def test_nested_values_are_skipped_not_parsed(value: Any) -> None:
    line = json.dumps({"params": value, "id": 7, "method": "m"}).encode()
    assert set(scan_members(line).members) == {"params", "id", "method"}


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b'{"id":12', b"null"),  # cut inside the number: it could be 123
        (b'{"id":"a\\"b","x":1}', b'"a\\"b"'),
        (b'{"id":true}', b"null"),
        (b'{"id":{"a":1}}', b"null"),
        (b'{"id":null}', b"null"),
        (b'{"id":1.5e3}', b"1.5e3"),
        (b'{"id":"\xff"}', b"null"),  # the answer must be UTF-8
    ],
)
def test_what_id_an_answer_echoes(line: bytes, expected: bytes) -> None:
    assert reply_id(scan_members(line).members.get("id")) == expected


def test_a_member_inside_a_string_is_not_read_from_the_end() -> None:
    line = b'{"goal":"x\\",\\"id\\":5}"}'
    assert last_member(line) == ("goal", scan_members(line).members["goal"])
    assert last_member(b'"id":5}') is None  # no "{" or "," before the key: maybe not top level
    assert last_member(b'{"params":{"id":5}}') is None


# --- what a line becomes --------------------------------------------------------------------


def _error(reply: object) -> dict[str, Any]:
    assert isinstance(reply, Reply)
    answer: dict[str, Any] = json.loads(reply.line)
    return answer


class _Panic(BaseException):
    """Stands for pyo3's ``PanicException``, which derives from ``BaseException``."""


@pytest.mark.parametrize("failure", [_Panic("rust panicked"), MemoryError(), RecursionError()])
def test_any_failure_of_the_parser_is_a_parse_error_for_that_line(
    failure: BaseException, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Exploding:
        def validate_json(self, *_args: object, **_kwargs: object) -> object:
            raise failure

    monkeypatch.setattr(types, "jsonrpc_message_adapter", Exploding())
    answer = _error(decode(Line(b'{"jsonrpc":"2.0","id":9,"method":"tools/list"}')))
    assert (answer["id"], answer["error"]["code"]) == (9, -32700)
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
    answer = _error(decode(Oversized(b'{"id":"r-1","params":{"a":[1,', b"1]}}", 10**8)))
    assert answer["id"] == "r-1"
    assert answer["error"]["data"] == {"code": "limit_exceeded", "maxBytes": 4 * 2**20}
    assert "100000000 bytes" in answer["error"]["message"]


# --- what the end of input waits for --------------------------------------------------------


def _message(line: bytes) -> Any:
    return types.jsonrpc_message_adapter.validate_json(line, by_name=False)


@pytest.mark.anyio
async def test_the_end_of_input_waits_for_every_answer_still_due() -> None:
    inflight = InFlight()
    inflight.saw_inbound(_message(b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}'))
    inflight.saw_inbound(_message(b'{"jsonrpc":"2.0","id":"b","method":"tools/list"}'))
    inflight.saw_outbound(_message(b'{"jsonrpc":"2.0","id":1,"result":{}}'))
    with anyio.move_on_after(0.05) as waited:
        await inflight.drained()
    assert waited.cancelled_caught  # "b" is still due
    inflight.saw_outbound(_message(b'{"jsonrpc":"2.0","id":"b","error":{"code":1,"message":"x"}}'))
    with anyio.fail_after(5):
        await inflight.drained()


@pytest.mark.anyio
async def test_a_cancelled_request_is_no_longer_waited_for_nor_is_a_stuck_one_for_ever() -> None:
    inflight = InFlight()
    inflight.saw_inbound(_message(b'{"jsonrpc":"2.0","id":7,"method":"tools/list"}'))
    inflight.saw_inbound(
        _message(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}')
    )
    with anyio.fail_after(5):
        await inflight.drained()
    inflight.saw_inbound(_message(b'{"jsonrpc":"2.0","id":8,"method":"tools/list"}'))
    with anyio.fail_after(5):
        await inflight.drained(seconds=0.01)  # never answered: the wait has a bound
