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
from importlib import metadata
from pathlib import Path

from benchmarks import scaling, stdio_bench, workloads
from benchmarks.results import Results, render

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "RESULTS.md"


@dataclass(frozen=True, slots=True)
class Settings:
    cold_runs: int  # cold starts per server
    rounds: int  # batches per tool
    batch: int  # calls per batch
    warmup: int  # calls per tool before the batches
    point_budget_s: float  # time spent repeating each growth point


FULL = Settings(cold_runs=30, rounds=16, batch=25, warmup=20, point_budget_s=1.0)
QUICK = Settings(cold_runs=3, rounds=2, batch=10, warmup=3, point_budget_s=0.1)


def _progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError:
        return ""


def _machine() -> dict[str, str]:
    models = [ln for ln in _read("/proc/cpuinfo").splitlines() if ln.startswith("model name")]
    cpu = models[0].split(":", 1)[1].strip() if models else platform.processor() or "unknown"
    return {
        "CPU": f"{cpu}, {len(os.sched_getaffinity(0))} cores available",
        "Python": platform.python_version(),
        "mcp (SDK)": metadata.version("mcp"),
        "platform": platform.platform(),
    }


def _loadavg() -> str:
    """The 1-, 5- and 15-minute load averages (other work on the machine skews timings)."""
    return " ".join(_read("/proc/loadavg").split()[:3]) or "unknown"


def measure(settings: Settings, command: str) -> Results:
    s, started, load, clock = (
        settings,
        datetime.datetime.now(datetime.UTC),
        _loadavg(),
        time.perf_counter(),
    )
    _progress(f"cold start: {s.cold_runs} runs per server, interleaved")
    cold = stdio_bench.cold_start(s.cold_runs, _progress)
    _progress(f"per-call latency: {s.rounds * s.batch} calls per tool, batches of {s.batch}")
    calls = stdio_bench.call_latency(s.rounds, s.batch, s.warmup, _progress)
    _progress("in-process growth")
    compare = scaling.points(
        "automium_compare_planners",
        workloads.COMPARE_CASES,
        "trialCount",
        s.point_budget_s,
        _progress,
    )
    compile_points = scaling.points(
        "automium_compile_journey",
        workloads.JOURNEY_CASES,
        "stepCount",
        s.point_budget_s,
        _progress,
    )
    return Results(
        started=started.astimezone(),
        command=command,
        machine=_machine(),
        load=(load, _loadavg()),
        wall_s=time.perf_counter() - clock,
        cold=cold,
        calls=calls,
        compare=compare,
        compile=compile_points,
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
    python = Path(sys.executable)
    if python.is_relative_to(stdio_bench.REPO):
        python = python.relative_to(stdio_bench.REPO)
    command = shlex.join([str(python), "-m", "benchmarks.run", *sys.argv[1:]])
    results = measure(QUICK if args.quick else FULL, command)
    args.output.write_text(render(results), encoding="utf-8")
    _progress(f"wrote {args.output} in {results.wall_s:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
