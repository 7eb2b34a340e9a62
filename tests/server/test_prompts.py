"""Prompts: real corpus data in the guidance; clear -32602 errors; argument completion."""

from __future__ import annotations

import pytest
from mcp import Client, MCPError
from mcp import types as mcp_types
from syrupy.assertion import SnapshotAssertion

from automium.validation import check
from tests.cases import PROMPTS, Refusal, prompt_refusals, prompt_renders
from tests.server.conftest import both_eras, wire

pytestmark = pytest.mark.anyio

RENDERS = [pytest.param(prompt, arguments, id=case) for case, prompt, arguments in prompt_renders()]
REFUSALS = [pytest.param(prompt, refusal, id=case) for case, prompt, refusal in prompt_refusals()]


async def test_prompts_list_matches_its_snapshot(
    legacy: Client, snapshot_json: SnapshotAssertion
) -> None:
    listed = await legacy.list_prompts()
    assert [p.name for p in listed.prompts] == list(PROMPTS)
    assert wire(listed) == snapshot_json


@pytest.mark.parametrize(("prompt", "arguments"), RENDERS)
async def test_every_prompt_renders_like_its_snapshot(
    legacy: Client, prompt: str, arguments: dict[str, str], snapshot: SnapshotAssertion
) -> None:
    result = await legacy.get_prompt(prompt, arguments)
    assert len(result.messages) == 1
    assert result.messages[0].role == "user"
    assert result.messages[0].content.text == snapshot  # type: ignore[union-attr]


async def test_draft_journey_is_filled_with_the_apps_routes_intents_and_an_example(
    client: Client,
) -> None:
    arguments = PROMPTS["draft_journey"].renders["buy-a-mug"]
    text = (await client.get_prompt("draft_journey", arguments)).messages[0].content.text  # type: ignore[union-attr]
    for expected in (
        "order-confirmation",
        "select_option",
        "text_contains",
        # The shortest reference journey of the fixture is the example.
        "shop-lite.buyer-signs-in",
        # Composition and guards, each explained once.
        '"uses"',
        '"when" ({"kind":"visible"',
    ):
        assert expected in text


async def test_debug_failed_run_names_the_failure_classes_and_lanes(client: Client) -> None:
    arguments = PROMPTS["debug_failed_run"].renders["failed-assertion"]
    text = (await client.get_prompt("debug_failed_run", arguments)).messages[0].content.text  # type: ignore[union-attr]
    for expected in ("product_issue", "policy_denial", "runtime_gap", "planner", "worker"):
        assert expected in text


@pytest.mark.parametrize(("prompt", "arguments"), RENDERS)
async def test_both_protocol_eras_render_the_same_prompt(
    legacy: Client, prompt: str, arguments: dict[str, str]
) -> None:
    newest, handshake = await both_eras(legacy, lambda client: client.get_prompt(prompt, arguments))
    assert newest == handshake


@pytest.mark.parametrize(("prompt", "refusal"), REFUSALS)
async def test_a_refused_prompt_is_invalid_params_with_a_tool_error_document(
    client: Client, prompt: str, refusal: Refusal
) -> None:
    with pytest.raises(MCPError) as raised:
        await client.get_prompt(prompt, refusal.arguments)
    assert raised.value.code == -32602
    assert check("tool-error.v1", raised.value.data) == []
    assert (raised.value.data["code"], raised.value.data.get("path")) == (
        refusal.code,
        refusal.path,
    )


@pytest.mark.parametrize(
    ("prompt", "argument", "value", "context", "expected"),
    [
        ("draft_journey", "appId", "sh", None, ["shop-lite"]),
        (
            "draft_journey",
            "appId",
            "",
            None,
            ["todo-mvc", "shop-lite", "admin-console", "helpdesk", "bank-sandbox"],
        ),
        (
            "draft_journey",
            "fixtureId",
            "",
            {"appId": "bank-sandbox"},
            ["bank-sandbox.two-accounts", "bank-sandbox.locked-account"],
        ),
        ("draft_journey", "fixtureId", "todo", None, ["todo-mvc.empty", "todo-mvc.three-items"]),
        ("debug_failed_run", "verdict", "f", None, ["failed"]),
        ("compare_planner_backends", "appIds", "shop-lite,to", None, ["shop-lite,todo-mvc"]),
        ("draft_journey", "goal", "", None, []),
    ],
)
async def test_completion_offers_app_ids_fixture_ids_and_verdicts(
    client: Client,
    prompt: str,
    argument: str,
    value: str,
    context: dict[str, str] | None,
    expected: list[str],
) -> None:
    result = await client.complete(
        mcp_types.PromptReference(type="ref/prompt", name=prompt),
        {"name": argument, "value": value},
        context_arguments=context,
    )
    assert result.completion.values == expected


@pytest.mark.parametrize(
    ("prompt", "argument"),
    [("shell", "appId"), ("draft_journey", "appIds"), ("draft_journey", "x" * 3000)],
)
async def test_completion_of_an_unknown_prompt_or_argument_offers_nothing(
    client: Client, prompt: str, argument: str
) -> None:
    result = await client.complete(
        mcp_types.PromptReference(type="ref/prompt", name=prompt),
        {"name": argument, "value": "shop"},  # a prefix of app ids: offered for appIds only
    )
    assert (result.completion.values, result.completion.total) == ([], 0)


@pytest.mark.parametrize(
    ("argument", "value", "context"),
    [
        ("appIds", "x" * 3_000_000 + ",", None),  # was echoed back whole before each app id
        ("appIds", "shop-lite," * 1000, None),  # known ids, but repeated: no echo either
        ("fixtureId", "", {"appId": "gmail"}),  # an unknown app has no fixtures to offer
    ],
)
async def test_completion_suggests_nothing_it_cannot_stand_behind(
    client: Client, argument: str, value: str, context: dict[str, str] | None
) -> None:
    prompt = "compare_planner_backends" if argument == "appIds" else "draft_journey"
    result = await client.complete(
        mcp_types.PromptReference(type="ref/prompt", name=prompt),
        {"name": argument, "value": value},
        context_arguments=context,
    )
    assert result.completion.values == []
