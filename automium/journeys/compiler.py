"""Compile a journey document: validate it completely, then build its graph."""

from __future__ import annotations

from automium import corpus
from automium.contracts import Journey, JourneyCompilation
from automium.errors import AutomiumError
from automium.journeys.graph import build_graph
from automium.journeys.validate import validate_journey
from automium.validation import to_model


def compile_journey(document: object) -> JourneyCompilation:
    """The compilation of a journey document, or :class:`AutomiumError` with every problem."""
    if problems := validate_journey(document):
        raise AutomiumError(problems)
    journey = to_model(Journey, document)
    return JourneyCompilation(
        schema_version="automium.journey-compilation/v1",
        corpus_version=corpus.CORPUS_VERSION,
        journey_id=journey.id,
        step_count=len(journey.steps),
        assertion_count=len(journey.assertions),
        graph=build_graph(journey),
    )
