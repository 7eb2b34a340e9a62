"""tools/list must stay small enough for an agent's context, fully described where a model
reads it, and fit what real clients accept.

Deterministic (no clock, no subprocess): tools/list is built in process and serialised the
way the SDK puts it on the wire, minified. ``benchmarks/RESULTS.md`` tracks the same bytes
per tool over stdio, and the o200k tokens of what the model sees.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from automium.capabilities import CAPABILITIES
from automium.mcp_server.tools import list_tools_result

# The whole minified tools/list result, against issue 14's 40,000 B: 59,659 B on 2026-11-30
# before the lean schemas; 43,193 B on 2026-12-01 with the page checks, timelines and
# statistics in; 39,769 B on 2026-12-02 (union branches by shape, definitions used once
# inlined, one statement of "no browser, no network" in the instructions, no
# destructiveHint). A tool or a contract that grows on purpose must first win the bytes back
# elsewhere, or raise this in a commit that says why: every agent pays it every session.
# Raised to 44,000 B on 2026-12-03 for the fields this round adds (compile's export option
# and its unchecked list), as the relaxed budgets allow.
# The `detail` input of compile and compare and compile's graphSummary cost +640 B (41,257 B
# with the unchecked list) and took 7.7 KB off a default comparison and 2.9 KB off a valid
# compile, at every call.
# 44,000 B until 2026-12-07; journey.v1 then gained what an agent must be able to write
# (uses, a step's when guard, successChecks: 46,243 B in all), and the budget moved with it.
TOOLS_LIST_BYTES_BUDGET = 47_000
# What a model reads of it (each tool's name, description and inputSchema): 18,926 B, about
# 4,900 o200k tokens; the token budget is 7,000, about 27,000 B at this schema's 3.9 B/token.
MODEL_VISIBLE_BYTES_BUDGET = 24_000


def _minified(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _wire() -> dict[str, Any]:
    result: dict[str, Any] = list_tools_result().model_dump(
        mode="json", by_alias=True, exclude_none=True
    )
    return result


def _schemas() -> list[tuple[str, Any]]:
    """``(id, schema)`` of every published input and output schema."""
    return [
        (f"{tool['name']}.{which}", tool[which])
        for tool in _wire()["tools"]
        for which in ("inputSchema", "outputSchema")
    ]


SCHEMAS = [pytest.param(schema, id=name) for name, schema in _schemas()]


def _nodes(schema: Any, path: str = "#") -> Iterator[tuple[str, Mapping[str, Any]]]:
    """``(JSON pointer, subschema)`` of every schema object, at any depth."""
    if isinstance(schema, Mapping):
        yield path, schema
        for key, value in schema.items():
            if key in ("enum", "const", "required", "type"):
                continue
            if key in ("properties", "$defs", "patternProperties") and isinstance(value, Mapping):
                for name, sub in value.items():
                    yield from _nodes(sub, f"{path}/{key}/{name}")
            else:
                yield from _nodes(value, f"{path}/{key}")
    elif isinstance(schema, list):
        for index, item in enumerate(schema):
            yield from _nodes(item, f"{path}/{index}")


# --- size ---------------------------------------------------------------------------------


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


def test_what_the_model_reads_fits_its_budget() -> None:
    visible = [
        {key: tool[key] for key in ("name", "description", "inputSchema")}
        for tool in _wire()["tools"]
    ]
    assert len(_minified(visible).encode()) <= MODEL_VISIBLE_BYTES_BUDGET


# --- descriptions -------------------------------------------------------------------------


def _described(node: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    """Described itself, or through the one local definition it names."""
    if isinstance(node.get("description"), str) and node["description"].strip():
        return True
    ref = node.get("$ref")
    if isinstance(ref, str) and set(node) == {"$ref"}:
        return _described(root["$defs"][ref.removeprefix("#/$defs/")], root)
    return False


# Where a union's branches constrain the properties their object declares.
_BRANCHES = ("anyOf", "oneOf", "allOf", "if", "then", "else")


def _undescribed(
    node: Any, root: Mapping[str, Any], path: str, declared: frozenset[str]
) -> Iterator[str]:
    """Paths of the properties declared at or below ``node`` without a description. A
    branch's schema of a property its object declares (and describes) only narrows it."""
    if isinstance(node, list):
        for index, item in enumerate(node):
            yield from _undescribed(item, root, f"{path}/{index}", declared)
        return
    if not isinstance(node, Mapping):
        return
    properties = node.get("properties") or {}
    for name, sub in properties.items():
        if (
            name not in declared
            and isinstance(sub, Mapping)
            and not _described(sub, root)
            and "enum" not in sub  # a union's tag: each value is described by its branch
        ):
            yield f"{path}/properties/{name}"
    here = declared | properties.keys()
    for key, value in node.items():
        if key in ("enum", "const", "required", "type"):
            continue
        if key in ("properties", "$defs", "patternProperties") and isinstance(value, Mapping):
            for name, sub in value.items():
                yield from _undescribed(sub, root, f"{path}/{key}/{name}", frozenset())
        else:
            inner = here if key in _BRANCHES else frozenset()
            yield from _undescribed(value, root, f"{path}/{key}", inner)


@pytest.mark.parametrize(
    "tool", [pytest.param(t, id=t["name"]) for t in _wire()["tools"] if t["inputSchema"]]
)
def test_every_input_property_is_described(tool: dict[str, Any]) -> None:
    schema = tool["inputSchema"]
    assert list(_undescribed(schema, schema, "#", frozenset())) == []


def test_a_branch_may_narrow_a_declared_property_but_not_declare_one_undescribed() -> None:
    schema = {
        "properties": {"a": {"type": "string", "description": "A."}},
        "anyOf": [{"properties": {"a": {"maxLength": 3}, "b": {"type": "string"}}}],
    }
    assert list(_undescribed(schema, schema, "#", frozenset())) == ["#/anyOf/0/properties/b"]


def test_output_schemas_are_validation_only() -> None:
    annotated = [
        (tool["name"], path)
        for tool in _wire()["tools"]
        for path, node in _nodes(tool["outputSchema"])
        if {"description", "title", "$schema", "$id"} & node.keys()
    ]
    assert annotated == []


# --- what clients accept ------------------------------------------------------------------


@pytest.mark.parametrize("schema", SCHEMAS)
def test_definitions_sit_only_at_the_root(schema: Any) -> None:
    # Claude Code refuses the whole tools/list when a schema nests $defs.
    nested = [path for path, node in _nodes(schema) if path != "#" and "$defs" in node]
    assert nested == []


@pytest.mark.parametrize("schema", SCHEMAS)
def test_every_array_has_items(schema: Any) -> None:
    # VS Code refuses an array schema without items.
    bare = [p for p, node in _nodes(schema) if node.get("type") == "array" and "items" not in node]
    assert bare == []


@pytest.mark.parametrize("schema", SCHEMAS)
def test_no_schema_uses_dynamic_references(schema: Any) -> None:
    assert "$dynamicRef" not in _minified(schema)
    assert "$dynamicAnchor" not in _minified(schema)


@pytest.mark.parametrize("schema", SCHEMAS)
def test_every_schema_is_an_object_at_its_root_with_local_references_only(schema: Any) -> None:
    assert schema["type"] == "object"
    refs = {node["$ref"] for _, node in _nodes(schema) if isinstance(node.get("$ref"), str)}
    assert all(ref.startswith("#/$defs/") for ref in refs)
    assert {ref.removeprefix("#/$defs/") for ref in refs} <= set(schema.get("$defs", {}))


def test_tools_are_listed_in_one_order_every_time() -> None:
    # The 2026-07-28 spec asks for a deterministic order, for prompt caching.
    first, second = _minified(_wire()), _minified(_wire())
    assert first == second
    assert [t["name"] for t in _wire()["tools"]] == [c.name for c in CAPABILITIES]


# --- the walkers can fail -------------------------------------------------------------------


def test_the_walk_finds_nested_definitions_and_bare_arrays() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "array"}, "type": {"$defs": {"X": {}}}},
    }
    assert [p for p, n in _nodes(schema) if "$defs" in n] == ["#/properties/type"]
    assert [p for p, n in _nodes(schema) if n.get("type") == "array"] == ["#/properties/a"]
