"""Journey validation and compilation to a graph (the "control plane" of a run).

A journey is checked against its contract, the corpus and the pages it goes through in one
pass (:func:`check_journey`), compiled to an acyclic graph (:func:`compilation_of`,
:func:`build_graph`), drawn for humans (:func:`render_mermaid`) and bound to runs by its
ref (:func:`journey_ref`). A journey compile accepts is handed on as one
:class:`CheckedJourney` (document, model, walk, ref), built once per call.
Everything here is pure: no I/O, no clock, no randomness, so the same journey always
compiles to the same graph.
"""

from automium.journeys.checked import (
    CheckedJourney,
    accepted,
    checked_journey,
    reference_journey,
    reference_journeys,
)
from automium.journeys.checking import (
    check_journey,
    nested_problems,
    with_nested_journey,
)
from automium.journeys.compiler import compilation_of
from automium.journeys.graph import build_graph
from automium.journeys.mermaid import render_mermaid
from automium.journeys.refs import journey_ref

__all__ = [
    "CheckedJourney",
    "accepted",
    "build_graph",
    "check_journey",
    "checked_journey",
    "compilation_of",
    "journey_ref",
    "nested_problems",
    "reference_journey",
    "reference_journeys",
    "render_mermaid",
    "with_nested_journey",
]
