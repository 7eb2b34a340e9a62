"""Each intent and each assertion kind as Playwright carries it out.

An action's outcome is Playwright's own: its return, or its error. A locator that matched
nothing until the timeout is ``target_not_found`` (``action.failed``); one that matched
but never became actionable (disabled, covered, hidden) timed out
(``action.timed_out``). Assertions are web-first: ``expect(...)`` retries until the bound.
"""

from __future__ import annotations

import mimetypes
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from automium.accessible_names import normalized
from automium.contracts import (
    CheckStep,
    ClearStep,
    ClickStep,
    FillStep,
    GoBackStep,
    HoverStep,
    NavigateStep,
    PressKeyStep,
    ScrollDirection,
    ScrollStep,
    SelectOptionStep,
    SemanticLocator,
    SnapshotRef,
    Step,
    UncheckStep,
    UploadFileStep,
    WaitForStep,
    WaitState,
)
from automium.corpus.pages import View
from automium.execution.navigation import watched
from automium.execution.places import Routes, described, frame_title, locator
from automium.hosting.bundles import app_root
from automium.journeys.steps import target_of

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

    from automium.journeys.page_checks import Visit


@dataclass(frozen=True, slots=True)
class ActionResult:
    locator: str | None
    duration_ms: int
    result: str | None = None
    error: str | None = None
    reason: str | None = None
    timed_out: bool = False


def perform(  # noqa: PLR0917 - one call site, in executor order
    page: Page,
    step: Step,
    visit: Visit,
    routes: Routes,
    base: str,
    secret_value: str | None,
    timeout_ms: int,
    *,
    where: tuple[str, str, int | None, str | None] | None = None,
) -> ActionResult:
    """Carry out ``step``; ``secret_value`` is the seed's value for a ``secretRef`` fill.
    ``where`` is a target already resolved (role, name, nth, frame title): a planner's
    decision names an element of the live page, not of the page model."""
    from playwright.sync_api import Error, TimeoutError  # noqa: PLC0415

    started = time.monotonic()
    target = where if where is not None else _target(step, visit)
    found = locator(page, *target) if target else None
    shown = described(*target) if target else None
    navigation = watched(page)
    try:
        result = _do(page, step, found, routes, base, secret_value, timeout_ms)
        navigation.settle(timeout_ms)
    except TimeoutError as error:
        missing = found is not None and _count(found) == 0
        return ActionResult(
            shown,
            _ms(started),
            error=_first_line(error),
            reason="target_not_found" if missing else "not_actionable",
            timed_out=not missing,
        )
    except Error as error:
        return ActionResult(shown, _ms(started), error=_first_line(error), reason="error")
    except Unperformable as error:
        return ActionResult(shown, _ms(started), error=str(error), reason="not_actionable")
    return ActionResult(shown, _ms(started), result=result)


HIDE_TEXT = """element => {
  for (const name of ["color", "caret-color", "-webkit-text-fill-color"]) {
    element.style.setProperty(name, "transparent", "important");
  }
  element.style.setProperty("text-shadow", "none", "important");
}"""
"""The style a field gets before a secret is typed into it, for as long as the page lives:
no image of the page (a screenshot, the trace's screencast, a video) can show its text, and
the caret, whose place would tell the secret's length, is hidden too."""


def field_of(page: Page, step: Step, visit: Visit) -> Locator | None:
    """The locator of the step's target, as :func:`perform` finds it."""
    target = _target(step, visit)
    return locator(page, *target) if target else None


class Unperformable(Exception):
    """A step Playwright would carry out without effect where a user could not."""


def _do(  # noqa: PLR0917
    page: Page,
    step: Step,
    found: Locator | None,
    routes: Routes,
    base: str,
    secret_value: str | None,
    timeout_ms: int,
) -> str:
    if isinstance(step, NavigateStep):
        path = routes.path(step.route, step.entity)
        response = page.goto(base + path, wait_until="load")
        return f"loaded {path} ({response.status if response else 'no response'})"
    if isinstance(step, GoBackStep):
        # With no history, Playwright does nothing and says so with None: as a user would
        # find the Back button greyed out, the step fails (compile refuses it too).
        if page.go_back(wait_until="load") is None:
            raise Unperformable("no page to go back to")
        return "went back"
    if isinstance(step, ScrollStep) and found is None:
        direction = step.direction
        if direction in (ScrollDirection.UP, ScrollDirection.DOWN):
            height = page.viewport_size["height"] if page.viewport_size else 600
            page.mouse.wheel(0, height if direction is ScrollDirection.DOWN else -height)
        else:
            page.keyboard.press("End" if direction is ScrollDirection.BOTTOM else "Home")
        return f"scrolled {direction.value}"
    if isinstance(step, PressKeyStep) and found is None:
        page.keyboard.press(step.key)
        return f"pressed {step.key}"
    assert found is not None  # every other intent has a target: the contract says so
    return _on_target(page, step, found, secret_value, timeout_ms)


def _on_target(  # noqa: PLR0912 - one branch per intent
    page: Page, step: Step, found: Locator, secret_value: str | None, timeout_ms: int
) -> str:
    from playwright.sync_api import FilePayload, expect  # noqa: PLC0415

    if isinstance(step, ClickStep):
        found.click()
    elif isinstance(step, FillStep):
        if secret_value is not None:
            found.evaluate(HIDE_TEXT)  # before the first character reaches the screen
        found.fill(secret_value if secret_value is not None else step.value or "")
        return "filled a secret" if secret_value is not None else "filled"
    elif isinstance(step, ClearStep):
        found.clear()
    elif isinstance(step, SelectOptionStep):
        return "selected " + ",".join(found.select_option(label=step.value))
    elif isinstance(step, CheckStep | UncheckStep):
        # Playwright returns at once from a box already so, even one a modal dialog covers;
        # a user would have to reach it first (compile refuses it): a trial click waits for
        # the box to be reachable, as any click does.
        found.click(trial=True)
        if isinstance(step, CheckStep):
            found.check()
        else:
            found.uncheck()
    elif isinstance(step, PressKeyStep):
        # Playwright presses on an element that cannot take focus without complaint, and
        # the key lands on the page; a user could not press it there (compile refuses it).
        found.focus()
        if not found.evaluate(
            "e => e === document.activeElement || e.contains(document.activeElement)"
        ):
            raise Unperformable(f"{step.key} pressed on an element that cannot take focus")
        found.press(step.key)
    elif isinstance(step, HoverStep):
        found.hover()
    elif isinstance(step, ScrollStep):
        found.scroll_into_view_if_needed()
    elif isinstance(step, WaitForStep):
        state = step.state or WaitState.VISIBLE
        bound = step.timeout_ms or timeout_ms
        if state is WaitState.ENABLED:
            expect(found).to_be_enabled(timeout=bound)
        else:
            found.wait_for(
                state="hidden" if state is WaitState.HIDDEN else "visible", timeout=bound
            )
        return f"became {state.value}"
    elif isinstance(step, UploadFileStep):
        app, _, name = step.file_ref.removeprefix("file:").partition("/")
        data = (app_root(app) / "files" / name).read_bytes()
        kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
        found.set_input_files(files=[FilePayload(name=name, mimeType=kind, buffer=data)])
        return f"attached {name}"
    del page
    return "done"


def check(page: Page, assertion: Any, visit: Visit, routes: Routes, timeout_ms: int) -> str | None:
    """Why ``assertion`` does not hold within the bound, or ``None`` when it holds."""
    from playwright.sync_api import expect  # noqa: PLC0415

    kind = assertion.kind
    try:
        if kind == "route_is":
            expect(page).to_have_url(_route_url(routes, assertion.route), timeout=timeout_ms)
            return None
        view = visit.after.view if visit.after is not None else None
        role, name, nth = _locator_of(assertion.target, view, visit)
        frame = frame_title(view, role, name)
        found = locator(page, role, name, nth, frame, counted=kind == "count_equals")
        checks = {
            "visible": lambda: expect(found).to_be_visible(timeout=timeout_ms),
            "hidden": lambda: expect(found).to_be_hidden(timeout=timeout_ms),
            "text_equals": lambda: expect(found).to_have_text(
                assertion.expected, timeout=timeout_ms
            ),
            "text_contains": lambda: expect(found).to_contain_text(
                assertion.expected, timeout=timeout_ms
            ),
            "value_equals": lambda: expect(found).to_have_value(
                assertion.expected, timeout=timeout_ms
            ),
            "count_equals": lambda: expect(found).to_have_count(
                assertion.count, timeout=timeout_ms
            ),
        }
        checks[kind]()
    except AssertionError as error:
        return _first_line(error)
    return None


def guard_holds(page: Page, guard: Mapping[str, Any], view: View | None, routes: Routes) -> bool:
    """Whether ``guard`` (a step's ``when``) holds on the page now, as an exported test's
    ``if`` asks it: no waiting, the page as it is once the step before has settled."""
    kind = guard["kind"]
    if kind == "route_is":
        return bool(_route_url(routes, guard["route"]).match(page.url))
    target = guard["target"]
    role, name, nth = target["role"], target["name"], target.get("nth")
    found = locator(page, role, name, nth, frame_title(view, role, name))
    if nth is None:
        found = found.first
    shown = found.is_visible()
    if kind == "visible":
        return shown
    if kind == "hidden":
        return not shown
    if not shown:
        return False
    text = normalized(found.inner_text())
    expected = normalized(guard.get("expected", ""))
    return expected in text if kind == "text_contains" else text == expected


def dismiss_dialog(page: Page) -> None:
    """Close an open modal dialog, as a person would: Escape."""
    if page.locator("dialog[open], [role=dialog][aria-modal=true]").count():
        page.keyboard.press("Escape")


def _route_url(routes: Routes, route_id: str) -> re.Pattern[str]:
    """Any URL of the app server whose path is ``route_id``'s, parameters filled."""
    parts = re.split(r":[A-Za-z][A-Za-z0-9]*", dict(routes.paths)[route_id])
    path = "[^/?#]+".join(re.escape(part) for part in parts).rstrip("/")
    return re.compile(r"^[a-z]+://[^/]+" + path + r"/?(?:[?#].*)?$")


def _target(step: Step, visit: Visit) -> tuple[str, str, int | None, str | None] | None:
    given = target_of(step)
    if given is None:
        return None
    view = visit.before.view if visit.before is not None else None
    role, name, nth = _locator_of(given, view, visit)
    element = visit.element
    frame = None
    if view is not None and element is not None and element.frame is not None:
        frame = view.template.elements[element.frame].name
    return role, name, nth, frame


def _locator_of(
    target: SemanticLocator | SnapshotRef, view: View | None, visit: Visit
) -> tuple[str, str, int | None]:
    """Role, name and nth of a target; a snapshot ref is the element compile resolved."""
    if isinstance(target, SemanticLocator):
        return target.role, target.name, target.nth
    element = visit.element
    if element is None or view is None:
        raise ValueError(f"snapshot ref {target.ref} resolves to no element of the page model")
    name = view.name(element) or element.name
    location = visit.before
    same = [
        e
        for e in view.elements_with_role(element.role)
        if normalized(view.name(e) or "") == normalized(name)
        and (location is None or location.visible(e))
    ]
    nth = same.index(element) if len(same) > 1 and element in same else None
    return element.role, name, nth


def _count(found: Locator) -> int:
    try:
        return found.count()
    except Exception:  # a frame that is gone counts nothing
        return 0


def _first_line(error: BaseException) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return " ".join(lines[:3])[:500] if lines else type(error).__name__


def _ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)
