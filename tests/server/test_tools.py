"""Tools as an agent meets them: listing, successes, refusals, in both protocol eras.

Every success and every refusal of ``tests/cases.py`` is one snapshot here: the place a
reviewer reads what each tool answers.
"""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client, MCPError
from syrupy.assertion import SnapshotAssertion

from automium.capabilities import BY_NAME
from automium.contracts import bundled_schema, tool_input_schema, tool_output_schema
from automium.mcp_server import tools
from automium.validation import check
from tests.cases import TOOLS, UNKNOWN_TOOLS, Refusal, tool_refusals, tool_successes
from tests.server.conftest import both_eras, stored, wire

pytestmark = pytest.mark.anyio

SUCCESSES = [pytest.param(tool, arguments, id=case) for case, tool, arguments in tool_successes()]
REFUSALS = [pytest.param(tool, refusal, id=case) for case, tool, refusal in tool_refusals()]
CALLS = [*SUCCESSES, *(pytest.param(t, r.arguments, id=c) for c, t, r in tool_refusals())]
PUBLISHED = "generated/automium_contracts"


async def test_tools_list_matches_its_snapshot_which_names_each_schema_file(
    legacy: Client, snapshot_json: SnapshotAssertion
) -> None:
    listed = wire(await legacy.list_tools())
    for tool in listed["tools"]:
        capability = BY_NAME[tool["name"]]
        for key, folder, contract, published in [
            ("inputSchema", "tool-inputs", capability.input_contract, tool_input_schema),
            ("outputSchema", "tool-outputs", capability.output_contract, tool_output_schema),
        ]:
            assert tool[key] == published(contract), (tool["name"], key)
            tool[key] = f"{PUBLISHED}/{folder}/{contract}.json"
    assert listed == snapshot_json


async def test_the_v1_tools_are_listed_in_order_read_only_with_titles(client: Client) -> None:
    # Said once, in the instructions and by every tool's annotations, not in 7 descriptions.
    assert "no browser, no network, nothing persisted" in (client.instructions or "")
    listed = (await client.list_tools()).tools
    assert [t.name for t in listed] == list(TOOLS)
    for tool in listed:
        assert tool.title
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is True
        assert tool.annotations.idempotent_hint is True
        assert tool.annotations.destructive_hint is None  # meaningless beside read-only
        assert tool.annotations.open_world_hint is False


async def test_published_schemas_are_the_lean_projections_regen_writes(client: Client) -> None:
    listed = {t.name: t for t in (await client.list_tools()).tools}
    for name, capability in BY_NAME.items():
        assert listed[name].input_schema == tool_input_schema(capability.input_contract)
        assert listed[name].output_schema == tool_output_schema(capability.output_contract)


@pytest.mark.parametrize(("tool", "arguments"), SUCCESSES)
async def test_a_valid_call_answers_like_its_snapshot_in_words_and_in_its_output_schema(
    legacy: Client, tool: str, arguments: Any, snapshot_json: SnapshotAssertion
) -> None:
    result = await legacy.call_tool(tool, arguments)
    assert not result.is_error
    assert check(BY_NAME[tool].output_contract, result.structured_content) == []
    summary = result.content[0].text  # type: ignore[union-attr]
    assert "\n" not in summary
    modeled = "modeled" in (result.structured_content or {})
    assert ("Nothing was executed" in summary) is modeled
    assert stored(result) == snapshot_json


@pytest.mark.parametrize(("tool", "refusal"), REFUSALS)
async def test_a_refused_call_is_an_error_result_with_the_most_specific_code_and_path(
    legacy: Client, tool: str, refusal: Refusal, snapshot_json: SnapshotAssertion
) -> None:
    result = await legacy.call_tool(tool, refusal.arguments)
    error: dict[str, Any] = result.structured_content or {}
    assert result.is_error
    assert (error.get("code"), error.get("path")) == (refusal.code, refusal.path)
    if refusal.problems:  # listed once each: the first on top, the others in problems
        listed = [error, *error["problems"]]
        assert [(p["code"], p["path"]) for p in listed] == list(refusal.problems)
    assert check("tool-error.v1", error) == []
    assert stored(result) == snapshot_json


@pytest.mark.parametrize(("tool", "arguments"), CALLS)
async def test_both_protocol_eras_give_the_same_answer(
    legacy: Client, tool: str, arguments: Any
) -> None:
    newest, handshake = await both_eras(legacy, lambda client: client.call_tool(tool, arguments))
    assert newest == handshake


async def test_an_unknown_tool_names_the_v1_tools_and_points_a_real_run_outside_the_server(
    client: Client,
) -> None:
    tool, refusal = UNKNOWN_TOOLS["live-execution"]
    error = (await client.call_tool(tool, refusal.arguments)).structured_content or {}
    assert error["code"] == "unsupported_operation"
    assert error["allowed"] == list(TOOLS)
    assert "never runs a browser" in error["message"]
    assert "`automium run`, outside the server" in error["message"]


async def test_an_unknown_intent_lists_the_allowed_intents(client: Client) -> None:
    refusal = TOOLS["automium_compile_journey"].refusals["unsupported-intent"]
    result = await client.call_tool("automium_compile_journey", refusal.arguments)
    error = result.structured_content or {}
    assert error["allowed"] == bundled_schema("common")["$defs"]["Intent"]["enum"]


async def test_an_unexpected_failure_is_a_bare_internal_error_that_leaks_nothing(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object) -> None:
        raise RuntimeError("secret detail at /home/agent/.ssh/id_rsa")

    monkeypatch.setattr(tools, "find", broken)
    arguments = TOOLS["automium_get_replay_summary"].successes["failed-after-one-retry"]
    with pytest.raises(MCPError) as raised:
        await client.call_tool("automium_get_replay_summary", arguments)
    assert raised.value.code == -32603
    assert "secret" not in str(raised.value.message)
    assert raised.value.data is None
