"""Compile a valid journey to its ``journey-graph.v1`` graph.

The graph is a line: ``entry``, then each step followed by the assertions checked after
it, then ``pass``; every step and assertion also has an ``exhausted`` edge to the one
terminal its recovery policy names (``fail`` or ``blocked``). A branch (steps with a guard,
:mod:`automium.journeys.branches`) starts with a ``guard`` node, whose ``holds`` edge goes
to the branch's first step and whose ``fails`` edge skips to what follows the branch; both
edges carry the guard in words (``condition``). The steps of a journey this one ``uses``
come first and carry ``part``, the used journey's id. Retrying is a node attribute
(``retryBudget``), never a back-edge, so the graph is acyclic by construction and every
node reaches an exit. It is built from the journey document as the contract accepted it,
as the wire spells it, and sent as built: no model of it is made.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from automium.journeys.branches import guard_caption, starting_at
from automium.journeys.composition import Prefix
from automium.journeys.node_captions import assertion_label, step_label

ENTRY = "entry"
PASS = "pass"

_EXHAUSTED: Mapping[str, tuple[str, str]] = {
    "fail_run": ("fail", "fail (recovery exhausted)"),
    "mark_blocked": ("blocked", "blocked (recovery exhausted)"),
}

Document = dict[str, Any]


def build_graph(
    journey: Mapping[str, Any],
    prefix: Prefix | None = None,
    decided: Mapping[int, bool | None] | None = None,
    others: Mapping[int, str] | None = None,
) -> Document:
    """The graph document of ``journey``, a ``journey.v1`` document compile accepted (for a
    journey that uses another, the expanded one, ``prefix`` saying which steps are whose).
    ``decided``: by branch start, the branch the fixture's page models take (None: only a
    run can tell); ``others``: by branch start, the fixture that takes the other branch."""
    exhausted, exhausted_label = _EXHAUSTED[journey["recovery"]["onExhausted"]]
    work = list(_work_nodes(journey, prefix, decided or {}, others or {}))
    nodes = [
        {"id": ENTRY, "type": "entry", "label": f"start on {journey['fixtureId']}"},
        *work,
        {"id": PASS, "type": "pass", "label": "pass"},
        {"id": exhausted, "type": exhausted, "label": exhausted_label},
    ]
    edges = [{"from": ENTRY, "to": work[0]["id"], "on": "start"}]
    # Where a branch's fails edge goes: the first node after its last step's part.
    after_branch = _after_branches(journey, work)
    for position, node in enumerate(work):
        following = work[position + 1]["id"] if position + 1 < len(work) else PASS
        if node["type"] == "guard":
            caption = guard_caption(node["guard"])
            edges.append({"from": node["id"], "to": following, "on": "holds", "condition": caption})
            edges.append(
                {
                    "from": node["id"],
                    "to": after_branch[node["id"]],
                    "on": "fails",
                    "condition": f"not {caption}",
                }
            )
            continue
        edges.append({"from": node["id"], "to": following, "on": "success"})
        edges.append({"from": node["id"], "to": exhausted, "on": "exhausted"})
    graph: Document = {
        "schemaVersion": "automium.journey-graph/v1",
        "journeyId": journey["id"],
        "appId": journey["appId"],
        "fixtureId": journey["fixtureId"],
    }
    if prefix is not None:
        graph["uses"] = list(prefix.chain)
    graph |= {
        "entry": ENTRY,
        "exits": [PASS, exhausted],
        "nodes": nodes,
        "edges": edges,
    }
    return graph


def _after_branches(journey: Mapping[str, Any], work: list[Document]) -> dict[str, str]:
    """By guard node id, the node a failed guard goes to: the one after its branch."""
    ids = [node["id"] for node in work]
    steps = journey["steps"]
    found: dict[str, str] = {}
    for start, branch in starting_at(steps).items():
        guard_id = f"guard:{steps[start]['id']}"
        if branch.end < len(steps):
            nxt = steps[branch.end]
            name = f"guard:{nxt['id']}" if f"guard:{nxt['id']}" in ids else f"step:{nxt['id']}"
            found[guard_id] = name
        else:
            found[guard_id] = PASS
    return found


def _work_nodes(
    journey: Mapping[str, Any],
    prefix: Prefix | None,
    decided: Mapping[int, bool | None],
    others: Mapping[int, str],
) -> Iterator[Document]:
    """Guard, step and assertion nodes in execution order."""
    recovery = {
        "retryBudget": journey["recovery"]["maxAttempts"],
        "recoveryStrategies": list(journey["recovery"]["strategies"]),
    }
    checked_after: dict[str, list[Mapping[str, Any]]] = {}
    for assertion in journey["assertions"]:
        checked_after.setdefault(assertion["afterStep"], []).append(assertion)
    opening = starting_at(journey["steps"])
    for index, step in enumerate(journey["steps"]):
        part = {"part": prefix.step_parts[index]} if prefix and index < prefix.steps else {}
        if index in opening:
            guard = opening[index].guard
            branch = decided.get(index)
            label = f"if {guard_caption(guard)}"
            if branch is not None:
                taken, other = ("holds", "fails") if branch else ("fails", "holds")
                label += f" ({journey['fixtureId']}: {taken}"
                label += f"; {others[index]}: {other})" if index in others else ")"
            yield {
                "id": f"guard:{step['id']}",
                "type": "guard",
                "label": label,
                "guard": dict(guard),
                "modelBranch": "run_time" if branch is None else ("holds" if branch else "fails"),
                **part,
            }
        yield {
            "id": f"step:{step['id']}",
            "type": "step",
            "label": step_label(step),
            "intent": step["intent"],
            # Only some intents have a route, an entity or a target; the others lack them.
            **{key: step[key] for key in ("route", "entity", "target") if key in step},
            **recovery,
            **part,
        }
        for assertion in checked_after.get(step["id"], ()):
            yield {
                "id": f"assert:{assertion['id']}",
                "type": "assertion",
                "label": assertion_label(assertion),
                "assertionKind": assertion["kind"],
                **{key: assertion[key] for key in ("route", "target") if key in assertion},
                **recovery,
                **part,
            }
