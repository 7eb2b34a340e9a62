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
from functools import cache
from typing import Any

from automium import corpus
from automium.contracts import ErrorCode, Fixture, UncheckedReason, WarningCode
from automium.corpus.pages import Element, normalized, pages
from automium.errors import Problem, pointer, quoted
from automium.journeys import observed, targets, todo_state
from automium.journeys.observed import FOCUSABLE_ROLES, SELECT_ROLES
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

_BY_RUN = "proven only by a run (automium run)"
_MOVES = frozenset({"Escape", "Tab", "Shift+Tab", "PageUp", "PageDown", "Home", "End", "F5"})
# Intents that do not change the page: after one is refused, the page is still known.
_STAYS = frozenset(
    {"fill", "clear", "select_option", "check", "uncheck", "hover", "upload_file", "wait_for"}
)
_CHECK_ROLES = frozenset({"checkbox", "switch", "radio", "menuitemcheckbox", "menuitemradio"})
_VALUE_ROLES = FIELD_ROLES | SELECT_ROLES | frozenset({"slider"})
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
class Unchecked:
    """A step or assertion the page models cannot settle: only a run can."""

    path: str
    reason: UncheckedReason
    message: str


class Uncertain:
    """A target matching no element the page model shows, but one a ``[dynamic]`` list of
    the page may show at run time (a cart row, a search result, a new todo)."""


_UNCERTAIN = Uncertain()


@dataclass(frozen=True, slots=True)
class Visit:
    """One step: where it started, the element it acted on, where it ended, what happened."""

    index: int
    step_id: str
    before: Location | None
    element: Element | None
    after: Location | None
    happened: tuple[Change, ...] = ()
    todos: todo_state.Todos | None = None  # TodoMVC's list after the step, when followed


@dataclass
class Walk:
    """Everything :func:`walk` found."""

    problems: list[Problem] = field(default_factory=list)
    warnings: list[Warning] = field(default_factory=list)
    visits: list[Visit] = field(default_factory=list)
    unchecked: list[Unchecked] = field(default_factory=list)

    def unchecked_at(self, path: str) -> Unchecked | None:
        return next((u for u in self.unchecked if u.path == path), None)

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
        self.index = 0  # the step being walked
        self.typed: set[str] = set()  # values the journey typed: a dynamic list may show them
        self.fresh = todo_state.initial(fixture)
        self.todos: todo_state.Todos | None = None  # TodoMVC's list, while it is known
        self.loaded = False
        self.unknown_why = ""  # why the page is unknown, once it is

    # -- steps ------------------------------------------------------------------------------

    def run(self, document: Mapping[str, Any]) -> Walk:
        # Type checks before iterating: the contract refused a non-array, the walk skips it.
        steps = [s if isinstance(s, dict) else {} for s in _items(document.get("steps"))]
        self._start_warnings(steps)
        location: Location | None = None
        self.unknown_why = "the journey does not start with navigate"
        for index, step in enumerate(steps):
            path = pointer("steps", index)
            if self._refused(path):
                location = None  # the contract refused the step: what it does is unknown
                self.result.visits.append(Visit(index, str(step.get("id", "")), None, None, None))
                continue
            if location is None and step.get("intent") != "navigate":
                self._unchecked(
                    path,
                    UncheckedReason.UNKNOWN_PAGE,
                    f"step {step.get('id')!r}: the page is unknown here ({self.unknown_why})",
                )
            self.index = index
            found = len(self.result.problems)
            after, element, happened = self._step(step, path, location)
            if len(self.result.problems) > found:
                self.todos = None  # what a refused step meant to do to the list is unknown
            self.since = str(step.get("id", ""))
            self.result.visits.append(
                Visit(
                    index,
                    str(step.get("id", "")),
                    location,
                    element,
                    after,
                    tuple(happened),
                    self.todos if after is not None else None,
                )
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
        if first == "go_back" and not self._refused(pointer("steps", 0)):
            self._problem(
                ErrorCode.STEP_NOT_POSSIBLE,
                "the journey starts with go_back: a run opens a fresh page, with nothing to go "
                "back to; start with navigate",
                pointer("steps", 0),
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
            return self._back(path, location)
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
                self._hidden(target, pointer(*_parts(path), "target"), location)
            return _stay(location)
        return self._act(step, path, location, target)

    def _act(self, step: Step, path: str, location: Location | None, target: object) -> Outcome:
        """A step on an element: resolve it, check it can be acted on, apply what it does."""
        if not isinstance(target, dict):
            return _stay(location)
        where = pointer(*_parts(path), "target")
        if location is None:
            self._unseen_secret(step, path, target)
            self._somewhere(target, where)
            return _stay(None)
        followed = self._todo_step(step, path, location, target)
        return followed or self._on_target_step(step, path, location, target)

    def _on_target_step(
        self, step: Step, path: str, location: Location, target: Mapping[str, Any]
    ) -> Outcome:
        """A step on the element of the page model ``target`` names."""
        where = pointer(*_parts(path), "target")
        intent = step.get("intent")
        element = self._resolve(target, where, location)
        if isinstance(element, Uncertain):
            return self._uncertain(step, path, location, target)
        if element is None or not self._actionable(step, path, location, element):
            # Refused: a step that cannot change the page leaves it known, so what follows
            # is still checked; after a refused click or key, where it leads is unknown.
            if intent in _STAYS:
                # What the step meant to set is unknown: no value is compared after it.
                return _stay(replace(location, unsure=True))
            self.unknown_why = f"step {step.get('id')!r} is refused"
            return None, element, []
        if observed.uncertain(element, location):
            self._unchecked(
                path,
                UncheckedReason.DYNAMIC_PRESENCE,
                f"step {step.get('id')!r}: whether {element.line(location.view.name(element))} "
                f"is on {location.route} depends on the app's data at run time",
            )
        return self._apply(step, path, location, element)

    def _todo_step(
        self, step: Step, path: str, location: Location, target: Mapping[str, Any]
    ) -> Outcome | None:
        """A step on TodoMVC's rows, its toggle-all or its Clear completed, followed on the
        list; ``None`` for any other step (the page model checks it)."""
        todos = self.todos
        key = (target.get("role"), target.get("name"))
        if (
            todos is None
            or "ref" in target
            or step.get("intent") not in ("click", "check", "uncheck")
            or key not in (*todo_state.ROW_TARGETS, todo_state.CLEAR)
        ):
            return None
        where = pointer(*_parts(path), "target")
        if key == todo_state.CLEAR:
            if not todos.any_completed:
                self._problem(
                    ErrorCode.UNKNOWN_TARGET,
                    f'button "Clear completed" is not shown after step {self.since!r}: no todo '
                    "is completed (TodoMVC shows it only while one is)",
                    where,
                )
            else:
                self.todos = todos.cleared()
            return location, _model_element(location, key), []
        return self._todo_row(step, path, location, target, todos)

    def _todo_row(
        self,
        step: Step,
        path: str,
        location: Location,
        target: Mapping[str, Any],
        todos: todo_state.Todos,
    ) -> Outcome:
        """A toggle or Delete of one of TodoMVC's rows, picked by nth among those shown."""
        key = (target.get("role"), target.get("name"))
        intent = step.get("intent")
        where = pointer(*_parts(path), "target")
        shown = todos.shown(location.route)
        nth = target.get("nth")
        line = _line(target)
        if nth is None and len(shown) > 1:
            self._problem(
                ErrorCode.AMBIGUOUS_TARGET,
                f"{len(shown)} rows show {line} on {location.route} at this point; add nth",
                where,
                [f'{i}: {line} in listitem "{todos.rows[row][0]}"' for i, row in enumerate(shown)],
            )
            return _stay(location)
        index = nth if isinstance(nth, int) else 0
        if index >= len(shown):
            self._problem(
                ErrorCode.UNKNOWN_TARGET,
                f"nth {index} is out of range: {len(shown)} row(s) show {line} on "
                f"{location.route} after step {self.since!r} (rows: "
                + (", ".join(repr(todos.rows[r][0]) for r in shown) or "none")
                + ")",
                f"{where}/nth" if nth is not None else where,
                [f'{i}: {line} in listitem "{todos.rows[row][0]}"' for i, row in enumerate(shown)],
            )
            return _stay(location)
        row = shown[index]
        if key == todo_state.DELETE:
            self.todos = todos.removed(row)
        else:
            done = todos.rows[row][1]
            now = (not done) if intent == "click" else intent == "check"
            if intent != "click" and now == done:
                self._warn(
                    WarningCode.NO_EFFECT,
                    path,
                    f"the row {todos.rows[row][0]!r} is already "
                    f"{'completed' if done else 'active'} at this point, so {intent} changes "
                    "nothing; check the steps before it",
                )
            self.todos = todos.toggled(row, now)
        return location, _model_element(location, key), []

    def _uncertain(
        self, step: Step, path: str, location: Location, target: Mapping[str, Any]
    ) -> Outcome:
        """A step on what only a dynamic list may show: unchecked; a link to an unknown page."""
        self._unchecked(
            path,
            UncheckedReason.DYNAMIC_PRESENCE,
            f"step {step.get('id')!r}: {_line(target)} is not in the page model's sample "
            f"of {location.route}, though a dynamic list there may show it",
        )
        if target.get("role") == "link" and step.get("intent") in ("click", "press_key"):
            self._lose(step, path, f"{_line(target)} is a dynamic link")
            return None, None, []
        return _stay(location)

    def _apply(self, step: Step, path: str, location: Location, element: Element) -> Outcome:
        """What a step does to the element it acts on, and to the page."""
        intent = step.get("intent")
        focused = replace(location, focus=element.index)
        if intent == "press_key":
            return self._key(step, path, focused, element)
        if intent in ("fill", "clear", "select_option"):
            typed = "" if intent == "clear" else normalized(str(step.get("value", "")))
            self.typed.add(typed)
            return focused.set_value(element.index, typed), element, []
        if intent in ("check", "uncheck") or (intent == "click" and element.role in _CHECK_ROLES):
            focused = self._toggle(step, path, focused, element)
            if self.todos is not None and (element.role, element.name) == todo_state.TOGGLE_ALL:
                self.todos = (
                    self.todos.all_toggled()
                    if intent == "click"
                    else self.todos.__class__(
                        tuple((title, intent == "check") for title, _ in self.todos.rows)
                    )
                )
        if intent not in ("click", "check", "uncheck"):
            # upload_file moves the focus; hover, wait_for and scroll do not.
            return (focused if intent == "upload_file" else location), element, []
        after, happened = activate(focused, element)
        if after is None:
            self._lose(step, path, f"{element.line()} is a link the page model does not follow")
        return after, element, happened

    def _toggle(self, step: Step, path: str, location: Location, element: Element) -> Location:
        """The box after check, uncheck or a click; a step that changes nothing is warned
        about (a run accepts it, but the journey meant something else)."""
        intent = step.get("intent")
        was = location.is_checked(element)
        now = (not was) if intent == "click" else intent == "check"
        if element.role == "radio" and intent == "click":
            now = True
        if (
            intent in ("check", "uncheck")
            and was == now
            and not observed.dynamic(element, location)
        ):
            line = element.line(location.view.name(element))
            self._warn(
                WarningCode.NO_EFFECT,
                path,
                f"{line} is already {'checked' if was else 'not checked'} at this point, so "
                f"{intent} changes nothing; check the steps before it",
            )
        return location.set_checked(element.index, now)

    def _back(self, path: str, location: Location | None) -> Outcome:
        if location is None:
            return _stay(None)
        previous = go_back(location)
        if previous is None:
            if self.index:  # the first step's go_back is refused by _start_warnings
                self._problem(
                    ErrorCode.STEP_NOT_POSSIBLE,
                    f"go_back on {location.route} has no earlier page to go back to: the "
                    "journey opened it first; navigate to the page instead",
                    path,
                )
            return _stay(location)
        return previous, None, [Change("back", previous.route)]

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
        self.unknown_why = ""
        # A first load shows the fixture's list; a later one the same list only while the
        # journey has not changed it (whether the app keeps a changed list is for a run).
        self.todos = self.fresh if not self.loaded or self.todos == self.fresh else None
        self.loaded = True
        after, redirected = open_route(self.fixture, route, entity if needs else None, location)
        return after, None, [Change("load", after.route, redirected)]

    def _key(
        self, step: Step, path: str, location: Location | None, element: Element | None
    ) -> Outcome:
        """Escape closes the open dialog, Tab moves the focus where the model cannot follow,
        Enter activates the focused element (in a field: its form's default button)."""
        key = step.get("key")
        if location is None or key != "Enter":
            if location is not None and location.focus is not None and key not in _MOVES:
                # A key typed into a field changes its value in a way the model does not
                # follow (a letter, Backspace, an arrow in a select).
                location = location.set_value(location.focus, None)
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
        if self.todos is not None and (focused.role, focused.name) == todo_state.NEW_TODO:
            was_set, title = location.journey_value(focused.index)
            typed = (title or "").strip() if was_set else None
            if typed is None and was_set:
                self.todos = None  # a key changed it in a way the model does not follow
            elif typed:
                self.todos = self.todos.added(typed)
            after, happened = activate(location, target)
            # TodoMVC empties the field once it adds the todo.
            return (after.set_value(focused.index, "") if after else None), element, happened
        after, happened = activate(location, target)
        if after is None:
            self._lose(
                step, path, f"Enter activates {target.line()}, which the model does not follow"
            )
        return after, element, happened

    # -- targets ------------------------------------------------------------------------------

    def _resolve(
        self, target: Mapping[str, Any], path: str, location: Location
    ) -> Element | Uncertain | None:
        """The one element ``target`` names on the page, :data:`_UNCERTAIN` when only a
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
                return _UNCERTAIN
            self._missing(role, name, path, location, hidden=bool(found))
            return None
        if nth is None and len(visible) > 1:
            self._problem(
                ErrorCode.AMBIGUOUS_TARGET,
                f'{len(visible)} elements match {role} "{name}" on {view.route_id}; add nth to '
                "pick one (Playwright's strict mode refuses an ambiguous locator)",
                path,
                self._choices(visible, location),
            )
            return None
        return self._pick(visible, nth, f'{role} "{name}"', path, location)

    def _pick(
        self, visible: list[Element], nth: object, line: str, path: str, location: Location
    ) -> Element | Uncertain | None:
        index = nth if isinstance(nth, int) else 0
        if index < len(visible):
            return visible[index]
        if any(observed.uncertain(e, location) for e in visible):
            return _UNCERTAIN  # a dynamic list may show more rows than the model's sample
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
            hint = f"; did you mean {near[0]!r}?" if near else ""
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
        line = f'{role} "{name}"'
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
            f'no {role} "{name}" on any page of {self.fixture.app_id}',
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
        return f" (after step {self.since!r})" if self.since else ""

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
        elif intent in ("fill", "clear") and observed.is_select(element, location):
            reason = f"{line} is a select: use select_option with one of its options"
        elif intent == "press_key" and element.role not in FOCUSABLE_ROLES:
            reason = f"{line} cannot take focus, so a key pressed on it goes nowhere"
        elif intent == "select_option" and element.role not in SELECT_ROLES:
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
                f"after step {self.since!r} TodoMVC's list shows {seen} for {_line(target)} on "
                f"{location.route} (rows: "
                + (", ".join(f"{t!r}{' done' if d else ''}" for t, d in todos.rows) or "none")
                + "), so this assertion would fail",
                where,
                [seen],
            )
        return True

    def _route(self, assertion: Mapping[str, Any], path: str, location: Location) -> None:
        route = assertion.get("route")
        if isinstance(route, str) and route != location.route:
            self._problem(
                ErrorCode.ROUTE_NOT_REACHED,
                f"after step {assertion.get('afterStep')!r} the journey is on "
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
                f"assertion {assertion.get('id')!r}: {_line(target)} is in a dynamic list of "
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
            f"assertion {assertion.get('id')!r}: the page after step {self.since!r} is "
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
                f"assertion {assertion.get('id')!r}: whether "
                f"{element.line(location.view.name(element))} shows on {location.route} "
                "depends on the app's data at run time",
            )

    def _in_app(self, role: str, name: str) -> bool:
        """Whether any page of the app shows ``role`` and ``name`` to any fixture, an
        element named after an entity counting under each entity's label."""
        return (role, normalized(name)) in _app_targets(self.fixture.app_id)

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
            f'{role} "{name}" is on {view.route_id} but hidden after step {self.since!r} '
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
                f"assertion {assertion.get('id')!r}: the {what} of {line} "
                + (
                    "changed in a way the model does not follow (a key typed, a submit)"
                    if location.journey_value(element.index) == (True, None)
                    else "is dynamic (the app sets it at run time)"
                ),
            )
            return
        wanted = normalized(expected)
        holds = wanted in actual if kind == "text_contains" else actual == wanted
        if not holds:
            verb = "contain" if kind == "text_contains" else "equal"
            source = (
                "what the journey set"
                if location.journey_value(element.index)[0]
                else "the page model"
            )
            self._problem(
                ErrorCode.ASSERTION_CONTRADICTED,
                f"{line} reads {quoted(actual)} after step {self.since!r} ({source}), which "
                f"does not {verb} {quoted(expected)}, so this assertion would fail",
                f"{path}/expected",
                [actual],
            )

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
                f"assertion {assertion.get('id')!r}: how many {_line(target)} a run shows on "
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
                f"{shown} element(s) match {_line(target)} on {location.route} after step "
                f"{self.since!r}, not {count}, so this assertion would fail",
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
            self._warn(WarningCode.SNAPSHOT_REF, where, _REF_WARNING.format(ref=target["ref"]))
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
                    f"{_line(target)} may be in a dynamic list of {location.route}",
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
                f'{role} "{name}" is visible on {view.route_id} after step {self.since!r} in '
                "the page model, so this hidden assertion would fail; check the step it follows",
                where,
                ["visible"],
            )
        else:
            self._unchecked(
                assertion,
                UncheckedReason.DYNAMIC_PRESENCE,
                f"whether {_line(target)} is gone from {location.route} depends on the app's "
                "data at run time",
            )

    # -- bookkeeping --------------------------------------------------------------------------

    def _refused(self, path: str) -> bool:
        """Whether a problem was reported at ``path`` or inside it."""
        return path in self._refused_within

    def _unchecked(self, path: str, reason: UncheckedReason, what: str) -> None:
        if self.result.unchecked_at(path) is None:
            self.result.unchecked.append(Unchecked(path, reason, f"{what}; {_BY_RUN}"))

    def _lose(self, step: Step, path: str, why: str) -> None:
        self.unknown_why = f"after step {step.get('id')!r}: {why}"
        self._warn(
            WarningCode.UNKNOWN_EFFECT,
            path,
            f"after step {step.get('id')!r} the page is unknown ({why}), so the steps and "
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


def _model_element(location: Location, key: tuple[object, object]) -> Element | None:
    """The page model's element of a role and name (the first): what a step followed on
    TodoMVC's list acts on, for those that read the element (a run's hazards)."""
    role, name = key
    return next(
        (e for e in location.view.template.by_role.get(str(role), ()) if e.name == name), None
    )


def _line(target: Mapping[str, Any]) -> str:
    return f'{target.get("role")} "{target.get("name")}"'


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


def _stay(location: Location | None) -> Outcome:
    return location, None, []


def _parts(path: str) -> Iterator[str | int]:
    for part in path.split("/")[1:]:
        yield int(part) if part.isdecimal() else part


def _ends(path: str) -> Iterator[int]:
    """Where each ancestor pointer of ``path`` ends, ``path`` itself included."""
    yield from (i for i, c in enumerate(path) if c == "/" and i)
    yield len(path)
