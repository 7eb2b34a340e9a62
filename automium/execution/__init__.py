"""Running a browser against the owned apps: an adapter, like ``hosting`` and ``mcp_server``.

Only this package and ``automium.hosting`` touch browsers and Playwright; the domain and the
MCP server never import either. Everything that launches Chromium finds it through
:func:`automium.execution.chromium.find_chromium`, so a test run, ``automium run`` and an
exported test all use the same binary.
"""
