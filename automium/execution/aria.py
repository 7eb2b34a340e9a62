"""A page model as a Playwright ARIA-snapshot template, for one fixture and one frame.

The page models are written in Playwright's snapshot notation plus Automium's annotations;
proving one against a served page means rendering what the fixture sees at load as a
template for ``expect(locator).to_match_aria_snapshot(...)``:

- annotations are stripped; ``[only=…]`` nodes of other fixtures are left out, states that
  hold in some fixtures only are resolved, and ``"{entity}"`` becomes the entity's label;
- ``[hidden]`` nodes (and their subtrees) are left out until revealed: their absence is
  proven separately, since a template cannot say "not there";
- children match as Playwright matches them by default: the model's, in order, among the
  page's (a visible ``<label>`` adds a text node the models leave out), and a text node
  matches a run of text that holds it (Playwright merges adjacent text); a table's rows sit
  in the row groups HTML gives every table (``thead`` for rows of column headers, ``tbody``);
- a ``[dynamic]`` subtree matches by shape: its names, text and values become ``/.+/``. A
  ``[dynamic]`` node depends on what the journey did, so a fixture's starting state may not
  show it at all (an empty cart has no item table): the caller says which ones the page
  shows (``Rendering.shows``);
- checkboxes and radios carry ``[checked]`` or ``[checked=false]``, so a wrong state fails;
- an ``iframe`` is matched as the page shows it, an unnamed ``- iframe`` with no children:
  Playwright does not look into frames, so each frame is its own template (``frame`` is the
  index of the model's ``iframe`` node, ``None`` for the page).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from automium.corpus.pages import FRAME_ROLES, Element, View

ANY = "/.+/"
# States Playwright's snapshot shows, in the order it writes them.
_SHOWN_STATES = ("checked", "disabled", "expanded", "pressed", "selected")
_CHECKABLE = frozenset({"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"})


def children(view: View, element: Element) -> Iterator[Element]:
    """The children of ``element`` that the view's fixture has, in document order."""
    for child in view.template.elements:
        if child.ancestors and child.ancestors[-1] == element.index and view.present[child.index]:
            yield child


def hidden(view: View, element: Element, revealed: frozenset[int] = frozenset()) -> bool:
    """Hidden at this point: it or an ancestor is ``[hidden]`` and not revealed."""
    elements = view.template.elements
    return any(
        view.hidden(elements[i]) and i not in revealed for i in (*element.ancestors, element.index)
    )


def dynamic(view: View, element: Element) -> bool:
    """In a ``[dynamic]`` subtree: it matches by shape."""
    elements = view.template.elements
    return any(elements[i].dynamic for i in (*element.ancestors, element.index))


def quoted(text: str) -> str:
    """A YAML double-quoted scalar (JSON's escapes are YAML's)."""
    return json.dumps(text, ensure_ascii=False)


def contains(text: str) -> str:
    """A regex template matching a text run that holds ``text``: Playwright merges adjacent
    text into one run (a paragraph's text and the ``<label>`` after it)."""
    pattern = "/" + re.sub(r"[\\^$.*+?()[\]{}|/]", lambda m: "\\" + m[0], text) + "/"
    return _yaml_key(pattern)


def _yaml_key(text: str) -> str:
    """``text`` as a YAML plain scalar, single-quoted where YAML would misread it."""
    if ": " in text or " #" in text or text.endswith(":") or text.startswith(("'", '"')):
        return "'" + text.replace("'", "''") + "'"
    return text


def line(view: View, element: Element) -> str:
    """The template line of ``element`` (no children, no trailing colon), as a YAML key."""
    text = _line(view, element)
    return text if element.role == "text" else _yaml_key(text)


def _line(view: View, element: Element) -> str:
    shape = dynamic(view, element)
    if element.role == "text":
        return f"text: {ANY if shape else contains(element.name)}"
    if element.role in FRAME_ROLES:
        return "iframe"  # Playwright shows no name and no children for a frame
    name = view.name(element)
    parts = [element.role]
    if name:
        parts.append(ANY if shape else quoted(name))
    states = view.states[element.index]
    parts.extend(f"[{state}]" for state in _SHOWN_STATES if state in states)
    if element.role in _CHECKABLE and "checked" not in states:
        parts.append("[checked=false]")
    return " ".join(parts)


@dataclass(frozen=True)
class Rendering:
    """What to render: the frame, what was revealed, and which dynamic nodes the page shows."""

    view: View
    frame: int | None = None
    revealed: frozenset[int] = frozenset()
    shows: Callable[[Element], bool] = lambda _element: True

    def included(self, element: Element) -> bool:
        if element.frame != self.frame or hidden(self.view, element, self.revealed):
            return False
        return not element.dynamic or self.shows(element)


def template(rendering: Rendering) -> str:
    """The template of the page (or frame) as ``rendering`` says, for ``page.locator("body")``."""
    view = rendering.view
    root = view.template.elements[0 if rendering.frame is None else rendering.frame]
    lines: list[str] = []
    for element in children(view, root):
        lines.extend(_render(rendering, element, 0))
    return "\n".join(lines) + "\n"


def subtree(rendering: Rendering, element: Element) -> str:
    """``element`` under its ancestors in its frame, each matched by containment: the template
    of what an effect reveals or opens (``rendering.revealed`` holds it)."""
    view = rendering.view
    elements = view.template.elements
    chain = [
        elements[i]
        for i in element.ancestors
        if i != 0 and elements[i].frame == rendering.frame and i != rendering.frame
    ]
    lines = [f"{'  ' * depth}- {line(view, a)}:" for depth, a in enumerate(chain)]
    lines.extend(_render(rendering, element, len(chain)))
    return "\n".join(lines) + "\n"


def _render(rendering: Rendering, element: Element, depth: int) -> list[str]:
    view = rendering.view
    if not rendering.included(element):
        return []
    indent = "  " * depth
    head = f"{indent}- {line(view, element)}"
    if element.role == "text" or element.role in FRAME_ROLES:
        return [head]
    below = [child for child in children(view, element) if rendering.included(child)]
    if _echoes_name(view, element, below):
        below = []
    if not below:
        # An option's value is its value attribute, which no ARIA snapshot shows.
        if element.value is not None and element.role != "option":
            return [f"{head}: {ANY if dynamic(view, element) else quoted(element.value)}"]
        return [head]
    lines = [f"{head}:"]
    if element.role == "table":
        return lines + _table_rows(rendering, below, depth + 1)
    for child in below:
        lines.extend(_render(rendering, child, depth + 1))
    return lines


def _echoes_name(view: View, element: Element, below: list[Element]) -> bool:
    """Whether ``element``'s one child is a text equal to its name, which Playwright's snapshot
    leaves out (``- status "Saved"``, not ``- status "Saved": Saved``)."""
    if len(below) != 1 or below[0].role != "text" or dynamic(view, below[0]):
        return False
    return below[0].name == view.name(element)


def _table_rows(rendering: Rendering, rows: list[Element], depth: int) -> list[str]:
    """A table's rows inside the row groups HTML gives every table (``thead``, ``tbody``),
    which the page models leave out: header rows (all column headers) in the first."""
    view = rendering.view

    def heading_row(row: Element) -> bool:
        cells = list(children(view, row))
        return bool(cells) and all(c.role == "columnheader" for c in cells)

    head = [r for r in rows if heading_row(r)]
    body = [r for r in rows if not heading_row(r)]
    lines: list[str] = []
    for group in (head, body):
        if group:
            lines.append(f"{'  ' * depth}- rowgroup:")
            for row in group:
                lines.extend(_render(rendering, row, depth + 1))
    return lines
