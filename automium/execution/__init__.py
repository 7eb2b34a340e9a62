"""Running journeys for real: ``automium run``. An adapter, like ``hosting`` and ``mcp_server``.

It serves a fixture's app on loopback (``automium.hosting``), drives headless Chromium with
Playwright, and writes the evidence in the contracts that exist (``replay-event.v1``,
``semantic-snapshot.v1``, ``artifact-manifest.v1``), digested by the same domain code as the
MCP tools. The domain never imports this package, and the MCP server never does either: the
server stays model-only.
"""
