"""Every assertion of a journey against what the page models know at its step.

:class:`AssertionChecks` refuses an assertion the models contradict
(``assertion_contradicted``, ``route_not_reached``, with what they observe in ``allowed``)
and lists what only a run can know as unchecked; TodoMVC's list is followed
(:mod:`automium.journeys.todo_state`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from automium.accessible_names import normalized
from automium.contracts import ErrorCode, UncheckedReason, WarningCode
from automium.corpus.pages import Element
from automium.errors import quoted
from automium.journeys import observed, targets, todo_state
from automium.journeys.findings import REF_WARNING, Uncertain, target_line
from automium.journeys.observed import SELECT_ROLES
from automium.journeys.page_walk import FIELD_ROLES, Location
from automium.journeys.target_checks import TargetChecks

_VALUE_ROLES = FIELD_ROLES | SELECT_ROLES | frozenset({"slider"})


class AssertionChecks(TargetChecks):
    """Assertion checks over the walk's state and its target resolution."""

    def _assertion(self, assertion: Mapping[str, Any], path: str) -> None:
        self.since = str(assertion.get("afterStep"))
        visit = self.result.after(self.since)
        if visit is None:
            return  # an unknown step: reported
        location = visit.after
        kind = assertion.get("kind")
        target = assertion.get("target")
        if location is None:
            self._on_lost_page(assertion, path)
        elif (
            isinstance(target, dict)
            and visit.todos is not None
            and self._todo_assertion(assertion, path, target, visit.todos, location)
        ):
            pass
        elif kind == "route_is":
            self._route(assertion, path, location)
        elif not isinstance(target, dict):
            pass  # the contract refused it
        elif kind == "hidden":
            self._hidden(target, f"{path}/target", location, assertion=path)
        elif kind == "count_equals":
            self._count(assertion, path, target, location)
        elif kind != "visible" or not self._shown_later(target, f"{path}/target", location):
            self._on_target(assertion, path, target, location)

    def _todo_assertion(
        self,
        assertion: Mapping[str, Any],
        path: str,
        target: Mapping[str, Any],
        todos: todo_state.Todos,
        location: Location,
    ) -> bool:
        """An assertion on what TodoMVC's list decides: its rows, counter and Clear
        completed; ``False`` for any other (the page model checks it)."""
        key = (target.get("role"), target.get("name"))
        if key in todo_state.ROW_TARGETS:
            count = len(todos.shown(location.route))
        elif key == todo_state.CLEAR:
            count = int(todos.any_completed)
        elif key == todo_state.LEFT:
            count = int(bool(todos.rows))
        else:
            return False
        kind = assertion.get("kind")
        observed_text = todos.counter() if key == todo_state.LEFT and todos.rows else None
        where, seen, holds = f"{path}/target", "", True
        if kind == "count_equals":
            where, seen, holds = f"{path}/count", str(count), assertion.get("count") == count
        elif kind == "visible":
            seen, holds = ("visible" if count else "hidden"), count > 0
        elif kind == "hidden":
            seen, holds = ("visible" if count else "hidden"), count == 0
        elif kind in ("text_equals", "text_contains") and key == todo_state.LEFT:
            expected = normalized(str(assertion.get("expected", "")))
            seen = observed_text or "hidden (no todos)"
            where = f"{path}/expected"
            holds = observed_text is not None and (
                expected in observed_text if kind == "text_contains" else expected == observed_text
            )
        else:
            return False
        if not holds:
            self._problem(
                ErrorCode.ASSERTION_CONTRADICTED,
                f"after step {quoted(self.since)} TodoMVC's list shows {seen} for "
                f"{target_line(target)} on {location.route} (rows: "
                + (", ".join(f"{quoted(t)}{' done' if d else ''}" for t, d in todos.rows) or "none")
                + "), so this assertion would fail",
                where,
                [seen],
            )
        return True

    def _route(self, assertion: Mapping[str, Any], path: str, location: Location) -> None:
        route = assertion.get("route")
        if location.doubt:
            self._unchecked(
                path,
                UncheckedReason.UNKNOWN_PAGE,
                f"assertion {quoted(assertion.get('id'))}: the route after step "
                f"{quoted(self.since)} rests on {location.doubt.split('; ')[0]}",
            )
            return
        if isinstance(route, str) and route != location.route:
            self._problem(
                ErrorCode.ROUTE_NOT_REACHED,
                f"after step {quoted(assertion.get('afterStep'))} the journey is on "
                f"{location.route}, not {route}",
                f"{path}/route",
                [location.route],
            )

    def _on_target(
        self,
        assertion: Mapping[str, Any],
        path: str,
        target: Mapping[str, Any],
        location: Location,
    ) -> None:
        where = f"{path}/target"
        element = self._resolve(target, where, location)
        if isinstance(element, Uncertain):
            self._unchecked(
                path,
                UncheckedReason.DYNAMIC_PRESENCE,
                f"assertion {quoted(assertion.get('id'))}: {target_line(target)} "
                "is in a dynamic list of "
                f"{location.route}, which the page model only samples",
            )
        elif element is not None:
            self._on_element(assertion, path, element, location)

    def _on_lost_page(self, assertion: Mapping[str, Any], path: str) -> None:
        target = assertion.get("target")
        if isinstance(target, dict):
            self._somewhere(target, f"{path}/target")
        self._unchecked(
            path,
            UncheckedReason.UNKNOWN_PAGE,
            f"assertion {quoted(assertion.get('id'))}: the page after step {quoted(self.since)} is "
            f"unknown ({self.unknown_why or 'the model does not follow it'})",
        )

    def _on_element(
        self, assertion: Mapping[str, Any], path: str, element: Element, location: Location
    ) -> None:
        """A visible, text or value assertion on the one element it names."""
        kind = assertion.get("kind")
        if kind == "value_equals":
            if element.role not in _VALUE_ROLES:
                self._problem(
                    ErrorCode.TARGET_NOT_ACTIONABLE,
                    f"value_equals needs a form field, and {element.line()} has no value",
                    f"{path}/target",
                )
                return
            self._compare(assertion, path, element, observed.value(element, location), location)
        elif kind in ("text_equals", "text_contains"):
            self._compare(assertion, path, element, observed.text(element, location), location)
        elif kind == "visible" and observed.uncertain(element, location):
            self._unchecked(
                path,
                UncheckedReason.DYNAMIC_PRESENCE,
                f"assertion {quoted(assertion.get('id'))}: whether "
                f"{element.line(location.view.name(element))} shows on {location.route} "
                "depends on the app's data at run time",
            )

    def _shown_later(self, target: Mapping[str, Any], where: str, location: Location) -> bool:
        """A visible assertion on an element the page has but does not show at this point:
        refused as contradicted (the model knows it is hidden), or unchecked when it is
        dynamic. ``False`` when the element shows, or is not on the page at all."""
        role, name = target.get("role"), target.get("name")
        if "ref" in target or not isinstance(role, str) or not isinstance(name, str):
            return False
        view = location.view
        found = [e for e in view.elements_with_role(role) if targets.matches(e, role, name, view)]
        if not found or any(location.visible(e) for e in found):
            return False
        if all(observed.uncertain(e, location) for e in found):
            return False  # the dynamic-list rule decides (unchecked or not)
        self._problem(
            ErrorCode.ASSERTION_CONTRADICTED,
            f"{role} {quoted(name)} is on {view.route_id} "
            f"but hidden after step {quoted(self.since)} "
            "(nothing before reveals it), so this visible assertion would fail",
            where,
            ["hidden"],
        )
        return True

    def _compare(
        self,
        assertion: Mapping[str, Any],
        path: str,
        element: Element,
        actual: str | None,
        location: Location,
    ) -> None:
        """An expected text or value against what the page shows, refused when they differ."""
        expected = assertion.get("expected")
        kind = str(assertion.get("kind"))
        if not isinstance(expected, str):
            return
        line = element.line(location.view.name(element))
        if location.unsure and kind == "value_equals":
            return  # a refused step before may have meant to set it: no echo of that problem
        if actual is None:
            reason = (
                UncheckedReason.DYNAMIC_VALUE
                if kind == "value_equals"
                else UncheckedReason.DYNAMIC_TEXT
            )
            what = "value" if kind == "value_equals" else "text"
            self._unchecked(
                path,
                reason,
                f"assertion {quoted(assertion.get('id'))}: the {what} of {line} "
                + (
                    "changed in a way the model does not follow (a key typed, a submit)"
                    if location.journey_value(element.index) == (True, None)
                    else "is dynamic (the app sets it at run time)"
                ),
            )
            return
        # toHaveValue compares a value exactly; a text is compared normalised.
        wanted = expected if kind == "value_equals" else normalized(expected)
        holds = wanted in actual if kind == "text_contains" else actual == wanted
        if not holds:
            verb = "contain" if kind == "text_contains" else "equal"
            source = (
                "what the journey set"
                if location.journey_value(element.index)[0]
                else "the page model"
            )
            message = (
                f"{line} reads {quoted(actual)} after step {quoted(self.since)} ({source}), which "
                f"does not {verb} {quoted(expected)}, so this assertion would fail"
            )
            if kind == "value_equals" and observed.is_select(element, location):
                # A select's value is its chosen option's value, not the label a user sees.
                shown = observed.option_elements(element, location)
                labels = {
                    observed.option_value(o, location): location.view.name(o) or "" for o in shown
                }
                message += "; a select's value is its chosen option's value: " + ", ".join(
                    f"{quoted(v)} (labelled {quoted(n)})" for v, n in labels.items()
                )
            self._problem(ErrorCode.ASSERTION_CONTRADICTED, message, f"{path}/expected", [actual])

    def _count(
        self,
        assertion: Mapping[str, Any],
        path: str,
        target: Mapping[str, Any],
        location: Location,
    ) -> None:
        count = assertion.get("count")
        role, name = target.get("role"), target.get("name")
        if not isinstance(count, int) or not isinstance(role, str) or not isinstance(name, str):
            return
        where = f"{path}/target"
        if not self._spelled(role, name, where):
            return
        view = location.view
        here = [e for e in view.elements_with_role(role) if targets.matches(e, role, name, view)]
        if any(observed.uncertain(e, location) and location.visible(e) for e in here) or (
            not here and self._dynamic_may_show(role, name, location)
        ):
            self._unchecked(
                path,
                UncheckedReason.DYNAMIC_COUNT,
                f"assertion {quoted(assertion.get('id'))}: how many {target_line(target)} "
                "a run shows on "
                f"{location.route} depends on what the journey did there (a dynamic list)",
            )
            return
        if not here and not self._in_app(role, name):
            self._missing(role, name, where, location, hidden=False)
            return
        shown = sum(1 for e in here if location.visible(e))
        if shown != count and not location.unsure:
            self._problem(
                ErrorCode.ASSERTION_CONTRADICTED,
                f"{shown} element(s) match {target_line(target)} on {location.route} after step "
                f"{quoted(self.since)}, not {count}, so this assertion would fail",
                f"{path}/count",
                [str(shown)],
            )

    def _hidden(
        self,
        target: Mapping[str, Any],
        where: str,
        location: Location,
        *,
        assertion: str | None = None,
    ) -> None:
        """A target that must be hidden or absent: it must exist in the app's models, and
        for an ``assertion`` (its path) the model must not show it here."""
        if "ref" in target:
            self._warn(WarningCode.SNAPSHOT_REF, where, REF_WARNING.format(ref=target["ref"]))
            return  # an absent node is what a hidden target may be: nothing to look up
        role, name = target.get("role"), target.get("name")
        if not isinstance(role, str) or not isinstance(name, str):
            return
        if not self._spelled(role, name, where):
            return
        view = location.view
        here = [e for e in view.elements_with_role(role) if targets.matches(e, role, name, view)]
        if not here and not self._in_app(role, name):
            if assertion is not None and self._dynamic_may_show(role, name, location):
                self._unchecked(
                    assertion,
                    UncheckedReason.DYNAMIC_PRESENCE,
                    f"{target_line(target)} may be in a dynamic list of {location.route}",
                )
                return
            self._missing(role, name, where, location, hidden=False)
            return
        shown = [e for e in here if location.visible(e)]
        if assertion is None or not shown:
            return
        if any(not observed.uncertain(e, location) for e in shown):
            self._problem(
                ErrorCode.ASSERTION_CONTRADICTED,
                f"{role} {quoted(name)} is visible on {view.route_id} "
                f"after step {quoted(self.since)} in "
                "the page model, so this hidden assertion would fail; check the step it follows",
                where,
                ["visible"],
            )
        else:
            self._unchecked(
                assertion,
                UncheckedReason.DYNAMIC_PRESENCE,
                f"whether {target_line(target)} is gone from {location.route} depends on the app's "
                "data at run time",
            )
