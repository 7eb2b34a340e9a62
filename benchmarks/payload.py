"""What the servers put in an agent's context: tools/list entries and responses, in bytes
and in tokens.

Sizes are of minified JSON, as the SDK sends it. Tokens are o200k_base's, counted by
js-tiktoken (``tests/interop/count-tokens.mjs``, installed with the interop packages);
without Node they are estimated as bytes / 4, and labelled so.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

COUNTER = Path(__file__).resolve().parents[1] / "tests" / "interop" / "count-tokens.mjs"


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


def visible(tool: dict[str, Any]) -> str:
    """What a model reads of a tool: its name, description and input schema."""
    return minified({k: tool[k] for k in ("name", "description", "inputSchema")}).decode()


def tokens(texts: list[str]) -> tuple[list[int], str]:
    """The o200k token count of each text, and how it was counted."""
    node = shutil.which("node")
    if node and (COUNTER.parent / "node_modules" / "js-tiktoken").is_dir():
        lines = "".join(json.dumps(text) + "\n" for text in texts)
        done = subprocess.run(
            [node, str(COUNTER)], input=lines, capture_output=True, text=True, check=True
        )
        return [int(n) for n in done.stdout.split()], "o200k tokens (js-tiktoken)"
    return [len(text.encode()) // 4 for text in texts], "estimated tokens (bytes / 4, no Node)"
