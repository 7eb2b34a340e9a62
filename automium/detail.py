"""What an answer shows by default, and what ``detail: "full"`` adds.

Every byte of an answer lands in the agent's context at every call, so a tool answers with
what an agent reads at a glance and acts on; the rest comes when the request says
``"detail": "full"``. The domain always builds the whole document (the checks that read it,
the CLI and the tests see every figure); :func:`shaped` projects it to the default answer,
in one place, on the way out of ``tools/call``. Both forms satisfy the tool's output
contract, which marks what only the full form carries.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Document = dict[str, Any]

# What the full form adds to a comparison: the per-app breakdown, the pass^k curve and the
# trials' detail. The default keeps, per planner, the figures its spec names: pass rate
# with its interval, repeatability (pass^n), latency, tokens per success and recovery.
_REPORT_FULL = ("journeys",)
_PLANNER_FULL = (
    "apps",
    "paretoOptimal",
    "dominatedBy",
    "failingSteps",
    "decisionLatencyMs",
    "failuresByClass",
)
_METRICS_FULL = ("journeys", "passHatK", "stepSuccessRate", "tokens", "tokensPerTrial")
# The model's assumptions are several KB of prose; its notice says what matters.
_MODELED_FULL = ("assumptions",)
# Executed trials name their runs' manifests: up to a thousand refs, for who reads on.
_RECORDED_FULL = ("artifactManifestRefs",)


def _without(document: Mapping[str, Any], keys: tuple[str, ...]) -> Document:
    return {key: value for key, value in document.items() if key not in keys}


def _comparison(report: Document) -> Document:
    shaped = _without(report, _REPORT_FULL)
    shaped["planners"] = [
        {**_without(p, _PLANNER_FULL), "metrics": _without(p["metrics"], _METRICS_FULL)}
        for p in report["planners"]
    ]
    if "modeled" in report:
        shaped["modeled"] = _without(report["modeled"], _MODELED_FULL)
    if "recorded" in report:
        shaped["recorded"] = _without(report["recorded"], _RECORDED_FULL)
    return shaped


def graph_summary(graph: Mapping[str, Any]) -> Document:
    """The compiled graph in brief: its size and where it can end; the journeys it starts
    from and its guards (which branch each fixture takes), when it has them."""
    summary: Document = {
        "nodes": len(graph["nodes"]),
        "edges": len(graph["edges"]),
        "exits": graph["exits"],
    }
    if "uses" in graph:
        summary["uses"] = graph["uses"]
    if guards := [n["label"] for n in graph["nodes"] if n["type"] == "guard"]:
        summary["guards"] = guards
    return summary


def _compilation(compilation: Document, full: bool) -> Document:
    # The summary takes the graph's place, after the verdict's parts (valid, warnings and
    # what is unchecked); the graph itself follows it only in full.
    shaped: Document = {}
    for key, value in compilation.items():
        if key == "graph":
            shaped["graphSummary"] = graph_summary(value)
            if not full:
                continue
        shaped[key] = value
    return shaped


_SHAPERS: Mapping[str, Callable[[Document, bool], Document]] = {
    "automium_compare_planners": lambda report, full: report if full else _comparison(report),
    "automium_compile_journey": _compilation,
}


def shaped(tool: str, arguments: object, document: Document) -> Document:
    """``document``, the answer of ``tool`` to ``arguments``, as the request's detail asks:
    the default answer, or the whole document (with ``detail: "full"``)."""
    shaper = _SHAPERS.get(tool)
    if shaper is None:
        return document
    full = isinstance(arguments, Mapping) and arguments.get("detail") == "full"
    return shaper(document, full)
