"""Every input limit of Automium v1, in one place, and the three no contract can express.

A limit turns a large input into a ``limit_exceeded`` error *before* any slow work. Most
limits live in the contracts (so an agent reads them in the tool's ``inputSchema``); the
first three rows are checked here, on the raw arguments of every tool call, before schema
validation — a schema validator reports every error of every array item, so an argument
with a million junk items would otherwise cost a million explanations.

The table is :data:`LIMITS` below; README's "Limits" section is :func:`limits_markdown`
of it, and ``tests/safety/test_limits.py`` keeps the two, and the constants, one truth.

Together they bound the work of everything after them: measured on this machine, the
slowest 1 MiB journey found (1000 steps, each with ~100 unexpected nested properties) is
refused in ~4 s; a valid journey of 1000 steps compiles in ~0.7 s. Without the entries
limit, ``{"steps": [{}, {}, …]}`` with 400,000 items fits in 1 MiB and took 200 s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from automium import contracts
from automium.errors import MAX_PROBLEMS, AutomiumError, pointer

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


@dataclass(frozen=True, slots=True)
class Limit:
    """One row of the table: what is limited, the limit, and where it is enforced."""

    what: str
    limit: str
    where: str


LIMITS: tuple[Limit, ...] = (
    Limit(
        "tool arguments, total size",
        f"1 MiB ({MAX_ARGUMENTS_SIZE:,} characters of compact JSON; escapes are not expanded, "
        "so it is a cheap lower bound of the wire size)",
        "`check_arguments`, the first thing a tool call does",
    ),
    Limit(
        "tool arguments, nesting",
        f"{MAX_DEPTH} levels of objects and arrays (the deepest v1 input needs 4)",
        "`check_arguments` (an iterative walk, no recursion)",
    ),
    Limit(
        "tool arguments, entries",
        f"{MAX_ENTRIES:,} per array or object (the largest `maxItems` of any input contract)",
        "`check_arguments`",
    ),
    Limit(
        "JSON-RPC message nesting",
        "~200 levels; a deeper line is answered -32700 and the session goes on",
        "the SDK's JSON parser (pydantic-core)",
    ),
    Limit(
        "JSON-RPC numbers",
        "integers of up to 4,300 digits; NaN, Infinity and -Infinity refused (-32600)",
        "`mcp_server._stdio.decoding`",
    ),
    Limit(
        "JSON-RPC line on stdio",
        "4 MiB, as an HTTP body; a longer line is read in chunks and discarded unread "
        "(a 100 MB line: ~1.2x idle RSS)",
        "`mcp_server._stdio.lines`, before parsing",
    ),
    Limit(
        "stdio answers owed",
        "64, errors included, whatever their ids, and 4 MiB of their JSON (an answer not "
        "made yet counts as the largest of the last 64; one answer is always let through); "
        "then stdin is not read until one is written or dropped; a reused in-flight id is "
        "refused (-32600)",
        "`mcp_server._stdio.pending`",
    ),
    Limit(
        "HTTP request body",
        "4 MiB, arriving in full within `--read-timeout` seconds (default 10)",
        "`mcp_server.http_body`",
    ),
    Limit(
        "HTTP sessions open",
        "64; a new one closes the session idle the longest, or is refused 503 when all are "
        "serving a request",
        "`mcp_server.http_sessions`",
    ),
    Limit(
        "array lengths",
        "journey `steps` and `assertions` 1000, manifest `entries` 1000, `appIds` 5, "
        "`planners` 8, recovery `strategies` 4, compare `journeys` 20, recorded `trials` 1000",
        "contracts `maxItems`",
    ),
    Limit(
        "string lengths",
        "ids 64 to 128, `Text` 2000, `ShortText` 200, artifact paths 512 bytes (a segment "
        "255), refs 160, roles 40",
        "contracts `maxLength`; artifact paths in `artifacts.paths`",
    ),
    Limit(
        "numbers",
        "`repetitions` ≤ 100 (below 1 counts as 1), `retryCount` ≤ 3000, `timeoutMs` 100 to "
        "30000, `count` ≤ 10000, `nth` ≤ 999, `sizeBytes` ≤ 1 TiB",
        "contracts `maximum` / `minimum`",
    ),
    Limit(
        "problems listed in an error",
        f"{MAX_PROBLEMS} (the contract allows 1000)",
        "`automium.errors`",
    ),
    Limit(
        "prompt arguments",
        f"{MAX_PROMPT_ARGUMENT:,} characters each; `events` {MAX_PROMPT_EVENTS:,}; integers "
        "plain ASCII digits",
        "`automium.guidance`",
    ),
    Limit(
        "completion values",
        f"{MAX_COMPLETION_VALUES} per answer; only for an argument of a known prompt",
        "`automium.guidance`, `mcp_server.server`",
    ),
)
"""Every limit, in the order README's "Limits" table shows them."""


def limits_markdown() -> str:
    """:data:`LIMITS` as README's Markdown table."""
    rows = ["| what | limit | where it is enforced |", "|---|---|---|"]
    rows += [f"| {row.what} | {row.limit} | {row.where} |" for row in LIMITS]
    return "\n".join(rows)


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
