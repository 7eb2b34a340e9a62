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
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import pipe
from benchmarks.workloads import tool_inputs

REPO = Path(__file__).resolve().parent.parent
SERVERS = {
    "automium": (sys.executable, "-m", "automium.mcp_server"),
    "bare": (sys.executable, str(REPO / "benchmarks" / "bare_server.py")),
}
# As installed, a server has bytecode caches: let the warm-up runs write them.
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
Progress = Callable[[str], None]
Samples = defaultdict[str, list[float]]  # seconds (or KiB) per server or per tool


def _session(server: str) -> AbstractContextManager[pipe.PipeClient]:
    return pipe.session(SERVERS[server], cwd=str(REPO), env=ENV)


@dataclass
class ColdStart:
    """Per server: seconds from spawn to the initialize and the tools/list responses, the
    VmHWM after tools/list and the listed tools; and ``python -c pass``, the floor."""

    to_initialize: Samples = field(default_factory=lambda: defaultdict(list))
    to_tools_list: Samples = field(default_factory=lambda: defaultdict(list))
    rss_kib: Samples = field(default_factory=lambda: defaultdict(list))
    tools: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    interpreter: list[float] = field(default_factory=list)

    def start(self, server: str) -> None:
        with _session(server) as client:
            self.to_initialize[server].append(client.to_initialize)
            self.to_tools_list[server].append(client.to_tools_list)
            self.rss_kib[server].append(client.peak_rss_kib())
            self.tools[server] = client.tools


def cold_start(runs: int, progress: Progress) -> ColdStart:
    """``runs`` cold starts of each server, interleaved, alternating which starts first."""
    for server in ("bare", "automium"):
        ColdStart().start(server)  # warm the page cache and the bytecode caches
    result = ColdStart()
    for run in range(runs):
        for server in sorted(SERVERS, reverse=run % 2 == 1):
            result.start(server)
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
    tool: Samples = field(default_factory=lambda: defaultdict(list))
    echo: Samples = field(default_factory=lambda: defaultdict(list))
    first: dict[str, pipe.Reply] = field(default_factory=dict)
    first_at_once: dict[str, float] = field(default_factory=dict)
    rss_kib: dict[str, int] = field(default_factory=dict)


# How long the call session waits after tools/list before its first call: an agent's model
# reads the list first, and Automium loads what the first calls need meanwhile.
READING_PAUSE_S = 1.0


def call_latency(rounds: int, batch: int, warmup: int, progress: Progress) -> CallLatency:
    """``rounds`` x ``batch`` calls per tool on one Automium session, each batch followed
    (or preceded, alternately) by as many bare echo calls with the same arguments."""
    result, inputs = CallLatency(rounds, batch, warmup), tool_inputs()
    with _session("automium") as automium, _session("bare") as bare:
        time.sleep(READING_PAUSE_S)
        for name, arguments in inputs.items():
            first = result.first[name] = automium.call_tool(name, arguments)
            if first.result.get("isError"):  # a refusal would measure the error path
                raise RuntimeError(f"{name} refused its typical input: {first.raw[:500]!r}")
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
    for name, arguments in inputs.items():  # and with no pause: one new session per tool
        with _session("automium") as fresh:
            result.first_at_once[name] = fresh.call_tool(name, arguments).seconds
    return result
