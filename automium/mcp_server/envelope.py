"""What identifies a JSON-RPC message, read from its raw bytes without building the document.

The stdio transport answers a line it cannot hand to the SDK (too large, not JSON, not a
valid request) with a JSON-RPC error, and that error must carry the request's ``id`` or the
client waits for an answer that never comes. Parsing the line to find the id is exactly
what cannot be done for such a line (it may be 100 MB, 5,000 levels deep, or not JSON at
all), so this module reads the *top-level members* of an object by scanning: keys and
scalar values are matched with regular expressions, nested values are skipped by counting
brackets outside strings, and nothing is ever built or recursed into.

Two readers cover the two member orders clients use: :func:`scan_members` reads forward
from the start of the line (the Python SDK writes ``{"jsonrpc", "id", "method",
"params"}``), :func:`last_member` reads the one member before the closing brace (the
TypeScript SDK writes ``{"method", "params", "jsonrpc", "id"}``). Both accept a member only
when its value is complete and followed by ``,`` or ``}`` inside the bytes they were given,
so a window cut in the middle of ``"id":12345`` never yields ``12``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["string", "number", "true", "false", "null", "object", "array"]

_WS = re.compile(rb"[ \t\n\r]*")
# Strict JSON strings, numbers and literals; possessive loops keep long strings linear.
_STRING = re.compile(
    rb'"[^"\\\x00-\x1f]*+(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*+)*+"'
)
_SCALAR = re.compile(rb"-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?(?:[eE][+-]?[0-9]++)?|true|false|null")
_STRUCTURE = re.compile(rb'["\[\]{}]')
_LITERALS: dict[bytes, Kind] = {b"true": "true", b"false": "false", b"null": "null"}
_TAIL_SCALAR = re.compile(rb"[:\s](" + _SCALAR.pattern + rb")\Z")
_MAX_TAIL_SCALAR = 400  # bytes: longer numbers are no id anyone sends


@dataclass(frozen=True)
class Member:
    """One top-level member's value: its kind, and its JSON text when it is a scalar."""

    kind: Kind
    raw: bytes | None = None


@dataclass(frozen=True)
class Scan:
    """The top-level members of a line, as far as they could be read."""

    shape: Literal["object", "array", "other"]
    members: dict[str, Member] = field(default_factory=dict)


def scan_members(data: bytes) -> Scan:
    """The members of the object that ``data`` starts with, up to the first one that is
    cut off or malformed (a later duplicate key wins, as in the SDK's parser)."""
    start = _skip_ws(data, 0)
    opening = data[start : start + 1]
    if opening != b"{":
        return Scan("array" if opening == b"[" else "other")
    scan = Scan("object")
    position = _skip_ws(data, start + 1)
    while (key := _STRING.match(data, position)) is not None:
        colon = _skip_ws(data, key.end())
        if data[colon : colon + 1] != b":":
            break
        value = _value(data, _skip_ws(data, colon + 1))
        if value is None:
            break
        member, end = value
        after = _skip_ws(data, end)
        delimiter = data[after : after + 1]
        if delimiter not in (b",", b"}"):
            break  # cut off (or malformed) right after the value: it may be incomplete
        scan.members[_text(key[0])] = member
        if delimiter == b"}":
            break
        position = _skip_ws(data, after + 1)
    return scan


def last_member(data: bytes) -> tuple[str, Member] | None:
    """The member right before the closing brace that ``data`` ends with, if it is a scalar.

    For a JSON object, the last ``"key": scalar`` before its final ``}`` is a top-level
    member whatever came before it, so reading backwards from the end is sound; strings
    are found by their unescaped opening quote (an even run of backslashes before it).
    """
    end = _back_ws(data, len(data))
    if data[end - 1 : end] != b"}":
        return None
    value = _value_before(data, _back_ws(data, end - 1))
    if value is None:
        return None
    member, value_start = value
    colon = _back_ws(data, value_start)
    if data[colon - 1 : colon] != b":":
        return None
    key = _string_before(data, _back_ws(data, colon - 1))
    if key is None:
        return None
    before = _back_ws(data, key.start())
    if data[before - 1 : before] not in (b",", b"{"):
        return None
    return _text(key[0]), member


def _value_before(data: bytes, end: int) -> tuple[Member, int] | None:
    """The scalar that ends at ``end``, and where it starts."""
    string = _string_before(data, end)
    if string is not None:
        return Member("string", string[0]), string.start()
    found = _TAIL_SCALAR.search(data, max(0, end - _MAX_TAIL_SCALAR), end)
    return None if found is None else (_scalar_member(found[1]), found.start(1))


def _string_before(data: bytes, end: int) -> re.Match[bytes] | None:
    """The valid JSON string whose closing quote is the byte before ``end``."""
    if data[end - 1 : end] != b'"':
        return None
    start = _string_start(data, end - 1)
    return None if start is None else _STRING.fullmatch(data, start, end)


def reply_id(member: Member | None) -> bytes:
    """The JSON text of the id to answer with: the request's own string or number, else
    ``null`` (JSON-RPC ids are strings, numbers or null; a bool or object is no id)."""
    if member is None or member.raw is None or member.kind not in ("string", "number"):
        return b"null"
    try:
        member.raw.decode("utf-8")  # the answer must be valid UTF-8 JSON
    except UnicodeDecodeError:
        return b"null"
    return member.raw


def _skip_ws(data: bytes, position: int) -> int:
    found = _WS.match(data, position)
    return found.end() if found else position


def _text(raw: bytes) -> str:
    try:
        text: str = json.loads(raw)
    except ValueError:  # invalid UTF-8 in a key: no key we look for
        return ""
    return text


def _scalar_member(raw: bytes) -> Member:
    return Member(_LITERALS.get(raw, "number"), raw)


def _value(data: bytes, position: int) -> tuple[Member, int] | None:
    """The value at ``position`` and where it ends, or None when it is cut off or malformed."""
    opening = data[position : position + 1]
    if opening in (b"{", b"["):
        end = _skip_container(data, position)
        return None if end is None else (Member("object" if opening == b"{" else "array"), end)
    string = _STRING.match(data, position)
    if string is not None:
        return Member("string", string[0]), string.end()
    scalar = _SCALAR.match(data, position)
    if scalar is None:
        return None
    return _scalar_member(scalar[0]), scalar.end()


def _skip_container(data: bytes, position: int) -> int | None:
    """The end of the array or object at ``position``: iterative, so depth costs no stack."""
    depth = 0
    while (found := _STRUCTURE.search(data, position)) is not None:
        char = found[0]
        if char == b'"':
            string = _STRING.match(data, found.start())
            if string is None:
                return None
            position = string.end()
            continue
        depth += 1 if char in (b"[", b"{") else -1
        position = found.end()
        if depth == 0:
            return position
    return None


def _back_ws(data: bytes, end: int) -> int:
    """The index just after the last non-whitespace byte before ``end``."""
    while end > 0 and data[end - 1] in b" \t\n\r":
        end -= 1
    return end


def _string_start(data: bytes, closing: int) -> int | None:
    """Where the string whose closing quote is at ``closing`` opens, or None."""
    quote = data.rfind(b'"', 0, closing)
    while quote >= 0:
        backslashes = 0
        while quote - backslashes > 0 and data[quote - backslashes - 1] == 0x5C:  # a backslash
            backslashes += 1
        if backslashes % 2 == 0:
            return quote
        quote = data.rfind(b'"', 0, quote)
    return None
