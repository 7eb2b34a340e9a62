"""Compile a valid journey to its ``journey-graph.v1`` graph.

The graph is a straight line: ``entry``, then each step followed by the assertions checked
after it, then ``pass``; every step and assertion also has an ``exhausted`` edge to the one
terminal its recovery policy names (``fail`` or ``blocked``). Retrying is a node attribute
(``retryBudget``), never a back-edge, so the graph is acyclic by construction and every
node reaches an exit. It is built from the journey document as the contract accepted it,
as the wire spells it, and sent as built: no model of it is made.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from automium.journeys.node_captions import assertion_label, step_label

ENTRY = "entry"
PASS = "pass"

_EXHAUSTED: Mapping[str, tuple[str, str]] = {
    "fail_run": ("fail", "fail (recovery exhausted)"),
    "mark_blocked": ("blocked", "blocked (recovery exhausted)"),
}

Document = dict[str, Any]


def build_graph(journey: Mapping[str, Any]) -> Document:
    """The graph document of ``journey``, a ``journey.v1`` document compile accepted."""
    exhausted, exhausted_label = _EXHAUSTED[journey["recovery"]["onExhausted"]]
    work = list(_work_nodes(journey))
    nodes = [
        {"id": ENTRY, "type": "entry", "label": f"start on {journey['fixtureId']}"},
        *work,
        {"id": PASS, "type": "pass", "label": "pass"},
        {"id": exhausted, "type": exhausted, "label": exhausted_label},
    ]
    edges = [{"from": ENTRY, "to": work[0]["id"], "on": "start"}]
    for node, following in zip(work, [*work[1:], nodes[-2]], strict=True):
        edges.append({"from": node["id"], "to": following["id"], "on": "success"})
        edges.append({"from": node["id"], "to": exhausted, "on": "exhausted"})
    return {
        "schemaVersion": "automium.journey-graph/v1",
        "journeyId": journey["id"],
        "appId": journey["appId"],
        "fixtureId": journey["fixtureId"],
        "entry": ENTRY,
        "exits": [PASS, exhausted],
        "nodes": nodes,
        "edges": edges,
    }


def _work_nodes(journey: Mapping[str, Any]) -> Iterator[Document]:
    """Step and assertion nodes in execution order."""
    recovery = {
        "retryBudget": journey["recovery"]["maxAttempts"],
        "recoveryStrategies": list(journey["recovery"]["strategies"]),
    }
    checked_after: dict[str, list[Mapping[str, Any]]] = {}
    for assertion in journey["assertions"]:
        checked_after.setdefault(assertion["afterStep"], []).append(assertion)
    for step in journey["steps"]:
        yield {
            "id": f"step:{step['id']}",
            "type": "step",
            "label": step_label(step),
            "intent": step["intent"],
            # Only some intents have a route, an entity or a target; the others lack them.
            **{key: step[key] for key in ("route", "entity", "target") if key in step},
            **recovery,
        }
        for assertion in checked_after.get(step["id"], ()):
            yield {
                "id": f"assert:{assertion['id']}",
                "type": "assertion",
                "label": assertion_label(assertion),
                "assertionKind": assertion["kind"],
                **{key: assertion[key] for key in ("route", "target") if key in assertion},
                **recovery,
            }
