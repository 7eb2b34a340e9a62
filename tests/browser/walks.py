"""Differential conformance: each page model held against its app along seeded random walks
(:mod:`automium.journeys.random_walk`), step by step, in Chromium.

A walk's steps run on one served fixture (:class:`tests.browser.proof.Session`, storage
cleared first), each as the executor carries it out (:func:`automium.execution.actions.perform`).
After each step the model's page is compared with the real one, unless the model said it
does not know (an unchecked mark, a lost page, a page in doubt):

- the route (the path, with the entity's value);
- the ARIA snapshot, as the proof tier renders the model (:mod:`automium.execution.aria`),
  with what the walk revealed, and each ``[hidden]`` node absent;
- every control's actionable state (enabled, checked) and every field's value as
  Playwright's ``toHaveValue`` reads it.

A step the model says is possible must also be possible for real. A walk stops at its
first disagreement, and :func:`shrink` drops steps while the disagreement remains, so what
is printed (:func:`journey_file`) is the shortest walk found that shows it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from playwright.sync_api import Error, expect

from automium.contracts import Fixture, Journey
from automium.corpus.pages import Element, View
from automium.execution import actions, aria
from automium.execution.locate import locate
from automium.execution.places import Routes
from automium.hosting.bundles import secret
from automium.journeys import observed, todo_state
from automium.journeys.page_walk import Location
from automium.journeys.random_walk import Step, WalkedStep, document, follow, walk
from tests.browser import proof

TIMEOUT_MS = 1000
"""Each action's and check's bound: what the model predicts holds at once, or after the
apps' short confirmation delays."""
_VALUE_ROLES = frozenset({"textbox", "searchbox", "spinbutton", "combobox"})
_BOXES = frozenset({"checkbox", "switch", "radio"})


@dataclass(frozen=True)
class Disagreement:
    step: int  # the step after which model and app disagree
    what: str  # action, route, aria, hidden, value, enabled, checked
    detail: str
    assertion: dict[str, object] | None = None  # a journey assertion that shows it, if any

    def __str__(self) -> str:
        return f"after step s{self.step}: {self.what}: {self.detail}"


@dataclass
class Outcome:
    fixture: Fixture
    steps: list[Step]
    disagreement: Disagreement | None
    compared: int = 0  # steps whose prediction was compared with the page
    unknown: int = 0  # steps where the model said it does not know
    seconds: float = 0.0


@dataclass
class Budget:
    walks: int  # per fixture
    length: int  # steps per walk, at most


@dataclass
class Totals:
    walks: int = 0
    steps: int = 0
    unknown: int = 0
    seconds: float = 0.0
    found: list[Outcome] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        self.walks += 1
        self.steps += outcome.compared + outcome.unknown
        self.unknown += outcome.unknown
        self.seconds += outcome.seconds
        if outcome.disagreement is not None:
            self.found.append(outcome)


def run_steps(session: proof.Session, steps: Sequence[Step]) -> Outcome:
    """Run ``steps`` in ``session``'s page, comparing the model with it after each."""
    fixture = session.fixture
    started = time.monotonic()
    walked = follow(fixture, steps)
    model = Journey.model_validate(document(fixture, steps))
    routes = Routes.of(fixture)
    page = session.page
    if page.url.startswith(session.server.url):
        page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    outcome = Outcome(fixture, list(steps), None)
    for index, (walked_step, step) in enumerate(zip(walked, model.steps, strict=True)):
        ref = getattr(step, "secret_ref", None)
        value = secret(fixture.app_id, ref) if ref else None
        result = actions.perform(
            page, step, walked_step.visit, routes, session.server.url, value, TIMEOUT_MS
        )
        if walked_step.unknown:
            outcome.unknown += 1
            if result.error is not None or walked_step.visit.after is None:
                break  # the model said it may not be so, and said nothing after
            continue
        if result.error is not None:
            outcome.disagreement = Disagreement(
                index, "action", f"the model says it can be done; {result.error}"
            )
            break
        location = walked_step.visit.after
        assert location is not None  # a known step leads to a known page
        if not _page_followed(walked_step):
            outcome.unknown += 1
            continue
        outcome.compared += 1
        found = compare(session, location, index)
        if found is not None:
            outcome.disagreement = found
            break
    outcome.seconds = time.monotonic() - started
    return outcome


def _page_followed(walked: WalkedStep) -> bool:
    """Whether the page model renders the page as compile follows it. TodoMVC's list is
    followed apart from the page model (compile's list tracker): once it differs from the
    fixture's, the model's rows are not the page's; and a field whose value the walk left
    unknown has no line to render."""
    visit = walked.visit
    fresh = todo_state.initial(visit.after.view.fixture) if visit.after else None
    if fresh is not None and visit.todos != fresh:
        return False
    return visit.after is not None and as_set(visit.after) is not None


def compare(session: proof.Session, location: Location, index: int) -> Disagreement | None:
    """The first difference between the model's ``location`` and the page, if any."""
    checks: list[tuple[str, Callable[[], Disagreement | None]]] = [
        ("route", lambda: _route(session, location, index)),
        ("aria", lambda: _aria(session, location, index)),
        ("controls", lambda: _controls(session, location, index)),
    ]
    for _, check in checks:
        found = check()
        if found is not None:
            return found
    return None


def _route(session: proof.Session, location: Location, index: int) -> Disagreement | None:
    view = location.view
    value = next((e.value for e in view.fixture.entities if e.id == view.entity), None)
    pattern = proof.path_pattern(view.template.app_id, location.route, value)
    try:
        session.page.wait_for_url(_url(session, pattern), timeout=TIMEOUT_MS, wait_until="commit")
    except Error:
        real = session.page.url.removeprefix(session.server.url)
        return Disagreement(
            index,
            "route",
            f"the model is on {location.route}, the page at {real}",
            {"kind": "route_is", "route": location.route},
        )
    return None


def _url(session: proof.Session, pattern: str) -> Callable[[str], bool]:
    import re  # noqa: PLC0415 - only here

    compiled = re.compile(rf"^{re.escape(session.server.url)}{pattern}([?#].*)?$")
    return lambda url: bool(compiled.match(url))


def as_set(location: Location, renders: Callable[[Element], bool] = lambda _e: True) -> View | None:
    """The model's view with what the walk set on it: each box checked as the walk left
    it, each select's chosen option selected; ``None`` where a select's choice is unknown
    (the template cannot say which option to mark)."""
    view = location.view
    states = list(view.states)
    elements = list(view.template.elements)
    for element in view.elements():
        was_set, typed = location.journey_value(element.index)
        if (
            was_set
            and element.role in _VALUE_ROLES
            and not observed.is_select(element, location)
            and renders(element)
        ):
            if typed is None:
                return None  # what the field holds is unknown: so is its line
            elements[element.index] = replace(element, value=typed or None)
        if element.role in _BOXES:
            checked = location.is_checked(element)
            had = states[element.index] - {"checked"}
            states[element.index] = had | {"checked"} if checked else had
        elif observed.is_select(element, location) and location.journey_value(element.index)[0]:
            value = observed.value(element, location)
            if value is None:
                return None
            for option in observed.option_elements(element, location):
                had = states[option.index] - {"selected"}
                chosen = observed.option_value(option, location) == value
                states[option.index] = had | {"selected"} if chosen else had
    template = replace(view.template, elements=tuple(elements))
    return replace(view, template=template, states=tuple(states))


def _aria(session: proof.Session, location: Location, index: int) -> Disagreement | None:
    visible = frozenset(e.index for e in location.view.elements() if location.visible(e))

    def renders(element: Element) -> bool:
        """A value the snapshot shows: an input's, not a contenteditable field's."""
        return _has_value(locate(session.page, location.view, element, visible))

    shown = as_set(location, renders)
    if shown is None:
        return None
    view, revealed = shown, location.revealed
    try:
        for frame in proof.frames(view, revealed):
            how, body = proof.rendering(session, view, frame, revealed)
            expect(body).to_match_aria_snapshot(aria.template(how), timeout=TIMEOUT_MS)
        proof.prove_hidden(session, view, revealed, timeout=TIMEOUT_MS)
    except AssertionError as error:
        return Disagreement(index, "aria", _diff(str(error)))
    return None


def _diff(message: str) -> str:
    """The lines of Playwright's snapshot diff that differ, else its first line."""
    changed = [
        line.strip()
        for line in message.splitlines()
        if line.lstrip().startswith(("+ ", "- ")) and not line.lstrip().startswith("- Expected")
    ]
    return "; ".join(changed[:6]) if changed else message.splitlines()[0][:300]


def _controls(session: proof.Session, location: Location, index: int) -> Disagreement | None:
    """Each control's enabled and checked state and each field's value, as the model says."""
    view = location.view
    visible = frozenset(e.index for e in view.elements() if location.visible(e))
    for element in view.elements():
        name = view.name(element)
        if (
            element.index not in visible
            or not name
            or element.role not in proof.CONTROLS
            or observed.uncertain(element, location)
            or observed.dynamic(element, location)
        ):
            continue
        found = locate(session.page, view, element, visible)
        line = element.line(name)
        target = {"role": element.role, "name": name}
        disabled = "disabled" in view.states[element.index]
        try:
            if disabled:
                expect(found).to_be_disabled(timeout=TIMEOUT_MS)
            else:
                expect(found).to_be_enabled(timeout=TIMEOUT_MS)
        except AssertionError:
            return Disagreement(
                index, "enabled", f"{line} is {'disabled' if disabled else 'enabled'} in the model"
            )
        if element.role in _BOXES:
            checked = location.is_checked(element)
            try:
                expect(found).to_be_checked(checked=checked, timeout=TIMEOUT_MS)
            except AssertionError:
                return Disagreement(
                    index, "checked", f"{line} is {'' if checked else 'not '}checked in the model"
                )
        if element.role in _VALUE_ROLES:
            value = observed.value(element, location)
            if value is None or not _has_value(found):
                continue
            try:
                expect(found).to_have_value(value, timeout=TIMEOUT_MS)
            except AssertionError:
                real = found.input_value()
                return Disagreement(
                    index,
                    "value",
                    f"{line} holds {value!r} in the model, {real!r} for real",
                    {"kind": "value_equals", "target": target, "expected": value},
                )
    return None


def _has_value(found: object) -> bool:
    """An input, a textarea or a select: a contenteditable field has no value to read."""
    try:
        return bool(
            found.evaluate(  # type: ignore[attr-defined]
                "e => ['INPUT', 'TEXTAREA', 'SELECT'].includes(e.tagName)", timeout=TIMEOUT_MS
            )
        )
    except Error:
        return False


def shrink(session: proof.Session, outcome: Outcome) -> Outcome:
    """The shortest walk found that still disagrees the same way: steps dropped one at a
    time (the first navigate kept), each drop kept when the disagreement stays."""
    assert outcome.disagreement is not None
    best = outcome
    best.steps = best.steps[: best.disagreement.step + 1]  # type: ignore[union-attr]
    changed = True
    while changed:
        changed = False
        for drop in range(len(best.steps) - 1, -1, -1):
            steps = best.steps[:drop] + best.steps[drop + 1 :]
            if not steps or steps[0].get("intent") != "navigate":
                continue
            tried = run_steps(session, steps)
            if (
                tried.disagreement is not None and tried.disagreement.what == best.disagreement.what  # type: ignore[union-attr]
            ):
                tried.steps = tried.steps[: tried.disagreement.step + 1]
                best, changed = tried, True
                break
    return best


def journey_file(outcome: Outcome) -> str:
    """The walk as a journey file a person can run (``automium run``): its steps, and the
    disagreement as an assertion after its step where one can state it."""
    fixture, found = outcome.fixture, outcome.disagreement
    journey = document(fixture, outcome.steps, "walk-disagreement")
    journey["goal"] = f"Walk that shows a page model disagreeing with its app: {found}"
    if found is not None and found.assertion is not None:
        journey["assertions"].append({"id": "a1", **found.assertion, "afterStep": f"s{found.step}"})
    return json.dumps(journey, indent=2)


def walk_fixture(session: proof.Session, budget: Budget, seed: int = 0) -> list[Outcome]:
    """``budget.walks`` walks of ``session``'s fixture, seeds ``seed``, ``seed + 1``, ...,
    each shrunk when it disagrees."""
    outcomes = []
    for n in range(budget.walks):
        steps = [w.step for w in walk(session.fixture, seed + n, budget.length)]
        outcome = run_steps(session, steps)
        if outcome.disagreement is not None:
            outcome = _keep_counts(outcome, shrink(session, outcome))
        outcomes.append(outcome)
    return outcomes


def _keep_counts(walked: Outcome, shrunk: Outcome) -> Outcome:
    """The shrunk walk, with the steps, unknowns and time of the walk as it ran."""
    shrunk.compared, shrunk.unknown = walked.compared, walked.unknown
    shrunk.seconds = walked.seconds
    return shrunk


def walked_steps(walked: Sequence[WalkedStep]) -> list[Step]:
    return [w.step for w in walked]


def walk_all(budget: Budget, progress: Callable[[str], None] = lambda _: None) -> Totals:
    """``budget`` walks of every owned app's fixtures, in one Chromium: the totals."""
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - only for a whole run

    from automium import corpus  # noqa: PLC0415
    from automium.execution.chromium import launch  # noqa: PLC0415

    totals = Totals()
    with sync_playwright() as driver:
        browser = launch(driver)
        for fixture in corpus.fixtures():
            if fixture.app_id not in proof.owned_apps():
                continue
            progress(f"walks of {fixture.id}")
            session = proof.Session.open(browser, fixture.id)
            try:
                for outcome in walk_fixture(session, budget):
                    totals.add(outcome)
            finally:
                session.close()
        browser.close()
    return totals


def render(budget: Budget, totals: Totals) -> str:
    """The walks' figures, as ``make bench`` reports them."""
    share = totals.unknown / totals.steps if totals.steps else 0.0
    per_step = totals.seconds / totals.steps if totals.steps else 0.0
    lines = [
        f"walks: {totals.walks} ({budget.walks} per fixture, up to {budget.length} steps each)",
        f"steps: {totals.steps}",
        f"disagreements: {len(totals.found)}",
        f"steps the model said it does not know: {totals.unknown} ({share:.0%})",
        f"seconds per walk step: {per_step:.3f}",
    ]
    lines += [f"  {o.fixture.id}: {o.disagreement}" for o in totals.found]
    return "\n".join(lines)
