"""Domain errors -> MCP results, in one place.

A refused tool call is a *result* (``isError: true``) whose structuredContent is the
``tool-error.v1`` document, so an agent reads the code, path and allowed values and tries
again. Refused resource and prompt requests are JSON-RPC ``-32602`` errors whose ``data``
carries the same document. Anything unexpected becomes a bare ``-32603``: the traceback
goes to stderr, never to the client.
"""

from __future__ import annotations

import logging
from typing import Any

from mcp import MCPError, types

from automium.contracts import to_document, to_json
from automium.errors import AutomiumError

log = logging.getLogger("automium.mcp")

COMPLETE = {"resultType": "complete"}
"""What a CallToolResult model dumps to and a 2026-era client expects; the SDK drops it for a
handshake-era client, as it does the model's."""


def tool_error(error: AutomiumError) -> dict[str, Any]:
    """The ``isError`` result of a refused call, as the wire spells it."""
    document = to_document(error.to_tool_error())
    extra = len(error.problems) - 1
    more = f" (and {extra} more problem{'s' if extra > 1 else ''})" if extra else ""
    where = f" at {error.problems[0].path}" if error.problems[0].path else ""
    return {
        "content": [
            {"type": "text", "text": f"Error {error.code}{where}: {error.message}{more}"},
            {"type": "text", "text": to_json(document)},
        ],
        "structuredContent": document,
        "isError": True,
        **COMPLETE,
    }


def refused_params(error: AutomiumError) -> MCPError:
    """A JSON-RPC -32602 whose data is the ``tool-error.v1`` document of ``error``."""
    return MCPError(types.INVALID_PARAMS, error.message, to_document(error.to_tool_error()))


def internal_error(what: str) -> MCPError:
    log.exception("unexpected failure in %s", what)
    return MCPError(types.INTERNAL_ERROR, "Internal error; the request was not processed.")
