"""A page model as Playwright ARIA templates, one for the page and one per iframe.

``getByRole`` and ``ariaSnapshot()`` on a page stop at an iframe: the page shows a bare
``- iframe`` and the framed document is a tree of its own. So a fixture's view of a route
becomes the page's template, where each ``iframe "X"`` is a bare ``- iframe``, and one
template per frame shown, keyed by the frame's title (its ``iframe[title="X"]`` locator).

Automium's annotations are stripped; ``[hidden]`` nodes are left out (they must be absent
until revealed); the names and texts under a ``[dynamic]`` node match any text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from automium.corpus.pages import FRAME_ROLES, Element, View

# The states Playwright writes in a snapshot, as it writes them.
_SHOWN_STATES = ("checked", "disabled", "expanded", "pressed", "selected")
_ANY = "/.+/"


@dataclass
class Templates:
    """The page's template and each shown frame's, by frame title."""

    page: list[str] = field(default_factory=list)
    frames: dict[str, list[str]] = field(default_factory=dict)

    def frame_texts(self) -> dict[str, str]:
        return {title: "\n".join(lines) for title, lines in self.frames.items()}

    @property
    def page_text(self) -> str:
        return "\n".join(self.page)


def aria_templates(view: View) -> Templates:
    """``view`` as the templates ``to_match_aria_snapshot`` checks a page and its frames by."""
    out = Templates()
    elements = view.template.elements
    children: dict[int, list[Element]] = {}
    for element in view.elements():
        if element.ancestors:
            children.setdefault(element.ancestors[-1], []).append(element)

    def emit(element: Element, lines: list[str], depth: int, dynamic: bool) -> None:
        if "hidden" in view.states[element.index]:
            return
        below = children.get(element.index, [])
        # A dynamic node keeps its own name: what it holds is what the journey changed.
        within = dynamic or element.dynamic
        if element.role in FRAME_ROLES:
            lines.append(f"{'  ' * depth}- {element.role}")
            frame = out.frames.setdefault(view.name(element) or "", [])
            for child in below:
                emit(child, frame, 0, within)
            return
        line = _line(view, element, dynamic, value=not within)
        lines.append("  " * depth + line + (":" if below else ""))
        for child in below:
            emit(child, lines, depth + 1, within)

    for top in children.get(elements[0].index, []):
        emit(top, out.page, 0, False)
    return out


def _line(view: View, element: Element, dynamic: bool, *, value: bool) -> str:
    name = view.name(element)
    if element.role == "text":
        return f"- text: {_ANY if dynamic or name is None else json.dumps(name)}"
    line = f"- {element.role}"
    if name is None or (dynamic and name):
        line += f" {_ANY}"
    elif name:
        line += f" {json.dumps(name, ensure_ascii=False)}"
    states = view.states[element.index]
    line += "".join(f" [{s}]" for s in _SHOWN_STATES if s in states)
    if element.value is not None and value:
        line += f": {json.dumps(element.value, ensure_ascii=False)}"
    return line
