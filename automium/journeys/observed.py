"""What the page models say an assertion would observe at a point of a journey.

Each function answers from the page a fixture shows and what the journey did to it
(:class:`~automium.journeys.page_walk.Location`), or says it cannot: an element marked
``[dynamic]`` in its page model, or inside one, shows what the app did at run time (a cart
row, a counter, a search result), which only a run can prove.
"""

from __future__ import annotations

from automium.accessible_names import normalized
from automium.corpus.pages import Element
from automium.journeys.page_walk import FIELD_ROLES, Location

SELECT_ROLES = frozenset({"combobox", "listbox"})
# Roles a key can be pressed on: what a browser focuses without a tabindex, plus the
# composite widgets and dialogs that manage their own focus.
FOCUSABLE_ROLES = FIELD_ROLES | frozenset(
    {
        "button",
        "link",
        "checkbox",
        "radio",
        "switch",
        "slider",
        "listbox",
        "option",
        "menuitem",
        "menuitemcheckbox",
        "menuitemradio",
        "tab",
        "treeitem",
        "gridcell",
        "dialog",
        "alertdialog",
    }
)


def dynamic(element: Element, location: Location) -> bool:
    """Whether the element's text, value or presence depends on what the app did at run
    time: it, or a node it is in, is marked ``[dynamic]``."""
    elements = location.view.template.elements
    return element.dynamic or any(elements[i].dynamic for i in element.ancestors)


def in_dynamic_list(element: Element, location: Location) -> bool:
    """Inside a ``[dynamic]`` node (not the node itself): a sample of what a run may show,
    so whether it is there at all is for a run to say."""
    elements = location.view.template.elements
    return any(elements[i].dynamic for i in element.ancestors)


def uncertain(element: Element, location: Location) -> bool:
    """Whether a run may not show the element at all: it is in a ``[dynamic]`` node (a
    sample row), or is itself a dynamic leaf (a message shown only in some states). A
    dynamic node with children is a container: it is there, only its content varies."""
    if in_dynamic_list(element, location):
        return True
    elements = location.view.template.elements
    after = element.index + 1
    has_children = after < len(elements) and element.index in elements[after].ancestors
    # A dynamic field is always there: what varies is the value the app fills in.
    return element.dynamic and not has_children and element.role not in FIELD_ROLES


def is_select(element: Element, location: Location) -> bool:
    """A combobox or listbox with options: a ``<select>``, which takes ``select_option``."""
    return element.role in SELECT_ROLES and any(
        e.role == "option" and element.index in e.ancestors for e in location.view.elements()
    )


def options(element: Element, location: Location) -> list[str]:
    return [
        location.view.name(e) or ""
        for e in location.view.elements()
        if e.role == "option" and element.index in e.ancestors
    ]


def text(element: Element, location: Location) -> str | None:
    """The text an assertion reads, normalised; ``None`` when only a run knows it."""
    if dynamic(element, location):
        return None
    if element.annotated("name_from_entity"):
        label = location.view.name(element)
        return None if label is None else normalized(label)
    return element.text


def value(element: Element, location: Location) -> str | None:
    """The value a field shows: what the journey set, else the page model's; ``None`` when
    only a run knows it (a dynamic field, or one a submit may have cleared)."""
    was_set, set_value = location.journey_value(element.index)
    if was_set:
        return set_value
    if dynamic(element, location):
        return None
    if is_select(element, location):
        shown = option_elements(element, location)
        chosen = [e for e in shown if "selected" in location.view.states[e.index]]
        return option_value(chosen[0] if chosen else shown[0], location) if shown else ""
    return normalized(element.value or "")


def option_elements(element: Element, location: Location) -> list[Element]:
    return [
        e for e in location.view.elements() if e.role == "option" and element.index in e.ancestors
    ]


def option_value(option: Element, location: Location) -> str:
    """What a select reads once ``option`` is chosen: its value attribute, else (an option
    with none) its label, as a browser's ``select.value`` and Playwright's toHaveValue do."""
    return (
        option.value if option.value is not None else normalized(location.view.name(option) or "")
    )


def chosen_value(element: Element, label: str, location: Location) -> str:
    """The value ``element`` (a select) takes when the option labelled ``label`` is chosen;
    ``label`` itself when no option has it (a refused step)."""
    wanted = normalized(label)
    for option in option_elements(element, location):
        if normalized(location.view.name(option) or "") == wanted:
            return option_value(option, location)
    return wanted
