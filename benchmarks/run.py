"""``python -m benchmarks.run`` (``make bench``): measure everything, write RESULTS.md.

Order of work: stdio cold starts (interleaved run by run), stdio per-call latency
(interleaved batch by batch), then the in-process growth of compare_planners and
compile_journey. Progress goes to stderr; the report goes to ``--output``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shlex
import sys
import time
from dataclasses import dataclass
from functools import partial
from importlib import metadata
from pathlib import Path

from benchmarks import payload, scaling, stdio_bench, workloads
from benchmarks.results import Results, render


@dataclass(frozen=True, slots=True)
class Settings:
    cold_runs: int  # cold starts per server
    rounds: int  # batches of calls per tool
    batch: int  # calls per batch
    warmup: int  # calls per tool before the batches
    point_budget_s: float  # time spent repeating each growth point


FULL = Settings(cold_runs=30, rounds=16, batch=25, warmup=20, point_budget_s=1.0)
QUICK = Settings(cold_runs=3, rounds=2, batch=10, warmup=3, point_budget_s=0.1)


def _progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def _load() -> str:
    return " ".join(f"{load:.2f}" for load in os.getloadavg())


def _machine(load_before: str) -> str:
    """The CPU, the versions, and the load averages (other work on it skews timings)."""
    with open("/proc/cpuinfo", encoding="utf-8") as info:
        cpu = next((ln.split(":")[1].strip() for ln in info if ln.startswith("model name")), "?")
    cores, mcp = len(os.sched_getaffinity(0)), metadata.version("mcp")
    return (
        f"{cpu}, {cores} cores; Python {platform.python_version()}, mcp {mcp}; "
        f"{platform.platform()}; load average (1, 5, 15 min) {load_before} before the run, "
        f"{_load()} after"
    )


def measure(s: Settings, command: str) -> Results:
    started, load, clock = datetime.datetime.now(datetime.UTC), _load(), time.perf_counter()
    _progress(f"cold start: {s.cold_runs} runs per server, interleaved")
    cold = stdio_bench.cold_start(s.cold_runs, _progress)
    _progress(f"per-call latency: {s.rounds * s.batch} calls per tool, batches of {s.batch}")
    calls = stdio_bench.call_latency(s.rounds, s.batch, s.warmup, _progress)
    _progress("in-process growth")
    growth = partial(scaling.points, budget_s=s.point_budget_s, progress=_progress)
    compare = growth("automium_compare_planners", workloads.COMPARE_CASES, "trialCount")
    compile_ = growth("automium_compile_journey", workloads.JOURNEY_CASES, "stepCount")
    hostile = scaling.refusal_seconds("automium_compile_journey", workloads.hostile_journey())
    tokens, counted_by = payload.visible_tokens(cold.tools["automium"])
    return Results(
        started=started.astimezone(),
        command=command,
        machine=_machine(load),
        wall_s=time.perf_counter() - clock,
        cold=cold,
        calls=calls,
        compare=compare,
        compile=compile_,
        hostile_refusal_s=hostile,
        tokens=tokens,
        tokens_counted_by=counted_by,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="tiny counts: a smoke run")
    parser.add_argument(
        "--output", type=Path, default=Path(__file__).parent / "RESULTS.md", help="the report"
    )
    argv = sys.argv[1:] if argv is None else argv
    args, python = parser.parse_args(argv), Path(sys.executable)
    if python.is_relative_to(stdio_bench.REPO):  # the command as run from the repository
        python = python.relative_to(stdio_bench.REPO)
    command = shlex.join([str(python), "-m", "benchmarks.run", *argv])
    results = measure(QUICK if args.quick else FULL, command)
    args.output.write_text(render(results), encoding="utf-8")
    _progress(f"wrote {args.output} in {results.wall_s:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
