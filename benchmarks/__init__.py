"""Automium's performance harness, side by side with a bare MCP server on the same SDK.

Run it with ``python -m benchmarks.run`` (``make bench``); see ``benchmarks/README.md``.
"""
