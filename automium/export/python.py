"""A test plan as a pytest-playwright test: ``test_<journey_id>.py``, on its ``page`` fixture."""

from __future__ import annotations

import re

from automium.contracts import Intent
from automium.defaults import ACTION_TIMEOUT_MS
from automium.export.fixture_files import DEFAULT_ROOT, FILES_ENV
from automium.export.literals import comment, py_string
from automium.export.plan import (
    Action,
    Check,
    ExportPlan,
    Guard,
    Locator,
    StepPlan,
    Unresolved,
    branches,
)

_ASSERTIONS = {
    "visible": "to_be_visible()",
    "hidden": "to_be_hidden()",
    "text_equals": "to_have_text({expected})",
    "text_contains": "to_contain_text({expected})",
    "value_equals": "to_have_value({expected})",
    "count_equals": "to_have_count({count})",
}


def _snake(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _test_name(goal: str) -> str:
    """``test_`` and the goal's words, as many as fit in 80 characters."""
    name = "test"
    for word in _snake(goal).split("_"):
        if len(name) + 1 + len(word) > 80:
            break
        name += "_" + word
    return name


def file_name(plan: ExportPlan) -> str:
    return f"test_{_snake(plan.journey_id)}.py"


def render(plan: ExportPlan) -> str:
    imports = []
    if plan.uses_secrets or plan.uses_files:
        imports.append("import os")
    if any(c.url_pattern for s in plan.steps for c in s.checks) or any(
        s.guard and s.guard.url_pattern for s in plan.steps
    ):
        imports.append("import re")
    if plan.retries:
        imports.append("from collections.abc import Callable")
    if plan.uses_files:
        imports.append("from pathlib import Path")
    if plan.setup:
        imports.append("import pytest")
    lines = [*_header(plan), "", *imports]
    lines += ["", "from playwright.sync_api import Page, expect"]
    constants = []
    if plan.uses_files:
        constants.append(
            f"FILES = Path(os.environ.get({py_string(FILES_ENV)}, {py_string(DEFAULT_ROOT)}))"
        )
    if plan.retries:
        constants.append(f"ATTEMPTS = {plan.recovery.attempts}")
    if constants:
        lines += ["", *constants]
    if plan.retries:
        lines += [
            "",
            "",
            "def retry_step(action: Callable[[], object]) -> None:",
            '    """retry_step: the step again after a failure, ATTEMPTS times in all."""',
            "    for attempt in range(1, ATTEMPTS + 1):",
            "        try:",
            "            action()",
            "            return",
            "        except Exception:",
            "            if attempt == ATTEMPTS:",
            "                raise",
        ]
    page = "page"
    if plan.setup:
        # The journeys it uses: a fixture the test starts from.
        page = _fixture_name(plan)
        lines += ["", "", "@pytest.fixture", f"def {page}(page: Page) -> Page:"]
        lines.append(
            f'    """The page where {" after ".join(plan.uses)} ends: its steps run first."""'
        )
        lines += _timeout(plan)
        lines += _steps(plan.steps[: plan.setup], plan)
        lines.append("    return page")
    lines += ["", "", f"def {_test_name(plan.goal)}({page}: Page) -> None:"]
    lines.append(f"    {_docstring(plan.goal)}")
    if plan.setup:
        lines.append(f"    page = {page}")
    else:
        lines += _timeout(plan)
    lines += _steps(plan.steps[plan.setup :], plan)
    lines.append("")
    return "\n".join(lines)


def _fixture_name(plan: ExportPlan) -> str:
    return "after_" + _snake(plan.uses[0])


def _timeout(plan: ExportPlan) -> list[str]:
    # An attempt must end for retry_step to try again: actions get a timeout of their own.
    return [f"    page.set_default_timeout({ACTION_TIMEOUT_MS:_})"] if plan.retries else []


def _steps(steps: tuple[StepPlan, ...], plan: ExportPlan) -> list[str]:
    """The steps' lines, a branch's inside an ``if`` on its guard."""
    lines: list[str] = []
    for guard, branch in branches(steps):
        if guard is None:
            lines += _step(branch[0], plan)
            continue
        lines.append(f"    # when {comment(guard.caption)}")
        lines.append(f"    if {_condition(guard)}:")
        for guarded in branch:
            lines += ["    " + line for line in _step(guarded, plan)]
    return lines


def _step(step: StepPlan, plan: ExportPlan) -> list[str]:
    lines = [f"    # step {step.id}" + (f": {comment(step.note)}" if step.note else "")]
    lines += _action_lines(step.action, plan)
    lines += [f"    {_check(check)}" for check in step.checks]
    return lines


def _condition(guard: Guard) -> str:
    """The guard as the page is now: no waiting, as a run decides it."""
    if guard.url_pattern is not None:
        return f're.search(r"{guard.url_pattern}", page.url)'
    # Compile refuses a snapshot ref in a guard: its target is always a role and a name.
    assert isinstance(guard.target, Locator)
    locator = _locator(guard.target) + ("" if guard.target.nth is not None else ".first")
    shown = f"{locator}.is_visible()"
    if guard.kind == "visible":
        return shown
    if guard.kind == "hidden":
        return f"not {shown}"
    text = f'" ".join({locator}.inner_text().split())'
    expected = py_string(" ".join((guard.expected or "").split()))
    compared = f"{expected} in {text}" if guard.kind == "text_contains" else f"{text} == {expected}"
    return f"{shown} and {compared}"


def _docstring(goal: str) -> str:
    text = comment(goal)
    if '"' in text or "\\" in text:
        return py_string(text)
    return f'"""{text}"""'


def _header(plan: ExportPlan) -> list[str]:
    lines = [
        f"# {comment(plan.goal)}",
        "#",
        f"# Exported by Automium from {plan.ref}",
        "# (checked against the page models when exported; this file has not been run).",
        "# Serve the app in the journey's fixture, then run this file against the base URL",
        "# that `automium apps serve` prints:",
        f"#   automium apps serve --app {plan.app_id} --fixture {plan.fixture_id}",
        f"#   pytest {file_name(plan)} --base-url BASE_URL",
    ]
    if plan.uses_secrets:
        names = sorted({a.secret_env for a in plan.actions if a.secret_env})
        lines.append(f"# Secrets come from the environment: {', '.join(names)}.")
    if plan.uses_files:
        lines.append(f"# Fixture files are read below ${FILES_ENV} (default: {DEFAULT_ROOT}).")
    lines.append("# Recovery:")
    for kept in plan.recovery.kept:
        how = ", with retry_step() below" if kept.startswith("retry_step") else ""
        lines.append(f"#   {kept}{how}.")
    lines += [f"#   Lost: {lost}." for lost in plan.recovery.lost]
    return lines


def _locator(target: Locator) -> str:
    base = "page"
    for frame in target.frames:
        base += f".locator({py_string(frame.selector)})"
        if frame.nth is not None:
            base += f".nth({frame.nth})"
        base += ".content_frame"
    nth = "" if target.nth is None else f".nth({target.nth})"
    role, name = py_string(target.role), py_string(target.name)
    return f"{base}.get_by_role({role}, name={name}, exact=True){nth}"


def _unresolved(target: Unresolved, where: str) -> str:
    return f"raise AssertionError({py_string(f'{where}: {target.why}')})"


def _action_lines(action: Action, plan: ExportPlan) -> list[str]:
    if isinstance(action.target, Unresolved):
        return [f"    {_unresolved(action.target, 'step')}"]
    expression = _expression(action)
    if not plan.retries:
        return [f"    {expression}"]
    return [f"    retry_step(lambda: {expression})"]


def _expression(action: Action) -> str:
    intent = action.intent
    if intent == Intent.NAVIGATE:
        return f"page.goto({py_string(action.path or '/')})"
    if intent == Intent.GO_BACK:
        return "page.go_back()"
    if intent == Intent.SCROLL and action.target is None:
        return {
            "down": f"page.mouse.wheel(0, {action.distance})",
            "up": f"page.mouse.wheel(0, -{action.distance})",
            "top": 'page.evaluate("window.scrollTo(0, 0)")',
            "bottom": 'page.evaluate("window.scrollTo(0, document.body.scrollHeight)")',
        }[action.direction or "down"]
    if intent == Intent.PRESS_KEY and action.target is None:
        return f"page.keyboard.press({py_string(action.key or '')})"
    assert isinstance(action.target, Locator)
    locator = _locator(action.target)
    timeout = action.timeout_ms or 0  # wait_for's
    if intent == Intent.WAIT_FOR and action.state == "enabled":
        return f"expect({locator}).to_be_enabled(timeout={timeout:_})"
    call = {
        Intent.CLICK: "click()",
        Intent.FILL: f"fill({_fill_value(action)})",
        Intent.CLEAR: "clear()",
        Intent.SELECT_OPTION: f"select_option(label={py_string(action.value or '')})",
        Intent.CHECK: "check()",
        Intent.UNCHECK: "uncheck()",
        Intent.PRESS_KEY: f"press({py_string(action.key or '')})",
        Intent.HOVER: "hover()",
        Intent.SCROLL: "scroll_into_view_if_needed()",
        Intent.WAIT_FOR: (
            f"wait_for(state={py_string(action.state or 'visible')}, timeout={timeout:_})"
        ),
        Intent.UPLOAD_FILE: f"set_input_files(FILES / {py_string(action.file or '')})",
    }[Intent(intent)]
    return f"{locator}.{call}"


def _fill_value(action: Action) -> str:
    if action.secret_env:
        return f"os.environ[{py_string(action.secret_env)}]"
    return py_string(action.value or "")


def _check(check: Check) -> str:
    label = py_string(check.id)
    if check.url_pattern is not None:
        return f'expect(page, {label}).to_have_url(re.compile(r"{check.url_pattern}"))'
    if isinstance(check.target, Unresolved):
        return _unresolved(check.target, f"assertion {check.id}")
    assert isinstance(check.target, Locator)
    matcher = _ASSERTIONS[check.kind].format(
        expected=py_string(check.expected or ""), count=check.count
    )
    return f"expect({_locator(check.target)}, {label}).{matcher}"
