"""A checked journey as a test plan: what each format writes, decided once for both.

The plan holds the journey's steps in order, each with its one action and the assertions
checked after it, every target resolved to a locator as Playwright reads it: by role and
exact name, with ``nth``, inside the iframes that hold it (``getByRole`` on a page does not
look inside an iframe, so a model node under an ``iframe "X"`` node is resolved in that
frame). Recovery is mapped as far as a test runner can honour it; what is lost is said.

A journey that ``uses`` another has its prefix's steps first: the plan counts them
(``setup``), and each format writes them as a setup of its own (a ``beforeEach`` in
TypeScript, a fixture in pytest). A branch's first step carries its guard, which each format
writes as an ``if`` on the locator's state, around the branch's steps.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from automium import corpus
from automium.contracts import Intent
from automium.corpus.pages import Element, View, pages
from automium.defaults import ACTION_TIMEOUT_MS
from automium.export.fixture_files import fixture_file
from automium.export.routes import route_path, route_pattern
from automium.journeys import targets
from automium.journeys.branches import guard_caption, starting_at
from automium.journeys.composition import Prefix
from automium.journeys.page_checks import Walk
from automium.journeys.page_walk import Location
from automium.journeys.refs import journey_ref


@dataclass(frozen=True, slots=True)
class Frame:
    """An iframe on the way to a target, by its title (``nth`` when titles repeat)."""

    title: str
    nth: int | None = None

    @property
    def selector(self) -> str:
        if not self.title:
            return "iframe"
        escaped = self.title.replace("\\", "\\\\").replace('"', '\\"')
        return f'iframe[title="{escaped}"]'


@dataclass(frozen=True, slots=True)
class Locator:
    """``getByRole(role, {name, exact: true})``, ``.nth(nth)``, inside ``frames``."""

    role: str
    name: str
    nth: int | None = None
    frames: tuple[Frame, ...] = ()


@dataclass(frozen=True, slots=True)
class Unresolved:
    """A snapshot-ref target the page model cannot name: the test fails there, saying so."""

    why: str


Target = Locator | Unresolved


@dataclass(frozen=True, slots=True)
class Action:
    """A step's one action. ``intent`` decides which other fields are set."""

    intent: str
    target: Target | None = None
    path: str | None = None  # navigate
    value: str | None = None  # fill, select_option
    secret_env: str | None = None  # fill with a secretRef
    key: str | None = None  # press_key
    file: str | None = None  # upload_file, below the files' root
    direction: str | None = None  # scroll
    distance: int = 0  # scroll up or down: one viewport height
    state: str | None = None  # wait_for
    timeout_ms: int | None = None  # wait_for


@dataclass(frozen=True, slots=True)
class Check:
    """An assertion, web-first. ``url_pattern`` for route_is, else ``target``."""

    id: str
    kind: str
    target: Target | None = None
    expected: str | None = None
    count: int | None = None
    route: str | None = None
    url_pattern: str | None = None


@dataclass(frozen=True, slots=True)
class Guard:
    """A branch's guard, asked of the page as it is (no waiting), and how many steps it
    guards (this one and those right after it)."""

    kind: str
    caption: str
    steps: int
    target: Target | None = None
    expected: str | None = None
    url_pattern: str | None = None


@dataclass(frozen=True, slots=True)
class StepPlan:
    id: str
    action: Action
    checks: tuple[Check, ...]
    note: str | None = None
    guard: Guard | None = None  # on the first step of a branch


def branches(steps: tuple[StepPlan, ...]) -> Iterator[tuple[Guard | None, tuple[StepPlan, ...]]]:
    """The steps in order: each unguarded one alone, a guarded branch's together, with the
    guard on its first step (both renderers write a branch as an ``if`` around its steps)."""
    index = 0
    while index < len(steps):
        guard = steps[index].guard
        size = 1 if guard is None else guard.steps
        yield guard, steps[index : index + size]
        index += size


@dataclass(frozen=True, slots=True)
class Recovery:
    """What the journey's recovery becomes in a test."""

    attempts: int
    """Attempts per step when ``retry_step`` is exported (1: steps are not retried)."""
    kept: tuple[str, ...]
    """One line per strategy a test keeps, saying how."""
    lost: tuple[str, ...]
    """One line per strategy (or ``onExhausted``) a test cannot keep, saying what is lost."""


@dataclass(frozen=True, slots=True)
class ExportPlan:
    journey_id: str
    ref: str
    goal: str
    app_id: str
    fixture_id: str
    steps: tuple[StepPlan, ...]
    recovery: Recovery
    setup: int = 0  # the first ``setup`` steps are the journeys it uses
    uses: tuple[str, ...] = ()

    @property
    def actions(self) -> list[Action]:
        return [s.action for s in self.steps]

    @property
    def uses_secrets(self) -> bool:
        return any(a.secret_env for a in self.actions)

    @property
    def uses_files(self) -> bool:
        return any(a.file for a in self.actions)

    @property
    def retries(self) -> bool:
        return self.recovery.attempts > 1


def secret_env(secret_ref: str) -> str:
    """The environment variable holding ``secret_ref``'s value: ``AUTOMIUM_SECRET_`` and the
    ref in upper case, every other character as ``_``."""
    return "AUTOMIUM_SECRET_" + re.sub(r"[^A-Z0-9]", "_", secret_ref.upper())


def plan(document: Mapping[str, Any], walk: Walk, prefix: Prefix | None = None) -> ExportPlan:
    """The plan of a journey document that compiled, with the walk compile made of it (for
    one that uses another, the expanded journey, and ``prefix`` saying which steps are the
    used journey's)."""
    app_id, fixture_id = document["appId"], document["fixtureId"]
    assertions: dict[str, list[Mapping[str, Any]]] = {}
    for assertion in document["assertions"]:
        assertions.setdefault(assertion["afterStep"], []).append(assertion)
    resolver = _Resolver(app_id, fixture_id)
    steps = []
    opening = starting_at(document["steps"])
    for index, (visit, step) in enumerate(zip(walk.visits, document["steps"], strict=True)):
        after = visit.after
        branch = opening.get(index)
        steps.append(
            StepPlan(
                id=step["id"],
                action=_action(step, resolver, visit.before, visit.element),
                checks=tuple(_check(a, resolver, after) for a in assertions.get(step["id"], ())),
                note=step.get("note"),
                guard=None
                if branch is None
                else _guard(branch.guard, branch.end - branch.start, resolver, visit.before),
            )
        )
    return ExportPlan(
        journey_id=document["id"],
        ref=journey_ref(document),
        goal=document["goal"],
        app_id=app_id,
        fixture_id=fixture_id,
        steps=tuple(steps),
        recovery=_recovery(document["recovery"]),
        setup=prefix.steps if prefix is not None else 0,
        uses=prefix.chain if prefix is not None else (),
    )


def _guard(
    guard: Mapping[str, Any], steps: int, resolver: _Resolver, before: Location | None
) -> Guard:
    kind, caption = guard["kind"], guard_caption(guard)
    if kind == "route_is":
        pattern = route_pattern(resolver.app_id, guard["route"])
        return Guard(kind, caption, steps, url_pattern=pattern)
    return Guard(
        kind,
        caption,
        steps,
        target=resolver.target(guard["target"], before, None),
        expected=guard.get("expected"),
    )


def _action(
    step: Mapping[str, Any], resolver: _Resolver, before: Location | None, element: Element | None
) -> Action:
    intent = step["intent"]
    target = step.get("target")
    locator = None if target is None else resolver.target(target, before, element)
    if intent == Intent.NAVIGATE:
        path = route_path(resolver.app_id, resolver.fixture_id, step["route"], step.get("entity"))
        return Action(intent, path=path)
    if intent == Intent.FILL and "secretRef" in step:
        return Action(intent, locator, secret_env=secret_env(step["secretRef"]))
    if intent == Intent.SCROLL:
        return Action(intent, locator, direction=step["direction"], distance=resolver.viewport)
    if intent == Intent.WAIT_FOR:
        state, timeout = step.get("state", "visible"), step.get("timeoutMs", ACTION_TIMEOUT_MS)
        return Action(intent, locator, state=state, timeout_ms=timeout)
    if intent == Intent.UPLOAD_FILE:
        return Action(intent, locator, file=fixture_file(step["fileRef"]))
    return Action(intent, locator, value=step.get("value"), key=step.get("key"))


def _check(assertion: Mapping[str, Any], resolver: _Resolver, after: Location | None) -> Check:
    kind = assertion["kind"]
    if kind == "route_is":
        pattern = route_pattern(resolver.app_id, assertion["route"])
        return Check(assertion["id"], kind, route=assertion["route"], url_pattern=pattern)
    target = dict(assertion["target"])
    if kind == "count_equals":
        target.pop("nth", None)  # the contract: nth is ignored when counting
    return Check(
        assertion["id"],
        kind,
        target=resolver.target(target, after, None, counting=kind == "count_equals"),
        expected=assertion.get("expected"),
        count=assertion.get("count"),
    )


def _recovery(recovery: Mapping[str, Any]) -> Recovery:
    strategies: Sequence[str] = recovery["strategies"]
    attempts = recovery["maxAttempts"] if "retry_step" in strategies else 1
    kept, lost = [], []
    for strategy in strategies:
        if strategy == "retry_step":
            kept.append(f"retry_step: each step is tried up to {recovery['maxAttempts']} times")
        elif strategy == "refresh_snapshot":
            kept.append("refresh_snapshot: a locator reads the page afresh at every action")
        elif strategy == "restart_from_route":
            lost.append(
                "restart_from_route: a failing step is not restarted from its route; "
                "a rerun of the test starts again from its first step"
            )
        else:
            lost.append(
                "dismiss_dialog: a dialog left over the page is not dismissed; "
                "the step it blocks fails"
            )
    if recovery["onExhausted"] == "mark_blocked":
        lost.append(
            "onExhausted mark_blocked: a test that runs out of attempts fails; it is never blocked"
        )
    return Recovery(attempts, tuple(kept), tuple(lost))


class _Resolver:
    """Targets to locators, on the page the journey is on at that point."""

    def __init__(self, app_id: str, fixture_id: str) -> None:
        self.app_id = app_id
        self.fixture_id = fixture_id
        self.fixture = corpus.get_fixture(fixture_id, app_id)
        profile = corpus.get_environment_profile(self.fixture.environment_profile_id)
        self.viewport = profile.viewport.height

    def target(
        self,
        target: Mapping[str, Any],
        location: Location | None,
        element: Element | None,
        *,
        counting: bool = False,
    ) -> Target:
        if "ref" in target:
            return self._by_ref(str(target["ref"]), location, element)
        role, name, nth = target["role"], target["name"], target.get("nth")
        if element is None:
            element = self._find(role, name, nth, location, counting=counting)
        frames = self._frames(element, location) if element is not None else ()
        return Locator(role, name, nth, frames)

    def _by_ref(self, ref: str, location: Location | None, element: Element | None) -> Target:
        if location is None:
            return Unresolved(
                f"target {ref} is a snapshot ref on a page the model does not know; "
                "name it by role and name"
            )
        found = element or location.view.template.find(ref)
        name = location.view.name(found) if found is not None else None
        if found is None or name is None:
            return Unresolved(f"target {ref} names no element the page model can name")
        same = [
            e
            for e in location.view.elements_with_role(found.role)
            if targets.matches(e, found.role, name, location.view) and location.visible(e)
        ]
        nth = same.index(found) if found in same and len(same) > 1 else None
        return Locator(found.role, name, nth, self._frames(found, location))

    def _find(
        self, role: str, name: str, nth: int | None, location: Location | None, *, counting: bool
    ) -> Element | None:
        """The element a target names, when the walk did not record it (an assertion's), or
        one like it on any page of the app when the page is unknown: only its frames matter."""
        if location is not None:
            view = location.view
            found = [
                e for e in view.elements_with_role(role) if targets.matches(e, role, name, view)
            ]
            visible = [e for e in found if location.visible(e)] or found
            if visible:
                index = 0 if counting or nth is None else min(nth, len(visible) - 1)
                return visible[index]
        for template in pages(self.app_id):
            view = template.view(self.fixture, None)
            for candidate in view.elements_with_role(role):
                if targets.matches(candidate, role, name, view):
                    return candidate
        return None

    def _view_of(self, element: Element, location: Location | None) -> View:
        """The view ``element`` belongs to: the location's, or its own page's."""
        if location is not None and element in location.view.template.elements:
            return location.view
        return next(
            t.view(self.fixture, None)
            for t in pages(self.app_id)
            if element.index < len(t.elements) and t.elements[element.index] is element
        )

    def _frames(self, element: Element, location: Location | None) -> tuple[Frame, ...]:
        if element.frame is None:
            return ()
        view = self._view_of(element, location)
        elements = view.template.elements
        frames = []
        for index in element.ancestors:
            frame = elements[index]
            if frame.role != "iframe":
                continue
            title = view.name(frame) or ""
            twins = [e for e in view.elements_with_role("iframe") if (view.name(e) or "") == title]
            frames.append(Frame(title, twins.index(frame) if len(twins) > 1 else None))
        return tuple(frames)
