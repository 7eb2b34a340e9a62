"""Compile a journey document: check it completely, then build its graph."""

from __future__ import annotations

from automium import corpus
from automium.contracts import Journey, JourneyCompilation, present
from automium.contracts import Warning as WarningModel
from automium.errors import AutomiumError
from automium.journeys.graph import build_graph
from automium.journeys.mermaid import render_mermaid
from automium.journeys.refs import journey_ref
from automium.journeys.validate import check_journey
from automium.validation import to_model


def compile_journey(document: object) -> JourneyCompilation:
    """The compilation of a journey document, or :class:`AutomiumError` with every problem."""
    checked = check_journey(document)
    if checked.problems:
        raise AutomiumError(checked.problems)
    journey = to_model(Journey, document)
    graph = build_graph(journey)
    return JourneyCompilation(
        schema_version="automium.journey-compilation/v1",
        corpus_version=corpus.CORPUS_VERSION,
        journey_id=journey.id,
        journey_ref=journey_ref(journey),
        valid=True,
        step_count=len(journey.steps),
        assertion_count=len(journey.assertions),
        warnings=[
            WarningModel(code=w.code, path=w.path, message=w.message) for w in checked.warnings
        ],
        graph=graph,
        **present(mermaid=render_mermaid(graph) if journey.mermaid else None),
    )
