"""The limits no contract can express: total size, nesting depth and entries per container."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from automium.capabilities import CAPABILITIES
from automium.contracts import bundled_schema
from automium.errors import MAX_PROBLEMS, AutomiumError
from automium.guidance import argument_limit
from automium.limits import (
    LIMITS,
    MAX_ARGUMENTS_SIZE,
    MAX_DEPTH,
    MAX_ENTRIES,
    check_arguments,
    limits_markdown,
)
from automium.mcp_server._stdio.decoding import MAX_INTEGER_DIGITS, MAX_LINE_BYTES
from automium.mcp_server._stdio.pending import MAX_PENDING
from automium.mcp_server.http_sessions import MAX_SESSIONS
from tests.cases import nested
from tests.conftest import examples

# What JSON carries: finite numbers, and text without lone surrogates.
_TEXT = st.text(st.characters(exclude_categories=["Cs"]))
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | _TEXT,
    lambda children: st.lists(children) | st.dictionaries(_TEXT, children),
    max_leaves=30,
)


def _limit_message(arguments: Any) -> str | None:
    """The message of the refusal (always ``limit_exceeded`` at path ""), or None."""
    try:
        check_arguments(arguments)
    except AutomiumError as error:
        refused = error
    else:
        return None
    assert (refused.code, refused.problems[0].path) == ("limit_exceeded", "")
    return refused.message


def _max_items(node: Any) -> int:
    if isinstance(node, dict):
        own = node.get("maxItems", 0) if isinstance(node.get("maxItems"), int) else 0
        return max([own, *(_max_items(v) for v in node.values())])
    if isinstance(node, list):
        return max([0, *(_max_items(v) for v in node)])
    return 0


def test_the_size_limit_is_one_mebibyte_of_compact_json() -> None:
    def goal(length: int) -> dict[str, str]:
        return {"a": "x" * length}

    fits = MAX_ARGUMENTS_SIZE - len(json.dumps(goal(0), separators=(",", ":")))
    assert _limit_message(goal(fits)) is None
    assert "larger than the limit" in (_limit_message(goal(fits + 1)) or "")


@settings(max_examples=examples(at_most=300), derandomize=True, database=None)
@given(JSON_VALUES)
def test_the_size_is_never_overestimated(document: Any) -> None:
    # A lower bound of the wire size: a document under the limit is never refused for size.
    compact = json.dumps(document, separators=(",", ":"), ensure_ascii=False)
    if len(compact) <= MAX_ARGUMENTS_SIZE:
        assert _limit_message(document) is None


def test_the_depth_limit_counts_the_arguments_object_as_one() -> None:
    assert _limit_message(nested(MAX_DEPTH)) is None
    assert "nested more than 64" in (_limit_message(nested(MAX_DEPTH + 1)) or "")
    assert _limit_message(nested(100_000)) is not None  # iterative: no RecursionError


def test_the_entries_limit_is_the_largest_max_items_of_any_tool_input() -> None:
    inputs = {capability.input_contract for capability in CAPABILITIES}
    assert max(_max_items(bundled_schema(contract)) for contract in inputs) == MAX_ENTRIES
    assert _limit_message({"steps": [{}] * MAX_ENTRIES}) is None
    assert "limit is 1000" in (_limit_message({"steps": [{}] * (MAX_ENTRIES + 1)}) or "")
    assert _limit_message({f"k{i}": 0 for i in range(MAX_ENTRIES + 1)}) is not None


@pytest.mark.parametrize("value", [10**5000, -(10**5000)], ids=["huge int", "huge negative int"])
def test_integers_too_long_for_str_are_measured_without_failing(value: int) -> None:
    assert _limit_message({"x": value}) is None


@pytest.mark.parametrize(
    "arguments",
    [
        {"x": [float("nan")]},
        {"x": [float("inf")]},
        {"x": [float("-inf")]},
        {"x": ["\ud800"]},
        {"x": [b"bytes"]},
        {"x": [object()]},
        {"x": [{1: "a key that is no string"}]},
    ],
    ids=["nan", "inf", "-inf", "lone surrogate", "bytes", "object", "int key"],
)
def test_values_json_cannot_carry_are_refused_at_their_path(arguments: Any) -> None:
    # NaN and the infinities pass the SDK's JSON parser; the rest only an in-process caller
    # can send. None reaches the validator, which cannot judge them.
    with pytest.raises(AutomiumError) as refused:
        check_arguments(arguments)
    assert [(p.code, p.path) for p in refused.value.problems] == [("invalid_input", "/x/0")]


def test_a_cyclic_value_terminates() -> None:
    cycle: list[Any] = []
    cycle.append(cycle)
    assert _limit_message(cycle) is not None


def test_every_tool_checks_the_limits_before_its_contract() -> None:
    for capability in CAPABILITIES:
        with pytest.raises(AutomiumError) as refused:
            capability.answer({"x": nested(MAX_DEPTH + 1)})
        assert refused.value.code == "limit_exceeded"


def _readme_table() -> str:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    start = readme.index("<!-- limits table: automium.limits.limits_markdown() -->\n")
    end = readme.index("\n<!-- end of limits table -->")
    return readme[readme.index("\n", start) + 1 : end]


def test_the_readme_limits_table_is_the_one_in_limits_py() -> None:
    # On failure: paste `python -c "from automium.limits import limits_markdown as m; print(m())"`
    assert _readme_table() == limits_markdown()


@pytest.mark.parametrize(
    ("what", "stated"),
    [
        ("stdio answers owed", f"{MAX_PENDING}, errors included"),
        ("HTTP sessions open", f"{MAX_SESSIONS}; a new one"),
        ("JSON-RPC line on stdio", f"{MAX_LINE_BYTES // 2**20} MiB"),
        ("JSON-RPC numbers", f"{MAX_INTEGER_DIGITS:,} digits"),
        ("prompt arguments", f"{argument_limit('goal'):,} characters each"),
        ("prompt arguments", f"`events` {argument_limit('events'):,}"),
        ("problems listed in an error", f"{MAX_PROBLEMS} (the contract"),
    ],
)
def test_each_limit_the_table_states_is_the_one_the_code_applies(what: str, stated: str) -> None:
    (row,) = [row for row in LIMITS if row.what == what]
    assert stated in row.limit
