"""Compile a journey document: check it completely, then build its graph."""

from __future__ import annotations

from typing import Any

from automium import corpus
from automium.contracts import JourneyCompilation
from automium.errors import AutomiumError
from automium.journeys.graph import build_graph
from automium.journeys.mermaid import render_mermaid
from automium.journeys.refs import journey_ref
from automium.journeys.validate import check_journey


def compile_journey(document: object) -> JourneyCompilation:
    """The compilation of a journey document, or :class:`AutomiumError` with every problem."""
    # One validation of the whole document, in pydantic-core: the graph's nodes are many.
    return JourneyCompilation.model_validate(compilation_document(document))


def compilation_document(document: object) -> dict[str, Any]:
    """:func:`compile_journey`'s output as its ``journey-compilation.v1`` document, built
    directly (what an answer sends; the model would only be dumped back to it)."""
    checked = check_journey(document)
    if checked.problems:
        raise AutomiumError(checked.problems, in_order=True)
    assert isinstance(document, dict)  # the contract accepted it: a journey object
    graph = build_graph(document)
    compilation: dict[str, Any] = {
        "schemaVersion": "automium.journey-compilation/v1",
        "corpusVersion": corpus.CORPUS_VERSION,
        "journeyId": document["id"],
        "journeyRef": journey_ref(document),
        "valid": True,
        "stepCount": len(document["steps"]),
        "assertionCount": len(document["assertions"]),
        "warnings": [
            {"code": w.code, "path": w.path, "message": w.message} for w in checked.warnings
        ],
        "graph": graph,
    }
    if document.get("mermaid"):
        compilation["mermaid"] = render_mermaid(graph)
    return compilation
