"""Where a page model's element is on a served page, as Playwright finds it.

By role and accessible name, exactly as the model writes it (``get_by_role(role,
name=…, exact=True)``), the ``nth`` of the elements the model shows with that role and name
before it. Playwright's ``get_by_role`` does not look inside an iframe, so an element under
a model node ``iframe "X"`` is found in that frame:
``page.locator('iframe[title="X"]').content_frame.get_by_role(…)``; frames nest.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from automium.corpus.pages import Element, View

if TYPE_CHECKING:
    from playwright.sync_api import FrameLocator, Locator, Page


def frame_chain(view: View, element: Element) -> list[Element]:
    """The model's ``iframe`` nodes around ``element``, outermost first."""
    elements = view.template.elements
    chain: list[Element] = []
    frame = element.frame
    while frame is not None:
        chain.insert(0, elements[frame])
        frame = elements[frame].frame
    return chain


def iframe_selector(view: View, iframe: Element) -> str:
    """The CSS selector of a model ``iframe "X"``: its ``title`` attribute names it."""
    return f"iframe[title={json.dumps(view.name(iframe) or '')}]"


def scope(page: Page, view: View, element: Element) -> Page | FrameLocator:
    """The page, or the (nested) frame the element is in."""
    where: Page | FrameLocator = page
    for iframe in frame_chain(view, element):
        where = where.locator(iframe_selector(view, iframe)).content_frame
    return where


def nth(view: View, element: Element, visible: frozenset[int] | None = None) -> int:
    """How many elements with ``element``'s role and name (in its frame) come before it,
    among those present (and, when given, among ``visible``)."""
    name = view.name(element)
    return sum(
        1
        for other in view.elements()
        if other.index < element.index
        and other.role == element.role
        and view.name(other) == name
        and other.frame == element.frame
        and (visible is None or other.index in visible)
    )


def locate(
    page: Page, view: View, element: Element, visible: frozenset[int] | None = None
) -> Locator:
    """The Playwright locator of a model element on ``page``."""
    name = view.name(element)
    where = scope(page, view, element)
    found = (
        where.get_by_role(element.role, name=name, exact=True)  # type: ignore[arg-type]
        if name
        else where.get_by_role(element.role)  # type: ignore[arg-type]
    )
    return found.nth(nth(view, element, visible))
