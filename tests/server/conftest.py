"""In-memory sessions with the real server, in both protocol eras."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from mcp import Client
from pydantic import BaseModel

from automium.mcp_server import build_server

# "legacy": the initialize handshake, real JSON-RPC over memory streams.
# "auto": the newest era (2026-07-28, no initialize), in-process.
ERAS = ["legacy", "auto"]


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
