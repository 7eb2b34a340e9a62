"""What the servers put in an agent's context, in bytes: tools/list entries and responses.

Sizes are of minified JSON, as the SDK sends it. Other measures of the same payloads (such
as tokens) belong here, beside the bytes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


def minified(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


@dataclass(frozen=True, slots=True)
class Entry:
    """One tool of a tools/list result, in bytes: the whole entry and its main parts."""

    name: str
    total: int
    input_schema: int
    output_schema: int
    description: int

    @classmethod
    def of(cls, tool: dict[str, Any]) -> Entry:
        return cls(
            name=tool["name"],
            total=len(minified(tool)),
            input_schema=len(minified(tool.get("inputSchema", {}))),
            output_schema=len(minified(tool.get("outputSchema", {}))),
            description=len(tool.get("description", "").encode()),
        )


def entries(tools: list[dict[str, Any]]) -> list[Entry]:
    """Each entry of a tools/list result's ``tools`` array, largest first."""
    return sorted(map(Entry.of, tools), key=lambda entry: -entry.total)


def tools_list(tools: list[dict[str, Any]]) -> int:
    """The whole ``tools`` array of a tools/list result."""
    return len(minified(tools))


def response(line: bytes) -> int:
    """A tools/call response as it arrived: its JSON-RPC line."""
    return len(line)
