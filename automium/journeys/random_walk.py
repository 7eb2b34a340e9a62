"""Seeded random walks through a fixture's pages, chosen from what the page models say a
user can do: the model side of differential conformance testing.

:func:`choices` lists the steps the model says are possible on a page (click a button or a
link, fill a field with a value drawn from the fixture or an edge case, select an option,
check a box, press Enter or a key, navigate to a route, go back); :func:`choose` picks one
with a seeded :class:`random.Random`, so a planner that acts at random can share it.
:func:`walk` grows a journey a step at a time, walking it as compile does after each one,
until it reaches its length or the model no longer knows the page. The same seed gives the
same walk: nothing here reads a clock, a browser or the network.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from automium import corpus
from automium.contracts import Fixture, Intent, to_document
from automium.journeys import observed, targets
from automium.journeys.checking import check_journey
from automium.journeys.page_checks import Visit
from automium.journeys.page_walk import FIELD_ROLES, Location

Step = dict[str, Any]

EDGE_VALUES = ("  ", "Automium walk", "0", "<b>x</b>")
"""What a new user types besides the fixture's own values: spaces, plain text, a number,
markup (and nothing: a field is cleared too)."""
KEYS = ("Enter", "Escape", "Tab")
_CLICKS = frozenset({"button", "link", "tab", "menuitem"})
_BOXES = frozenset({"checkbox", "switch"})
NAVIGATE_SHARE = 0.1
"""How often a step loads a route instead of acting on the page (a user types a URL)."""


@dataclass(frozen=True)
class WalkedStep:
    """A step of a walk and what the model says of the page after it."""

    step: Step
    visit: Visit
    unknown: bool  # the model says it does not know (an unchecked mark, or a lost page)


Values = Mapping[tuple[str, str], Sequence[str]]
"""What to type into a field, by its (role, name)."""


def choices(location: Location, fixture: Fixture, values: Values | None = None) -> list[Step]:
    """Every step the page model says is possible on ``location``, in page order: the
    controls shown and enabled (not a dynamic list's sample, not behind a dialog)."""
    found: list[Step] = []
    view = location.view
    for element in view.elements():
        name = view.name(element)
        if (
            not name
            or not element.ancestors
            or element.role not in targets.ROLES
            or not location.visible(element)
            or location.behind_dialog(element)
            or observed.uncertain(element, location)
            or "disabled" in view.states[element.index]
        ):
            continue
        target = _target(element, location, name)
        typed = (values or {}).get((element.role, name), ())
        found.extend(_steps_on(element, location, fixture, target, typed))
    if location.history:
        found.append({"intent": Intent.GO_BACK})
    return found


def _target(element: Any, location: Location, name: str) -> dict[str, Any]:
    view = location.view
    same = [
        e
        for e in view.elements_with_role(element.role)
        if targets.matches(e, element.role, name, view) and location.visible(e)
    ]
    target: dict[str, Any] = {"role": element.role, "name": name}
    if len(same) > 1:
        target["nth"] = same.index(element)
    return target


def _steps_on(
    element: Any,
    location: Location,
    fixture: Fixture,
    target: dict[str, Any],
    values: Sequence[str],
) -> Iterable[Step]:
    role = element.role
    if observed.is_select(element, location):
        for label in observed.options(element, location):
            yield {"intent": Intent.SELECT_OPTION, "target": target, "value": label}
    elif role in FIELD_ROLES:
        kind = element.secret
        if kind:
            refs = [r.root for r in fixture.secret_refs if r.root.endswith(f"#{kind}")]
            yield from ({"intent": Intent.FILL, "target": target, "secretRef": r} for r in refs)
        else:
            for value in (*values, *EDGE_VALUES):
                yield {"intent": Intent.FILL, "target": target, "value": value}
            yield {"intent": Intent.CLEAR, "target": target}
        yield {"intent": Intent.PRESS_KEY, "target": target, "key": "Enter"}
    elif role in _BOXES:
        yield {"intent": Intent.CLICK, "target": target}
        yield {
            "intent": Intent.UNCHECK if location.is_checked(element) else Intent.CHECK,
            "target": target,
        }
    elif role == "radio":
        yield {"intent": Intent.CHECK, "target": target}
    elif role in _CLICKS and not element.annotated("accepts_files"):
        yield {"intent": Intent.CLICK, "target": target}
        if role in ("button", "link"):
            yield {"intent": Intent.PRESS_KEY, "target": target, "key": "Enter"}
    if role in ("dialog", "alertdialog") or location.dialog == element.index:
        yield {"intent": Intent.PRESS_KEY, "key": "Escape"}


def navigations(fixture: Fixture) -> list[Step]:
    """Every route of the fixture's app, opened as a user types its URL (each entity)."""
    found: list[Step] = []
    for route in corpus.get_app(fixture.app_id).routes:
        if ":" in route.path:
            for entity in fixture.entities:
                if entity.route == route.id:
                    found.append(
                        {"intent": Intent.NAVIGATE, "route": route.id, "entity": entity.id}
                    )
        else:
            found.append({"intent": Intent.NAVIGATE, "route": route.id})
    return found


def choose(
    location: Location | None, fixture: Fixture, rng: random.Random, values: Values | None = None
) -> Step:
    """One step a user might take next, as the page model sees ``location``: a navigate
    when the page is unknown, now and then otherwise, else any step :func:`choices`
    lists, each as likely."""
    here = choices(location, fixture, values) if location is not None else []
    if not here or rng.random() < NAVIGATE_SHARE:
        return dict(rng.choice(navigations(fixture)))
    return dict(rng.choice(here))


@cache
def fixture_values(app_id: str) -> Values:
    """The values the app's reference journeys type into each field: what its forms are
    meant to take (a customer id, an amount), by the field's (role, name)."""
    found: dict[tuple[str, str], dict[str, None]] = {}
    for journey in corpus.reference_journeys():
        if journey.app_id != app_id:
            continue
        for step in to_document(journey)["steps"]:
            target = step.get("target")
            if step.get("intent") == Intent.FILL and isinstance(step.get("value"), str) and target:
                key = (str(target.get("role")), str(target.get("name")))
                found.setdefault(key, {})[step["value"]] = None
    return {key: tuple(values) for key, values in found.items()}


def document(fixture: Fixture, steps: Sequence[Step], name: str = "walk") -> dict[str, Any]:
    """A journey of ``steps`` (ids ``s0``, ``s1``...), with one route assertion after the
    first (a journey needs one; a run's check of what the walk predicts is separate)."""
    numbered = [{"id": f"s{i}", **step} for i, step in enumerate(steps)]
    return {
        "id": f"{fixture.app_id}.{name}",
        "appId": fixture.app_id,
        "fixtureId": fixture.id,
        "goal": "Walk the app at random and hold its page model to it",
        "steps": numbered,
        "assertions": [
            {
                "id": "a0",
                "kind": "route_is",
                "route": str(steps[0].get("route", "")) if steps else "",
                "afterStep": "s0",
            }
        ],
        "recovery": {"maxAttempts": 1, "strategies": ["retry_step"], "onExhausted": "fail_run"},
    }


def follow(fixture: Fixture, steps: Sequence[Step]) -> list[WalkedStep]:
    """What the page model says after each of ``steps``: compile's walk of them, each step
    ``unknown`` from the first the model cannot check (a problem, an unchecked mark, a
    lost page, a page in doubt) on."""
    walked = check_journey(document(fixture, steps)).walk
    assert walked is not None  # a known fixture: its pages are walked
    problems = {p.path.split("/")[2] for p in walked.problems if p.path.startswith("/steps/")}
    marked = {u.path.split("/")[2] for u in walked.unchecked if u.path.startswith("/steps/")}
    out: list[WalkedStep] = []
    lost = False
    for i, (step, visit) in enumerate(zip(steps, walked.visits, strict=True)):
        after = visit.after
        lost = lost or str(i) in problems or after is None
        unknown = lost or str(i) in marked or bool(after and after.doubt)
        out.append(WalkedStep(step, visit, unknown))
    return out


def walk(fixture: Fixture, seed: int, length: int) -> list[WalkedStep]:
    """A walk of up to ``length`` steps from ``seed``: it starts with a navigate and ends
    early where the model says it no longer knows the page."""
    rng = random.Random(f"{fixture.id}:{seed}")
    values = fixture_values(fixture.app_id)
    steps: list[Step] = []
    location: Location | None = None
    walked: list[WalkedStep] = []
    while len(steps) < length:
        steps.append(choose(location, fixture, rng, values))
        walked = follow(fixture, steps)
        location = walked[-1].visit.after
        if location is None:
            break  # the model lost the page: it says nothing of what follows
    return walked
