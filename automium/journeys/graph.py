"""Compile a valid journey to its ``journey-graph.v1`` graph.

The graph is a straight line: ``entry``, then each step followed by the assertions checked
after it, then ``pass``; every step and assertion also has an ``exhausted`` edge to the one
terminal its recovery policy names (``fail`` or ``blocked``). Retrying is a node attribute
(``retryBudget``), never a back-edge, so the graph is acyclic by construction and every
node reaches an exit.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from automium.contracts import (
    Edge,
    EdgeTrigger,
    Journey,
    JourneyGraph,
    Node,
    NodeType,
    OnExhausted,
    present,
)
from automium.journeys.labels import assertion_label, step_label

ENTRY = "entry"
PASS = "pass"

_EXHAUSTED: dict[OnExhausted, tuple[str, NodeType, str]] = {
    OnExhausted.FAIL_RUN: ("fail", NodeType.FAIL, "fail (recovery exhausted)"),
    OnExhausted.MARK_BLOCKED: ("blocked", NodeType.BLOCKED, "blocked (recovery exhausted)"),
}


def build_graph(journey: Journey) -> JourneyGraph:
    """The graph of ``journey``, which must already be valid (see ``validate_journey``)."""
    exhausted_id, exhausted_type, exhausted_label = _EXHAUSTED[journey.recovery.on_exhausted]
    work = list(_work_nodes(journey))
    nodes = [
        Node(id=ENTRY, type=NodeType.ENTRY, label=f"start on {journey.fixture_id}"),
        *work,
        Node(id=PASS, type=NodeType.PASS, label="pass"),
        Node(id=exhausted_id, type=exhausted_type, label=exhausted_label),
    ]
    edges = [Edge(from_=ENTRY, to=work[0].id, on=EdgeTrigger.START)]
    for node, following in zip(work, [*work[1:], nodes[-2]], strict=True):
        edges.append(Edge(from_=node.id, to=following.id, on=EdgeTrigger.SUCCESS))
        edges.append(Edge(from_=node.id, to=exhausted_id, on=EdgeTrigger.EXHAUSTED))
    return JourneyGraph(
        schema_version="automium.journey-graph/v1",
        journey_id=journey.id,
        app_id=journey.app_id,
        fixture_id=journey.fixture_id,
        entry=ENTRY,
        exits=[PASS, exhausted_id],
        nodes=nodes,
        edges=edges,
    )


def _work_nodes(journey: Journey) -> Iterator[Node]:
    """Step and assertion nodes in execution order."""
    budget = journey.recovery.max_attempts
    strategies = list(journey.recovery.strategies)
    checked_after: dict[str, list[Any]] = {}
    for assertion in journey.assertions:
        checked_after.setdefault(assertion.after_step, []).append(assertion)
    for step in journey.steps:
        yield Node(
            id=f"step:{step.id}",
            type=NodeType.STEP,
            label=step_label(step),
            intent=step.intent,
            # Only some intents have a route, an entity or a target; the others lack them.
            **present(
                route=getattr(step, "route", None),
                entity=getattr(step, "entity", None),
                target=getattr(step, "target", None),
            ),
            retry_budget=budget,
            recovery_strategies=strategies,
        )
        for assertion in checked_after.get(step.id, ()):
            yield Node(
                id=f"assert:{assertion.id}",
                type=NodeType.ASSERTION,
                label=assertion_label(assertion),
                assertion_kind=assertion.kind,
                **present(
                    route=getattr(assertion, "route", None),
                    target=getattr(assertion, "target", None),
                ),
                retry_budget=budget,
                recovery_strategies=strategies,
            )
