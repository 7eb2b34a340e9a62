"""A page as a planner reads it: the ARIA-snapshot notation, resolved for one fixture.

The lines are the authored form's (``- button "Place order" → order-confirmation``) with
what the fixture makes of them: elements it does not have are left out, its states are
shown, and behaviour is marked (``→ reveals status "Import result"``). Sibling subtrees
that differ only in their text (the rows of a list) collapse into one line, ``× 3``, with
the texts that tell them apart, so a long list costs one row of an agent's context.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from automium.contracts import Effect, NavigateEffect, OpenDialogEffect, RevealEffect
from automium.corpus.pages import Element, View

_SHOWN_STATES = ("checked", "disabled", "expanded", "selected", "required", "readonly")


def aria_text(view: View) -> str:
    """The page ``view`` as ARIA text, one element per line, children indented."""
    root = view.template.elements[0]
    return "\n".join(_lines(view, _children(view, root), 0))


def _children(view: View, element: Element) -> list[Element]:
    return [e for e in view.elements() if e.ancestors and e.ancestors[-1] == element.index]


def _lines(view: View, siblings: Sequence[Element], depth: int) -> Iterator[str]:
    index = 0
    while index < len(siblings):
        element = siblings[index]
        shape = _shape(view, element)
        run = 1
        while index + run < len(siblings) and _shape(view, siblings[index + run]) == shape:
            run += 1
        if run > 1 and element.role != "text":
            texts = [_texts(view, s) for s in siblings[index : index + run]]
            label = " | ".join(t for t in texts if t)
            yield (
                f"{'  ' * depth}- {_head(view, element)} (× {run}{': ' + label if label else ''})"
                + (":" if _children(view, element) else "")
            )
            yield from _lines(
                view, [c for c in _children(view, element) if c.role != "text"], depth + 1
            )
        else:
            for same in siblings[index : index + run]:
                yield from _element(view, same, depth)
        index += run


def _element(view: View, element: Element, depth: int) -> Iterator[str]:
    pad = "  " * depth
    if element.role == "text":
        yield f"{pad}- text: {view.name(element) or ''}"
        return
    children = _children(view, element)
    value = f": {element.value}" if element.value is not None else ""
    yield f"{pad}- {_head(view, element)}{value}{':' if children and not value else ''}"
    yield from _lines(view, children, depth + 1)


def _head(view: View, element: Element) -> str:
    name = view.name(element)
    text = element.role + (
        f' "{name}"' if name else (" (named after the entity)" if name is None else "")
    )
    marks = [s for s in _SHOWN_STATES if s in view.states[element.index]]
    if view.hidden(element):
        marks.append("hidden")
    if element.dynamic:
        marks.append("dynamic")
    if element.secret:
        marks.append(f"secret: {element.secret}")
    if element.annotated("accepts_files"):
        marks.append("file input")
    text += "".join(f" [{m}]" for m in marks)
    effects = [_effect(view, e) for e in element.annotated("effects") or ()]
    return text + (" → " + ", ".join(effects) if effects else "")


def _effect(view: View, effect: Effect) -> str:
    elements = view.template.elements
    if isinstance(effect, NavigateEffect):
        return effect.route + (f" ({effect.entity})" if effect.entity else "")
    if isinstance(effect, RevealEffect):
        shown = [view.template.find(r.root) for r in effect.refs]
        return "reveals " + ", ".join(e.line(view.name(e)) for e in shown if e is not None)
    if isinstance(effect, OpenDialogEffect):
        dialog = elements[view.template.by_ref[effect.ref]]
        return f"opens {dialog.line()}"
    return "closes the dialog"


def _shape(view: View, element: Element) -> tuple[object, ...]:
    """What an element looks like with its text left out: rows of a list compare equal."""
    if element.role == "text":
        return ("text",)
    return (_head(view, element), tuple(_shape(view, c) for c in _children(view, element)))


def _texts(view: View, element: Element) -> str:
    return " ".join(
        view.name(c) or "" for c in _children(view, element) if c.role in ("text", "cell")
    ).strip()
