"""Every figure the run takes: Automium against the bare server over real stdio, its
capabilities in process, and the tokens a model reads of its tools/list.

Over stdio, both servers are driven by the same raw pipe client, interleaved run by run
(cold start) or batch by batch (calls), alternating which goes first, so drift on the
machine (another process, a CPU frequency change) lands on both sides of every ratio.
In process, a capability runs as ``tools/call`` runs it, minus the MCP framing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import timeit
from collections import defaultdict
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from automium.capabilities import BY_NAME
from benchmarks import answers, pipe
from benchmarks.workloads import tool_inputs


@dataclass(frozen=True, slots=True)
class Settings:
    """How much the run measures: the counts the report states, full or ``--quick``."""

    cold_runs: int  # cold starts per server
    rounds: int  # batches of calls per tool
    batch: int  # calls per batch
    warmup: int  # calls per tool before the batches
    point_budget_s: float  # time spent repeating each growth point


REPO = Path(__file__).resolve().parent.parent
COUNTER = REPO / "tests" / "interop" / "count-tokens.mjs"  # o200k, by js-tiktoken
VISIBLE = ("name", "description", "inputSchema")  # what a model reads of a listed tool
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


def cold_start(s: Settings, progress: Progress) -> ColdStart:
    """Cold starts of each server, interleaved, alternating which starts first."""
    for server in ("bare", "automium"):
        ColdStart().start(server)  # warm the page cache and the bytecode caches
    result = ColdStart()
    for run in range(s.cold_runs):
        for server in sorted(SERVERS, reverse=run % 2 == 1):
            result.start(server)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True, env=ENV)
        result.interpreter.append(time.perf_counter() - start)
        progress(f"cold start {run + 1}/{s.cold_runs}")
    return result


@dataclass
class CallLatency:
    """Per Automium tool: its latencies and the bare echo's with the same arguments, in
    alternating batches after warm-up calls, and the tool's first reply."""

    tool: Samples = field(default_factory=lambda: defaultdict(list))
    echo: Samples = field(default_factory=lambda: defaultdict(list))
    first: dict[str, pipe.Reply] = field(default_factory=dict)
    first_at_once: dict[str, float] = field(default_factory=dict)
    rss_kib: dict[str, int] = field(default_factory=dict)


# How long the call session waits after tools/list before its first call: an agent's model
# reads the list first, and Automium loads what the first calls need meanwhile.
READING_PAUSE_S = 1.0


def call_latency(s: Settings, progress: Progress) -> CallLatency:
    """Batches of calls per tool on one Automium session, each batch followed (or preceded,
    alternately) by as many bare echo calls with the same arguments."""
    result, inputs = CallLatency(), tool_inputs()
    with _session("automium") as automium, _session("bare") as bare:
        time.sleep(READING_PAUSE_S)
        for name, arguments in inputs.items():
            first = result.first[name] = automium.call_tool(name, arguments)
            if first.result.get("isError"):  # a refusal would measure the error path
                raise RuntimeError(f"{name} refused its typical input: {first.raw[:500]!r}")
            for _ in range(s.warmup):
                automium.call_tool(name, arguments)
                bare.call_tool("echo", arguments)
        for round_ in range(s.rounds):
            for name, arguments in inputs.items():
                sides = [(automium, name, result.tool), (bare, "echo", result.echo)]
                for client, tool, samples in sides[:: -1 if round_ % 2 else 1]:
                    samples[name] += [
                        client.call_tool(tool, arguments).seconds for _ in range(s.batch)
                    ]
            progress(f"call latency round {round_ + 1}/{s.rounds}")
        result.rss_kib = {"automium": automium.peak_rss_kib(), "bare": bare.peak_rss_kib()}
    for name, arguments in inputs.items():  # and with no pause: one new session per tool
        with _session("automium") as fresh:
            result.first_at_once[name] = fresh.call_tool(name, arguments).seconds
    return result


@dataclass(frozen=True, slots=True)
class Point:
    label: str
    units: int  # trials or steps
    repeats: int
    seconds: float  # median of the repeats

    @property
    def per_unit_us(self) -> float:
        return self.seconds / self.units * 1e6


def points(
    tool: str, cases: dict[str, Any], unit: str, s: Settings, progress: Progress
) -> list[Point]:
    """Time ``tool`` on each case; the field ``unit`` of its output counts the work units."""

    def run(arguments: dict[str, Any]) -> dict[str, Any]:
        return BY_NAME[tool].answer(arguments)[1]

    run(next(iter(cases.values())))  # first-call costs (loading) are not growth
    measured: list[Point] = []
    for label, arguments in cases.items():
        units, deadline = int(run(arguments)[unit]), time.perf_counter() + s.point_budget_s
        samples: list[float] = []
        while len(samples) < 3 or (len(samples) < 200 and time.perf_counter() < deadline):
            start = time.perf_counter()
            run(arguments)
            samples.append(time.perf_counter() - start)
        measured.append(Point(label, units, len(samples), statistics.median(samples)))
        progress(f"{tool} {label}: {measured[-1].seconds * 1e3:.2f} ms")
    return measured


def refusal_seconds(tool: str, arguments: dict[str, Any]) -> float:
    """The median of 5 times ``tool`` takes to refuse ``arguments``, as ``tools/call``
    answers it (the error result included, MCP framing aside)."""
    from automium.mcp_server.tools import call_result  # noqa: PLC0415

    if not call_result(tool, arguments).is_error:
        raise RuntimeError(f"{tool} accepted the hostile input")
    # timeit turns the garbage collector off; a server runs with it on.
    refuse, gc_on = partial(call_result, tool, arguments), "import gc; gc.enable()"
    return statistics.median(timeit.repeat(refuse, gc_on, number=1, repeat=5))


def minified(value: Any) -> str:
    """``value`` as the SDK sends it: JSON without spaces."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def size(value: Any) -> int:
    """The bytes of ``value`` on the wire: a tools/list entry, its schemas, the whole list."""
    return len(minified(value).encode())


def visible_tokens(tools: list[dict[str, Any]]) -> tuple[dict[str, int], str]:
    """Per tool, the o200k tokens of what a model reads of it (its name, description and
    input schema), and how they were counted."""
    seen = {tool["name"]: minified({k: tool[k] for k in VISIBLE}) for tool in tools}
    return tokens(seen)


def tokens(texts: dict[str, str]) -> tuple[dict[str, int], str]:
    """The o200k tokens of each text, by name, and how they were counted."""
    node = shutil.which("node")
    if node and (COUNTER.parent / "node_modules" / "js-tiktoken").is_dir():
        lines = "".join(json.dumps(text) + "\n" for text in texts.values())
        done = subprocess.run(
            [node, str(COUNTER)], input=lines, capture_output=True, text=True, check=True
        )
        counts = map(int, done.stdout.split())
        return dict(zip(texts, counts, strict=True)), "o200k tokens (js-tiktoken)"
    estimates = {name: len(text.encode()) // 4 for name, text in texts.items()}
    return estimates, "estimated tokens (bytes / 4, no Node)"


@dataclass(frozen=True, slots=True)
class AnswerSize:
    """One answer an agent reads: its bytes and tokens (the structured content of a tool
    answer, minified; a prompt's text), and what it is about when its name does not say."""

    bytes: int
    tokens: int
    subject: str


def answer_sizes() -> tuple[dict[str, AnswerSize], str]:
    """Every answer of ``benchmarks/answers.py`` by name, and how its tokens were counted."""
    measured = answers.measure()
    counted, counted_by = tokens({name: a.structured for name, a in measured.items()})
    sizes = {
        name: AnswerSize(a.structured_bytes, counted[name], a.subject)
        for name, a in measured.items()
    }
    return sizes, counted_by


def section_main(doc: str, section: Callable[[int, Callable[[str], None]], str]) -> int:
    """``python -m benchmarks.<name> [--rounds N]``: one section of ``make bench`` alone,
    its table on stdout, its progress on stderr."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    print(section(rounds, lambda m: print(f"[bench] {m}", file=sys.stderr, flush=True)))
    return 0
