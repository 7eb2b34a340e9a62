"""In-memory sessions with the real server, in both protocol eras, and results as stored."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from mcp import Client, types
from pydantic import BaseModel

from automium.mcp_server.server import build_server

# "legacy": the initialize handshake, real JSON-RPC over memory streams.
# "auto": the newest era (2026-07-28, no initialize), in-process.
ERAS = ["legacy", "auto"]
# What a snapshot stores instead of the text copy of the structured content.
STRUCTURED_AS_TEXT = "<the structuredContent below, as JSON text>"


@pytest.fixture(params=ERAS)
async def client(request: pytest.FixtureRequest) -> AsyncIterator[Client]:
    async with Client(build_server(), mode=request.param) as session:
        yield session


@pytest.fixture
async def legacy() -> AsyncIterator[Client]:
    async with Client(build_server(), mode="legacy") as session:
        yield session


def wire(result: BaseModel) -> dict[str, Any]:
    """A result as JSON, without the per-era ``_meta`` stamp."""
    document: dict[str, Any] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    document.pop("_meta", None)
    return document


def stored(result: types.CallToolResult) -> dict[str, Any]:
    """A ``tools/call`` result as its snapshot stores it.

    The second text block is the structured content serialised as JSON without spaces (what
    the MCP spec asks of a tool with an output schema, as few tokens as it can). It is
    checked here, byte for byte, and named in the snapshot instead of stored a second time
    as one long escaped line.
    """
    document = wire(result)
    expected = json.dumps(result.structured_content, ensure_ascii=False, separators=(",", ":"))
    assert document["content"][1] == {"type": "text", "text": expected}
    document["content"][1]["text"] = STRUCTURED_AS_TEXT
    return document


async def both_eras(
    legacy: Client, ask: Callable[[Client], Awaitable[BaseModel]]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """What the newest era and the handshake era (``legacy``) answer to ``ask``."""
    async with Client(build_server(), mode="auto") as newest:
        return wire(await ask(newest)), wire(await ask(legacy))
