"""Fuzzing every tool in-process: it answers with a valid output or a known, valid error.

For each tool, hypothesis draws arguments from the tool's published input schema
(``tests.strategies.from_schema``) and, in a second test, mutates them
(``tests.strategies.mutated``: a required property dropped, an unexpected one added, a value
replaced by junk of another type, an array emptied or grown, or the whole arguments
replaced). The allowed outcomes:

- a success whose document the tool's output contract accepts, shaped into an MCP result;
- an :class:`~automium.errors.AutomiumError` whose ``tool-error.v1`` document the contract
  accepts, with a code of the frozen vocabulary, shaped into an ``isError`` result.

Anything else (any other exception, an invalid document) fails. Runs are derandomized, so
CI sees the same examples every time; ``pytest -s`` prints examples and time per tool.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from automium.capabilities import CAPABILITIES as TOOLS
from automium.capabilities import Capability as ToolSpec
from automium.contracts import ErrorCode, bundled_schema, to_document
from automium.errors import AutomiumError
from automium.mcp_server.errors import tool_error_result
from automium.mcp_server.tools import answer as call
from automium.mcp_server.tools import success_result
from automium.validation import check
from tests.strategies import from_schema, mutated

pytestmark = pytest.mark.slow

EXAMPLES = 1500  # per test; two tests per tool
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
CODES = frozenset(ErrorCode)


def _assert_allowed_outcome(tool: ToolSpec, arguments: Any) -> None:
    try:
        summary, document = call(tool.name, arguments)
    except AutomiumError as error:
        _assert_valid_tool_error(error)
        return
    assert check(tool.output_contract, document) == [], document
    assert summary
    assert success_result(summary, document).structured_content == document


def _assert_valid_tool_error(error: AutomiumError) -> None:
    tool_error = to_document(error.to_tool_error())
    assert tool_error["code"] in CODES
    assert check("tool-error.v1", tool_error) == [], tool_error
    assert tool_error_result(error).is_error


def _report(tool: ToolSpec, kind: str, examples: int, started: float) -> None:
    print(f"\n{tool.name} {kind}: {examples} examples in {time.monotonic() - started:.1f} s")


@pytest.mark.parametrize("tool", TOOLS, ids=[t.name for t in TOOLS])
def test_arguments_from_the_input_schema_give_a_valid_output_or_a_known_error(
    tool: ToolSpec,
) -> None:
    seen = 0
    started = time.monotonic()

    @FUZZ
    @given(from_schema(bundled_schema(tool.input_contract)))
    def fuzz(arguments: Any) -> None:
        nonlocal seen
        seen += 1
        assert check(tool.input_contract, arguments) == []  # the generator is right
        _assert_allowed_outcome(tool, arguments)

    fuzz()
    _report(tool, "schema-valid", seen, started)


@pytest.mark.parametrize("tool", TOOLS, ids=[t.name for t in TOOLS])
def test_mutated_arguments_give_a_valid_output_or_a_known_error(tool: ToolSpec) -> None:
    seen = 0
    started = time.monotonic()

    @FUZZ
    @given(mutated(from_schema(bundled_schema(tool.input_contract))))
    def fuzz(arguments: Any) -> None:
        nonlocal seen
        seen += 1
        _assert_allowed_outcome(tool, arguments)

    fuzz()
    _report(tool, "mutated", seen, started)
