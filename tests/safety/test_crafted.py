"""The crafted hostile calls of :mod:`tests.safety.crafted`, each answered as its row says.

Every tool row is a refusal whose document ``tool-error.v1`` accepts, with the row's code
and path (never -32603, never a traceback); every prompt row is a JSON-RPC -32602 whose
data is such a document and whose message stays within the contract's 2,000 characters;
every render renders. In process first (one test per row, named by the issue-10 item it
reproduces), then the whole table over an in-memory session in both protocol eras, as a
client sees it. The items that need more than a code and a path have tests of their own
below: the cut ``allowed`` list (2), the fence around evidence (7), the prompt refusing
what its tool refuses (7) and answers a caller cannot corrupt (13).
"""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client, MCPError, types

from automium.contracts import ErrorCode
from automium.mcp_server import prompts, tools
from automium.mcp_server.server import build_server
from automium.validation import check
from tests.cases import Refusal, error_problems
from tests.safety.crafted import (
    FENCE_BREAK,
    PROMPT_ROWS,
    TOOL_ROWS,
    fenced_blocks,
    journey_of_steps,
    prompt_renders,
    prompt_rows,
    sendable_tool_rows,
    tool_rows,
)

ERAS = ["legacy", "auto"]
MESSAGE_LIMIT = 2000  # tool-error.v1: a message is Text, at most 2,000 characters


def _ids(rows: list[tuple[str, str, Any]]) -> list[Any]:
    return [pytest.param(name, row, id=case) for case, name, row in rows]


def _tool_refusal(name: str, arguments: Any) -> dict[str, Any]:
    """The tool-error document of a refused call (checked against its contract)."""
    result = tools.call_result(name, arguments)
    assert result.is_error
    document: dict[str, Any] | None = result.structured_content
    assert document is not None
    assert check("tool-error.v1", document) == []
    return document


def _prompt_refusal(name: str, arguments: dict[str, str]) -> types.ErrorData:
    """The JSON-RPC error of a refused prompt (its data checked against tool-error.v1)."""
    with pytest.raises(MCPError) as refused:
        prompts.get(name, arguments)
    error = refused.value.error
    assert error.code == types.INVALID_PARAMS
    assert check("tool-error.v1", error.data) == []
    assert len(error.message) <= MESSAGE_LIMIT
    return error


def _as_row(document: dict[str, Any], row: Refusal) -> tuple[Any, ...]:
    """What of ``document`` the row states: code, path and, when it names them, problems."""
    problems = tuple(error_problems(document)) if row.problems else ()
    return document["code"], document.get("path", ""), problems


def _row(row: Refusal) -> tuple[Any, ...]:
    return row.code, row.path, tuple((c.value, p) for c, p in row.problems)


@pytest.mark.parametrize(("name", "row"), _ids(tool_rows()))
def test_every_crafted_tool_call_is_refused_as_its_row_says(name: str, row: Refusal) -> None:
    assert _as_row(_tool_refusal(name, row.arguments), row) == _row(row)


@pytest.mark.parametrize(("name", "row"), _ids(prompt_rows()))
def test_every_crafted_prompt_is_refused_as_its_row_says(name: str, row: Refusal) -> None:
    error = _prompt_refusal(name, row.arguments)
    assert isinstance(error.data, dict)
    assert _as_row(error.data, row) == _row(row)


@pytest.mark.parametrize(("name", "arguments"), _ids(prompt_renders()))
def test_every_crafted_render_renders(name: str, arguments: dict[str, str]) -> None:
    (message,) = prompts.get(name, arguments).messages
    assert isinstance(message.content, types.TextContent)
    assert message.content.text


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ERAS)
async def test_a_client_sees_every_crafted_row_answered_as_it_says(mode: str) -> None:
    seen: dict[str, tuple[Any, ...]] = {}
    async with Client(build_server(), mode=mode) as client:
        for case, name, row in sendable_tool_rows():
            result = await client.call_tool(name, row.arguments)
            assert result.is_error, case
            seen[case] = _as_row(result.structured_content or {}, row)
        for case, name, row in prompt_rows():
            with pytest.raises(MCPError) as refused:
                await client.get_prompt(name, row.arguments)
            assert refused.value.error.code == types.INVALID_PARAMS, case
            seen[case] = _as_row(refused.value.error.data, row)
    assert seen == {case: _row(row) for case, _, row in [*sendable_tool_rows(), *prompt_rows()]}


# -- item 2: an allowed list longer than the contract allows ------------------------------


def test_a_typo_in_a_long_journey_lists_the_first_200_step_ids_and_counts_the_rest() -> None:
    document = _tool_refusal("automium_compile_journey", journey_of_steps(250))

    assert (document["code"], document["path"]) == ("invalid_input", "/assertions/0/afterStep")
    assert document["allowed"] == [f"s{i}" for i in range(200)]
    assert document["allowedLeftOut"] == 50


def test_an_allowed_list_at_the_limit_is_whole() -> None:
    document = _tool_refusal("automium_compile_journey", journey_of_steps(200))

    assert document["allowed"] == [f"s{i}" for i in range(200)]
    assert "allowedLeftOut" not in document


# -- item 4: a long prompt argument is quoted cut short -----------------------------------


@pytest.mark.parametrize("length", [1_950, 2_001, 19_999, 20_000])
@pytest.mark.parametrize(
    ("name", "argument"),
    [
        ("draft_journey", "appId"),
        ("draft_journey", "fixtureId"),
        ("compare_planner_backends", "appIds"),
    ],
)
def test_a_long_prompt_argument_is_refused_in_a_message_that_fits_the_contract(
    name: str, argument: str, length: int
) -> None:
    value = "x" * length
    renders = dict(next(a for _, p, a in prompt_renders() if p == name))
    error = _prompt_refusal(name, {**renders, argument: value})

    assert isinstance(error.data, dict)
    assert error.data["path"] == f"/{argument}"
    assert value not in error.message


# -- item 7: evidence is data, and the compare prompt refuses what its tool refuses -------


@pytest.mark.parametrize(
    "evidence",
    [FENCE_BREAK, "````\nfour backticks\n````", "ends in backticks ```", "`" * 2_000],
    ids=["closing-fence", "longer-fence", "trailing-fence", "only-backticks"],
)
def test_evidence_stays_whole_inside_one_fenced_block(evidence: str) -> None:
    arguments = next(a for c, p, a in prompt_renders() if c == "debug_failed_run.failed-assertion")
    (message,) = prompts.get("debug_failed_run", {**arguments, "evidence": evidence}).messages
    assert isinstance(message.content, types.TextContent)

    assert evidence in fenced_blocks(message.content.text)


@pytest.mark.parametrize(
    ("prompt_case", "tool_case"),
    [
        ("h7.nine-planners", "nine-planners"),
        ("h7.six-app-ids", "six-app-ids"),
        ("h7.500-repetitions", "repetitions-101"),
    ],
)
def test_the_compare_prompt_refuses_what_its_tool_refuses(prompt_case: str, tool_case: str) -> None:
    by_prompt = _prompt_refusal(
        "compare_planner_backends", PROMPT_ROWS["compare_planner_backends"][prompt_case].arguments
    ).data
    by_tool = _tool_refusal(
        "automium_compare_planners", TOOL_ROWS["automium_compare_planners"][tool_case].arguments
    )

    assert isinstance(by_prompt, dict)
    assert (by_prompt["code"], by_prompt["path"]) == (by_tool["code"], by_tool["path"])
    assert by_tool["code"] == ErrorCode.LIMIT_EXCEEDED


# -- item 13: an answer a caller changes is its own ---------------------------------------


@pytest.mark.parametrize("name", ["automium_list_apps", "automium_list_fixtures"])
def test_changing_an_answer_in_process_does_not_change_the_next(name: str) -> None:
    first = tools.call_result(name, {})
    expected = first.model_dump()
    assert first.structured_content is not None
    for value in first.structured_content.values():
        if isinstance(value, list):
            value.clear()
    first.structured_content["schemaVersion"] = "changed"
    first.content.clear()

    assert tools.call_result(name, {}).model_dump() == expected


@pytest.mark.anyio
async def test_a_client_in_the_same_process_cannot_change_the_next_answer() -> None:
    async with Client(build_server(), mode="auto") as client:  # no JSON between the two
        first = await client.call_tool("automium_list_apps", {})
        assert first.structured_content is not None
        count = len(first.structured_content["apps"])
        first.structured_content["apps"].clear()
        second = await client.call_tool("automium_list_apps", {})

    assert second.structured_content is not None
    assert len(second.structured_content["apps"]) == count == 5
