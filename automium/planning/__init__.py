"""Planner trials: any planner drives the owned apps in Chromium through planner-adapter.v1.

Execution side, like :mod:`automium.execution` (which it drives): the MCP server never
imports it. :mod:`.trial` runs one trial, :mod:`.protocol` reads and denies decisions,
:mod:`.builtin` holds the built-in planners, :mod:`.external` runs a planner command, and
:mod:`.spec` turns ``--planner`` into one of them.
"""
