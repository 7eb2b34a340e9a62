"""Small measurement helpers: order statistics, the machine, the SDK's version."""

from __future__ import annotations

import math
import os
import platform
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata


def percentile(values: Sequence[float], q: int) -> float:
    """The ``q``-th percentile (1-99) of ``values``, interpolated between samples."""
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def ratio(value: float, baseline: float) -> float:
    return value / baseline if baseline > 0 else math.nan


@dataclass(frozen=True, slots=True)
class Machine:
    cpu: str
    cores: int
    python: str
    mcp: str
    platform: str


def machine() -> Machine:
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        cpu = platform.processor() or cpu
    return Machine(
        cpu=cpu,
        cores=len(os.sched_getaffinity(0)),
        python=platform.python_version(),
        mcp=metadata.version("mcp"),
        platform=platform.platform(),
    )


def loadavg() -> str:
    """The 1-, 5- and 15-minute load averages (other work on the machine skews timings)."""
    try:
        with open("/proc/loadavg", encoding="ascii") as load:
            return " ".join(load.read().split()[:3])
    except OSError:
        return "unknown"
