"""``python -m benchmarks.run`` (``make bench``): measure everything, write RESULTS.md.

Order of work: stdio cold starts (interleaved), stdio per-call latency (interleaved per
batch), in-process growth of compare_planners and compile_journey. Progress goes to
stderr; the report goes to ``--output``.
"""

from __future__ import annotations

import argparse
import datetime
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks import scaling, stdio_bench, workloads
from benchmarks.measure import Machine, loadavg, machine
from benchmarks.report import render

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "RESULTS.md"


@dataclass(frozen=True, slots=True)
class Settings:
    cold_runs: int
    rounds: int
    batch: int
    warmup: int
    point_budget_s: float


FULL = Settings(
    cold_runs=30,
    rounds=16,
    batch=25,
    warmup=20,
    point_budget_s=1.0,
)
QUICK = Settings(
    cold_runs=3,
    rounds=2,
    batch=10,
    warmup=3,
    point_budget_s=0.1,
)


@dataclass(frozen=True, slots=True)
class Results:
    machine: Machine
    started: datetime.datetime
    command: str
    settings: Settings
    cold: stdio_bench.ColdStart
    calls: stdio_bench.CallLatency
    compare: list[scaling.Point]
    compile: list[scaling.Point]
    wall_s: float
    load: tuple[str, str]  # load averages before and after the run


def _progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def _python() -> str:
    executable = Path(sys.executable)
    if executable.is_relative_to(stdio_bench.REPO):
        return str(executable.relative_to(stdio_bench.REPO))
    return str(executable)


def measure(settings: Settings) -> Results:
    started = datetime.datetime.now(datetime.UTC).astimezone()
    load_before = loadavg()
    clock = time.perf_counter()
    _progress(f"cold start: {settings.cold_runs} runs per server, interleaved")
    cold = stdio_bench.cold_start(settings.cold_runs, _progress)
    calls_per_tool = settings.rounds * settings.batch
    _progress(f"per-call latency: {calls_per_tool} calls per tool, batches of {settings.batch}")
    calls = stdio_bench.call_latency(settings.rounds, settings.batch, settings.warmup, _progress)
    _progress("in-process growth")
    budget = settings.point_budget_s
    compare = scaling.points(
        "automium_compare_planners", workloads.COMPARE_CASES, "trialCount", budget, _progress
    )
    compile_points = scaling.points(
        "automium_compile_journey", workloads.JOURNEY_CASES, "stepCount", budget, _progress
    )
    return Results(
        machine=machine(),
        started=started,
        command=shlex.join([_python(), "-m", "benchmarks.run", *sys.argv[1:]]),
        settings=settings,
        cold=cold,
        calls=calls,
        compare=compare,
        compile=compile_points,
        wall_s=time.perf_counter() - clock,
        load=(load_before, loadavg()),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__)
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run with tiny counts (numbers are noise)"
    )
    parser.add_argument(
        "--output", type=Path, default=DEFAULT_OUTPUT, help="where to write the Markdown report"
    )
    args = parser.parse_args(argv)
    results = measure(QUICK if args.quick else FULL)
    args.output.write_text(render(results), encoding="utf-8")
    _progress(f"wrote {args.output} in {results.wall_s:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
