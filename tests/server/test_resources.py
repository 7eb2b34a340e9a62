"""Resources: a fixed list of six; every other URI is refused with the allowed ones.

No resource has a snapshot of its own: each is a document stored once elsewhere, and the
tests prove the resource is that document byte for byte. The corpus listings are the
answers of their tools (snapshotted in test_tools.py); the contracts are the bundled
schemas in generated/ (guarded by regen --check).
"""

from __future__ import annotations

import pytest
from mcp import Client, MCPError
from syrupy.assertion import SnapshotAssertion

from automium.contracts import bundled_schema_text
from tests.cases import BAD_RESOURCE_URIS, CONTRACT_RESOURCES, LISTING_RESOURCES, RESOURCE_URIS
from tests.server.conftest import both_eras, wire

pytestmark = pytest.mark.anyio


def _uri_id(uri: str) -> str:
    return uri.removeprefix("automium://").replace("/", "-")


async def test_resources_list_matches_its_snapshot(
    legacy: Client, snapshot_json: SnapshotAssertion
) -> None:
    listed = await legacy.list_resources()
    assert [str(r.uri) for r in listed.resources] == list(RESOURCE_URIS)
    assert {r.mime_type for r in listed.resources} == {"application/json"}
    assert wire(listed) == snapshot_json


async def test_resource_templates_are_an_empty_list_not_an_unknown_method(client: Client) -> None:
    # The Inspector asks for templates of any server with the resources capability.
    assert (await client.list_resource_templates()).resource_templates == []


async def _text(client: Client, uri: str) -> str:
    contents = (await client.read_resource(uri)).contents
    assert len(contents) == 1
    assert contents[0].mime_type == "application/json"
    return contents[0].text  # type: ignore[union-attr]


@pytest.mark.parametrize(("uri", "tool"), LISTING_RESOURCES.items(), ids=_uri_id)
async def test_a_corpus_listing_is_its_tools_answer_to_no_arguments_verbatim(
    client: Client, uri: str, tool: str
) -> None:
    answer = (await client.call_tool(tool, {})).content[1].text  # type: ignore[union-attr]
    assert await _text(client, uri) == answer


@pytest.mark.parametrize(("uri", "contract"), CONTRACT_RESOURCES.items(), ids=_uri_id)
async def test_a_contract_resource_is_the_bundled_contract_verbatim(
    client: Client, uri: str, contract: str
) -> None:
    assert await _text(client, uri) == bundled_schema_text(contract)


@pytest.mark.parametrize("uri", RESOURCE_URIS, ids=_uri_id)
async def test_both_protocol_eras_read_the_same_resource(legacy: Client, uri: str) -> None:
    newest, handshake = await both_eras(legacy, lambda client: client.read_resource(uri))
    assert newest == handshake


@pytest.mark.parametrize("uri", BAD_RESOURCE_URIS)
async def test_any_other_uri_is_invalid_params_naming_the_allowed_uris(
    client: Client, uri: str
) -> None:
    with pytest.raises(MCPError) as raised:
        await client.read_resource(uri)
    assert raised.value.code == -32602
    data = raised.value.data
    assert data["code"] == "unsupported_resource_uri"
    assert data["allowed"] == list(RESOURCE_URIS)
