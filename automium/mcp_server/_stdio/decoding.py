"""One stdio line becomes a message for the SDK, a JSON-RPC error to write back, or nothing.

Every line that could be a request is answered, as JSON-RPC 2.0 says:

- ``-32700``, id ``null``, when it is not JSON, or the parser failed in any way (a pyo3
  ``PanicException`` is a ``BaseException``), or it is nested deeper than the SDK's parser
  goes (~200 levels);
- ``-32600`` when it is JSON but no valid request (an array, a scalar, ``jsonrpc`` not
  ``"2.0"``, no string ``method``, ``params`` not an object, an id that is neither a string
  nor an integer), with the request's id when JSON-RPC allows it as one (a string or any
  finite number, so ``1.5`` is answered with ``1.5``), else ``null``;
- ``-32600``, id ``null``, when it holds ``NaN``, ``Infinity`` or ``-Infinity`` anywhere
  (RFC 8259 has no such numbers; the SDK's parser takes them, and took ``{"id": NaN}`` for
  a notification, which is never answered), or an integer of more than
  :data:`MAX_INTEGER_DIGITS` digits (valid JSON, which no parser here turns into a number);
- ``-32600``, id ``null``, with ``data.code`` ``limit_exceeded``, when it is longer than
  :data:`MAX_LINE_BYTES` (it was discarded unread, so nothing of it is known).

Blank lines (framing noise), notifications and anything shaped like a response (a
response is never answered) get no answer. Nothing here raises for any bytes a client can
send, and nothing reads an id out of a line that did not parse: JSON-RPC says such an
answer's id is ``null``.
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

from automium.mcp_server._stdio.lines import Frame, Oversized

log = logging.getLogger("automium.mcp")

MAX_LINE_BYTES: int = DEFAULT_MAX_REQUEST_BODY_SIZE
"""The longest stdio line that is parsed: 4 MiB, the SDK's cap on an HTTP body."""

MAX_INTEGER_DIGITS = 4300
"""The longest integer literal a message may hold: Python's own limit for ``int()``, where
the SDK's parser stops too ("number out of range")."""


@dataclass(frozen=True)
class Reply:
    """A JSON-RPC error to write back, as one line of JSON without its line end."""

    line: bytes


Inbound = SessionMessage | Reply | None


def decode(frame: Frame) -> Inbound:
    """What to do with ``frame`` (see the module docstring)."""
    if isinstance(frame, Oversized):
        return _too_large(frame)
    data = frame.data
    if not data.strip(b" \t\r"):
        return None
    # As the SDK's reader does: UTF-8 with replacement, then the SDK's message type.
    text = data.decode("utf-8", errors="replace")
    try:
        message = types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as failure:  # a parser panic must cost this one line only
        return _refused(text, failure)
    if isinstance(message, types.JSONRPCNotification) or b"NaN" in data or b"Infinity" in data:
        # A notification may be a request whose id the SDK could not take as one; a
        # non-finite number is taken by the SDK's parser, silently.
        refusal = _invalid(_parse(text))
        if refusal is not None:
            return refusal
    return SessionMessage(message)


def error_line(request_id: Any, code: int, message: str, data: Any = None) -> Reply:
    """The JSON-RPC error answering ``request_id`` (``None``: id ``null``)."""
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    answer = {"jsonrpc": "2.0", "id": request_id, "error": error}
    return Reply(json.dumps(answer, separators=(",", ":")).encode())


def _too_large(frame: Oversized) -> Reply:
    log.info("refused a stdio line of %d bytes (the cap is %d)", frame.size, MAX_LINE_BYTES)
    return error_line(
        None,
        types.INVALID_REQUEST,
        f"Request too large: a message on stdio may be at most {MAX_LINE_BYTES} bytes "
        f"(4 MiB); this one was {frame.size} bytes and was discarded unread.",
        {"code": "limit_exceeded", "maxBytes": MAX_LINE_BYTES},
    )


@dataclass(frozen=True)
class _Parsed:
    """What the standard library's parser made of a line (with our rules for numbers)."""

    document: Any = None
    not_json: str | None = None  # why it is not JSON, when it is not
    non_finite: bool = False
    long_integer: bool = False


def _parse(text: str) -> _Parsed:
    seen = {"non_finite": False, "long_integer": False}

    def constant(_name: str) -> None:
        seen["non_finite"] = True

    def integer(literal: str) -> int:
        if len(literal.lstrip("-")) > MAX_INTEGER_DIGITS:
            seen["long_integer"] = True
            return 0
        return int(literal)

    try:
        document = json.loads(text, parse_constant=constant, parse_int=integer)
    except RecursionError:
        return _Parsed(not_json="the value is nested too deeply")
    except ValueError as failure:
        return _Parsed(not_json=str(failure)[:200])
    return _Parsed(document, None, seen["non_finite"], seen["long_integer"])


def _refused(text: str, failure: BaseException) -> Reply | None:
    if not isinstance(failure, ValidationError):
        log.info("refused a line the parser failed on (%s)", type(failure).__name__)
        return _parse_error(f"the parser failed ({type(failure).__name__})")
    parsed = _parse(text)
    if parsed.not_json is None and (parsed.non_finite or parsed.long_integer):
        return _invalid(parsed)
    if parsed.not_json is not None or _is_invalid_json(failure):
        # Not JSON, or JSON deeper than the SDK's parser goes: its own words say where.
        return _parse_error(str(failure.errors()[0]["msg"])[:200])
    if _is_response(parsed.document):
        return None  # a response is never answered
    return _invalid(parsed) or _invalid_request(None, "not a JSON-RPC 2.0 message")


def _parse_error(detail: str) -> Reply:
    log.info("refused a line that is not JSON: %s", detail)
    return error_line(None, types.PARSE_ERROR, f"Parse error: {detail}")


def _is_invalid_json(failure: ValidationError) -> bool:
    return any(error["type"] == "json_invalid" for error in failure.errors())


def _invalid(parsed: _Parsed) -> Reply | None:
    """The ``-32600`` for a JSON value that is no JSON-RPC 2.0 request (its first broken
    rule), or None when it is one, or a response (never answered)."""
    if parsed.non_finite:
        return _invalid_request(None, _NON_FINITE)
    if parsed.long_integer:
        return _invalid_request(None, _LONG_INTEGER)
    document = parsed.document
    if _is_response(document):
        log.info("dropped a malformed response (responses are never answered)")
        return None
    rules: tuple[tuple[Callable[[Any], bool], str], ...] = (
        (lambda d: isinstance(d, list), "batches are not supported; send one object per line"),
        (lambda d: not isinstance(d, dict), "a message must be a JSON object"),
        (lambda d: d.get("jsonrpc") != "2.0", '"jsonrpc" must be "2.0"'),
        (lambda d: "method" not in d, 'a request needs a "method"'),
        (lambda d: not isinstance(d["method"], str), '"method" must be a string'),
        (lambda d: "id" in d and not _is_mcp_id(d["id"]), _BAD_ID),
        (lambda d: not isinstance(d.get("params", {}), dict), _BAD_PARAMS),
    )
    broken = next((text for rule, text in rules if rule(document)), None)
    if broken is None:
        return None
    echoed = document.get("id") if isinstance(document, dict) else None
    return _invalid_request(echoed if _is_jsonrpc_id(echoed) else None, broken)


_NON_FINITE = "NaN, Infinity and -Infinity are not JSON numbers"
_LONG_INTEGER = f"an integer may have at most {MAX_INTEGER_DIGITS:,} digits"
_BAD_ID = '"id" must be a string or an integer'
_BAD_PARAMS = '"params" must be an object (MCP takes parameters by name)'


def _invalid_request(request_id: Any, broken: str) -> Reply:
    log.info("refused an invalid request: %s", broken)
    return error_line(request_id, types.INVALID_REQUEST, f"Invalid request: {broken}.")


def _is_response(document: Any) -> bool:
    return (
        isinstance(document, dict)
        and "method" not in document
        and ("result" in document or "error" in document)
    )


def _is_mcp_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _is_jsonrpc_id(value: Any) -> bool:
    """A value JSON-RPC allows as an id besides null: a string or a number."""
    return _is_mcp_id(value) or isinstance(value, float)
