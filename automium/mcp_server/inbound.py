"""One stdio frame -> what the transport does with it: hand a message to the SDK, answer
with a JSON-RPC error line, or ignore it.

The SDK's own stdio reader parses each line with the SDK's message type and drops every
line that fails (a debug log, no answer), and it treats ``{"id": 1.5, "method": ...}`` as a
notification because such an id is no MCP id: either way a client that sent an id waits
for an answer that never comes. Here every line that cannot reach the SDK is answered as
JSON-RPC 2.0 says — ``-32700`` when it is not JSON (or the parser failed in any way,
including a pyo3 ``PanicException``, which is a ``BaseException``), ``-32600`` when it is
JSON but no valid request, both with the request's id whenever it can be read (see
:mod:`automium.mcp_server.envelope`) — except blank lines, which are framing noise, and
anything shaped like a response (a response is never answered).

An id is echoed when JSON-RPC allows it as an id (a string or any number, so ``1.5`` is
answered with ``1.5``); ``true``, an object or a missing id is answered with ``null``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mcp import types
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from automium.mcp_server.envelope import Member, Scan, last_member, reply_id, scan_members
from automium.mcp_server.framing import Frame, Oversized

log = logging.getLogger("automium.mcp")

MAX_LINE_BYTES: int = DEFAULT_MAX_REQUEST_BODY_SIZE
"""The longest stdio line that is parsed: 4 MiB, the SDK's cap on an HTTP body."""

ID_WINDOW_BYTES = 4096
"""How much of each end of an oversized line is kept to find its id."""


@dataclass(frozen=True)
class Reply:
    """A JSON-RPC error to write back, as one line of JSON without its line end."""

    line: bytes


Inbound = SessionMessage | Reply | None


def decode(frame: Frame) -> Inbound:
    """What to do with ``frame``; never raises for any bytes a client can send."""
    if isinstance(frame, Oversized):
        return _too_large(frame)
    data = frame.data
    if not data.strip(b" \t\r"):
        return None
    try:
        # As the SDK's reader does: UTF-8 with replacement, then the SDK's message type.
        message = types.jsonrpc_message_adapter.validate_json(
            data.decode("utf-8", errors="replace"), by_name=False
        )
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as failure:  # a parser panic must cost this one line only
        return _refuse(scan_members(data), failure)
    if isinstance(message, types.JSONRPCNotification):
        scan = scan_members(data)
        if "id" in scan.members:  # a request whose id the SDK could not take as one
            return _error(scan.members["id"], types.INVALID_REQUEST, _reason(scan))
    return SessionMessage(message)


def _too_large(frame: Oversized) -> Reply:
    member = scan_members(frame.head).members.get("id")
    if member is None and (last := last_member(frame.tail)) is not None and last[0] == "id":
        member = last[1]
    log.info("refused a stdio line of %d bytes (the cap is %d)", frame.size, MAX_LINE_BYTES)
    return _error(
        member,
        types.INVALID_REQUEST,
        f"Request too large: a message on stdio may be at most {MAX_LINE_BYTES} bytes "
        f"(4 MiB); this one was {frame.size} bytes and was discarded unread.",
        {"code": "limit_exceeded", "maxBytes": MAX_LINE_BYTES},
    )


def _refuse(scan: Scan, failure: BaseException) -> Reply | None:
    members = scan.members
    if "method" not in members and ("result" in members or "error" in members):
        log.info("dropped a malformed response (responses are never answered)")
        return None
    if isinstance(failure, ValidationError) and not _is_invalid_json(failure):
        log.info("refused an invalid request")
        return _error(members.get("id"), types.INVALID_REQUEST, _reason(scan))
    detail = _parse_detail(failure)
    log.info("refused a line that is not JSON: %s", detail)
    return _error(members.get("id"), types.PARSE_ERROR, f"Parse error: {detail}")


def _is_invalid_json(failure: ValidationError) -> bool:
    return any(error["type"] == "json_invalid" for error in failure.errors())


def _parse_detail(failure: BaseException) -> str:
    """Where the JSON broke (pydantic-core says it without quoting the input), or what failed."""
    if isinstance(failure, ValidationError):
        message = str(failure.errors()[0]["msg"])
        return message[:200]
    return f"the parser failed ({type(failure).__name__})"


def _reason(scan: Scan) -> str:
    """Why a JSON value is no JSON-RPC 2.0 request: the first rule it breaks."""
    members = scan.members
    rules: tuple[tuple[Callable[[], bool], str], ...] = (
        (lambda: scan.shape == "array", "batches are not supported; send one object per line"),
        (lambda: scan.shape != "object", "a message must be a JSON object"),
        (lambda: _string(members.get("jsonrpc")) != "2.0", '"jsonrpc" must be "2.0"'),
        (lambda: "method" not in members, 'a request needs a "method"'),
        (lambda: members["method"].kind != "string", '"method" must be a string'),
        (lambda: "id" in members and not _is_mcp_id(members["id"]), _BAD_ID),
        (lambda: members.get("params", _OBJECT).kind != "object", _BAD_PARAMS),
    )
    broken = next((text for rule, text in rules if rule()), "not a JSON-RPC 2.0 message")
    return f"Invalid request: {broken}."


_BAD_ID = '"id" must be a string or an integer'
_BAD_PARAMS = '"params" must be an object (MCP takes parameters by name)'
_OBJECT = Member("object")


def _string(member: Member | None) -> str | None:
    if member is None or member.kind != "string" or member.raw is None:
        return None
    try:
        text: str = json.loads(member.raw)
    except ValueError:
        return None
    return text


def _is_mcp_id(member: Member) -> bool:
    if member.kind == "string":
        return True
    raw = member.raw or b""
    return member.kind == "number" and not any(char in raw for char in b".eE")


def _error(member: Member | None, code: int, message: str, data: Any = None) -> Reply:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    body = json.dumps(error, separators=(",", ":")).encode()
    return Reply(b'{"jsonrpc":"2.0","id":' + reply_id(member) + b',"error":' + body + b"}")
