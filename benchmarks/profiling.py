"""Where the time goes: ``-X importtime``, start-up phases and cProfile, all measured now.

* :func:`import_breakdown` runs ``python -X importtime -m automium.mcp_server`` (stdin at
  EOF, so it imports, serves nothing and exits) and the bare server the same way, and sums
  each top-level package's *self* time, so the difference is what Automium adds.
* :func:`startup_phases` runs :mod:`benchmarks.phases` in fresh interpreters.
* :func:`cold_start_profile` runs the real server under cProfile over stdio up to the first
  tools/list response.
* :func:`tool_stages` times each tool's stages in process (no profiler), and
  :func:`tool_profiles` shows each tool's own time by package and its top functions.
"""

from __future__ import annotations

import cProfile
import json
import pstats
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.measure import median
from benchmarks.pipe import PipeClient
from benchmarks.stdio_bench import AUTOMIUM_ARGV, BARE_ARGV, REPO

Progress = Callable[[str], None]
_IMPORT_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


@dataclass(frozen=True, slots=True)
class ImportBreakdown:
    """Self time (ms) per top-level package, module counts, and the biggest modules."""

    automium_ms: dict[str, float]
    bare_ms: dict[str, float]
    automium_modules: int
    bare_modules: int
    heaviest: list[tuple[str, float, float]]  # (module, cumulative ms, self ms), Automium only
    automium_total: float  # median over runs of the summed self time
    bare_total: float

    @property
    def own_packages(self) -> float:
        """Self time of the packages the bare server never imports (robust to noise)."""
        return sum(ms for name, ms in self.automium_ms.items() if name not in self.bare_ms)

    def extra(self) -> list[tuple[str, float]]:
        """Packages by how much more self time they take in Automium than in the bare server."""
        names = set(self.automium_ms) | set(self.bare_ms)
        rows = [(n, self.automium_ms.get(n, 0.0) - self.bare_ms.get(n, 0.0)) for n in names]
        return sorted(rows, key=lambda row: -row[1])


def _importtime(argv: list[str]) -> list[tuple[str, int, int]]:
    """(module, self µs, cumulative µs) for every module ``argv`` imports."""
    completed = subprocess.run(
        [argv[0], "-X", "importtime", *argv[1:]],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    rows = []
    for line in completed.stderr.splitlines():
        match = _IMPORT_LINE.match(line)
        if match:
            rows.append((match[4], int(match[1]), int(match[2])))
    return rows


def _by_package(rows: list[tuple[str, int, int]]) -> dict[str, float]:
    totals: dict[str, float] = {}
    for module, self_us, _cum in rows:
        package = module.split(".")[0]
        totals[package] = totals.get(package, 0.0) + self_us / 1e3
    return totals


def _median_by_key(runs: list[dict[str, float]]) -> dict[str, float]:
    keys = {key for run in runs for key in run}
    return {key: median([run.get(key, 0.0) for run in runs]) for key in keys}


def import_breakdown(runs: int) -> ImportBreakdown:
    automium_runs, bare_runs = [], []
    cumulative: dict[str, list[tuple[float, float]]] = {}
    module_counts = [0, 0]
    for _ in range(runs):
        rows = _importtime(list(AUTOMIUM_ARGV))
        automium_runs.append(_by_package(rows))
        module_counts[0] = len(rows)
        for module, self_us, cum_us in rows:
            cumulative.setdefault(module, []).append((cum_us / 1e3, self_us / 1e3))
        bare = _importtime(list(BARE_ARGV))
        bare_runs.append(_by_package(bare))
        module_counts[1] = len(bare)
    bare_modules = {module for module, *_ in _importtime(list(BARE_ARGV))}
    own = [
        (module, median([c for c, _ in v]), median([s for _, s in v]))
        for module, v in cumulative.items()
        if module not in bare_modules
    ]
    own.sort(key=lambda row: -row[1])
    return ImportBreakdown(
        automium_ms=_median_by_key(automium_runs),
        bare_ms=_median_by_key(bare_runs),
        automium_modules=module_counts[0],
        bare_modules=module_counts[1],
        heaviest=own[:12],
        automium_total=median([sum(run.values()) for run in automium_runs]),
        bare_total=median([sum(run.values()) for run in bare_runs]),
    )


def startup_phases(runs: int) -> dict[str, float]:
    """Median milliseconds of each start-up phase over ``runs`` fresh interpreters."""
    samples: list[dict[str, float]] = []
    for _ in range(runs):
        completed = subprocess.run(
            [sys.executable, "-m", "benchmarks.phases"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            cwd=REPO,
            check=True,
        )
        samples.append(json.loads(completed.stdout))
    order = list(samples[0])
    merged = _median_by_key(samples)
    return {key: merged[key] for key in order}


def interpreter_start(runs: int) -> float:
    """Median milliseconds of ``python -c pass`` (the floor under every cold start)."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        samples.append((time.perf_counter() - start) * 1e3)
    return median(samples)


# --- cProfile -------------------------------------------------------------------------

_CATEGORIES: tuple[tuple[str, str], ...] = (
    ("/jsonschema/", "jsonschema + referencing (contract check)"),
    ("/referencing/", "jsonschema + referencing (contract check)"),
    ("/rpds", "jsonschema + referencing (contract check)"),
    ("/attr/", "jsonschema + referencing (contract check)"),
    ("pydantic", "pydantic (models, dump)"),
    ("/automium_contracts/", "pydantic (models, dump)"),
    ("/automium/", "automium domain code"),
    ("/mcp", "mcp SDK types"),
    ("json", "json encode/decode"),
)


def _category(filename: str, function: str) -> str:
    where = filename if filename != "~" else function
    for needle, category in _CATEGORIES:
        if needle in where:
            return category
    return "other (stdlib, builtins)"


def _short(key: tuple[str, int, str]) -> str:
    filename, line, function = key
    if filename == "~":
        return function.strip("<>")
    parts = Path(filename).parts
    if "site-packages" in parts:
        parts = parts[parts.index("site-packages") + 1 :]
    elif filename.startswith(str(REPO)):
        parts = Path(filename).relative_to(REPO).parts
    else:  # the standard library
        parts = parts[-2:]
    return f"{'/'.join(parts)}:{line}({function})"


@dataclass(frozen=True, slots=True)
class Profile:
    total_ms: float  # per call (or per run), under the profiler
    by_category: dict[str, float]  # ms per call
    top: list[tuple[str, float]]  # (function, own ms per call)


def _summarise(stats: pstats.Stats, calls: int, exclude: tuple[str, ...] = ()) -> Profile:
    raw: dict[tuple[str, int, str], Any] = stats.stats  # type: ignore[attr-defined]
    by_category: dict[str, float] = {}
    own: list[tuple[str, float]] = []
    for key, (_cc, _nc, tottime, _ct, _callers) in raw.items():
        name = _short(key)
        if any(skip in name for skip in exclude):
            continue
        ms = tottime * 1e3 / calls
        category = _category(key[0], key[2])
        by_category[category] = by_category.get(category, 0.0) + ms
        own.append((name, ms))
    own.sort(key=lambda row: -row[1])
    return Profile(
        total_ms=sum(by_category.values()),
        by_category=dict(sorted(by_category.items(), key=lambda item: -item[1])),
        top=own[:5],
    )


def _wire(result: Any) -> str:
    return json.dumps(
        result.model_dump(mode="json", by_alias=True, exclude_none=True), separators=(",", ":")
    )


def tool_profiles(
    inputs: dict[str, dict[str, Any]], budget_s: float, progress: Progress
) -> dict[str, Profile]:
    """Each tool's server-side work (call, shape the result, serialise it) under cProfile."""
    from automium.mcp_server import tools  # noqa: PLC0415 - only the profiler needs the server

    profiles = {}
    for name, arguments in inputs.items():
        _wire(tools.success_result(*tools.answer(name, arguments)))
        profiler = cProfile.Profile()
        calls = 0
        start = time.perf_counter()
        profiler.enable()
        while calls < 20 or (time.perf_counter() - start < budget_s and calls < 2000):
            _wire(tools.success_result(*tools.answer(name, arguments)))
            calls += 1
        profiler.disable()
        profiles[name] = _summarise(
            pstats.Stats(profiler), calls, exclude=("_lsprof", "benchmarks/")
        )
        progress(f"profiled {name} ({calls} calls)")
    return profiles


def tool_stages(inputs: dict[str, dict[str, Any]], repeats: int) -> dict[str, dict[str, float]]:
    """Median µs per stage of each tool, in process and without a profiler.

    Stages: the jsonschema contract check of the input; the rest of the operation (pydantic
    model of the input, the domain function, the output model); ``to_document``; and the
    MCP shaping (summary line, ``CallToolResult``, ``model_dump`` and ``json.dumps``).
    """
    from automium import corpus  # noqa: PLC0415
    from automium.capabilities import BY_NAME  # noqa: PLC0415
    from automium.contracts import to_document  # noqa: PLC0415
    from automium.mcp_server import tools  # noqa: PLC0415
    from automium.validation import check  # noqa: PLC0415

    stages: dict[str, dict[str, float]] = {}
    for name, arguments in inputs.items():
        operation = BY_NAME[name]
        samples: dict[str, list[float]] = {}
        for _ in range(repeats):
            t0 = time.perf_counter()
            check(operation.input_contract, arguments, corpus.vocabularies())
            t1 = time.perf_counter()
            model = operation.run(dict(arguments))
            t2 = time.perf_counter()
            document = to_document(model)
            t3 = time.perf_counter()
            summary, document = tools.answer(name, arguments)
            t4 = time.perf_counter()
            _wire(tools.success_result(summary, document))
            t5 = time.perf_counter()
            for stage, seconds in (
                ("contract check", t1 - t0),
                ("operation", t2 - t1),
                ("to_document", t3 - t2),
                ("tools.call", t4 - t3),
                ("MCP result + wire JSON", t5 - t4),
            ):
                samples.setdefault(stage, []).append(seconds * 1e6)
        medians = {stage: median(values) for stage, values in samples.items()}
        # ``operation`` includes the contract check again (it is how operations start).
        medians["model + domain"] = max(0.0, medians["operation"] - medians["contract check"])
        stages[name] = medians
    _ = BY_NAME  # the capability table; imported so a broken table fails here
    return stages


@dataclass(frozen=True, slots=True)
class ColdProfile:
    total_ms: float
    model_classes: int  # pydantic model classes built during start-up
    model_class_ms: float
    rows: list[tuple[str, float]]  # (what, cumulative ms)


_COLD_ROWS: tuple[tuple[str, str], ...] = (
    ("mcp/__init__.py", "import mcp (client, server, types: the SDK)"),
    ("automium/contracts.py", "import automium.contracts (generated pydantic models)"),
    ("automium/validation.py", "import automium.validation (jsonschema, referencing)"),
    ("automium/mcp_server/prompts.py", "import automium.mcp_server.prompts (corpus, …)"),
    ("automium/api.py", "import automium.api (domain packages)"),
    ("automium/cli.py", "import automium.cli (argparse)"),
    ("server.py:_list_tools", "tools/list handler (builds the cached result)"),
)


def cold_start_profile() -> ColdProfile:
    """cProfile over a real stdio start: spawn → initialize → tools/list, then EOF."""
    with tempfile.TemporaryDirectory() as folder:
        out = str(Path(folder) / "cold.prof")
        argv = [sys.executable, "-m", "cProfile", "-o", out, *AUTOMIUM_ARGV[1:]]
        with PipeClient(argv, cwd=str(REPO)) as client:
            client.initialize()
            client.request("tools/list")
        stats = pstats.Stats(out)
    raw: dict[tuple[str, int, str], Any] = stats.stats  # type: ignore[attr-defined]
    total = max(ct for (_cc, _nc, _tt, ct, _callers) in raw.values()) * 1e3
    rows: list[tuple[str, float]] = []
    for needle, label in _COLD_ROWS:
        path, _, function = needle.partition(":")
        best = 0.0
        for (filename, _line, name), (_cc, _nc, _tt, ct, _callers) in raw.items():
            if filename.endswith(path) and name == (function or "<module>"):
                best = max(best, ct * 1e3)
        rows.append((label, best))
    classes, class_ms = 0, 0.0
    for (filename, _line, name), (_cc, nc, _tt, ct, _callers) in raw.items():
        if filename.endswith("_model_construction.py") and name == "__new__":
            classes, class_ms = nc, ct * 1e3
    return ColdProfile(total, classes, class_ms, rows)
