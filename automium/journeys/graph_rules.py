"""The rules every compiled graph keeps, from the flows it is modelled on: one entry, at
least one exit that every node reaches, and no cycle.

:func:`build_graph` keeps them by construction; compile checks them anyway on every graph
it answers with, so a graph that breaks one (a builder bug, a branch that jumps back) is
refused with its own code and the path of the offending part, never sent.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from automium.contracts import ErrorCode
from automium.errors import Problem

_TERMINALS = frozenset({"pass", "fail", "blocked"})


def graph_problems(graph: Mapping[str, Any], at: str = "/graph") -> list[Problem]:
    """Each broken rule of ``graph`` (a ``journey-graph.v1`` document), at its path."""
    return [*_entry(graph, at), *_exits(graph, at), *_cycles(graph, at)]


def _entry(graph: Mapping[str, Any], at: str) -> Iterator[Problem]:
    entries = [i for i, n in enumerate(graph["nodes"]) if n["type"] == "entry"]
    if len(entries) != 1 or graph["nodes"][entries[0]]["id"] != graph["entry"]:
        yield Problem(
            ErrorCode.GRAPH_ENTRY,
            f"a graph has exactly one entry node, named by entry; this one has {len(entries)}",
            f"{at}/nodes/{entries[1]}" if len(entries) > 1 else f"{at}/entry",
        )
        return
    for i, edge in enumerate(graph["edges"]):
        if edge["to"] == graph["entry"]:
            yield Problem(
                ErrorCode.GRAPH_ENTRY,
                f"edge {edge['from']} -> {edge['to']} goes back into the entry",
                f"{at}/edges/{i}",
            )


def _exits(graph: Mapping[str, Any], at: str) -> Iterator[Problem]:
    types = {n["id"]: n["type"] for n in graph["nodes"]}
    exits = [e for e in graph["exits"] if types.get(e) in _TERMINALS]
    if not exits:
        yield Problem(
            ErrorCode.GRAPH_NO_EXIT,
            "a graph has at least one exit: a pass, fail or blocked node named in exits",
            f"{at}/exits",
        )
        return
    for i, edge in enumerate(graph["edges"]):
        if edge["from"] in exits:
            yield Problem(
                ErrorCode.GRAPH_NO_EXIT,
                f"exit {edge['from']} has an edge out of it; an exit ends the run",
                f"{at}/edges/{i}",
            )
    reaching = set(exits)
    grew = True
    while grew:
        grew = False
        for edge in graph["edges"]:
            if edge["to"] in reaching and edge["from"] not in reaching:
                reaching.add(edge["from"])
                grew = True
    for i, node in enumerate(graph["nodes"]):
        if node["id"] not in reaching:
            yield Problem(
                ErrorCode.GRAPH_NO_EXIT,
                f"node {node['id']} reaches no exit",
                f"{at}/nodes/{i}",
            )


def _cycles(graph: Mapping[str, Any], at: str) -> Iterator[Problem]:
    out: dict[str, list[tuple[int, str]]] = {}
    for i, edge in enumerate(graph["edges"]):
        out.setdefault(edge["from"], []).append((i, edge["to"]))
    state: dict[str, int] = {}  # 1: on the path being followed, 2: done
    back: list[int] = []
    # Depth first with a stack of its own: a 1,000-step journey is a path of 1,000 nodes,
    # deeper than Python's recursion limit.
    for node in graph["nodes"]:
        if node["id"] in state:
            continue
        state[node["id"]] = 1
        path = [(node["id"], iter(out.get(node["id"], ())))]
        while path:
            here, edges = path[-1]
            for i, to in edges:
                if state.get(to) == 1:
                    back.append(i)
                elif to not in state:
                    state[to] = 1
                    path.append((to, iter(out.get(to, ()))))
                    break
            else:
                state[here] = 2
                path.pop()
    for i in sorted(back):
        edge = graph["edges"][i]
        yield Problem(
            ErrorCode.GRAPH_CYCLE,
            f"edge {edge['from']} -> {edge['to']} closes a cycle; a graph retries through a "
            "node's retryBudget, never a back-edge",
            f"{at}/edges/{i}",
        )
