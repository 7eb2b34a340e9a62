"""tools/list must stay small enough for an agent's context, and fully described.

Deterministic (no clock, no subprocess): tools/list is built in process and serialised the
way the SDK puts it on the wire, minified. ``benchmarks/RESULTS.md`` tracks the same bytes
per tool over stdio.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from automium.mcp_server.tools import list_tools_result

# Measured 59,659 B for the whole minified tools/list result (7 tools; 59,592 B of it the
# `tools` array) on 2026-11-30 with `make bench`'s serialisation, + 5% headroom (62,642 B),
# rounded up. Raise it deliberately (and say why in the commit) when a tool or a contract
# grows on purpose; an accidental jump in what every agent pays per session fails here.
TOOLS_LIST_BYTES_BUDGET = 62_650


def _minified(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _wire() -> dict[str, Any]:
    result: dict[str, Any] = list_tools_result().model_dump(
        mode="json", by_alias=True, exclude_none=True
    )
    return result


def _properties(schema: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """``(JSON path, subschema)`` of every property at any depth (``$defs``, branches too)."""
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            if key == "properties" and isinstance(value, Mapping):
                for name, subschema in value.items():
                    yield f"{path}/properties/{name}", subschema
                    yield from _properties(subschema, f"{path}/properties/{name}")
            else:
                yield from _properties(value, f"{path}/{key}")
    elif isinstance(schema, list):
        for index, item in enumerate(schema):
            yield from _properties(item, f"{path}/{index}")


def _described(subschema: Any) -> bool:
    description = subschema.get("description") if isinstance(subschema, Mapping) else None
    return isinstance(description, str) and bool(description.strip())


def test_tools_list_fits_the_context_budget() -> None:
    wire = _wire()
    total = len(_minified(wire).encode())
    per_tool = {tool["name"]: len(_minified(tool).encode()) for tool in wire["tools"]}
    sizes = ", ".join(
        f"{name}={size:,} B" for name, size in sorted(per_tool.items(), key=lambda i: -i[1])
    )
    assert total <= TOOLS_LIST_BYTES_BUDGET, (
        f"tools/list is {total:,} B minified, over the {TOOLS_LIST_BYTES_BUDGET:,} B budget "
        f"({total - TOOLS_LIST_BYTES_BUDGET:+,} B). Per tool: {sizes}"
    )


@pytest.mark.parametrize("which", ["inputSchema", "outputSchema"])
def test_every_property_is_described(which: str) -> None:
    tools = _wire()["tools"]
    assert all(which in tool for tool in tools), f"a tool has no {which}"
    walked = {tool["name"]: list(_properties(tool[which], f"#/{which}")) for tool in tools}
    assert sum(map(len, walked.values())) > len(tools), f"the walk found too few {which} properties"
    missing = {
        name: [path for path, subschema in found if not _described(subschema)]
        for name, found in walked.items()
    }
    assert not any(missing.values()), {name: paths for name, paths in missing.items() if paths}


def test_the_walk_finds_an_undescribed_property() -> None:
    schema = {
        "properties": {"a": {"description": "ok"}, "b": {"type": "string"}},
        "items": {"properties": {"properties": {"description": "a property named so"}}},
        "$defs": {"X": {"properties": {"c": {"description": " "}}}},
    }
    found = [path for path, subschema in _properties(schema) if not _described(subschema)]
    assert found == ["/properties/b", "/$defs/X/properties/c"]
