"""Check every step and assertion of a journey against the pages it goes through.

:func:`walk` follows a journey from page to page (:mod:`automium.journeys.page_walk`) and
checks each target against the page the journey is on at that step, with the matching rule
of :mod:`automium.journeys.targets`. It finds every problem in one pass and returns, with
them, the warnings (suspicious but valid) and the trace of pages visited, which the run
timeline and the benchmark model read.

It runs on the raw document after the contract and corpus checks; a step those already
refused (by path) is not checked again, and the page after it is unknown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from automium import corpus
from automium.accessible_names import normalized
from automium.contracts import ErrorCode, Fixture, Intent, UncheckedReason, WarningCode
from automium.corpus.pages import Element, pages
from automium.errors import pointer, quoted
from automium.journeys import observed, targets, todo_state
from automium.journeys.branches import Branch, starting_at
from automium.journeys.findings import (
    Step,
    Uncertain,
    Unchecked,
    Visit,
    Walk,
    Warning,
    parts,
    target_line,
)
from automium.journeys.guard_checks import GuardChecks, as_seen_by, guard_holds, other_fixtures
from automium.journeys.observed import FOCUSABLE_ROLES, SELECT_ROLES
from automium.journeys.page_walk import (
    FIELD_ROLES,
    Change,
    Location,
    activate,
    app_refuses,
    go_back,
    open_route,
    submit_target,
)

__all__ = ["Unchecked", "Visit", "Walk", "Warning", "walk"]

Outcome = tuple["Location | None", "Element | None", list["Change"]]
"""The page after a step, the element it acted on, and what it changed."""

_MOVES = frozenset({"Escape", "Tab", "Shift+Tab", "PageUp", "PageDown", "Home", "End", "F5"})
# Intents that do not change the page: after one is refused, the page is still known.
_STAYS = frozenset(
    {
        Intent.FILL,
        Intent.CLEAR,
        Intent.SELECT_OPTION,
        Intent.CHECK,
        Intent.UNCHECK,
        Intent.HOVER,
        Intent.UPLOAD_FILE,
        Intent.WAIT_FOR,
    }
)
_CHECK_ROLES = frozenset({"checkbox", "switch", "radio", "menuitemcheckbox", "menuitemradio"})
# Intents that need the element to be enabled (hover, scroll and waiting do not).
_NEEDS_ENABLED = frozenset(
    {
        Intent.CLICK,
        Intent.FILL,
        Intent.CLEAR,
        Intent.SELECT_OPTION,
        Intent.CHECK,
        Intent.UNCHECK,
        Intent.UPLOAD_FILE,
        Intent.PRESS_KEY,
    }
)


def walk(document: Mapping[str, Any], fixture: Fixture, refused: frozenset[str]) -> Walk:
    """Follow ``document`` (already known to name ``fixture``) through its pages.

    ``refused`` holds the paths other checks already reported: those steps are not checked
    again, and the page after one of them is unknown.

    Every branch is checked: the first walk takes, at each guard, the branch the fixture's
    page models take (the guarded steps, when only a run can tell); then, per guard, a walk
    takes the other branch, as a fixture that takes it sees the guarded steps (the walk
    records which, for the graph to say). A branch no fixture takes is a warning,
    ``unreachable_branch``.
    """
    first = _Walker(fixture, refused).run(document)
    steps = _items(document.get("steps"))
    for start, branch in starting_at(steps).items():
        if start not in first.branches:
            continue  # the walk never reached it: an earlier step was refused
        decided = first.branches[start]
        at = first.at_guard.get(start)
        where = pointer("steps", start, "when")
        ids = _step_ids(steps, branch)
        if decided is None:
            flip = _Flip(start, False, None)
        else:
            other = _deciding_other(branch, not decided, fixture, at)
            if other is None:
                first.warnings.append(
                    Warning(
                        WarningCode.UNREACHABLE_BRANCH,
                        where,
                        f"no fixture of {fixture.app_id} makes this guard "
                        f"{'hold' if not decided else 'fail'} here, so steps {ids} "
                        f"{'never run' if decided is False else 'always run'}; "
                        "drop the guard or the steps",
                    )
                )
                continue
            first.other_branch[start] = other.id
            flip = _Flip(start, not decided, other)
        other_walk = _Walker(fixture, refused, flip).run(document)
        _merge(
            first,
            other_walk,
            f"on the branch where the guard at {where} "
            f"{'holds' if flip.take else 'fails'}"
            + (f" (as {flip.fixture.id} sees the page)" if flip.fixture else "")
            + ": ",
        )
    return first


class _Flip:
    """The branch a walk takes at one guard, against what the models decide, and the
    fixture that sees the page so (``None``: the journey's own)."""

    def __init__(self, start: int, take: bool, fixture: Fixture | None) -> None:
        self.start, self.take, self.fixture = start, take, fixture


def _deciding_other(
    branch: Branch, wanted: bool, fixture: Fixture, at: Location | None
) -> Fixture | None:
    if at is None:
        return None
    return next(
        (
            f
            for f in other_fixtures(fixture)
            if guard_holds(branch.guard, as_seen_by(at, f)) is wanted
        ),
        None,
    )


def _step_ids(steps: list[Any], branch: Branch) -> str:
    return ", ".join(
        quoted(s.get("id")) for s in steps[branch.start : branch.end] if isinstance(s, dict)
    )


def _merge(into: Walk, other: Walk, context: str) -> None:
    """The other branch's findings, at paths the first walk did not report."""
    problems = {p.path for p in into.problems}
    for problem in other.problems:
        if problem.path not in problems:
            into.problems.append(replace(problem, message=context + problem.message))
            problems.add(problem.path)
    warned = {(w.code, w.path) for w in into.warnings}
    for warning in other.warnings:
        if (warning.code, warning.path) not in warned and warning.code not in (
            WarningCode.UNREACHABLE_BRANCH,
        ):
            into.warnings.append(replace(warning, message=context + warning.message))
    for unchecked in other.unchecked:
        if into.unchecked_at(unchecked.path) is None:
            into.unchecked.append(unchecked)


def _items(value: object) -> list[Any]:
    """``value`` when it is an array, else nothing to walk (a caller may send any JSON)."""
    return value if isinstance(value, list) else []


class _Walker(GuardChecks):
    def __init__(
        self, fixture: Fixture, refused: frozenset[str], flip: _Flip | None = None
    ) -> None:
        super().__init__(fixture, refused)
        self.flip = flip
        self.own = fixture

    # -- steps ------------------------------------------------------------------------------

    def run(self, document: Mapping[str, Any]) -> Walk:
        # Type checks before iterating: the contract refused a non-array, the walk skips it.
        steps = [s if isinstance(s, dict) else {} for s in _items(document.get("steps"))]
        self._start_warnings(steps)
        location: Location | None = None
        self.unknown_why = "the journey does not start with navigate"
        opening = starting_at(steps)
        skipped: set[str] = set()
        skip_until = swap_until = -1
        for index, step in enumerate(steps):
            path = pointer("steps", index)
            if index == swap_until:
                location = self._swap_back(location)
            if index in opening and not self._refused(f"{path}/when"):
                take, location, swapped = self._enter(opening[index], index, path, location)
                swap_until = opening[index].end if swapped else swap_until
                skip_until = skip_until if take else opening[index].end
            if index < skip_until:
                # The branch is not taken: its steps change nothing, its assertions wait.
                skipped.add(str(step.get("id", "")))
                self.result.visits.append(
                    Visit(index, str(step.get("id", "")), location, None, location)
                )
                continue
            location = self._visit(index, step, path, location)
        if swap_until == len(steps):
            location = self._swap_back(location)
        self._checks(document, steps, skipped)
        return self.result

    def _enter(
        self, branch: Branch, index: int, path: str, location: Location | None
    ) -> tuple[bool, Location | None, bool]:
        """Decide a branch's guard on the page the walk is on: whether the walk takes it,
        the page as the walk then sees it, and whether it sees it as another fixture does
        (the walk of the other branch, :attr:`flip`) until the branch ends."""
        decided = self._guard(branch.guard, f"{path}/when", location)
        self.result.branches[index] = decided
        self.result.at_guard[index] = location
        if self.flip is None or self.flip.start != index:
            return decided is not False, location, False
        if self.flip.fixture is None or location is None:
            return self.flip.take, location, False
        self.fixture = self.flip.fixture
        return self.flip.take, as_seen_by(location, self.fixture), True

    def _visit(
        self, index: int, step: Mapping[str, Any], path: str, location: Location | None
    ) -> Location | None:
        """Walk one step from ``location``; the page after it, ``None`` when unknown."""
        step_id = str(step.get("id", ""))
        if self._refused(path):
            # The contract refused the step: what it does is unknown.
            self.result.visits.append(Visit(index, step_id, None, None, None))
            return None
        if location is None and step.get("intent") != Intent.NAVIGATE:
            self._unchecked(
                path,
                UncheckedReason.UNKNOWN_PAGE,
                f"step {quoted(step.get('id'))}: the page is unknown here ({self.unknown_why})",
            )
        self.index = index
        found = len(self.result.problems)
        marks = len(self.result.unchecked)
        self.doubt = (
            "" if step.get("intent") == Intent.NAVIGATE or location is None else location.doubt
        )
        after, element, happened = self._step(step, path, location)
        if len(self.result.problems) > found:
            self.todos = None  # what a refused step meant to do to the list is unknown
        if after is not None:
            after = self._redrafted(after, happened)
            self._session(step, path, location, after, happened)
            loaded = any(c.kind == "load" for c in happened)
            if len(self.result.unchecked) > marks and loaded and not self.doubt:
                # A step only a run can settle took the journey somewhere: whether it
                # arrived there is for the run too.
                self.doubt = self.result.unchecked[-1].message
            if self.doubt != after.doubt:
                after = replace(after, doubt=self.doubt)
        self.since = step_id
        todos = self.todos if after is not None else None
        self.result.visits.append(
            Visit(index, step_id, location, element, after, tuple(happened), todos)
        )
        if after is not None:
            self._drafted(after)
        return after

    def _checks(
        self, document: Mapping[str, Any], steps: list[dict[str, Any]], skipped: set[str]
    ) -> None:
        """The assertions, each after its step, then the success checks on the final page."""
        for index, assertion in enumerate(_items(document.get("assertions"))):
            if isinstance(assertion, dict) and str(assertion.get("afterStep")) in skipped:
                continue  # checked on the walk that takes its branch
            if isinstance(assertion, dict) and not self._refused(pointer("assertions", index)):
                self._assertion(assertion, pointer("assertions", index))
        # A success check holds on the final page, whatever led there: the models check it
        # as an assertion after the last step.
        last = str(steps[-1].get("id", "")) if steps else ""
        for index, check in enumerate(_items(document.get("successChecks"))):
            if isinstance(check, dict) and not self._refused(pointer("successChecks", index)):
                self._assertion({**check, "afterStep": last}, pointer("successChecks", index))

    def _swap_back(self, location: Location | None) -> Location | None:
        """After a branch walked as another fixture sees it: the journey's fixture again."""
        self.fixture = self.own
        return None if location is None else as_seen_by(location, self.own)

    def _session(
        self,
        step: Step,
        path: str,
        before: Location | None,
        after: Location,
        happened: Sequence[Change],
    ) -> None:
        """Follow signing out: a click that lands on a sign-in page ends the session the
        fixture starts with, and leaving that page by an effect (signing in) starts one.
        While signed out, which page a navigate or go_back shows is the app's to say (it
        may send the journey to sign in): the step is unchecked and its page in doubt."""
        loaded = any(c.kind == "load" for c in happened)
        intent = step.get("intent")
        if intent in (Intent.NAVIGATE, Intent.GO_BACK) and self.signed_out:
            why = (
                f"step {quoted(step.get('id'))}: the journey signed out at step "
                f"{quoted(self.signed_out)}, so whether the app opens {after.route} is for a run"
            )
            self._unchecked(path, UncheckedReason.UNKNOWN_PAGE, why)
            self.doubt = why
        elif loaded and before is not None and _signs_in(before) and not _signs_in(after):
            self.signed_out = ""
        elif (
            loaded
            and intent in (Intent.CLICK, Intent.PRESS_KEY)
            and _signs_in(after)
            and before is not None
            and not _signs_in(before)
        ):
            self.signed_out = str(step.get("id", ""))

    def _drafted(self, after: Location) -> None:
        """Remember the fields the journey has set on the page it is on."""
        self.drafted.setdefault(after.route, set()).update(i for i, _ in after.values)
        elements = after.view.template.elements
        self.drafted_names.update(
            (elements[i].role, after.view.name(elements[i])) for i, _ in after.values
        )

    def _redrafted(self, after: Location, happened: Sequence[Change]) -> Location:
        """A page loaded again after the journey set its fields: an app may keep a draft
        ("Edit transfer" brings the amount back, formatted), so their values are unknown."""
        if not any(c.kind in ("load", "back") for c in happened):
            return after
        view = after.view
        names = {
            (e.role, view.name(e))
            for e in view.elements()
            if e.index in self.drafted.get(after.route, ())
        }
        # A field of the same name on another route may be the same one: a single-page app
        # (TodoMVC's filters) keeps what was typed in it across routes.
        names |= self.drafted_names
        for element in view.elements():
            if (element.role, view.name(element)) in names and element.role in FIELD_ROLES:
                after = after.set_value(element.index, None)
        return after

    def _start_warnings(self, steps: Sequence[Step]) -> None:
        if not steps:
            return
        first = steps[0].get("intent")
        if first == Intent.GO_BACK and not self._refused(pointer("steps", 0)):
            self._problem(
                ErrorCode.STEP_NOT_POSSIBLE,
                "the journey starts with go_back: a run opens a fresh page, with nothing to go "
                "back to; start with navigate",
                pointer("steps", 0),
            )
        elif first != Intent.NAVIGATE:
            self._warn(
                WarningCode.NO_INITIAL_NAVIGATE,
                pointer("steps", 0),
                "the journey does not start with navigate, so the page it starts on is unknown "
                "and its first steps are not checked; start with navigate to a route",
            )

    def _step(self, step: Step, path: str, location: Location | None) -> Outcome:
        intent = step.get("intent")
        if intent == Intent.NAVIGATE:
            return self._navigate(step, path, location)
        if intent == Intent.GO_BACK:
            return self._back(path, location)
        if intent == Intent.UPLOAD_FILE:
            self._file(step, path)  # the fixture's files, whatever the page
        target = step.get("target")
        if target is None:  # press_key and scroll may go without one
            return (
                self._key(step, path, location, None)
                if intent == Intent.PRESS_KEY
                else _stay(location)
            )
        if intent == Intent.WAIT_FOR and step.get("state") == "hidden" and isinstance(target, dict):
            # Waiting for an element to go away: like a hidden assertion, it need not be shown.
            if location is not None:
                self._hidden(target, pointer(*parts(path), "target"), location)
            return _stay(location)
        return self._act(step, path, location, target)

    def _act(self, step: Step, path: str, location: Location | None, target: object) -> Outcome:
        """A step on an element: resolve it, check it can be acted on, apply what it does."""
        if not isinstance(target, dict):
            return _stay(location)
        where = pointer(*parts(path), "target")
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
        where = pointer(*parts(path), "target")
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
            self.unknown_why = f"step {quoted(step.get('id'))} is refused"
            return None, element, []
        if observed.uncertain(element, location):
            self._unchecked(
                path,
                UncheckedReason.DYNAMIC_PRESENCE,
                f"step {quoted(step.get('id'))}: "
                f"whether {element.line(location.view.name(element))} "
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
            or _todo_intent(step) not in (Intent.CLICK, Intent.CHECK, Intent.UNCHECK)
            or key not in (*todo_state.ROW_TARGETS, todo_state.CLEAR)
        ):
            return None
        where = pointer(*parts(path), "target")
        if key == todo_state.CLEAR:
            if not todos.any_completed:
                self._problem(
                    ErrorCode.UNKNOWN_TARGET,
                    f'button "Clear completed" is not shown after step {quoted(self.since)}: '
                    "no todo "
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
        intent = _todo_intent(step)
        where = pointer(*parts(path), "target")
        shown = todos.shown(location.route)
        nth = target.get("nth")
        line = target_line(target)
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
                f"{location.route} after step {quoted(self.since)} (rows: "
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
            now = (not done) if intent == Intent.CLICK else intent == Intent.CHECK
            if intent != Intent.CLICK and now == done:
                self._warn(
                    WarningCode.NO_EFFECT,
                    path,
                    f"the row {quoted(todos.rows[row][0])} is already "
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
            f"step {quoted(step.get('id'))}: {target_line(target)} "
            "is not in the page model's sample "
            f"of {location.route}, though a dynamic list there may show it",
        )
        if target.get("role") == "link" and step.get("intent") in (Intent.CLICK, Intent.PRESS_KEY):
            self._lose(step, path, f"{target_line(target)} is a dynamic link")
            return None, None, []
        return _stay(location)

    def _apply(self, step: Step, path: str, location: Location, element: Element) -> Outcome:
        """What a step does to the element it acts on, and to the page."""
        intent = step.get("intent")
        focused = replace(location, focus=element.index)
        if intent == Intent.PRESS_KEY:
            return self._key(step, path, focused, element)
        if intent in (Intent.FILL, Intent.CLEAR, Intent.SELECT_OPTION):
            return self._set(step, focused, element, location)
        if intent in (Intent.CHECK, Intent.UNCHECK) or (
            intent == Intent.CLICK and element.role in _CHECK_ROLES
        ):
            focused = self._toggle(step, path, focused, element)
            if self.todos is not None and (element.role, element.name) == todo_state.TOGGLE_ALL:
                self.todos = (
                    self.todos.all_toggled()
                    if intent == Intent.CLICK
                    else self.todos.__class__(
                        tuple((title, intent == Intent.CHECK) for title, _ in self.todos.rows)
                    )
                )
        if intent not in (Intent.CLICK, Intent.CHECK, Intent.UNCHECK):
            # upload_file moves the focus; hover, wait_for and scroll do not.
            if intent == Intent.UPLOAD_FILE:
                # What a file input holds is what the app checks a form by, not the model.
                return focused.set_value(element.index, None), element, []
            return location, element, []
        after, happened = self._activate(step, path, focused, element)
        if after is None:
            self._lose(step, path, f"{element.line()} is a link the page model does not follow")
        return after, element, happened

    def _set(self, step: Step, focused: Location, element: Element, location: Location) -> Outcome:
        """A fill, clear or select_option: what the field holds after it."""
        intent = step.get("intent")
        raw = "" if intent == Intent.CLEAR else str(step.get("value", ""))
        self.typed.add(normalized(raw))
        if "secretRef" in step:
            # The run types the secret: the field is not empty, its text unknown here.
            secret = replace(focused, secrets=focused.secrets | {element.index})
            return secret.set_value(element.index, None), element, []
        if intent != Intent.SELECT_OPTION:
            # A field holds what was typed, as toHaveValue reads it; spaces around it
            # are the input's to keep or drop (an email input drops them).
            kept = raw if raw == raw.strip() and not element.dynamic else None
            return focused.set_value(element.index, kept), element, []
        # The step names the label; the select then reads the option's value.
        chosen = focused.set_value(
            element.index, observed.chosen_value(element, normalized(raw), location)
        )
        if not element.annotated("effects"):
            return chosen, element, []
        after, happened = activate(chosen, element)  # a select that loads a page
        if after is not None:
            # Whether the page it loads keeps the choice is the app's to say.
            after = after.set_value(element.index, None)
        return after, element, happened

    def _toggle(self, step: Step, path: str, location: Location, element: Element) -> Location:
        """The box after check, uncheck or a click; a step that changes nothing is warned
        about (a run accepts it, but the journey meant something else)."""
        intent = step.get("intent")
        was = location.is_checked(element)
        now = (not was) if intent == Intent.CLICK else intent == Intent.CHECK
        if element.role == "radio" and intent == Intent.CLICK:
            now = True
        if (
            intent in (Intent.CHECK, Intent.UNCHECK)
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
        where = pointer(*parts(path), "entity")
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
            else:
                return location, element, []  # nothing typed: TodoMVC adds nothing
            after, happened = activate(location, target)
            # TodoMVC empties the field once it adds the todo.
            return (after.set_value(focused.index, "") if after else None), element, happened
        after, happened = self._activate(step, path, location, target)
        if after is None:
            self._lose(
                step, path, f"Enter activates {target.line()}, which the model does not follow"
            )
        return after, element, happened

    def _activate(
        self, step: Step, path: str, location: Location, element: Element
    ) -> tuple[Location | None, list[Change]]:
        """Activate ``element``, unless the app refuses to (then the page stays)."""
        refused = self._app_refuses(step, path, location, element)
        if refused is not None:
            return refused, []
        self._again(step, path, location, element)
        return activate(location, element)

    def _again(self, step: Step, path: str, location: Location, element: Element) -> None:
        """A reveal whose nodes are already shown: an app may hide them again (a toggle),
        so what the page shows after it is for a run."""
        effects = element.annotated("effects") or ()
        reveals = [e for e in effects if e.kind == "reveal"]
        inside = [i for i in element.ancestors if i in location.revealed]
        if not effects and element.role == "button" and inside:
            why = (
                f"step {quoted(step.get('id'))}: what "
                f"{element.line(location.view.name(element))} does to the part of the page "
                "it is in (revealed by an earlier step) the page model does not say"
            )
            self._unchecked(path, UncheckedReason.DYNAMIC_PRESENCE, why)
            self.doubt = why
            return
        if not reveals or len(reveals) != len(effects):
            return
        shown = {location.view.template.by_ref[r.root] for e in reveals for r in e.refs}
        if shown <= location.revealed:
            why = (
                f"step {quoted(step.get('id'))}: "
                f"{element.line(location.view.name(element))} reveals what is already shown, "
                "and a second activation may hide it again"
            )
            self._unchecked(path, UncheckedReason.DYNAMIC_PRESENCE, why)
            self.doubt = why

    def _app_refuses(
        self, step: Step, path: str, location: Location, element: Element
    ) -> Location | None:
        """The page when the app refuses to act on ``element`` (a required field beside it
        is empty: the app says so and stays); ``None`` when it acts, or may: then the page
        after the step is in doubt, and so are the assertions on it."""
        if not (element.annotated("effects") or element.annotated("submit")):
            return None
        refuses = app_refuses(location, element)
        if refuses:
            return location
        if refuses is None:
            why = (
                f"step {quoted(step.get('id'))}: whether the app accepts "
                f"{element.line(location.view.name(element))} depends on a required field's "
                "value, which the model does not follow"
            )
            self._unchecked(path, UncheckedReason.DYNAMIC_VALUE, why)
            self.doubt = why
        return None

    def _actionable(self, step: Step, path: str, location: Location, element: Element) -> bool:
        """Whether ``step`` can act on ``element``; a problem when it cannot."""
        intent = str(step.get("intent"))
        where = pointer(*parts(path), "target")
        line = element.line(location.view.name(element))
        reason = None
        if location.behind_dialog(element):
            dialog = location.view.template.elements[location.dialog or 0]
            reason = f"{line} is behind the open {dialog.line()}; close the dialog first"
        elif intent in _NEEDS_ENABLED and "disabled" in location.view.states[element.index]:
            reason = self._disabled(step, path, location, element)
        elif intent in (Intent.FILL, Intent.CLEAR) and element.role not in FIELD_ROLES:
            reason = f"{intent} needs a text field, and {line} is not one"
        elif intent in (Intent.FILL, Intent.CLEAR) and observed.is_select(element, location):
            reason = f"{line} is a select: use select_option with one of its options"
        elif intent == Intent.PRESS_KEY and element.role not in FOCUSABLE_ROLES:
            reason = f"{line} cannot take focus, so a key pressed on it goes nowhere"
        elif intent == Intent.SELECT_OPTION and element.role not in SELECT_ROLES:
            reason = f"select_option needs a combobox or listbox, and {line} is not one"
        elif intent in (Intent.CHECK, Intent.UNCHECK) and element.role not in _CHECK_ROLES:
            reason = f"{intent} needs a checkbox, switch or radio, and {line} is not one"
        elif intent == Intent.UNCHECK and element.role == "radio":
            reason = f"a radio cannot be unchecked; check another option instead of {line}"
        elif intent == Intent.UPLOAD_FILE and not element.annotated("accepts_files"):
            reason = f"{line} is not a file input"
        if reason is not None:
            self._problem(ErrorCode.TARGET_NOT_ACTIONABLE, reason, where)
            return False
        if intent == Intent.SELECT_OPTION:
            self._option(step, path, location, element)
        elif intent == Intent.FILL:
            self._secret(step, path, element)
        return True

    def _disabled(self, step: Step, path: str, location: Location, element: Element) -> str | None:
        """Why a disabled element refuses the step; ``None`` (and an unchecked mark) when
        it is inside a ``[dynamic]`` node, whose state is the sample's: a second page of
        results enables "Previous page", and only a run knows the page."""
        line = element.line(location.view.name(element))
        if not observed.in_dynamic_list(element, location):
            return f"{line} is disabled in {self.fixture.id}"
        self._unchecked(
            path,
            UncheckedReason.DYNAMIC_PRESENCE,
            f"step {quoted(step.get('id'))}: whether {line} is enabled on "
            f"{location.route} depends on the app's data at run time",
        )
        return None

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
                pointer(*parts(path), "value"),
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
                pointer(*parts(path), "value"),
                fitting,
            )
        elif "secretRef" in step and (not kind or step["secretRef"] not in fitting):
            self._problem(
                ErrorCode.INVALID_INPUT,
                f"{element.line()} takes a value, not a secretRef"
                if not kind
                else f"{quoted(step['secretRef'])} is not a {kind} of {self.fixture.id}",
                pointer(*parts(path), "secretRef"),
                fitting,
            )

    def _unseen_secret(self, step: Step, path: str, target: Mapping[str, Any]) -> None:
        """On a page the tracker lost, a literal typed into a field the app's pages mark
        secret is still refused: it would otherwise be echoed into the graph's labels."""
        role, name = target.get("role"), target.get("name")
        if (
            step.get("intent") != Intent.FILL
            or not isinstance(role, str)
            or not isinstance(name, str)
        ):
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
            pointer(*parts(path), "fileRef"),
            files,
        )


def _todo_intent(step: Step) -> object:
    """A step's intent on TodoMVC's list: Enter on a row's button or box is a click."""
    intent = step.get("intent")
    return Intent.CLICK if intent == Intent.PRESS_KEY and step.get("key") == "Enter" else intent


def _signs_in(location: Location) -> bool:
    """A sign-in page: one with a password field."""
    return any(e.secret == "password" for e in location.view.elements())


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


def _stay(location: Location | None) -> Outcome:
    return location, None, []
