"""In-process growth: compare_planners by trials, compile_journey by steps.

Each point runs the capability as ``tools/call`` does (argument limits, contract check,
the domain function, the wire document) minus the MCP framing, repeated until its median
is stable. Per-unit cost staying flat across the largest points means the growth is linear.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from automium.capabilities import BY_NAME
from automium.contracts import to_document

# Repeat each point for its time budget, at least _MIN_REPEATS and at most _MAX_REPEATS.
_MIN_REPEATS, _MAX_REPEATS = 3, 200


@dataclass(frozen=True, slots=True)
class Point:
    label: str
    units: int  # trials or steps
    repeats: int
    seconds: float  # median of the repeats

    @property
    def per_unit_us(self) -> float:
        return self.seconds / self.units * 1e6


def _run(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return to_document(BY_NAME[tool].run(arguments))


def points(
    tool: str,
    cases: dict[str, dict[str, Any]],
    unit: str,
    budget_s: float,
    progress: Callable[[str], None],
) -> list[Point]:
    """Time ``tool`` on each case; the field ``unit`` of its output counts the work units."""
    _run(tool, next(iter(cases.values())))  # first-call costs (loading) are not growth
    measured = []
    for label, arguments in cases.items():
        units = int(_run(tool, arguments)[unit])
        samples: list[float] = []
        deadline = time.perf_counter() + budget_s
        while len(samples) < _MIN_REPEATS or (
            len(samples) < _MAX_REPEATS and time.perf_counter() < deadline
        ):
            start = time.perf_counter()
            _run(tool, arguments)
            samples.append(time.perf_counter() - start)
        measured.append(Point(label, units, len(samples), statistics.median(samples)))
        progress(f"{tool} {label}: {measured[-1].seconds * 1e3:.2f} ms")
    return measured


def growth(measured: list[Point]) -> float:
    """Per-unit cost at the largest point over that at the next largest.

    ~1.0 is linear (more units cost no more each). The small points are left out on
    purpose: their fixed cost per call is overhead, not growth.
    """
    return measured[-1].per_unit_us / measured[-2].per_unit_us


def linear_fit(measured: list[Point]) -> tuple[float, float]:
    """Least-squares ``seconds = fixed + marginal x units``: (fixed ms, marginal µs/unit)."""
    marginal, fixed = statistics.linear_regression(
        [p.units for p in measured], [p.seconds for p in measured]
    )
    return fixed * 1e3, marginal * 1e6
