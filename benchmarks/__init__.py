"""Automium's performance harness: ``python -m benchmarks.run`` (``make bench``).

Everything is measured side by side with a bare MCP server on the same SDK
(:mod:`benchmarks.bare_server`) and reported as ratios; see ``benchmarks/README.md``.
"""
