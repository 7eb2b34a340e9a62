"""Journeys that compile, drawn from the page models: a Hypothesis strategy.

Compile checks every target against the page a journey is on, so a journey of random
targets is refused, not compiled. :func:`valid_journeys` therefore walks the models the way
an agent reading the draft_journey prompt would: it navigates to a route the fixture can
open (naming an entity when the route has a parameter), then acts only on elements visible
there, with ``nth`` when the name repeats, and asserts on what the page shows. Its steps
leave the page where it is (hover, wait_for, scroll, keys other than Enter) or change it in
ways the tracker follows (navigate, go_back), so the generator knows the page at each step
without repeating the tracker's effect rules.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from automium import corpus
from automium.contracts import Fixture
from automium.corpus.pages import Element
from automium.journeys import observed, targets, todo_state
from automium.journeys.page_walk import Location, go_back, open_route

Document = dict[str, Any]

_FOLLOWED = {*todo_state.ROW_TARGETS, todo_state.CLEAR, todo_state.LEFT}

_VALUE_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton", "listbox", "slider"})
# Keys that neither submit a form nor activate anything (Enter does; its page is modelled
# by the tracker, which this generator does not repeat).
_QUIET_KEYS = ("Escape", "Tab", "ArrowDown", "a", "7", "F5", "PageUp")
_TEXT = st.text(st.sampled_from('abcXYZ019 "#<>&-'), min_size=1, max_size=24).filter(
    lambda s: s.strip() != ""
)
_RECOVERY = st.fixed_dictionaries(
    {
        "maxAttempts": st.integers(1, 3),
        "strategies": st.lists(
            st.sampled_from(
                ["retry_step", "refresh_snapshot", "restart_from_route", "dismiss_dialog"]
            ),
            min_size=1,
            max_size=4,
            unique=True,
        ),
        "onExhausted": st.sampled_from(["fail_run", "mark_blocked"]),
    }
)


def target_of(element: Element, location: Location) -> Document:
    """The semantic locator of ``element`` as an agent would write it from the prompt."""
    view = location.view
    name = view.name(element) or ""
    same = [
        e
        for e in view.elements()
        if targets.matches(e, element.role, name, view) and location.visible(e)
    ]
    target: Document = {"role": element.role, "name": name}
    if element in same and len(same) > 1:  # nth counts visible matches only
        target["nth"] = same.index(element)
    return target


def _named(location: Location, *, visible: bool) -> list[Element]:
    view = location.view
    return [
        e
        for e in view.elements()
        if e.role in targets.ROLES
        and view.name(e)
        and e.ancestors  # the page's own document is no target: a browser gives it no name
        and (location.visible(e) or not visible)
        # TodoMVC's rows, counter and Clear completed follow its list, not the page model.
        and (e.role, e.name) not in _FOLLOWED
    ]


def _routes(fixture: Fixture) -> list[tuple[str, str | None]]:
    """Every (route, entity) ``navigate`` may name for the fixture."""
    chosen: list[tuple[str, str | None]] = []
    for route in corpus.get_app(fixture.app_id).routes:
        if ":" not in route.path:
            chosen.append((route.id, None))
        chosen.extend((route.id, e.id) for e in fixture.entities if e.route == route.id)
    return chosen


def _step(draw: st.DrawFn, location: Location | None) -> tuple[Document, Location | None]:
    """A step that keeps the page known (or, for go_back, moves it to the last one)."""
    shown = _named(location, visible=True) if location is not None else []
    back = ["go_back"] if location is not None and location.history else []
    choices = ["scroll", "press_key", *back, *(["hover", "wait_for"] if shown else [])]
    intent = draw(st.sampled_from(choices))
    if intent == "go_back":
        return {"intent": "go_back"}, go_back(location) if location is not None else None
    if intent == "scroll":
        step: Document = {"intent": "scroll", "direction": draw(st.sampled_from(["up", "down"]))}
        if shown and location is not None and draw(st.booleans()):
            step["target"] = target_of(draw(st.sampled_from(shown)), location)
        return step, location
    if intent == "press_key":
        key = draw(st.sampled_from(_QUIET_KEYS))
        # Tab moves the focus where the model cannot follow it; nothing else changes.
        return {"intent": "press_key", "key": key}, location
    assert location is not None
    step = {"intent": intent, "target": target_of(draw(st.sampled_from(shown)), location)}
    if intent == "wait_for" and draw(st.booleans()):
        step["timeoutMs"] = draw(st.integers(100, 30_000))
    return step, location


def _assertion(draw: st.DrawFn, location: Location) -> Document:
    shown = _named(location, visible=True)
    kinds = ["route_is", *(["visible", "count_equals", "text_contains", "hidden"] if shown else [])]
    if any(e.role in _VALUE_ROLES for e in shown):
        kinds.append("value_equals")
    kind = draw(st.sampled_from(kinds))
    if kind == "route_is":
        return {"kind": kind, "route": location.route}
    if kind == "hidden":
        # An element of the page the model does not show here, or one only a run can say.
        view = location.view
        gone = [
            e
            for e in _named(location, visible=False)
            if not any(
                location.visible(same) and not observed.uncertain(same, location)
                for same in view.elements_with_role(e.role)
                if targets.matches(same, e.role, view.name(e) or "", view)
            )
        ]
        if not gone:
            return {"kind": "route_is", "route": location.route}
        return {"kind": kind, "target": target_of(draw(st.sampled_from(gone)), location)}
    fitting = [e for e in shown if kind != "value_equals" or e.role in _VALUE_ROLES]
    element = draw(st.sampled_from(fitting))
    target = target_of(element, location)
    assertion: Document = {"kind": kind, "target": target}
    if kind == "count_equals":
        # What the model shows, counted; any count where only a run can say.
        view = location.view
        same = [
            e
            for e in view.elements_with_role(element.role)
            if targets.matches(e, target["role"], target["name"], view) and location.visible(e)
        ]
        assertion["count"] = (
            draw(st.integers(0, 10_000))
            if any(observed.uncertain(e, location) for e in same)
            else len(same)
        )
    elif kind in ("text_contains", "value_equals"):
        # A part of what the model shows (what a contradiction would refuse), or anything
        # where only a run can say.
        shows = (
            observed.text(element, location)
            if kind == "text_contains"
            else observed.value(element, location)
        )
        if shows is None:
            assertion["expected"] = draw(st.text(max_size=30))
        elif kind == "value_equals":
            assertion["expected"] = shows
        else:
            start = draw(st.integers(0, len(shows)))
            assertion["expected"] = shows[start : draw(st.integers(start, len(shows)))]
    return assertion


@st.composite
def valid_journeys(draw: st.DrawFn) -> Document:
    """A journey of any fixture that compiles (it may carry warnings)."""
    fixture = draw(st.sampled_from(corpus.fixtures()))
    steps: list[Document] = []
    known: list[tuple[str, Location]] = []  # (step id, the page after it)
    location: Location | None = None
    for _ in range(draw(st.integers(1, 4))):
        route, entity = draw(st.sampled_from(_routes(fixture)))
        location, _redirected = open_route(fixture, route, entity, location)
        steps.append(
            {"intent": "navigate", "route": route, **({"entity": entity} if entity else {})}
        )
        known.append((f"s{len(steps) - 1}", location))
        for _ in range(draw(st.integers(0, 4))):
            step, location = _step(draw, location)
            steps.append(step)
            if location is not None:
                known.append((f"s{len(steps) - 1}", location))
    assertions = []
    for i in range(draw(st.integers(1, 6))):
        after, seen = draw(st.sampled_from(known))
        assertions.append({"id": f"a{i}", **_assertion(draw, seen), "afterStep": after})
    return {
        "id": "generated",
        "appId": fixture.app_id,
        "fixtureId": fixture.id,
        "goal": draw(_TEXT),
        "steps": [{"id": f"s{i}", **step} for i, step in enumerate(steps)],
        "assertions": assertions,
        "recovery": draw(_RECOVERY),
    }
