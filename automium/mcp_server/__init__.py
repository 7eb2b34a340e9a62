"""The MCP boundary: the only package that imports ``mcp``.

It validates nothing itself beyond routing, delegates each tool call to its row of
:mod:`automium.capabilities` (which checks the input contract and runs the domain), shapes
MCP results and converts domain errors. If the SDK changes, only this package changes.
``server.build_server`` wires it together; ``running.serve`` serves it until stopped.

This file imports nothing (not even ``typing``): ``python -m automium.mcp_server`` imports
it before its ``__main__`` can tell the interpreter never to write bytecode.
"""
