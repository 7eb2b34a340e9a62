"""An app's pages as one fixture sees them, for a prompt: every part shared by routes once.

Most routes of an app repeat the same banner, navigation and footer; an agent needs them
once to know every element a journey could target, not once per route. A top-level part
of a page (a landmark and everything in it) that two or more routes show exactly alike is
written once, under "Shared parts". A route that starts with every shared part says
nothing more; one that shows none says so; any other names each shared part where it sits
(``- banner (shared)``), so the page order that ``nth`` counts in stays readable.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from automium import corpus
from automium.contracts import Fixture
from automium.corpus.aria_text import aria_text
from automium.corpus.pages import page


@dataclass(frozen=True, slots=True)
class _Route:
    header: str
    parts: tuple[str, ...]
    """The page's top-level parts, each its outline lines; empty when the route redirects."""


@dataclass(slots=True)
class _Node:
    item: str
    """The element's line without its indentation and dash: ``row:``, ``cell "a"``."""
    children: list[_Node]
    folded: bool = False
    """Its children are on its line: it folds into no parent, so a line holds one level."""


def _tree(lines: list[str]) -> list[_Node]:
    roots: list[_Node] = []
    stack: list[tuple[int, _Node]] = []
    for line in lines:
        depth = len(line) - len(line.lstrip(" "))
        node = _Node(line.lstrip(" ").removeprefix("- "), [])
        while stack and stack[-1][0] >= depth:
            stack.pop()
        (stack[-1][1].children if stack else roots).append(node)
        stack.append((depth, node))
    return roots


def _plain(node: _Node) -> bool:
    """A leaf that can join its siblings on one line: no effect, no free text."""
    return _leaf(node) and "→" not in node.item and not node.item.startswith("text:")


def _leaf(node: _Node) -> bool:
    return not node.children and not node.folded


def _folded(node: _Node) -> _Node:
    """``node`` with plain leaf children on its own line: ``row: cell "a", cell "b"``, and
    a lone leaf child too: ``cell: link "Dana" → user-detail``."""
    children = [_folded(c) for c in node.children]
    opens = node.item.endswith(":") and "→" not in node.item
    if opens and len(children) == 1 and _leaf(children[0]):
        return _Node(f"{node.item} {children[0].item}", [], folded=True)
    if opens and len(children) > 1 and all(_plain(c) for c in children):
        return _Node(f"{node.item} " + _listed(c.item for c in children), [], folded=True)
    return _Node(node.item, children)


def _listed(items: Iterable[str]) -> str:
    """Leaves on one line, a role named once for the names after it that share it:
    ``option "Open" [selected], "Pending", "Solved"``."""
    written, role = [], None
    for item in items:
        head, quoted, rest = item.partition(' "')
        same = quoted and head == role
        written.append(f'"{rest}' if same else item)
        role = head if quoted else None
    return ", ".join(written)


def _lines(nodes: list[_Node], depth: int = 0) -> list[str]:
    return [
        line
        for node in nodes
        for line in [f"{'  ' * depth}- {node.item}", *_lines(node.children, depth + 1)]
    ]


def compact(text: str) -> str:
    """``text`` (outline lines) in the compact form: an element whose children are plain
    leaves (a row's cells, a select's options), or a lone leaf, lists them on its own line.
    Every element stays, in page order; a child with an effect or text keeps its line."""
    return "\n".join(_lines([_folded(n) for n in _tree(text.splitlines())]))


def _parts(text: str) -> tuple[str, ...]:
    """The outline split at its top-level lines: each part a landmark and its contents."""
    parts: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("- ") or not parts:
            parts.append([])
        parts[-1].append(line)
    return tuple("\n".join(lines) for lines in parts)


def _name(part: str) -> str:
    """How a route names a shared part: its first line, e.g. ``navigation "Main"``."""
    return part.splitlines()[0].removeprefix("- ").removesuffix(":")


def _routes(app_id: str, fixture: Fixture) -> list[_Route]:
    redirects = {r.route: r for r in fixture.redirects}
    routes = []
    for route in corpus.get_app(app_id).routes:
        where = f"route {route.id} ({route.path}): {route.title}"
        if route.id in redirects:
            to = redirects[route.id]
            routes.append(
                _Route(f"route {route.id}: opening it lands on {to.to} ({to.reason})", ())
            )
            continue
        view = page(app_id, route.id).view(fixture, None)
        routes.append(_Route(where, _parts(compact(aria_text(view)))))
    return routes


def _shared(routes: list[_Route]) -> dict[str, str]:
    """The parts two or more routes show alike, each with the name a route gives it where
    it sits: ``banner``, or ``banner (shared 2)`` when routes share two different banners."""
    seen = Counter(part for route in routes for part in set(route.parts))
    parts = [p for p in dict.fromkeys(p for r in routes for p in r.parts) if seen[p] > 1]
    names = Counter(_name(p) for p in parts)
    numbered: Counter[str] = Counter()
    labels = {}
    for part in parts:
        name = _name(part)
        numbered[name] += 1
        labels[part] = f"{name} (shared {numbered[name]})" if names[name] > 1 else name
    return labels


def site(app_id: str, fixture: Fixture) -> str:
    """The pages of ``app_id`` as ``fixture`` sees them, route by route, shared parts once."""
    routes = _routes(app_id, fixture)
    shared = _shared(routes)
    blocks = []
    if shared:
        listed = [
            p if label == _name(p) else p.replace(f"- {_name(p)}", f"- {label}", 1)
            for p, label in shared.items()
        ]
        blocks.append(
            "Shared parts, first on every route unless it says otherwise:\n" + "\n".join(listed)
        )
    for route in routes:
        own = [p for p in route.parts if p not in shared]
        if not route.parts or route.parts[: len(shared)] == tuple(shared):
            blocks.append("\n".join([route.header, *own]))  # the usual case: said once above
            continue
        if len(own) == len(route.parts):
            blocks.append("\n".join([f"{route.header}; no shared parts", *own]))
            continue
        # Any other order: each shared part keeps its place, by name (nth counts in order).
        lines = [
            (f"- {shared[p]}" + ("" if shared[p] != _name(p) else " (shared)"))
            if p in shared
            else p
            for p in route.parts
        ]
        blocks.append("\n".join([route.header, *lines]))
    return "\n\n".join(blocks)
