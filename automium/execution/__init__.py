"""Running a browser against the owned apps: an adapter, like ``hosting`` and ``mcp_server``.

Only this package and ``automium.hosting`` touch browsers and Playwright; the domain and the
MCP server never import either. Everything that launches Chromium finds it through
:func:`automium.execution.chromium.find_chromium`, so a test run, ``automium run`` and an
exported test all use the same binary.

``automium run`` (:mod:`.command`, :mod:`.executor`) serves a fixture's app on loopback,
runs a journey in headless Chromium with Playwright, and writes the evidence in the
contracts that exist (``replay-event.v1``, ``semantic-snapshot.v1``,
``artifact-manifest.v1``), digested by the same domain code as the MCP tools.
"""
