"""The parser of page models as people write them, into the corpus's ``Page`` documents.

The authored form is Playwright's ARIA snapshot notation (``- button "Add to cart"``), one
file per app (``automium/corpus/source/pages/<app>.aria``), with a few additions for what a
snapshot cannot say: fixture-only nodes and states, secrets, dynamic text, anchors, and
effects after ``->``. The notation is described in ``docs/architecture.md`` ("The
page-model notation"). Only the build parses it: the server loads the pages it produced.

Iframes, as Playwright sees them: ``- iframe "Verification":`` holds the tree of the framed
document. ``getByRole`` on a page does not look inside an iframe, and a page's
``ariaSnapshot()`` shows the frame as an unnamed ``- iframe`` with no children. So a node
under an ``iframe "X"`` node is resolved in that frame
(``page.locator('iframe[title="X"]').contentFrame().getByRole(...)``); the page and each
frame are snapshotted and proven on their own (the page's template has a bare ``- iframe``
where the model has ``iframe "X"``, the frame's template is the node's children); a
frame's content is not text of the nodes around the iframe; and a frame bounds a form, so
Enter in a framed field activates the frame's ``[submit]`` button, never the page's.

Refs are given in document order, ``e0`` being the page itself (role ``document``, named
after the route's title), so they are stable as long as what comes before is unchanged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

STATES = (
    "checked",
    "disabled",
    "expanded",
    "focused",
    "hidden",
    "pressed",
    "selected",
    "required",
    "invalid",
    "readonly",
)
# An option's ': value' is its value attribute, what Playwright's toHaveValue reads of its
# select once chosen (its name is the label a user sees).
VALUE_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton", "slider", "option"})
ENTITY_NAME = "{entity}"

_LINE = re.compile(
    r"""^-\s(?P<role>[a-z]+)
        (?:\s(?P<name>"(?:[^"\\]|\\.)*"))?
        (?P<attrs>(?:\s\[[^\]]+\])*)
        (?:\s->\s(?P<effects>[^:]+?))?
        (?P<colon>:(?:\s(?P<text>.*))?)?$""",
    re.VERBOSE,
)
_ATTR = re.compile(r"\[([a-z-]+)(?:=([^\]]+))?\]")
_NAVIGATE = re.compile(r"^([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?:\(([a-z0-9][a-z0-9._-]*)\))?$")
_REVEAL = re.compile(
    r'^reveal (?:@(?P<anchor>[a-z0-9-]+)|(?P<role>[a-z]+) (?P<name>"(?:[^"\\]|\\.)*"))$'
)
_OPEN = re.compile(r'^open (?:@(?P<anchor>[a-z0-9-]+)|dialog (?P<name>"(?:[^"\\]|\\.)*"))$')

Json = dict[str, Any]


class AriaError(ValueError):
    """A page file that cannot be converted; the message names the file and line."""


@dataclass
class _Node:
    line: int
    role: str
    name: str
    value: str | None = None
    states: list[str] = field(default_factory=list)
    model: Json = field(default_factory=dict)  # the ElementModel fields other than ref
    effects: list[str] = field(default_factory=list)  # as written; resolved per page
    children: list[_Node] = field(default_factory=list)
    anchor: str | None = None
    ref: str = ""


def parse_pages(
    text: str, *, source: str, app_id: str, fixture_ids: Sequence[str], titles: Mapping[str, str]
) -> list[Json]:
    """The ``Page`` documents of one app's page file, in the order of ``titles`` (its routes).

    Raises :class:`AriaError` for anything it cannot convert.
    """
    blocks = dict(_blocks(text, source))
    missing = [route for route in titles if route not in blocks]
    unknown = [route for route in blocks if route not in titles]
    if missing or unknown:
        raise AriaError(
            f"{source}: routes without a page {missing}, pages of unknown routes {unknown}"
        )
    fixtures = {fixture.removeprefix(f"{app_id}."): fixture for fixture in fixture_ids}
    return [
        _Page(source, app_id, route, fixtures).convert(blocks[route], titles[route])
        for route in titles
    ]


def _blocks(text: str, source: str) -> Iterator[tuple[str, list[tuple[int, str]]]]:
    route: str | None = None
    lines: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if raw.startswith("route "):
            if route is not None:
                yield route, lines
            route, lines = raw.removeprefix("route ").strip(), []
        elif route is None:
            raise AriaError(f"{source}:{number}: a page starts with 'route <id>'")
        else:
            lines.append((number, raw))
    if route is not None:
        yield route, lines


class _Page:
    def __init__(self, source: str, app_id: str, route: str, fixtures: Mapping[str, str]) -> None:
        self.source = source
        self.app_id = app_id
        self.route = route
        self.fixtures = fixtures

    def fail(self, line: int, message: str) -> AriaError:
        return AriaError(f"{self.source}:{line}: {message}")

    def convert(self, lines: list[tuple[int, str]], title: str) -> Json:
        root = _Node(0, "document", title, children=self._tree(lines))
        nodes = list(_walk(root))
        for index, node in enumerate(nodes):
            node.ref = f"e{index}"
        elements = []
        for node in nodes:
            if node.effects:
                node.model["effects"] = [self._effect(node, e, nodes) for e in node.effects]
            if node.model:
                elements.append({"ref": node.ref, **node.model})
        return {
            "appId": self.app_id,
            "routeId": self.route,
            "root": _document(root),
            "elements": elements,
        }

    def _tree(self, lines: list[tuple[int, str]]) -> list[_Node]:
        top: list[_Node] = []
        stack: list[tuple[int, list[_Node]]] = [(-2, top)]
        for number, raw in lines:
            indent = len(raw) - len(raw.lstrip(" "))
            while stack and indent <= stack[-1][0]:
                stack.pop()
            if not stack or indent != stack[-1][0] + 2:
                raise self.fail(number, "indent children by two spaces under a line ending ':'")
            node, has_children = self._node(number, raw.strip())
            stack[-1][1].append(node)
            if has_children:
                stack.append((indent, node.children))
        return top

    def _node(self, number: int, line: str) -> tuple[_Node, bool]:
        match = _LINE.match(line)
        if match is None:
            raise self.fail(number, f"not a page line: {line!r}")
        role, text = match["role"], match["text"]
        name = json.loads(match["name"]) if match["name"] else ""
        node = _Node(number, role, name)
        for attr, argument in _ATTR.findall(match["attrs"]):
            self._attribute(node, attr, argument or None)
        if match["effects"]:
            node.effects = [e.strip() for e in match["effects"].split(",")]
        if role == "text":
            if name or text is None or node.effects:
                raise self.fail(number, "write a text node as '- text: <the text>'")
            node.name = _text(text)
            return node, False
        if text is not None:
            if role not in VALUE_ROLES:
                raise self.fail(number, f"only {sorted(VALUE_ROLES)} take a ': value'")
            node.value = _text(text)
        if name == ENTITY_NAME:
            node.name, node.model["nameFromEntity"] = "", True
        return node, match["colon"] is not None and text is None

    def _attribute(self, node: _Node, attr: str, argument: str | None) -> None:
        if attr in STATES:
            if argument is None:
                node.states.append(attr)
            else:
                node.model.setdefault("statesIn", []).append(
                    {"state": attr, "fixtures": self._fixtures(node, argument)}
                )
        elif attr == "only" and argument:
            node.model["fixtures"] = self._fixtures(node, argument)
        elif attr == "secret" and argument in ("password", "one-time-code"):
            node.model["secret"] = argument
        elif attr == "as" and argument:
            node.anchor = argument
        elif attr in ("dynamic", "submit", "files") and argument is None:
            node.model[{"files": "acceptsFiles"}.get(attr, attr)] = True
        else:
            raise self.fail(
                node.line, f"unknown attribute [{attr}{'=' + argument if argument else ''}]"
            )

    def _fixtures(self, node: _Node, names: str) -> list[str]:
        chosen = [name.strip() for name in names.split(",")]
        unknown = [name for name in chosen if name not in self.fixtures]
        if unknown:
            raise self.fail(node.line, f"unknown fixtures {unknown}; use {sorted(self.fixtures)}")
        return [self.fixtures[name] for name in chosen]

    def _effect(self, node: _Node, effect: str, nodes: list[_Node]) -> Json:
        if effect == "close":
            return {"kind": "close_dialog"}
        if match := _OPEN.match(effect):
            dialog = self._find(node, match, ("dialog", "alertdialog"), nodes)
            return {"kind": "open_dialog", "ref": dialog}
        if match := _REVEAL.match(effect):
            return {"kind": "reveal", "refs": [self._find(node, match, (match["role"],), nodes)]}
        if match := _NAVIGATE.match(effect):
            navigate = {"kind": "navigate", "route": match[1]}
            return {**navigate, "entity": match[2]} if match[2] else navigate
        raise self.fail(node.line, f"unknown effect {effect!r}")

    def _find(
        self, node: _Node, match: re.Match[str], roles: tuple[str, ...], nodes: list[_Node]
    ) -> str:
        """The ref of the one node an effect names, by anchor or by role and name."""
        if match["anchor"]:
            found = [n.ref for n in nodes if n.anchor == match["anchor"]]
            what = f"@{match['anchor']}"
        else:
            name = json.loads(match["name"])
            found = [n.ref for n in nodes if n.role in roles and n.name == name]
            what = f"{'/'.join(roles)} {match['name']}"
        if len(found) != 1:
            raise self.fail(node.line, f"{what} names {len(found)} nodes of the page, not 1")
        return found[0]


def _text(text: str) -> str:
    stripped = text.strip()
    return str(json.loads(stripped)) if stripped.startswith('"') else stripped


def _walk(node: _Node) -> Iterator[_Node]:
    yield node
    for child in node.children:
        yield from _walk(child)


def _document(node: _Node) -> Json:
    """A ``semantic-snapshot.v1`` node: ref, role, name, then value, states, children."""
    out: Json = {"ref": node.ref, "role": node.role, "name": node.name}
    if node.value is not None:
        out["value"] = node.value
    if node.states:
        out["states"] = node.states
    if node.children:
        out["children"] = [_document(child) for child in node.children]
    return out
