"""The planner leaderboard: every planner over the reference journeys, executed, k times.

The planners are the three built-ins and the example external planner (a subprocess
speaking planner-adapter.v1). Each trial is judged by the journey's success checks; the
table comes from ``automium_compare_planners`` over the executed trials, as a user gets it.
Beside it: the runtime's own cost per decision (snapshot plus round trip: what the planner
loop adds), median and p95, next to the scripted executor's cost per step (``automium run``
without a planner, every step's evidence kept), and the cost of a fixture reset.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from automium import corpus
from automium.capabilities import find
from automium.contracts import to_document
from automium.execution.executor import Options, run_journey
from automium.planning.command import launched, run_trials, trials_document
from automium.planning.spec import planner_of
from automium.planning.trial import TrialOptions, TrialOutcome

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "planners" / "keyword_planner.py"
SPECS = ("scripted-journey", "random:1", "heuristic", f"cmd:keywords={sys.executable} {EXAMPLE}")


def _p(values: Sequence[float], percent: int) -> float:
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * percent // 100) - 1)] if ordered else 0.0


def measure(journeys: Sequence[dict[str, Any]], repeat: int, out: Path) -> dict[str, Any]:
    planners = [planner_of(s, timeout_s=10.0) for s in SPECS]
    with launched() as browser:
        started = time.perf_counter()
        outcomes = run_trials(
            journeys, planners, repeat, TrialOptions(out / "trials", 5000, 500), browser
        )
        trials_s = time.perf_counter() - started
        per_step = []
        for document in journeys:
            outcome = run_journey(document, browser, Options(out / "runs", 2000, video=False))
            per_step.append(outcome.latency_ms / len(document["steps"]))
    request = trials_document(outcomes, [p.reference for p in planners])
    _, report = find("automium_compare_planners").answer({**request, "detail": "full"})
    return {
        "outcomes": outcomes,
        "report": report,
        "trials_s": trials_s,
        "per_step": per_step,
        "repeat": repeat,
    }


def render(measured: dict[str, Any]) -> str:
    report, outcomes = measured["report"], measured["outcomes"]
    apps = report["appIds"]
    head = "| planner | " + " | ".join(apps) + " | pass^1 | pass^k | tokens/success | "
    head += "median decision | runtime cost/decision p50 / p95 |"
    lines = [head, "|" + "---|" * (len(apps) + 6)]
    for planner in report["planners"]:
        pid = planner["planner"]["id"]
        mine: list[TrialOutcome] = [o for o in outcomes if o.planner_id == pid]
        costs = [c for o in mine for c in o.decision_cost_ms]
        cells = [
            f"{a['metrics']['passRate']:.2f}" if a["metrics"]["passRate"] is not None else "-"
            for a in planner["apps"]
        ]
        metrics = planner["metrics"]
        tokens = metrics["tokensPerSuccess"]
        lines.append(
            f"| {pid} | "
            + " | ".join(cells)
            + f" | {metrics['passRate']:.2f} | {metrics['repeatability']:.2f} | "
            + ("-" if tokens is None else f"{tokens:.0f}")
            + f" | {planner['decisionLatencyMs']} ms | "
            + f"{statistics.median(costs):.0f} / {_p(costs, 95):.0f} ms |"
        )
    resets = [o.reset_ms for o in outcomes]
    per_step = measured["per_step"]
    failures = {
        p["planner"]["id"]: ", ".join(
            f"{c['failureClass']} {c['failures']}" for c in p["failuresByClass"]
        )
        or "none"
        for p in report["planners"]
    }
    verdict = report["verdict"]
    journeys = len(outcomes) // len(SPECS) // measured["repeat"]
    return (
        "## Planners, executed\n\n"
        f"{len(outcomes)} trials ({len(SPECS)} planners x {journeys} journeys x "
        f"k = {measured['repeat']}) in {measured['trials_s']:.0f} s, each judged by "
        "its journey's success checks; pass^k is `repeatability`.\n\n" + "\n".join(lines) + "\n\n"
        f"Scripted executor (`automium run`, every step's evidence kept): "
        f"{statistics.median(per_step):.0f} ms per step median, {_p(per_step, 95):.0f} ms p95. "
        f"Fixture reset (fresh app server and browser context, first page loaded): "
        f"{statistics.median(resets):.0f} ms median, {_p(resets, 95):.0f} ms p95 per trial.\n\n"
        "Failures by class: "
        + "; ".join(f"{pid}: {text}" for pid, text in failures.items())
        + f".\n\nVerdict: {verdict['summary']}\n"
    )


def section(quick: bool, progress: Callable[[str], None]) -> str:
    journeys = [to_document(j) for j in corpus.reference_journeys()]
    if quick:  # one journey per app, once
        seen: set[str] = set()
        journeys = [j for j in journeys if not (j["appId"] in seen or seen.add(j["appId"]))]
    repeat = 1 if quick else 3
    progress(f"planners: {len(SPECS)} x {len(journeys)} journeys x {repeat}")
    with TemporaryDirectory() as folder:
        return render(measure(journeys, repeat, Path(folder)))


if __name__ == "__main__":
    print(section("--quick" in sys.argv, lambda m: print(f"[bench] {m}", file=sys.stderr)))
