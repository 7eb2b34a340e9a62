"""Draw a journey graph as Mermaid ``flowchart TD`` text, for a human reading a PR or doc.

Graph node ids (``step:add``) are not valid Mermaid ids, so nodes are renamed ``n0``,
``n1``, … in graph order; labels carry the meaning. A used journey's nodes are drawn in a
``subgraph`` of their own, and a guard's conditional edges carry the guard in words. The
output is a pure function of the graph, so a snapshot diff shows exactly what changed in a
journey.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# Opening and closing brackets of each node shape.
_SHAPES: Mapping[str, tuple[str, str]] = {
    "entry": ("([", "])"),  # stadium
    "step": ("[", "]"),  # rectangle
    "assertion": ("{", "}"),  # rhombus
    "guard": ("{{", "}}"),  # hexagon: a decision, not a check
    "pass": ("((", "))"),  # circle
    "fail": ("((", "))"),
    "blocked": ("((", "))"),
}

# Mermaid reads "#name;" as an entity, so "#" goes first; "<" and ">" would open HTML tags.
_ESCAPES = (("#", "#35;"), ('"', "#quot;"), ("<", "#lt;"), (">", "#gt;"))


def render_mermaid(graph: Mapping[str, Any]) -> str:
    """Mermaid ``flowchart TD`` text of ``graph`` (a ``journey-graph.v1`` document), ending
    with a newline."""
    ids = {node["id"]: f"n{i}" for i, node in enumerate(graph["nodes"])}
    lines = ["flowchart TD"]
    part: str | None = None
    for node in graph["nodes"]:
        if node.get("part") != part:
            if part is not None:
                lines.append("    end")
            part = node.get("part")
            if part is not None:
                lines.append(f'    subgraph uses_{len(lines)}["uses {_escape(part)}"]')
        opening, closing = _SHAPES[node["type"]]
        indent = "        " if part is not None else "    "
        lines.append(f'{indent}{ids[node["id"]]}{opening}"{_escape(node["label"])}"{closing}')
    if part is not None:
        lines.append("    end")
    for edge in graph["edges"]:
        if edge["from"] not in ids or edge["to"] not in ids:
            raise ValueError(f"edge {edge['from']} -> {edge['to']} names a node the graph lacks")
        on = edge["on"]
        if "condition" in edge:
            on = f'"{on}: {_escape(edge["condition"])}"'
        lines.append(f"    {ids[edge['from']]} -->|{on}| {ids[edge['to']]}")
    return "\n".join(lines) + "\n"


def _escape(label: str) -> str:
    for raw, entity in _ESCAPES:
        label = label.replace(raw, entity)
    # A line break would end the node statement.
    return " ".join(label.splitlines())
