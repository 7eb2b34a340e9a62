"""Run in a fresh interpreter: how long each phase of an Automium start takes, as JSON.

``python -m benchmarks.phases`` (from the repo root) prints one JSON object of milliseconds
per phase, in the order ``automium serve`` goes through them (SDK import, Automium
import, building the server, the first tools/list, the first tools/call). Used by
``benchmarks.profiling``.
"""
# ruff: noqa: PLC0415 - importing inside the timed phases is the point

from __future__ import annotations

import json
import sys
import time
from typing import Any


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1e3


def main() -> None:
    phases: dict[str, float] = {}
    start = time.perf_counter()
    import anyio  # noqa: F401
    import mcp.server
    import mcp.server.stdio  # noqa: F401

    phases["import the SDK (mcp.server, stdio, anyio)"] = _ms(start)

    start = time.perf_counter()
    import automium.cli
    import automium.mcp_server.stdio  # noqa: F401

    phases["import Automium (server, tools, api, contracts, jsonschema)"] = _ms(start)

    from automium.mcp_server import tools
    from automium.mcp_server.server import build_server

    start = time.perf_counter()
    server = build_server()
    server.create_initialization_options()
    phases["build_server() + initialization options"] = _ms(start)

    def wire(result: Any) -> int:
        document = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        return len(json.dumps(document, separators=(",", ":")))

    start = time.perf_counter()
    wire(tools.list_tools_result())
    phases["first tools/list (build + serialise)"] = _ms(start)
    start = time.perf_counter()
    wire(tools.list_tools_result())
    phases["next tools/list (serialise the cached result)"] = _ms(start)

    from benchmarks.workloads import RUN_SUBMISSION

    name = "automium_create_run_submission"
    start = time.perf_counter()
    wire(tools.success_result(*tools.answer(name, RUN_SUBMISSION)))
    phases["first tools/call (corpus, validators, model)"] = _ms(start)
    start = time.perf_counter()
    wire(tools.success_result(*tools.answer(name, RUN_SUBMISSION)))
    phases["next tools/call, same tool"] = _ms(start)
    json.dump(phases, sys.stdout)


if __name__ == "__main__":
    main()
