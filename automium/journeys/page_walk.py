"""Where a journey is: the page after each step, as the page models say.

A :class:`Location` is a page as one fixture sees it (a :class:`~automium.corpus.pages.View`)
plus what the journey has done to it so far: the nodes revealed, the dialog open, the
element in focus, and the history ``go_back`` returns through. ``navigate`` and a
``navigate`` effect load a route (the fixture's redirects apply); ``reveal``,
``open_dialog`` and ``close_dialog`` effects change what is visible on the page. A page the
model cannot follow (a link it does not know, Enter with nothing in focus) is lost: the
location is ``None`` until the next ``navigate``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from automium.contracts import Fixture, NavigateEffect
from automium.corpus.pages import Element, View, page

FIELD_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton"})


@dataclass(frozen=True, slots=True)
class Change:
    """One thing a step did to the page: loaded a route (``load``, with ``redirected_from``
    when the fixture sent it elsewhere), ``reveal``-ed nodes, opened or closed a dialog
    (``open_dialog``, ``close_dialog``), or went ``back``."""

    kind: str
    route: str | None = None
    redirected_from: str | None = None
    what: str = ""

    def __str__(self) -> str:
        if self.kind == "load":
            extra = f" (redirected from {self.redirected_from})" if self.redirected_from else ""
            return f"opens {self.route}{extra}"
        return {"back": "goes back", "close_dialog": "closes the dialog"}.get(self.kind, self.what)


@dataclass(frozen=True, slots=True)
class Location:
    """A page of the journey's fixture, and what the journey did to it."""

    view: View
    revealed: frozenset[int] = frozenset()
    dialog: int | None = None  # the open modal dialog
    focus: int | None = None
    history: tuple[tuple[str, str | None], ...] = ()  # (route, entity) behind this page
    # What the journey set on this page: a field's value or a box's checked state, by
    # element index; None once something the model cannot follow changed it (a submit).
    values: tuple[tuple[int, str | None], ...] = ()
    checks: tuple[tuple[int, bool], ...] = ()
    unsure: bool = False  # a refused step before may have changed what the journey set

    def set_value(self, index: int, value: str | None) -> Location:
        return replace(
            self, values=(*[(i, v) for i, v in self.values if i != index], (index, value))
        )

    def set_checked(self, index: int, checked: bool) -> Location:
        return replace(
            self, checks=(*[(i, c) for i, c in self.checks if i != index], (index, checked))
        )

    def journey_value(self, index: int) -> tuple[bool, str | None]:
        """Whether the journey set element ``index``'s value, and the value (None: unknown)."""
        for i, value in self.values:
            if i == index:
                return True, value
        return False, None

    def is_checked(self, element: Element) -> bool:
        for i, checked in self.checks:
            if i == element.index:
                return checked
        return "checked" in self.view.states[element.index]

    def submitted(self, form: int | None, field: int | None) -> Location:
        """After a submit: what was typed in ``form`` (or ``field``) is no longer known."""
        indexes = [
            e.index
            for e in self.view.template.elements
            if (form is not None and e.form == form) or e.index == field
        ]
        known = dict(self.values)
        for index in indexes:
            if e_is_field(self.view.template.elements[index]):
                known[index] = None
        return replace(self, values=tuple(known.items()))

    @property
    def route(self) -> str:
        return self.view.route_id

    def visible(self, element: Element) -> bool:
        """Present for the fixture, and neither it nor an ancestor hidden and unrevealed."""
        elements = self.view.template.elements
        return self.view.present[element.index] and all(
            not self.view.hidden(elements[i]) or i in self.revealed
            for i in (*element.ancestors, element.index)
        )

    def behind_dialog(self, element: Element) -> bool:
        """Outside the open modal dialog, so not reachable until it closes."""
        return self.dialog is not None and self.dialog not in (*element.ancestors, element.index)


def e_is_field(element: Element) -> bool:
    return element.role in FIELD_ROLES


def open_route(
    fixture: Fixture, route: str, entity: str | None, came_from: Location | None
) -> tuple[Location, str | None]:
    """The location after loading ``route``, and the route it redirected from, if any."""
    redirect = next((r for r in fixture.redirects if r.route == route), None)
    landed = route if redirect is None else redirect.to
    history = (
        () if came_from is None else (*came_from.history, (came_from.route, came_from.view.entity))
    )
    view = page(fixture.app_id, landed).view(fixture, entity if redirect is None else None)
    return Location(view, history=history), None if redirect is None else route


def go_back(location: Location) -> Location | None:
    """The previous page of the history, freshly loaded; ``None`` when there is none."""
    if not location.history:
        return None
    route, entity = location.history[-1]
    view = page(location.view.fixture.app_id, route).view(location.view.fixture, entity)
    return Location(view, history=location.history[:-1])


def activate(location: Location, element: Element) -> tuple[Location | None, list[Change]]:
    """Apply what activating ``element`` does; the new location and what changed.

    A location of ``None`` means the model cannot say where the journey went: a link with
    no known destination.
    """
    effects = element.annotated("effects") or ()
    if element.annotated("submit") or element.role in FIELD_ROLES:
        location = location.submitted(element.form, element.index)
    if not effects:
        return (None, []) if element.role == "link" else (location, [])
    happened: list[Change] = []
    for effect in effects:
        kind = effect.kind
        if isinstance(effect, NavigateEffect):
            target = effect
            location, redirected = open_route(
                location.view.fixture, target.route, target.entity, location
            )
            happened.append(Change("load", location.route, redirected))
        elif kind == "reveal":
            indexes = {location.view.template.by_ref[r.root] for r in effect.refs}
            location = replace(location, revealed=location.revealed | indexes)
            happened.append(
                Change("reveal", what="reveals " + ", ".join(_lines(location, indexes)))
            )
        elif kind == "open_dialog":
            index = location.view.template.by_ref[effect.ref]
            location = replace(location, revealed=location.revealed | {index}, dialog=index)
            happened.append(Change("open_dialog", what="opens " + _lines(location, {index})[0]))
        else:  # close_dialog
            closing = location.dialog if location.dialog is not None else element.dialog
            location = replace(location, revealed=location.revealed - {closing}, dialog=None)
            happened.append(Change("close_dialog"))
    return location, happened


def submit_target(location: Location, field: Element) -> Element | None:
    """What Enter in ``field`` activates: the field itself when it has effects, else the
    default button of its form, else nothing."""
    if field.annotated("effects"):
        return field
    if field.form is None:
        return None
    return next(
        (
            e
            for e in location.view.elements()
            if e.form == field.form and e.annotated("submit") and location.visible(e)
        ),
        None,
    )


def _lines(location: Location, indexes: set[int]) -> list[str]:
    elements = location.view.template.elements
    return [elements[i].line(location.view.name(elements[i])) for i in sorted(indexes)]
