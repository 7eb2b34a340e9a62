"""What the servers put in an agent's context: each tools/list entry, in bytes and tokens.

Sizes are of minified JSON, as the SDK sends it. Tokens are o200k_base's, counted by
js-tiktoken (``tests/interop/count-tokens.mjs``, installed with the interop packages);
without Node they are estimated as bytes / 4, and labelled so.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

COUNTER = Path(__file__).resolve().parents[1] / "tests" / "interop" / "count-tokens.mjs"


def _minified(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def size(value: Any) -> int:
    """The bytes of ``value`` as minified JSON: a ``tools`` array, an entry, a schema."""
    return len(_minified(value).encode())


def visible_tokens(tools: list[dict[str, Any]]) -> tuple[dict[str, int], str]:
    """Per tool, the o200k tokens of what a model reads of it (its name, description and
    input schema), and how they were counted."""
    seen = {
        t["name"]: _minified({k: t[k] for k in ("name", "description", "inputSchema")})
        for t in tools
    }
    node = shutil.which("node")
    if node and (COUNTER.parent / "node_modules" / "js-tiktoken").is_dir():
        lines = "".join(json.dumps(text) + "\n" for text in seen.values())
        done = subprocess.run(
            [node, str(COUNTER)], input=lines, capture_output=True, text=True, check=True
        )
        counts = map(int, done.stdout.split())
        return dict(zip(seen, counts, strict=True)), "o200k tokens (js-tiktoken)"
    estimates = {name: len(text.encode()) // 4 for name, text in seen.items()}
    return estimates, "estimated tokens (bytes / 4, no Node)"
