"""Automium vs the bare server over real stdio: cold start, per-call latency, RSS, payload.

Both servers are driven by the same raw pipe client, interleaved run by run (cold start)
or batch by batch (calls), alternating which goes first, so drift on the machine (another
process, a CPU frequency change) lands on both sides of every ratio.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.pipe import PipeClient
from benchmarks.workloads import tool_inputs

REPO = Path(__file__).resolve().parent.parent
AUTOMIUM_ARGV = (sys.executable, "-m", "automium.mcp_server")
BARE_ARGV = (sys.executable, str(REPO / "benchmarks" / "bare_server.py"))
SERVERS: dict[str, tuple[str, ...]] = {"automium": AUTOMIUM_ARGV, "bare": BARE_ARGV}
# As installed, a server has bytecode caches: let the warm-up runs write them.
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}

Progress = Callable[[str], None]


def _minified(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


@dataclass
class ColdStart:
    """Per server: spawn → initialize response, spawn → tools/list response, VmHWM."""

    to_initialize: dict[str, list[float]] = field(default_factory=dict)
    to_tools_list: dict[str, list[float]] = field(default_factory=dict)
    rss_kib: dict[str, list[int]] = field(default_factory=dict)
    tools: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def _one_cold_start(name: str, result: ColdStart) -> None:
    with PipeClient(SERVERS[name], cwd=str(REPO), env=ENV) as client:
        client.initialize()
        initialized = time.perf_counter()
        listed = client.request("tools/list")
        listed_at = time.perf_counter()
        result.to_initialize.setdefault(name, []).append(initialized - client.started)
        result.to_tools_list.setdefault(name, []).append(listed_at - client.started)
        result.rss_kib.setdefault(name, []).append(client.peak_rss_kib())
        result.tools[name] = listed.result["tools"]


def cold_start(runs: int, progress: Progress) -> ColdStart:
    """``runs`` cold starts of each server, interleaved, alternating which starts first."""
    result = ColdStart()
    _one_cold_start("bare", ColdStart())  # warm the page cache and the bytecode caches
    _one_cold_start("automium", ColdStart())
    for run in range(runs):
        order = ("automium", "bare") if run % 2 == 0 else ("bare", "automium")
        for name in order:
            _one_cold_start(name, result)
        progress(f"cold start {run + 1}/{runs}")
    return result


@dataclass
class CallLatency:
    """Per Automium tool: its latencies and the bare echo's, sampled in alternating batches."""

    tool: dict[str, list[float]] = field(default_factory=dict)
    echo: dict[str, list[float]] = field(default_factory=dict)
    first_call: dict[str, float] = field(default_factory=dict)
    response_bytes: dict[str, int] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    rss_kib: dict[str, int] = field(default_factory=dict)
    inputs: dict[str, dict[str, Any]] = field(default_factory=dict)


def call_latency(rounds: int, batch: int, warmup: int, progress: Progress) -> CallLatency:
    """``rounds`` x ``batch`` calls per tool on one Automium session, each batch followed
    (or preceded, alternately) by as many bare echo calls with the same arguments."""
    result = CallLatency()
    with (
        PipeClient(AUTOMIUM_ARGV, cwd=str(REPO), env=ENV) as automium,
        PipeClient(BARE_ARGV, cwd=str(REPO), env=ENV) as bare,
    ):
        for client in (automium, bare):
            client.initialize()
            client.request("tools/list")
        inputs = result.inputs = tool_inputs()
        for name, arguments in inputs.items():
            reply = automium.call_tool(name, arguments)
            result.first_call.setdefault(name, reply.seconds)
            result.response_bytes[name] = len(reply.raw)
            if reply.result.get("isError"):
                result.errors[name] = reply.raw[:300].decode(errors="replace")
            for _ in range(warmup):
                automium.call_tool(name, arguments)
                bare.call_tool("echo", arguments)
        for round_ in range(rounds):
            for name, arguments in inputs.items():
                sides: list[tuple[PipeClient, str, dict[str, list[float]]]] = [
                    (automium, name, result.tool),
                    (bare, "echo", result.echo),
                ]
                if round_ % 2:
                    sides.reverse()
                for client, tool, samples in sides:
                    bucket = samples.setdefault(name, [])
                    for _ in range(batch):
                        bucket.append(client.call_tool(tool, arguments).seconds)
            progress(f"call latency round {round_ + 1}/{rounds}")
        result.rss_kib = {"automium": automium.peak_rss_kib(), "bare": bare.peak_rss_kib()}
    return result


@dataclass(frozen=True, slots=True)
class Payload:
    """The minified ``tools`` array of a tools/list result."""

    total: int
    per_tool: dict[str, int]

    @property
    def largest(self) -> tuple[str, int]:
        return max(self.per_tool.items(), key=lambda item: item[1])

    @property
    def per_tool_mean(self) -> float:
        return self.total / len(self.per_tool) if self.per_tool else 0.0


def payload(tools: list[dict[str, Any]]) -> Payload:
    return Payload(
        total=len(_minified(tools)),
        per_tool={tool["name"]: len(_minified(tool)) for tool in tools},
    )
