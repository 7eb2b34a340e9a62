"""``python -m benchmarks.run`` (``make bench``): measure everything, write RESULTS.md.

Order of work: stdio cold starts (interleaved run by run), stdio per-call latency
(interleaved batch by batch), then the in-process growth of the compare_planners and
compile_journey tools. Progress goes to stderr; the report goes to ``--output``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shlex
import sys
import time
from functools import partial
from importlib import metadata
from pathlib import Path

from benchmarks import measure, workloads
from benchmarks.measure import REPO, Settings
from benchmarks.results import Results, answers_section, render, with_answers

FULL = Settings(cold_runs=30, rounds=16, batch=25, warmup=20, point_budget_s=1.0)
QUICK = Settings(cold_runs=3, rounds=2, batch=10, warmup=3, point_budget_s=0.1)


def _progress(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def _machine(load_before: tuple[float, float, float]) -> str:
    """The CPU, the versions, and the load averages (other work on it skews timings)."""
    with open("/proc/cpuinfo", encoding="utf-8") as info:
        cpu = next((ln.split(":")[1].strip() for ln in info if ln.startswith("model name")), "?")
    cores, mcp = len(os.sched_getaffinity(0)), metadata.version("mcp")
    before, after = (" ".join(f"{x:.2f}" for x in load) for load in (load_before, os.getloadavg()))
    return (
        f"{cpu}, {cores} cores; Python {platform.python_version()}, mcp {mcp}; "
        f"{platform.platform()}; load average (1, 5, 15 min) {before} before the run, {after} after"
    )


def _measure(s: Settings, command: str) -> Results:
    started, load, clock = datetime.datetime.now(datetime.UTC), os.getloadavg(), time.perf_counter()
    _progress(f"cold start: {s.cold_runs} runs per server, interleaved")
    cold = measure.cold_start(s, _progress)
    _progress(f"per-call latency: {s.rounds * s.batch} calls per tool, batches of {s.batch}")
    calls = measure.call_latency(s, _progress)
    _progress("in-process growth")
    growth = partial(measure.points, s=s, progress=_progress)
    compare = growth("automium_compare_planners", workloads.COMPARE_CASES, "trialCount")
    compile_ = growth("automium_compile_journey", workloads.JOURNEY_CASES, "stepCount")
    hostile = measure.refusal_seconds("automium_compile_journey", workloads.hostile_journey())
    tokens, counted_by = measure.visible_tokens(cold.tools["automium"])
    _progress("the answers an agent reads")
    answers, answers_counted_by = measure.answer_sizes()
    return Results(
        started=started.astimezone(),
        command=command,
        machine=_machine(load),
        settings=s,
        wall_s=time.perf_counter() - clock,
        cold=cold,
        calls=calls,
        compare=compare,
        compile=compile_,
        hostile_refusal_s=hostile,
        tokens=tokens,
        tokens_counted_by=counted_by,
        answers=answers,
        answers_counted_by=answers_counted_by,
    )


def _mutants_for_real(*, quick: bool) -> str:
    """The confusion matrix of compile's static verdicts and the real runs of the CI set of
    mutants (issue 23; ``tests/browser/test_mutants_for_real.py`` asserts it)."""
    from tests.browser import mutant_runs  # noqa: PLC0415 - Playwright, only for this section

    per_class = mutant_runs.QUICK_PER_CLASS if quick else mutant_runs.CI_PER_CLASS
    started = time.perf_counter()
    measured = mutant_runs.measure(mutant_runs.chosen(per_class), progress=_progress)
    wall = time.perf_counter() - started
    return (
        "## Compile's verdicts against real runs\n\n"
        f"Each mutant of `tests/journey_mutants.py` compiled, then run in headless Chromium "
        f"({mutant_runs.WORKERS} at a time, {wall:.0f} s): rows are the real outcome, "
        "columns the static verdict (`valid-unchecked`: valid with an unchecked item or a "
        "warning naming the cause).\n\n```\n" + mutant_runs.render(measured) + "\n```\n"
    )


def _walks(*, quick: bool) -> str:
    """Differential conformance: seeded random walks of every fixture, each page model
    compared with its app after every step (``tests/browser/test_walks.py`` asserts 0)."""
    from tests.browser import test_walks, walks  # noqa: PLC0415 - Playwright, only here

    budget = test_walks.QUICK if quick else test_walks.CI_BUDGET
    totals = walks.walk_all(budget, _progress)
    return (
        "## Page models against their apps: random walks\n\n"
        "Seeded walks chosen from what each page model says a user can do, run in headless "
        "Chromium and compared with the model after every step (route, ARIA snapshot, "
        "controls' state, field values); a step the model says it does not know is not "
        "compared.\n\n```\n" + walks.render(budget, totals) + "\n```\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="tiny counts: a smoke run")
    parser.add_argument(
        "--answers",
        action="store_true",
        help="refresh only the (deterministic) answers section of an existing report",
    )
    parser.add_argument(
        "--output", type=Path, default=Path(__file__).parent / "RESULTS.md", help="the report"
    )
    argv = sys.argv[1:] if argv is None else argv
    args, python = parser.parse_args(argv), Path(sys.executable)
    if python.is_relative_to(REPO):  # the command as run from the repository
        python = python.relative_to(REPO)
    command = shlex.join([str(python), "-m", "benchmarks.run", *argv])
    if args.answers:
        sizes, counted_by = measure.answer_sizes()
        report = args.output.read_text(encoding="utf-8")
        section = answers_section(sizes, counted_by)
        args.output.write_text(with_answers(report, section), encoding="utf-8")
        _progress(f"refreshed the answers in {args.output}")
        return 0
    results = _measure(QUICK if args.quick else FULL, command)
    from benchmarks import execution  # noqa: PLC0415 - Playwright, only for this section

    _progress("automium run: side by side with a plain Playwright script, then throughput")
    runs = execution.section(2 if args.quick else 10, _progress)
    _progress("compile's verdicts against real runs: the mutants' confusion matrix")
    verdicts = _mutants_for_real(quick=args.quick)
    print(verdicts)
    _progress("page models against their apps: random walks")
    walked = _walks(quick=args.quick)
    print(walked)
    from benchmarks import evidence_levels, planners, scaling  # noqa: PLC0415 - Playwright

    _progress("planners, executed: the leaderboard")
    leaderboard = planners.section(args.quick, _progress)
    print(leaderboard)
    _progress("evidence levels beside Playwright Test")
    levels = evidence_levels.section(1 if args.quick else 3, _progress)
    print(levels)
    _progress("workers: journeys a minute")
    scaled = scaling.section(1 if args.quick else 3, _progress)
    print(scaled)
    report = "\n".join([render(results), runs, verdicts, walked, leaderboard, levels, scaled])
    args.output.write_text(report, encoding="utf-8")
    _progress(f"wrote {args.output} in {results.wall_s:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
