"""Every input limit of Automium v1, in one place, and the three no contract can express.

A limit turns a large input into a ``limit_exceeded`` error *before* any slow work. Most
limits live in the contracts (so an agent reads them in the tool's ``inputSchema``); the
first three rows are checked here, on the raw arguments of every tool call, before schema
validation — a schema validator reports every error of every array item, so an argument
with a million junk items would otherwise cost a million explanations.

===========================  ==============================  ==============================
what                         limit                           where it is enforced
===========================  ==============================  ==============================
tool arguments, total size   1 MiB (1,048,576 characters of  :func:`check_arguments`, first
                             compact JSON; escapes are not   thing ``Capability.run`` does; far
                             expanded, so it is a cheap      above any journey an agent can
                             lower bound of the wire size)   write in one turn
tool arguments, nesting      64 levels of objects/arrays     :func:`check_arguments` (an
                             (the deepest v1 input needs 4)  iterative walk, no recursion)
tool arguments, entries      1000 per array or object (the   :func:`check_arguments`
                             largest ``maxItems`` of any
                             input contract)
JSON-RPC message nesting     ~200 levels                     the SDK's JSON parser (pydantic-
                                                             core); deeper lines are answered
                                                             -32700, the session goes on
stdio answers owed           64, errors included, whatever   ``mcp_server._stdio.pending``
                             their ids; then stdin is not
                             read until one is written or
                             dropped; a reused id is refused
JSON-RPC numbers on stdio    integers of up to 4,300 digits; ``mcp_server._stdio.decoding``
                             NaN and the infinities refused
HTTP sessions open           64; a new one closes the one     ``mcp_server.http_sessions``
                             idle the longest, or is refused
                             503 when all are busy
JSON-RPC line on stdio       4 MiB, as an HTTP body          ``mcp_server._stdio.lines``, before
                                                             parsing: a longer line is read
                                                             in chunks and discarded unread
                                                             (a 100 MB line: ~1.2x idle RSS)
array lengths                journey ``steps`` and           contracts ``maxItems``
                             ``assertions`` 1000, manifest
                             ``entries`` 1000, ``appIds`` 5,
                             ``planners`` 8, recovery
                             ``strategies`` 4, compare
                             ``journeys`` 20 and recorded
                             ``trials`` 1000
string lengths               ids 64 to 128, ``Text`` 2000,   contracts ``maxLength`` (see
                             ``ShortText`` 200, artifact     ``common.schema.json``)
                             paths 512, refs 160, roles 40
numbers                      ``repetitions`` ≤ 100 (below 1  contracts ``maximum`` /
                             counts as 1), ``retryCount`` ≤  ``minimum``
                             3000, ``timeoutMs`` 100 to
                             30000, ``count`` ≤ 10000,
                             ``nth`` ≤ 999,
                             ``sizeBytes`` ≤ 1 TiB
problems listed in an error  200 (the contract allows 1000)  ``automium.errors``
prompt arguments             20,000 characters each          ``mcp_server.prompts``
completion values            100 per answer                  ``mcp_server.server``
===========================  ==============================  ==============================

Together they bound the work of everything after them: measured on this machine, the
slowest 1 MiB journey found (1000 steps, each with ~100 unexpected nested properties) is
refused in ~4 s; a valid journey of 1000 steps compiles in ~0.7 s. Without the entries
limit, ``{"steps": [{}, {}, …]}`` with 400,000 items fits in 1 MiB and took 200 s.
"""

from __future__ import annotations

import math

from automium import contracts
from automium.errors import AutomiumError, pointer

MAX_ARGUMENTS_SIZE = 1_048_576
"""Characters of compact JSON a tool call's arguments may take (1 MiB)."""

MAX_DEPTH = 64
"""Levels of nested objects and arrays in a tool call's arguments (the arguments object is 1)."""

MAX_PROMPT_ARGUMENT = 2000
"""Characters of one free-text prompt argument: prompt text is for a context window, and
2,000 is the contracts' ``Text`` limit, which most arguments end up in."""

MAX_PROMPT_EVENTS = 20_000
"""Characters of the ``events`` prompt argument, a JSON array: a real run's events are
10-15 KB."""

MAX_COMPLETION_VALUES = 100
"""Values in one completion answer (MCP's own cap)."""

MAX_ENTRIES = 1000
"""Items of one array or properties of one object: the largest ``maxItems`` of any input
contract, so no schema-valid document is refused (a test keeps the two equal)."""


def check_arguments(arguments: object) -> None:
    """Refuse ``arguments`` larger than :data:`MAX_ARGUMENTS_SIZE`, deeper than :data:`MAX_DEPTH`,
    or holding a value JSON cannot carry.

    Cheap by construction: one iterative pass that stops as soon as a limit is crossed, so
    its cost is bounded by the limits, not by the input (and a cyclic in-process value
    terminates too, on either limit). The values it refuses — NaN and the infinities (which
    the SDK's JSON parser accepts), a lone surrogate (a "\\ud800" escape), and, from an
    in-process caller, non-string keys and non-JSON types — would otherwise reach the
    validator, which cannot judge them.

    Raises :class:`AutomiumError`: ``limit_exceeded`` at path ``""``, or ``invalid_input`` at
    the value's path.
    """
    try:
        _walk(arguments, located=False)
    except _Unlocated:
        # Rare: the same walk again, in the same order, building paths to say where the value
        # is (paths for every value were half of what refusing a hostile journey took).
        _walk(arguments, located=True)


class _Unlocated(Exception):
    """A value JSON cannot carry, found by a walk that does not track paths."""


_Stack = list[tuple[object, int, tuple[str | int, ...]]]


def _walk(arguments: object, *, located: bool) -> None:
    size = 0
    stack: _Stack = [(arguments, 1, ())]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, str):  # most values: sized here, without a call
            if not value.isascii() and not _encodable(value):
                raise _not_json(path, _SURROGATE, located)
            size += len(value) + 2
        elif isinstance(value, dict | list | tuple):
            size += _push(stack, value, depth, path, located=located)
        else:
            size += _scalar_size(value, path, located)
        if size > MAX_ARGUMENTS_SIZE:
            raise _exceeded(
                f"arguments are larger than the limit of {MAX_ARGUMENTS_SIZE:,} characters of "
                "JSON (1 MiB); send a smaller document"
            )


def _push(
    stack: _Stack,
    container: dict[object, object] | list[object] | tuple[object, ...],
    depth: int,
    path: tuple[str | int, ...],
    *,
    located: bool,
) -> int:
    """Push ``container``'s values; its size without them (brackets, separators, keys)."""
    if depth > MAX_DEPTH:
        raise _exceeded(f"arguments are nested more than {MAX_DEPTH} levels deep")
    if len(container) > MAX_ENTRIES:
        raise _exceeded(
            f"an array or object of the arguments has {len(container):,} entries; the "
            f"limit is {MAX_ENTRIES}"
        )
    size = 1 + len(container)
    below = depth + 1
    if isinstance(container, dict):
        for key, item in container.items():
            if not isinstance(key, str) or not _encodable(key):
                raise _not_json(path, "an object key that is not a JSON string", located)
            size += len(key) + 3
            stack.append((item, below, (*path, key) if located else ()))
    elif located:
        stack.extend((item, below, (*path, i)) for i, item in enumerate(container))
    else:
        stack.extend((item, below, ()) for item in container)
    return size


_SURROGATE = "a string with a lone surrogate (an unpaired \\ud800-\\udfff)"


def _scalar_size(value: object, path: tuple[str | int, ...], located: bool) -> int:
    """Characters of ``value`` in compact JSON, or fewer (escapes and signs are not counted)."""
    if isinstance(value, str):
        if not _encodable(value):
            raise _not_json(path, _SURROGATE, located)
        return len(value) + 2
    if value is None or value is True:
        return 4
    if value is False:
        return 5
    if isinstance(value, int):  # digits without str(), which refuses huge ints
        return max(value.bit_length() - 1, 0) * 30102 // 100000 + 1  # log10(2) > 0.30102
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _not_json(path, f"{value!r}, which JSON cannot carry", located)
        return len(repr(value))
    raise _not_json(path, f"a {type(value).__name__}, which JSON cannot carry", located)


def _encodable(text: str) -> bool:
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _exceeded(message: str) -> AutomiumError:
    return AutomiumError.single(contracts.ErrorCode.LIMIT_EXCEEDED, message, "")


def _not_json(path: tuple[str | int, ...], what: str, located: bool) -> Exception:
    if not located:
        return _Unlocated()
    return AutomiumError.single(
        contracts.ErrorCode.INVALID_INPUT,
        f"the arguments hold {what}; send JSON values only",
        pointer(*path),
    )
