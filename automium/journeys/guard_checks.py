"""A guard (``when``) against the page the journey is on: refused when it names nothing a
fixture of the app shows there, else decided as the fixture's page models say.

A guard's target follows the assertions' rules (:mod:`automium.journeys.targets`). Unlike
an assertion, a guard that does not hold is no problem: it is the other branch. So a
target the journey's fixture lacks on the page is fine as long as some fixture of the app
shows it there (a notice only the locked account sees); one no fixture shows is
``unknown_target``, since the guard could never hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from automium import corpus
from automium.accessible_names import normalized
from automium.contracts import ErrorCode, Fixture
from automium.corpus.pages import Element
from automium.errors import quoted
from automium.journeys import observed, targets
from automium.journeys.assertion_checks import AssertionChecks
from automium.journeys.page_walk import Location

_TEXT = frozenset({"text_equals", "text_contains"})


def guard_holds(  # noqa: PLR0911 - one answer per guard kind
    guard: Mapping[str, Any], location: Location
) -> bool | None:
    """Whether ``guard`` holds on ``location`` as its page model says; ``None`` when only a
    run can tell (a snapshot ref, a dynamic element, text the model does not know)."""
    kind = guard.get("kind")
    if kind == "route_is":
        return location.route == guard.get("route")
    target = guard.get("target")
    if not isinstance(target, dict) or "ref" in target:
        return None
    role, name, nth = target.get("role"), target.get("name"), target.get("nth")
    view = location.view
    shown = [
        e
        for e in view.elements_with_role(str(role))
        if targets.matches(e, str(role), str(name), view) and location.visible(e)
    ]
    if any(observed.uncertain(e, location) for e in shown):
        return None
    picked: Element | None = None
    if shown:
        index = nth if isinstance(nth, int) else 0
        picked = shown[index] if index < len(shown) else None
    if kind == "visible":
        return picked is not None
    if kind == "hidden":
        return picked is None
    if picked is None:
        return False
    text = observed.text(picked, location)
    if text is None:
        return None
    expected = normalized(str(guard.get("expected", "")))
    return expected in text if kind == "text_contains" else text == expected


def as_seen_by(location: Location, fixture: Fixture) -> Location:
    """The same page, with what the journey did to it, as ``fixture`` sees it (the page
    models of one route share their elements across fixtures)."""
    return replace(location, view=location.view.template.view(fixture, location.view.entity))


def other_fixtures(fixture: Fixture) -> list[Fixture]:
    """The other fixtures of the app, in corpus order."""
    return [f for f in corpus.fixtures(fixture.app_id) if f.id != fixture.id]


class GuardChecks(AssertionChecks):
    """Guard checks over the walk's state."""

    def _guard(  # noqa: PLR0911 - each refusal ends the check
        self, guard: Mapping[str, Any], path: str, location: Location | None
    ) -> bool | None:
        """The branch the fixture takes at ``path`` (a step's ``when``), after checking the
        guard can be decided at all; ``None`` when only a run can tell."""
        kind = guard.get("kind")
        if kind != "route_is" and not isinstance(guard.get("target"), dict):
            self._problem(
                ErrorCode.INVALID_INPUT,
                f"a {kind} guard needs a target, the element it looks at",
                path,
            )
            return None
        if kind == "route_is" and "route" not in guard:
            self._problem(ErrorCode.INVALID_INPUT, "a route_is guard needs a route", path)
            return None
        if kind in _TEXT and "expected" not in guard:
            self._problem(ErrorCode.INVALID_INPUT, f"a {kind} guard needs expected, the text", path)
            return None
        target = guard.get("target")
        if isinstance(target, dict) and "ref" in target:
            self._problem(
                ErrorCode.INVALID_INPUT,
                "a guard names its element by role and name: a snapshot ref changes between "
                "snapshots, and an exported test could not ask the page for it",
                f"{path}/target",
            )
            return None
        if location is None:
            return None
        if isinstance(target, dict):
            if not self._spelled(
                str(target.get("role")), str(target.get("name")), f"{path}/target"
            ):
                return None
            if not self._shown_by_some_fixture(target, location):
                role, name = target.get("role"), target.get("name")
                self._problem(
                    ErrorCode.UNKNOWN_TARGET,
                    f"no fixture of {self.fixture.app_id} shows {role} {quoted(name)} on "
                    f"{location.route}{self._since()}, so this guard could never hold",
                    f"{path}/target",
                )
                return None
        return guard_holds(guard, location)

    def _shown_by_some_fixture(self, target: Mapping[str, Any], location: Location) -> bool:
        role, name = str(target.get("role")), str(target.get("name"))
        for fixture in [self.fixture, *other_fixtures(self.fixture)]:
            seen = as_seen_by(location, fixture)
            view = seen.view
            if any(targets.matches(e, role, name, view) for e in view.elements_with_role(role)):
                return True
        return False
