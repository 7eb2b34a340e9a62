"""Compile a journey document: check it completely, then build its graph."""

from __future__ import annotations

from typing import Any

from automium import corpus
from automium.journeys.checked import CheckedJourney
from automium.journeys.graph import build_graph
from automium.journeys.mermaid import render_mermaid


def compilation_of(journey: CheckedJourney) -> dict[str, Any]:
    """The ``journey-compilation.v1`` document of a journey compile accepted, its exported
    tests aside (``automium.compilation`` adds them: the exporter reads this package)."""
    document = journey.document
    graph = build_graph(document)
    compilation: dict[str, Any] = {
        "schemaVersion": "automium.journey-compilation/v1",
        "corpusVersion": corpus.CORPUS_VERSION,
        "journeyId": document["id"],
        "journeyRef": journey.ref,
        "valid": True,
        "stepCount": len(document["steps"]),
        "assertionCount": len(document["assertions"]),
        "warnings": [
            {"code": w.code, "path": w.path, "message": w.message} for w in journey.warnings
        ],
        "unchecked": [
            {"path": u.path, "reason": u.reason, "message": u.message} for u in journey.unchecked
        ],
        "graph": graph,
    }
    if document.get("mermaid"):
        compilation["mermaid"] = render_mermaid(graph)
    return compilation
