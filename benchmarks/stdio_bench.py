"""Automium vs the bare server over real stdio: cold start, per-call latency, peak RSS.

Both servers are driven by the same raw pipe client, interleaved run by run (cold start)
or batch by batch (calls), alternating which goes first, so drift on the machine (another
process, a CPU frequency change) lands on both sides of every ratio.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.pipe import PipeClient, Reply
from benchmarks.workloads import tool_inputs

REPO = Path(__file__).resolve().parent.parent
SERVERS: dict[str, tuple[str, ...]] = {
    "automium": (sys.executable, "-m", "automium.mcp_server"),
    "bare": (sys.executable, str(REPO / "benchmarks" / "bare_server.py")),
}
# As installed, a server has bytecode caches: let the warm-up runs write them.
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
Progress = Callable[[str], None]


def _by_server() -> defaultdict[str, list[float]]:
    return defaultdict(list)


@dataclass
class ColdStart:
    """Per server: seconds from spawn to the initialize and the tools/list responses, the
    VmHWM after tools/list, and the listed tools; ``python -c pass`` is the floor."""

    to_initialize: defaultdict[str, list[float]] = field(default_factory=_by_server)
    to_tools_list: defaultdict[str, list[float]] = field(default_factory=_by_server)
    rss_kib: defaultdict[str, list[float]] = field(default_factory=_by_server)
    tools: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    interpreter: list[float] = field(default_factory=list)


def _start(name: str, into: ColdStart) -> None:
    with PipeClient(SERVERS[name], cwd=str(REPO), env=ENV) as client:
        client.initialize()
        into.to_initialize[name].append(time.perf_counter() - client.started)
        into.tools[name] = client.request("tools/list").result["tools"]
        into.to_tools_list[name].append(time.perf_counter() - client.started)
        into.rss_kib[name].append(client.peak_rss_kib())


def cold_start(runs: int, progress: Progress) -> ColdStart:
    """``runs`` cold starts of each server, interleaved, alternating which starts first."""
    result = ColdStart()
    for name in ("bare", "automium"):
        _start(name, ColdStart())  # warm the page cache and the bytecode caches first
    for run in range(runs):
        for name in sorted(SERVERS, reverse=run % 2 == 1):
            _start(name, result)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True, env=ENV)
        result.interpreter.append(time.perf_counter() - start)
        progress(f"cold start {run + 1}/{runs}")
    return result


@dataclass
class CallLatency:
    """Per Automium tool: its latencies and the bare echo's with the same arguments, in
    alternating batches after ``warmup`` calls each, and the tool's first reply."""

    rounds: int
    batch: int
    warmup: int
    tool: defaultdict[str, list[float]] = field(default_factory=_by_server)
    echo: defaultdict[str, list[float]] = field(default_factory=_by_server)
    first: dict[str, Reply] = field(default_factory=dict)
    rss_kib: dict[str, int] = field(default_factory=dict)


def call_latency(rounds: int, batch: int, warmup: int, progress: Progress) -> CallLatency:
    """``rounds`` x ``batch`` calls per tool on one Automium session, each batch followed
    (or preceded, alternately) by as many bare echo calls with the same arguments."""
    result = CallLatency(rounds, batch, warmup)
    inputs = tool_inputs()
    with (
        PipeClient(SERVERS["automium"], cwd=str(REPO), env=ENV) as automium,
        PipeClient(SERVERS["bare"], cwd=str(REPO), env=ENV) as bare,
    ):
        for client in (automium, bare):
            client.initialize()
            client.request("tools/list")
        for name, arguments in inputs.items():
            result.first[name] = automium.call_tool(name, arguments)
            for _ in range(warmup):
                automium.call_tool(name, arguments)
                bare.call_tool("echo", arguments)
        for round_ in range(rounds):
            for name, arguments in inputs.items():
                sides = [(automium, name, result.tool), (bare, "echo", result.echo)]
                for client, tool, samples in sides[:: -1 if round_ % 2 else 1]:
                    samples[name] += [
                        client.call_tool(tool, arguments).seconds for _ in range(batch)
                    ]
            progress(f"call latency round {round_ + 1}/{rounds}")
        result.rss_kib = {"automium": automium.peak_rss_kib(), "bare": bare.peak_rss_kib()}
    return result
