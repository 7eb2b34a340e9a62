"""Which element a target names on the page a journey is on, and what to say when none.

:class:`TargetChecks` resolves a target with the rule of :mod:`automium.journeys.targets`
on the page the walk is on: one element, several (``ambiguous_target``), none
(``unknown_target``, with the near misses and the routes where it is), or one only a
dynamic list of the page may show (:data:`~automium.journeys.findings.UNCERTAIN`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from automium import corpus
from automium.accessible_names import normalized
from automium.contracts import ErrorCode, WarningCode
from automium.corpus.pages import Element, pages
from automium.errors import quoted
from automium.journeys import observed, targets
from automium.journeys.findings import (
    REF_WARNING,
    UNCERTAIN,
    Findings,
    Uncertain,
)
from automium.journeys.page_walk import Location


class TargetChecks(Findings):
    """Target resolution over the walk's state."""

    def _resolve(
        self, target: Mapping[str, Any], path: str, location: Location
    ) -> Element | Uncertain | None:
        """The one element ``target`` names on the page, :data:`UNCERTAIN` when only a
        dynamic list of the page may show it, or ``None`` after a problem."""
        if "ref" in target:
            return self._by_ref(str(target["ref"]), path, location)
        role, name, nth = target.get("role"), target.get("name"), target.get("nth")
        if (
            not isinstance(role, str)
            or not isinstance(name, str)
            or not self._spelled(role, name, path)
        ):
            return None
        view = location.view
        found = [e for e in view.elements_with_role(role) if targets.matches(e, role, name, view)]
        visible = [e for e in found if location.visible(e)]
        if not visible:
            if not found and self._dynamic_may_show(role, name, location):
                return UNCERTAIN
            self._missing(role, name, path, location, hidden=bool(found))
            return None
        if nth is None and len(visible) > 1:
            self._problem(
                ErrorCode.AMBIGUOUS_TARGET,
                f"{len(visible)} elements match {role} {quoted(name)} on {view.route_id}; "
                "add nth to pick one (Playwright's strict mode refuses an ambiguous locator)",
                path,
                self._choices(visible, location),
            )
            return None
        return self._pick(visible, nth, f"{role} {quoted(name)}", path, location)

    def _pick(
        self, visible: list[Element], nth: object, line: str, path: str, location: Location
    ) -> Element | Uncertain | None:
        index = nth if isinstance(nth, int) else 0
        if index < len(visible):
            return visible[index]
        if any(observed.uncertain(e, location) for e in visible):
            return UNCERTAIN  # a dynamic list may show more rows than the model's sample
        self._problem(
            ErrorCode.UNKNOWN_TARGET,
            f"nth {index} is out of range: {len(visible)} element(s) match {line} "
            f"on {location.route}",
            f"{path}/nth",
            self._choices(visible, location),
        )
        return None

    def _by_ref(self, ref: str, path: str, location: Location) -> Element | None:
        self._warn(WarningCode.SNAPSHOT_REF, path, REF_WARNING.format(ref=ref))
        element = location.view.template.find(ref)
        if element is None or not location.view.present[element.index]:
            self._problem(ErrorCode.UNKNOWN_TARGET, f"no node {ref} on {location.route}", path)
            return None
        return element

    def _spelled(self, role: str, name: str, path: str) -> bool:
        """Whether the role is a WAI-ARIA role and the name is no selector (else a problem)."""
        if role not in targets.ROLES:
            near = targets.nearest_roles(role)
            hint = f"; did you mean {quoted(near[0])}?" if near else ""
            self._problem(
                ErrorCode.UNKNOWN_ROLE,
                f"{quoted(role)} is not a WAI-ARIA 1.2 role{hint}",
                f"{path}/role",
                near,
            )
            return False
        if syntax := targets.locator_syntax(name):
            self._problem(
                ErrorCode.INVALID_LOCATOR,
                f"name {quoted(name)} looks like {syntax}; targets are an ARIA role and an "
                "accessible name as the page model shows them, never CSS, XPath or script",
                f"{path}/name",
            )
            return False
        return True

    def _choices(self, elements: Sequence[Element], location: Location) -> list[str]:
        everything = location.view.template.elements
        return [
            f"{i}: {e.line(location.view.name(e))} {targets.context(e, everything, location.view)}"
            for i, e in enumerate(elements)
        ]

    def _missing(
        self, role: str, name: str, path: str, location: Location, *, hidden: bool
    ) -> None:
        view = location.view
        line = f"{role} {quoted(name)}"
        if hidden:
            message = (
                f"{line} is on {view.route_id} but hidden at this point: nothing before reveals it"
            )
        else:
            message = f"no {line} on {view.route_id}{self._since()}"
            elsewhere = self._routes_with(role, name)
            if elsewhere:
                message += f"; {line} is on {', '.join(elsewhere)}"
        # Never a sample row of a dynamic list: a run may not show it, so it is no fix.
        steady = (e for e in view.elements() if not observed.uncertain(e, location))
        candidates = targets.near_misses(role, name, steady, view)
        if candidates and not hidden:
            message += "; closest here: " + ", ".join(candidates[:3])
        self._problem(ErrorCode.UNKNOWN_TARGET, message, path, candidates)

    def _dynamic_may_show(self, role: str, name: str, location: Location) -> bool:
        """Whether a ``[dynamic]`` node of the page has elements of ``role`` and ``name``
        is one the app can show there: a name the app shows somewhere (a product in the
        cart), a value the journey typed (a new todo), or a sample's name with one such
        name put for another ("Remove Linen tea towel" for "Remove Stoneware mug")."""
        view = location.view
        samples = [
            view.name(e) or ""
            for e in view.elements_with_role(role)
            if observed.uncertain(e, location) and location.visible(e)
        ]
        if not samples:
            return False
        wanted = normalized(name)
        known = _dynamic_names(self.fixture.app_id) | self.typed
        if wanted in known:
            return True
        if _NUMBER.search(wanted) and _shape(wanted) in {_shape(s) for s in samples}:
            return True  # a number the app computes (a balance, a total) in the sample's place
        for sample in samples:
            for part in known:
                if part and part in sample:
                    head, tail = sample.split(part, 1)
                    if (
                        wanted.startswith(head)
                        and wanted.endswith(tail)
                        and wanted[len(head) : len(wanted) - len(tail)] in known
                    ):
                        return True
        return False

    def _somewhere(self, target: Mapping[str, Any], path: str) -> None:
        """On a page the model lost, a target that exists on no page of the app, in no
        fixture, is still refused: no run can find it."""
        role, name = target.get("role"), target.get("name")
        if not isinstance(role, str) or not isinstance(name, str):
            return
        if not self._spelled(role, name, path):
            return
        if self._in_app(role, name) or normalized(name) in self.typed:
            return
        self._problem(
            ErrorCode.UNKNOWN_TARGET,
            f"no {role} {quoted(name)} on any page of {self.fixture.app_id}",
            path,
        )

    def _routes_with(self, role: str, name: str) -> list[str]:
        found = []
        for template in pages(self.fixture.app_id):
            view = template.view(self.fixture, None)
            if any(
                targets.matches(e, role, name, view) and view.name(e) is not None
                for e in view.elements()
            ):
                found.append(template.route_id)
        return found

    def _since(self) -> str:
        return f" (after step {quoted(self.since)})" if self.since else ""

    def _in_app(self, role: str, name: str) -> bool:
        """Whether any page of the app shows ``role`` and ``name`` to any fixture, an
        element named after an entity counting under each entity's label."""
        return (role, normalized(name)) in _app_targets(self.fixture.app_id)


_NUMBER = re.compile(r"\d")
_DIGITS = re.compile(r"\d[\d,]*")


def _shape(name: str) -> str:
    """A name with its numbers blanked: "$3,165.18" and "$912.40" have the same shape."""
    return _DIGITS.sub("0", normalized(name))


@cache
def _app_targets(app_id: str) -> frozenset[tuple[str, str]]:
    """Every (role, name) any fixture of the app sees on any page, entity labels included."""
    found: set[tuple[str, str]] = set()
    for fixture in corpus.fixtures(app_id):
        labels = [e.label for e in fixture.entities]
        for template in pages(app_id):
            view = template.view(fixture, None)
            for element in view.elements():
                if element.annotated("name_from_entity"):
                    found.update((element.role, normalized(label)) for label in labels)
                else:
                    found.add((element.role, normalized(element.name)))
    return frozenset(found)


@cache
def _dynamic_names(app_id: str) -> frozenset[str]:
    """What a dynamic list of the app may hold: its entities' labels (a product, a
    ticket) and the names of the samples its dynamic lists show, on any page."""
    names: set[str] = set()
    for fixture in corpus.fixtures(app_id):
        names.update(normalized(e.label) for e in fixture.entities)
        for template in pages(app_id):
            view = template.view(fixture, None)
            elements = view.template.elements
            names.update(
                normalized(e.name)
                for e in view.elements()
                if e.name and any(elements[i].dynamic for i in (*e.ancestors, e.index))
            )
    return frozenset(names)
