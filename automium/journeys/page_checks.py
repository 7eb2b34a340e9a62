"""Check every step and assertion of a journey against the pages it goes through.

:func:`walk` follows a journey from page to page (:mod:`automium.journeys.tracking`) and
checks each target against the page the journey is on at that step, with the matching rule
of :mod:`automium.journeys.targets`. It finds every problem in one pass and returns, with
them, the warnings (suspicious but valid) and the trace of pages visited, which the run
timeline and the benchmark model read.

It runs on the raw document after the contract and corpus checks; a step those already
refused (by path) is not checked again, and the page after it is unknown.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from automium import corpus
from automium.accessible_names import normalized
from automium.contracts import ErrorCode, Fixture, WarningCode
from automium.corpus.pages import Element, pages
from automium.errors import Problem, pointer, quoted
from automium.journeys import targets
from automium.journeys.tracking import (
    FIELD_ROLES,
    Change,
    Location,
    activate,
    go_back,
    open_route,
    submit_target,
)

Step = Mapping[str, Any]
Outcome = tuple["Location | None", "Element | None", list["Change"]]
"""The page after a step, the element it acted on, and what it changed."""

_SELECT_ROLES = frozenset({"combobox", "listbox"})
_CHECK_ROLES = frozenset({"checkbox", "switch", "radio", "menuitemcheckbox", "menuitemradio"})
_VALUE_ROLES = FIELD_ROLES | _SELECT_ROLES | frozenset({"slider"})
# Intents that need the element to be enabled (hover, scroll and waiting do not).
_NEEDS_ENABLED = frozenset(
    {"click", "fill", "clear", "select_option", "check", "uncheck", "upload_file", "press_key"}
)
_REF_WARNING = (
    "{ref} is a snapshot ref: refs change between snapshots, so the journey breaks when the "
    "page does; prefer role and name"
)


@dataclass(frozen=True, slots=True)
class Warning:
    """A finding that does not make the journey invalid."""

    code: WarningCode
    path: str
    message: str


@dataclass(frozen=True, slots=True)
class Visit:
    """One step: where it started, the element it acted on, where it ended, what happened."""

    index: int
    step_id: str
    before: Location | None
    element: Element | None
    after: Location | None
    happened: tuple[Change, ...] = ()


@dataclass
class Walk:
    """Everything :func:`walk` found."""

    problems: list[Problem] = field(default_factory=list)
    warnings: list[Warning] = field(default_factory=list)
    visits: list[Visit] = field(default_factory=list)

    def after(self, step_id: str) -> Visit | None:
        return next((v for v in self.visits if v.step_id == step_id), None)


def walk(document: Mapping[str, Any], fixture: Fixture, refused: frozenset[str]) -> Walk:
    """Follow ``document`` (already known to name ``fixture``) through its pages.

    ``refused`` holds the paths other checks already reported: those steps are not checked
    again, and the page after one of them is unknown.
    """
    return _Walker(fixture, refused).run(document)


def _items(value: object) -> list[Any]:
    """``value`` when it is an array, else nothing to walk (a caller may send any JSON)."""
    return value if isinstance(value, list) else []


class _Walker:
    def __init__(self, fixture: Fixture, refused: frozenset[str]) -> None:
        self.fixture = fixture
        self.refused = refused
        # Every path with a problem at it or inside it, found once instead of per step.
        self._refused_within = {path[:end] for path in refused for end in _ends(path)}
        self.result = Walk()
        self.since: str | None = None  # the step whose page is being checked

    # -- steps ------------------------------------------------------------------------------

    def run(self, document: Mapping[str, Any]) -> Walk:
        # Type checks before iterating: the contract refused a non-array, the walk skips it.
        steps = [s if isinstance(s, dict) else {} for s in _items(document.get("steps"))]
        self._start_warnings(steps)
        location: Location | None = None
        for index, step in enumerate(steps):
            path = pointer("steps", index)
            if self._refused(path):
                location = None  # the contract refused the step: what it does is unknown
                self.result.visits.append(Visit(index, str(step.get("id", "")), None, None, None))
                continue
            after, element, happened = self._step(step, path, location)
            self.since = str(step.get("id", ""))
            self.result.visits.append(
                Visit(index, str(step.get("id", "")), location, element, after, tuple(happened))
            )
            location = after
        for index, assertion in enumerate(_items(document.get("assertions"))):
            if isinstance(assertion, dict) and not self._refused(pointer("assertions", index)):
                self._assertion(assertion, pointer("assertions", index))
        return self.result

    def _start_warnings(self, steps: Sequence[Step]) -> None:
        if not steps:
            return
        first = steps[0].get("intent")
        if first == "go_back":
            self._warn(
                WarningCode.STARTS_WITH_GO_BACK,
                pointer("steps", 0),
                "the journey starts with go_back: there is no page to go back to yet, so the "
                "page stays unknown until a navigate; start with navigate",
            )
        elif first != "navigate":
            self._warn(
                WarningCode.NO_INITIAL_NAVIGATE,
                pointer("steps", 0),
                "the journey does not start with navigate, so the page it starts on is unknown "
                "and its first steps are not checked; start with navigate to a route",
            )

    def _step(self, step: Step, path: str, location: Location | None) -> Outcome:
        intent = step.get("intent")
        if intent == "navigate":
            return self._navigate(step, path, location)
        if intent == "go_back":
            return self._back(step, path, location)
        if intent == "upload_file":
            self._file(step, path)  # the fixture's files, whatever the page
        target = step.get("target")
        if target is None:  # press_key and scroll may go without one
            return (
                self._key(step, path, location, None) if intent == "press_key" else _stay(location)
            )
        if intent == "wait_for" and step.get("state") == "hidden" and isinstance(target, dict):
            # Waiting for an element to go away: like a hidden assertion, it need not be shown.
            if location is not None:
                self._hidden(target, pointer(*_parts(path), "target"), location, expect=False)
            return _stay(location)
        return self._act(step, path, location, target)

    def _act(self, step: Step, path: str, location: Location | None, target: object) -> Outcome:
        """A step on an element: resolve it, check it can be acted on, apply what it does."""
        if not isinstance(target, dict):
            return _stay(location)
        if location is None:
            self._unseen_secret(step, path, target)
            return _stay(None)
        element = self._resolve(target, pointer(*_parts(path), "target"), location)
        if element is None or not self._actionable(step, path, location, element):
            return None, element, []  # refused: where the step would lead is unknown
        intent = step.get("intent")
        focused = replace(location, focus=element.index)
        if intent == "press_key":
            return self._key(step, path, focused, element)
        if intent not in ("click", "check", "uncheck"):
            # fill, clear, select_option and upload_file move the focus; the others do not.
            moves_focus = intent in ("fill", "clear", "select_option", "upload_file")
            return (focused if moves_focus else location), element, []
        after, happened = activate(focused, element)
        if after is None:
            self._lose(step, path, f"{element.line()} is a link the page model does not follow")
        return after, element, happened

    def _back(self, step: Step, path: str, location: Location | None) -> Outcome:
        if location is None:
            return _stay(None)
        previous = go_back(location)
        if previous is None:
            self._lose(step, path, "there is no earlier page to go back to")
        return previous, None, [Change("back", previous.route if previous else None)]

    def _navigate(self, step: Step, path: str, location: Location | None) -> Outcome:
        route, entity = step.get("route"), step.get("entity")
        app = corpus.get_app(self.fixture.app_id)
        known = {r.id: r for r in app.routes}
        if not isinstance(route, str) or route not in known:
            return None, None, []  # unknown_route was reported by the corpus check
        needs = ":" in known[route].path
        choices = [e.id for e in self.fixture.entities if e.route == route]
        where = pointer(*_parts(path), "entity")
        if needs and entity is None:
            self._problem(
                ErrorCode.MISSING_ROUTE_PARAM,
                f"route {route} ({known[route].path}) needs an entity: name one of the "
                f"fixture's {route} entities in entity"
                + ("" if choices else f"; {self.fixture.id} has none"),
                where,
                choices,
            )
        elif entity is not None and (not needs or entity not in choices):
            self._problem(
                ErrorCode.UNKNOWN_ROUTE_PARAM,
                f"route {route} takes no parameter; drop entity"
                if not needs
                else f"{quoted(entity)} is not an entity of {self.fixture.id} for route {route}",
                where,
                choices,
            )
        after, redirected = open_route(self.fixture, route, entity if needs else None, location)
        return after, None, [Change("load", after.route, redirected)]

    def _key(
        self, step: Step, path: str, location: Location | None, element: Element | None
    ) -> Outcome:
        """Escape closes the open dialog, Tab moves the focus where the model cannot follow,
        Enter activates the focused element (in a field: its form's default button)."""
        key = step.get("key")
        if location is None or key != "Enter":
            after, happened = _moved(location, key)
            return after, element, happened
        elements = location.view.template.elements
        focused = element or (elements[location.focus] if location.focus is not None else None)
        if focused is None:
            self._lose(step, path, "Enter is pressed with no element in focus")
            return None, None, []
        target = submit_target(location, focused) if focused.role in FIELD_ROLES else focused
        if target is None:
            return location, element, []
        after, happened = activate(location, target)
        if after is None:
            self._lose(
                step, path, f"Enter activates {target.line()}, which the model does not follow"
            )
        return after, element, happened

    # -- targets ------------------------------------------------------------------------------

    def _resolve(
        self, target: Mapping[str, Any], path: str, location: Location, *, count: bool = False
    ) -> Element | None:
        """The one element ``target`` names on the page, or ``None`` after a problem."""
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
            self._missing(role, name, path, location, hidden=bool(found))
            return None
        if count:
            return visible[0]
        if nth is None and len(visible) > 1:
            self._problem(
                ErrorCode.AMBIGUOUS_TARGET,
                f"{len(visible)} elements match {role} {quoted(name)} on {view.route_id}; add nth "
                "to pick one (Playwright's strict mode refuses an ambiguous locator)",
                path,
                self._choices(visible, location),
            )
            return None
        return self._pick(visible, nth, f"{role} {quoted(name)}", path, location)

    def _pick(
        self, visible: list[Element], nth: object, line: str, path: str, location: Location
    ) -> Element | None:
        index = nth if isinstance(nth, int) else 0
        if index < len(visible):
            return visible[index]
        self._problem(
            ErrorCode.UNKNOWN_TARGET,
            f"nth {index} is out of range: {len(visible)} element(s) match {line} "
            f"on {location.route}",
            f"{path}/nth",
            self._choices(visible, location),
        )
        return None

    def _by_ref(self, ref: str, path: str, location: Location) -> Element | None:
        self._warn(WarningCode.SNAPSHOT_REF, path, _REF_WARNING.format(ref=ref))
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
        candidates = targets.near_misses(role, name, view.elements(), view)
        if candidates and not hidden:
            message += "; closest here: " + ", ".join(candidates[:3])
        self._problem(ErrorCode.UNKNOWN_TARGET, message, path, candidates)

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

    def _actionable(self, step: Step, path: str, location: Location, element: Element) -> bool:
        """Whether ``step`` can act on ``element``; a problem when it cannot."""
        intent = str(step.get("intent"))
        where = pointer(*_parts(path), "target")
        line = element.line(location.view.name(element))
        reason = None
        if location.behind_dialog(element):
            dialog = location.view.template.elements[location.dialog or 0]
            reason = f"{line} is behind the open {dialog.line()}; close the dialog first"
        elif intent in _NEEDS_ENABLED and "disabled" in location.view.states[element.index]:
            reason = f"{line} is disabled in {self.fixture.id}"
        elif intent in ("fill", "clear") and element.role not in FIELD_ROLES:
            reason = f"{intent} needs a text field, and {line} is not one"
        elif intent == "select_option" and element.role not in _SELECT_ROLES:
            reason = f"select_option needs a combobox or listbox, and {line} is not one"
        elif intent in ("check", "uncheck") and element.role not in _CHECK_ROLES:
            reason = f"{intent} needs a checkbox, switch or radio, and {line} is not one"
        elif intent == "uncheck" and element.role == "radio":
            reason = f"a radio cannot be unchecked; check another option instead of {line}"
        elif intent == "upload_file" and not element.annotated("accepts_files"):
            reason = f"{line} is not a file input"
        if reason is not None:
            self._problem(ErrorCode.TARGET_NOT_ACTIONABLE, reason, where)
            return False
        if intent == "select_option":
            self._option(step, path, location, element)
        elif intent == "fill":
            self._secret(step, path, element)
        return True

    def _option(self, step: Step, path: str, location: Location, element: Element) -> None:
        value = step.get("value")
        options = [
            location.view.name(e) or ""
            for e in location.view.elements()
            if e.role == "option" and element.index in e.ancestors
        ]
        if isinstance(value, str) and normalized(value) not in {normalized(o) for o in options}:
            self._problem(
                ErrorCode.UNKNOWN_OPTION,
                f"{quoted(value)} is not an option of {element.line()}",
                pointer(*_parts(path), "value"),
                options,
            )

    def _secret(self, step: Step, path: str, element: Element) -> None:
        kind = element.secret
        refs = [r.root for r in self.fixture.secret_refs]
        fitting = [r for r in refs if kind and r.endswith(f"#{kind}")]
        if kind and "value" in step:
            use = f'"secretRef": "{fitting[0]}"' if fitting else "a secretRef"
            self._problem(
                ErrorCode.LITERAL_SECRET,
                f"{element.line()} is a {kind} field: never type a secret into a journey; "
                f"use {use} instead of value"
                + ("" if fitting else f" ({self.fixture.id} names no {kind})"),
                pointer(*_parts(path), "value"),
                fitting,
            )
        elif "secretRef" in step and (not kind or step["secretRef"] not in fitting):
            self._problem(
                ErrorCode.INVALID_INPUT,
                f"{element.line()} takes a value, not a secretRef"
                if not kind
                else f"{quoted(step['secretRef'])} is not a {kind} of {self.fixture.id}",
                pointer(*_parts(path), "secretRef"),
                fitting,
            )

    def _unseen_secret(self, step: Step, path: str, target: Mapping[str, Any]) -> None:
        """On a page the tracker lost, a literal typed into a field the app's pages mark
        secret is still refused: it would otherwise be echoed into the graph's labels."""
        role, name = target.get("role"), target.get("name")
        if step.get("intent") != "fill" or not isinstance(role, str) or not isinstance(name, str):
            return
        for template in pages(self.fixture.app_id):
            view = template.view(self.fixture, None)
            for element in view.elements():
                if element.secret and targets.matches(element, role, name, view):
                    self._secret(step, path, element)
                    return

    def _file(self, step: Step, path: str) -> None:
        ref = step.get("fileRef")
        files = [f.ref for f in self.fixture.files]
        if not isinstance(ref, str) or ref in files:
            return
        dotted = ".." in ref.split("/", 1)[-1].split(".") or "/.." in ref or ref.endswith("/..")
        self._problem(
            ErrorCode.UNKNOWN_FILE_REF,
            f"{quoted(ref)} is a path, not a file the fixture ships"
            if dotted
            else f"{quoted(ref)} is not a file of {self.fixture.id}; upload one it ships",
            pointer(*_parts(path), "fileRef"),
            files,
        )

    # -- assertions ---------------------------------------------------------------------------

    def _assertion(self, assertion: Mapping[str, Any], path: str) -> None:
        self.since = str(assertion.get("afterStep"))
        visit = self.result.after(self.since)
        location = visit.after if visit is not None else None
        if location is None:
            return  # an unknown step (reported), or a page the model lost (a warning)
        kind = assertion.get("kind")
        if kind == "route_is":
            route = assertion.get("route")
            if isinstance(route, str) and route != location.route:
                self._problem(
                    ErrorCode.ROUTE_NOT_REACHED,
                    f"after step {quoted(assertion.get('afterStep'))} the journey is on "
                    f"{location.route}, not {route}",
                    f"{path}/route",
                    [location.route],
                )
            return
        target = assertion.get("target")
        if not isinstance(target, dict):
            return
        where = f"{path}/target"
        if kind == "hidden":
            self._hidden(target, where, location)
            return
        element = self._resolve(target, where, location, count=kind == "count_equals")
        if element is None:
            return
        if kind == "value_equals" and element.role not in _VALUE_ROLES:
            self._problem(
                ErrorCode.TARGET_NOT_ACTIONABLE,
                f"value_equals needs a form field, and {element.line()} has no value",
                where,
            )
        elif kind in ("text_equals", "text_contains") and not self._dynamic(element, location):
            self._text(assertion, path, element, location)

    def _hidden(
        self, target: Mapping[str, Any], where: str, location: Location, *, expect: bool = True
    ) -> None:
        """A target that must be hidden or absent: it must exist in the app's models, and
        when ``expect`` (an assertion) the model must not show it here."""
        if "ref" in target:
            self._warn(WarningCode.SNAPSHOT_REF, where, _REF_WARNING.format(ref=target["ref"]))
            return  # an absent node is what a hidden target may be: nothing to look up
        role, name = target.get("role"), target.get("name")
        if not isinstance(role, str) or not isinstance(name, str):
            return
        view = location.view
        here = [e for e in view.elements_with_role(role) if targets.matches(e, role, name, view)]
        if not here and not self._in_app(role, name):
            self._missing(role, name, where, location, hidden=False)
            return
        shown = [e for e in here if location.visible(e) and not self._dynamic(e, location)]
        if shown and expect:
            self._warn(
                WarningCode.CONTRADICTED_EXPECTATION,
                where,
                f"{role} {quoted(name)} is visible on {view.route_id} at this point in the page "
                "model, so this hidden assertion would fail; check the step it follows",
            )

    def _in_app(self, role: str, name: str) -> bool:
        for fixture in corpus.fixtures(self.fixture.app_id):
            for template in pages(self.fixture.app_id):
                view = template.view(fixture, None)
                if any(targets.matches(e, role, name, view) for e in view.elements_with_role(role)):
                    return True
        return False

    def _text(
        self, assertion: Mapping[str, Any], path: str, element: Element, location: Location
    ) -> None:
        expected = assertion.get("expected")
        if not isinstance(expected, str):
            return
        text = (
            location.view.name(element) if element.annotated("name_from_entity") else element.text
        )
        if text is None:
            return  # the label of an entity the model does not know
        actual = normalized(text)
        holds = (
            actual == normalized(expected)
            if assertion.get("kind") == "text_equals"
            else normalized(expected) in actual
        )
        if not holds:
            self._warn(
                WarningCode.CONTRADICTED_EXPECTATION,
                f"{path}/expected",
                f"{element.line()} reads {quoted(actual)} in the page model, which does not "
                f"{'equal' if assertion.get('kind') == 'text_equals' else 'contain'} "
                f"{quoted(expected)}",
            )

    @staticmethod
    def _dynamic(element: Element, location: Location) -> bool:
        elements = location.view.template.elements
        return element.dynamic or any(elements[i].dynamic for i in element.ancestors)

    # -- bookkeeping --------------------------------------------------------------------------

    def _refused(self, path: str) -> bool:
        """Whether a problem was reported at ``path`` or inside it."""
        return path in self._refused_within

    def _lose(self, step: Step, path: str, why: str) -> None:
        self._warn(
            WarningCode.UNKNOWN_EFFECT,
            path,
            f"after step {quoted(step.get('id'))} the page is unknown ({why}), so the steps and "
            "assertions after it are not checked against pages until the next navigate",
        )

    def _problem(
        self, code: ErrorCode, message: str, path: str, allowed: Sequence[str] = ()
    ) -> None:
        self.result.problems.append(Problem(code, message, path, tuple(allowed)))

    def _warn(self, code: WarningCode, path: str, message: str) -> None:
        self.result.warnings.append(Warning(code, path, message))


def _moved(location: Location | None, key: object) -> tuple[Location | None, list[Change]]:
    """The page after a key other than Enter: Escape closes the open dialog, Tab moves the
    focus where the model cannot follow it, and other keys type into the focused field."""
    if location is not None and key == "Escape" and location.dialog is not None:
        closed = replace(location, dialog=None, revealed=location.revealed - {location.dialog})
        return closed, [Change("close_dialog")]
    if location is not None and key == "Tab":
        return replace(location, focus=None), []
    return location, []


def _stay(location: Location | None) -> Outcome:
    return location, None, []


def _parts(path: str) -> Iterator[str | int]:
    for part in path.split("/")[1:]:
        yield int(part) if part.isdecimal() else part


def _ends(path: str) -> Iterator[int]:
    """Where each ancestor pointer of ``path`` ends, ``path`` itself included."""
    yield from (i for i, c in enumerate(path) if c == "/" and i)
    yield len(path)
