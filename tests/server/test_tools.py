"""Tools as an agent meets them: listing, successes, refusals, in both protocol eras."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client, MCPError
from syrupy.assertion import SnapshotAssertion

from automium.capabilities import BY_NAME
from automium.contracts import bundled_schema
from automium.mcp_server import build_server, tools
from automium.validation import check
from tests.server.cases import TOOL_CALLS, TOOL_ERRORS
from tests.server.conftest import stored, wire

pytestmark = pytest.mark.anyio

V1_TOOLS = [
    "automium_list_apps",
    "automium_list_fixtures",
    "automium_compile_journey",
    "automium_create_run_submission",
    "automium_get_replay_summary",
    "automium_get_artifact_manifest",
    "automium_compare_planners",
]


SCHEMAS = "generated/automium_contracts/schemas"


async def test_tools_list_matches_its_snapshot_which_names_each_schema_file(
    legacy: Client, snapshot_json: SnapshotAssertion
) -> None:
    listed = wire(await legacy.list_tools())
    for tool in listed["tools"]:
        capability = BY_NAME[tool["name"]]
        for key, contract in [
            ("inputSchema", capability.input_contract),
            ("outputSchema", capability.output_contract),
        ]:
            assert tool[key] == bundled_schema(contract), (tool["name"], key)
            tool[key] = f"{SCHEMAS}/{contract}.json"
    assert listed == snapshot_json


async def test_the_seven_v1_tools_are_listed_read_only_with_titles(client: Client) -> None:
    tools = (await client.list_tools()).tools
    assert [t.name for t in tools] == V1_TOOLS
    for tool in tools:
        assert tool.title
        assert "nothing persisted" in (tool.description or "")
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is True
        assert tool.annotations.idempotent_hint is True
        assert tool.annotations.destructive_hint is False
        assert tool.annotations.open_world_hint is False


async def test_published_schemas_are_the_bundled_contracts(client: Client) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    for key, operation in BY_NAME.items():
        tool = tools[key]
        assert tool.input_schema == bundled_schema(operation.input_contract)
        assert tool.output_schema == bundled_schema(operation.output_contract)


@pytest.mark.parametrize("case", TOOL_CALLS)
async def test_a_valid_call_returns_structured_content_its_output_schema_accepts(
    legacy: Client, case: str, snapshot_json: SnapshotAssertion
) -> None:
    name, arguments = TOOL_CALLS[case]
    result = await legacy.call_tool(name, arguments)
    assert not result.is_error
    output_contract = BY_NAME[name].output_contract
    assert check(output_contract, result.structured_content) == []
    assert stored(result) == snapshot_json


@pytest.mark.parametrize("case", TOOL_CALLS)
async def test_the_text_content_summarises_and_says_when_nothing_was_executed(
    legacy: Client, case: str
) -> None:
    name, arguments = TOOL_CALLS[case]
    result = await legacy.call_tool(name, arguments)
    summary = result.content[0].text  # type: ignore[union-attr]
    assert "\n" not in summary
    modeled = "modeled" in (result.structured_content or {})
    assert ("Nothing was executed" in summary) is modeled


@pytest.mark.parametrize("case", TOOL_ERRORS)
async def test_a_refused_call_is_an_error_result_with_the_most_specific_code(
    legacy: Client, case: str, snapshot_json: SnapshotAssertion
) -> None:
    name, arguments, code, path = TOOL_ERRORS[case]
    result = await legacy.call_tool(name, arguments)
    error: dict[str, Any] = result.structured_content or {}
    assert result.is_error
    assert (error.get("code"), error.get("path")) == (code, path)
    assert check("tool-error.v1", error) == []
    assert stored(result) == snapshot_json


async def test_an_unknown_tool_names_the_v1_tools_and_rules_out_live_execution(
    client: Client,
) -> None:
    result = await client.call_tool("automium_execute_run", {"runId": "run-1"})
    error = result.structured_content or {}
    assert result.is_error
    assert error["code"] == "unsupported_operation"
    assert error["allowed"] == V1_TOOLS
    assert "live execution" in error["message"]


async def test_an_unknown_intent_lists_the_allowed_intents(client: Client) -> None:
    name, arguments, _, _ = TOOL_ERRORS["compile_unsupported_intent"]
    error = (await client.call_tool(name, arguments)).structured_content or {}
    assert error["allowed"] == bundled_schema("common")["$defs"]["Intent"]["enum"]


async def test_every_problem_is_reported_at_once(client: Client) -> None:
    journey = {**TOOL_CALLS["compile_journey"][1], "appId": "shop-lite", "goal": " "}
    journey["fixtureId"] = "todo-mvc.empty"
    journey["steps"] = [*journey["steps"], {"id": "pay", "intent": "go_back"}]
    error = (await client.call_tool("automium_compile_journey", journey)).structured_content
    assert error is not None
    assert [(p["code"], p["path"]) for p in error["problems"]] == [
        ("fixture_app_mismatch", "/fixtureId"),
        ("invalid_input", "/goal"),
        ("invalid_input", "/steps/6/id"),
    ]
    assert (error["code"], error["path"]) == ("fixture_app_mismatch", "/fixtureId")


@pytest.mark.parametrize("case", [*TOOL_CALLS, *TOOL_ERRORS])
async def test_both_protocol_eras_give_the_same_answer(legacy: Client, case: str) -> None:
    name, arguments = TOOL_CALLS[case] if case in TOOL_CALLS else TOOL_ERRORS[case][:2]
    async with Client(build_server(), mode="auto") as newest:
        assert wire(await newest.call_tool(name, arguments)) == wire(
            await legacy.call_tool(name, arguments)
        )


async def test_an_unexpected_failure_is_a_bare_internal_error_that_leaks_nothing(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object) -> None:
        raise RuntimeError("secret detail at /home/agent/.ssh/id_rsa")

    monkeypatch.setattr(tools, "answer", broken)
    name, arguments = TOOL_CALLS["get_replay_summary"]
    with pytest.raises(MCPError) as raised:
        await client.call_tool(name, arguments)
    assert raised.value.code == -32603
    assert "secret" not in str(raised.value.message)
    assert raised.value.data is None
