"""In-process growth: compare_planners by trials, compile_journey by steps.

Each point runs the domain operation exactly as ``tools/call`` does (contract check, the
domain function, the wire document) minus the MCP framing, and is repeated so its median
is stable. Per-unit cost staying flat across points means the operation is linear.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from automium.capabilities import BY_NAME
from automium.contracts import to_document
from benchmarks.workloads import COMPARE_POINTS, JOURNEY_SIZES, compare_input, generated_journey

Progress = Callable[[str], None]

# Repeat each point until it has run this long (at least MIN_REPEATS, at most MAX_REPEATS).
_POINT_BUDGET_S = 1.0
_MIN_REPEATS = 3
_MAX_REPEATS = 200


@dataclass(frozen=True, slots=True)
class Point:
    label: str
    units: int  # trials or steps
    repeats: int
    seconds: float  # median of the repeats

    @property
    def per_unit_us(self) -> float:
        return self.seconds / self.units * 1e6


def _run(operation: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return to_document(BY_NAME[f"automium_{operation}"].run(arguments))


def _timed(operation: str, arguments: dict[str, Any], budget_s: float) -> tuple[float, int]:
    samples: list[float] = []
    spent = 0.0
    while len(samples) < _MAX_REPEATS and (len(samples) < _MIN_REPEATS or spent < budget_s):
        start = time.perf_counter()
        _run(operation, arguments)
        samples.append(time.perf_counter() - start)
        spent += samples[-1]
    return statistics.median(samples), len(samples)


def compare_scaling(progress: Progress, budget_s: float = _POINT_BUDGET_S) -> list[Point]:
    _run("compare_planners", compare_input(1, 1, 1))  # first-call costs are not growth
    points = []
    for apps, planner_count, repetitions in COMPARE_POINTS:
        arguments = compare_input(apps, planner_count, repetitions)
        trials = int(_run("compare_planners", arguments)["trialCount"])
        seconds, repeats = _timed("compare_planners", arguments, budget_s)
        label = f"{apps} app x {planner_count} planner x {repetitions} rep"
        points.append(Point(label, trials, repeats, seconds))
        progress(f"compare_planners {label}: {seconds * 1e3:.2f} ms")
    return points


def compile_scaling(progress: Progress, budget_s: float = _POINT_BUDGET_S) -> list[Point]:
    _run("compile_journey", generated_journey(2))
    points = []
    for steps in JOURNEY_SIZES:
        journey = generated_journey(steps)
        compiled = _run("compile_journey", journey)
        if compiled["stepCount"] != steps:  # pragma: no cover - a generator bug
            raise RuntimeError(f"generated journey compiled to {compiled['stepCount']} steps")
        seconds, repeats = _timed("compile_journey", journey, budget_s)
        points.append(Point(f"{steps} steps, 3 assertions", steps, repeats, seconds))
        progress(f"compile_journey {steps} steps: {seconds * 1e3:.1f} ms")
    return points


def growth(points: list[Point]) -> float:
    """Per-unit cost at the largest point over that at the next largest.

    ~1.0 is linear (more units cost no more each); above ~1.2 grows faster than linear.
    Small points are left out on purpose: their fixed per-call cost is overhead, not growth.
    """
    if len(points) < 2:
        return float("nan")
    return points[-1].per_unit_us / points[-2].per_unit_us


def linear_fit(points: list[Point]) -> tuple[float, float]:
    """Least-squares ``seconds = fixed + marginal x units``: (fixed ms, marginal µs/unit)."""
    marginal, fixed = statistics.linear_regression(
        [p.units for p in points], [p.seconds for p in points]
    )
    return fixed * 1e3, marginal * 1e6
