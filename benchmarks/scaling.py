"""In-process growth: compare_planners by trials, compile_journey by steps.

Each point runs the capability as ``tools/call`` does (argument limits, contract check,
the domain function, the wire document) minus the MCP framing, repeated for a time budget
(3 to 200 times) and summarised by its median.
"""

from __future__ import annotations

import statistics
import time
import timeit
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from automium.capabilities import BY_NAME
from automium.contracts import to_document


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
    tool: str, cases: dict[str, Any], unit: str, budget_s: float, progress: Callable[[str], None]
) -> list[Point]:
    """Time ``tool`` on each case; the field ``unit`` of its output counts the work units."""

    def run(arguments: dict[str, Any]) -> dict[str, Any]:
        return to_document(BY_NAME[tool].run(arguments))

    run(next(iter(cases.values())))  # first-call costs (loading) are not growth
    measured: list[Point] = []
    for label, arguments in cases.items():
        units, deadline = int(run(arguments)[unit]), time.perf_counter() + budget_s
        samples: list[float] = []
        while len(samples) < 3 or (len(samples) < 200 and time.perf_counter() < deadline):
            start = time.perf_counter()
            run(arguments)
            samples.append(time.perf_counter() - start)
        measured.append(Point(label, units, len(samples), statistics.median(samples)))
        progress(f"{tool} {label}: {measured[-1].seconds * 1e3:.2f} ms")
    return measured


def growth(measured: list[Point]) -> float:
    """Per-unit cost at the largest point ÷ at the next largest: ~1.0 is linear. The small
    points are left out on purpose: their fixed cost per call is overhead, not growth."""
    return measured[-1].per_unit_us / measured[-2].per_unit_us


def linear_fit(measured: list[Point]) -> tuple[float, float]:
    """Least-squares ``seconds = fixed + marginal x units``: (fixed ms, marginal µs/unit)."""
    units, seconds = [p.units for p in measured], [p.seconds for p in measured]
    marginal, fixed = statistics.linear_regression(units, seconds)
    return fixed * 1e3, marginal * 1e6


def refusal_seconds(tool: str, arguments: dict[str, Any]) -> float:
    """The median of 5 times ``tool`` takes to refuse ``arguments``, as ``tools/call``
    answers it (the error result included, MCP framing aside)."""
    from automium.mcp_server.tools import call_result  # noqa: PLC0415

    if not call_result(tool, arguments).is_error:
        raise RuntimeError(f"{tool} accepted the hostile input")
    # timeit turns the garbage collector off; a server runs with it on.
    refuse, gc_on = partial(call_result, tool, arguments), "import gc; gc.enable()"
    return statistics.median(timeit.repeat(refuse, gc_on, number=1, repeat=5))
