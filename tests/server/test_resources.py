"""Resources: a fixed list of six; every other URI is refused with the allowed ones."""

from __future__ import annotations

import json

import pytest
from mcp import Client, MCPError
from syrupy.assertion import SnapshotAssertion

from automium.contracts import bundled_schema_text
from automium.mcp_server import build_server
from tests.server.conftest import wire

pytestmark = pytest.mark.anyio

URIS = [
    "automium://apps",
    "automium://fixtures",
    "automium://contracts/planner-adapter-v1",
    "automium://contracts/replay-event-v1",
    "automium://contracts/semantic-snapshot-v1",
    "automium://contracts/artifact-manifest-v1",
]


async def test_resources_list_matches_its_snapshot(
    legacy: Client, snapshot_json: SnapshotAssertion
) -> None:
    listed = await legacy.list_resources()
    assert [str(r.uri) for r in listed.resources] == URIS
    assert {r.mime_type for r in listed.resources} == {"application/json"}
    assert wire(listed) == snapshot_json


def _uri_id(uri: str) -> str:
    return uri.removeprefix("automium://").replace("/", "-")


@pytest.mark.parametrize("uri", URIS, ids=_uri_id)
async def test_every_resource_reads_as_json_matching_its_snapshot(
    legacy: Client, uri: str, snapshot_json: SnapshotAssertion
) -> None:
    contents = (await legacy.read_resource(uri)).contents
    assert len(contents) == 1
    assert contents[0].mime_type == "application/json"
    assert json.loads(contents[0].text) == snapshot_json  # type: ignore[union-attr]


@pytest.mark.parametrize("uri", URIS, ids=_uri_id)
async def test_both_protocol_eras_read_the_same_resource(legacy: Client, uri: str) -> None:
    async with Client(build_server(), mode="auto") as newest:
        assert wire(await newest.read_resource(uri)) == wire(await legacy.read_resource(uri))


@pytest.mark.parametrize("name", ["planner-adapter", "replay-event", "semantic-snapshot"])
async def test_contract_resources_are_the_bundled_contracts_verbatim(
    client: Client, name: str
) -> None:
    result = await client.read_resource(f"automium://contracts/{name}-v1")
    assert result.contents[0].text == bundled_schema_text(f"{name}.v1")  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "uri",
    [
        "automium://APPS",
        "Automium://apps",
        "automium://apps/",
        "automium://apps?x=1",
        "automium://apps#top",
        "automium://contracts/../apps",
        "automium://contracts/journey-v1",
        "automium://contracts/replay-event-v2",
        "file:///etc/passwd",
        "https://example.com/apps",
        "automium://fixtures/../../etc/passwd",
    ],
)
async def test_any_other_uri_is_invalid_params_naming_the_allowed_uris(
    client: Client, uri: str
) -> None:
    with pytest.raises(MCPError) as raised:
        await client.read_resource(uri)
    assert raised.value.code == -32602
    data = raised.value.data
    assert data["code"] == "unsupported_resource_uri"
    assert data["allowed"] == URIS
