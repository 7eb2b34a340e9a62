"""A page's ARIA snapshot, as Playwright writes it, read as a ``semantic-snapshot.v1`` tree.

Playwright's ``aria_snapshot()`` is YAML of one shape: ``- role "name" [state]: text``
lines, children indented two spaces under a line ending ``:``, and ``- /url: …`` property
lines. A line YAML had to quote (a name with ``: `` in it) arrives in single quotes. This
module reads that shape only, so it needs no YAML library; what it cannot read becomes a
text node, never an error: a snapshot is evidence, not a contract check.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from automium.contracts import NodeState

Json = dict[str, Any]

# The contract's node states, in its order: a snapshot writes them as a page model does.
_STATES = tuple(state.value for state in NodeState)
_HEAD = re.compile(
    r'^(?P<role>[a-z]+)(?:\s(?P<name>"(?:[^"\\]|\\.)*"))?(?P<attrs>(?:\s\[[^\]]*\])*)$'
)
_ATTR = re.compile(r"\[([a-z]+)(?:=([^\]]*))?\]")


def parse_aria(text: str) -> list[Json]:
    """The nodes of an ARIA snapshot, without refs (see :func:`semantic_snapshot`)."""
    top: list[Json] = []
    stack: list[tuple[int, list[Json]]] = [(-2, top)]
    for raw in text.splitlines():
        stripped = raw.lstrip(" ")
        if not stripped.startswith("- "):
            continue
        indent = len(raw) - len(stripped)
        while len(stack) > 1 and indent <= stack[-1][0]:
            stack.pop()
        node, has_children = _node(stripped[2:])
        if node is None:
            continue
        stack[-1][1].append(node)
        if has_children:
            stack.append((indent, node.setdefault("children", [])))
    return top


def semantic_snapshot(
    route_id: str, viewport: Json, title: str, nodes: Sequence[Json], secrets: Sequence[str]
) -> Json:
    """A ``semantic-snapshot.v1`` document: the page as ``document "title"``, refs in
    document order from ``e0``, and every secret value masked."""
    counter = iter(range(1_000_000))

    def numbered(node: Json) -> Json:
        out: Json = {"ref": f"e{next(counter)}", "role": node["role"], "name": node["name"]}
        if "value" in node:
            out["value"] = _masked(node["value"], secrets)
        if node.get("states"):
            out["states"] = node["states"]
        if node.get("children"):
            out["children"] = [numbered(child) for child in node["children"]]
        return out

    out: Json = {"role": "document", "name": title, "children": list(nodes)}
    return {
        "schemaVersion": "automium.semantic-snapshot/v1",
        "routeId": route_id,
        "viewport": viewport,
        "root": numbered(out),
    }


def _masked(value: str, secrets: Sequence[str]) -> str:
    for secret in secrets:
        value = value.replace(secret, "•" * len(secret))
    return value


def _node(line: str) -> tuple[Json | None, bool]:
    """One line after ``- ``: the node, and whether children follow."""
    if line.startswith("/"):
        return None, False  # a property of the node above (/url, /placeholder)
    head, rest = _split(line)
    match = _HEAD.match(head)
    if match is None:
        return {"role": "text", "name": _cut(head)}, False
    role = match["role"]
    name = json.loads(match["name"]) if match["name"] else ""
    states = [s for s, arg in _ATTR.findall(match["attrs"]) if s in _STATES and arg in ("", "true")]
    node: Json = {"role": role, "name": _cut(name)}
    if states:
        node["states"] = [s for s in _STATES if s in states]
    if rest is None:
        return node, False
    if rest == "":
        return node, True
    text = _cut(_scalar(rest))
    if role == "text":
        node["name"] = text
    elif role in ("textbox", "searchbox", "combobox", "spinbutton", "slider"):
        node["value"] = text
    else:
        node["children"] = [{"role": "text", "name": text}]
    return node, False


def _split(line: str) -> tuple[str, str | None]:
    """The node's head and what follows its colon (``None``: no colon; ``""``: children)."""
    if line.startswith("'"):
        end = 1
        while end < len(line):
            if line[end] == "'" and line[end + 1 : end + 2] == "'":
                end += 2
                continue
            if line[end] == "'":
                break
            end += 1
        head = line[1:end].replace("''", "'")
        after = line[end + 1 :]
    else:
        head, after = _unquoted_head(line)
    if after.startswith(":"):
        return head, after[1:].strip()
    return head, None


def _unquoted_head(line: str) -> tuple[str, str]:
    in_name = False
    index = 0
    while index < len(line):
        char = line[index]
        if char == "\\" and in_name:
            index += 2
            continue
        if char == '"':
            in_name = not in_name
        elif char == ":" and not in_name and (index + 1 == len(line) or line[index + 1] == " "):
            return line[:index], line[index:]
        index += 1
    return line, ""


def _scalar(text: str) -> str:
    if text.startswith('"'):
        try:
            return str(json.loads(text))
        except ValueError:
            return text
    if text.startswith("'") and text.endswith("'") and len(text) >= 2:
        return text[1:-1].replace("''", "'")
    return text


def _cut(text: str) -> str:
    return text[:2000]
