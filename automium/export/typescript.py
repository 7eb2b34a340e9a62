"""A test plan as an ``@playwright/test`` spec: ``<journey-id>.spec.ts``."""

from __future__ import annotations

from automium.contracts import Intent
from automium.defaults import ACTION_TIMEOUT_MS
from automium.export.fixture_files import DEFAULT_ROOT, FILES_ENV
from automium.export.literals import comment, js_string
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
    "visible": "toBeVisible()",
    "hidden": "toBeHidden()",
    "text_equals": "toHaveText({expected})",
    "text_contains": "toContainText({expected})",
    "value_equals": "toHaveValue({expected})",
    "count_equals": "toHaveCount({count})",
}


def file_name(plan: ExportPlan) -> str:
    return f"{plan.journey_id}.spec.ts"


def render(plan: ExportPlan) -> str:
    lines = [*_header(plan), ""]
    if plan.uses_files:
        lines.append("import path from 'node:path';")
    lines += ["import { test, expect } from '@playwright/test';", ""]
    if plan.uses_files:
        lines += [f"const FILES = process.env.{FILES_ENV} ?? {js_string(DEFAULT_ROOT)};", ""]
    if plan.uses_secrets:
        lines += [
            "function secret(name: string): string {",
            "  const value = process.env[name];",
            "  if (!value) throw new Error(`set ${name}: the test reads this secret from the "
            "environment`);",
            "  return value;",
            "}",
            "",
        ]
    if plan.retries:
        # An attempt must end for toPass to try again: actions get a timeout of their own.
        lines += [f"test.use({{ actionTimeout: {ACTION_TIMEOUT_MS:_} }});", ""]
    if plan.setup:
        # The journeys it uses: a setup every test of the file starts from.
        lines.append(f"// Starts where {' after '.join(plan.uses)} ends: its steps run first.")
        lines.append("test.beforeEach(async ({ page }) => {")
        lines += _steps(plan.steps[: plan.setup], plan)
        lines += ["});", ""]
    lines.append(f"test({js_string(plan.goal)}, async ({{ page }}) => {{")
    lines += _steps(plan.steps[plan.setup :], plan)
    lines += ["});", ""]
    return "\n".join(lines)


def _steps(steps: tuple[StepPlan, ...], plan: ExportPlan) -> list[str]:
    """The steps' lines, a branch's inside an ``if`` on its guard."""
    lines: list[str] = []
    for guard, branch in branches(steps):
        if guard is None:
            lines += _step(branch[0], plan)
            continue
        lines.append(f"  // when {comment(guard.caption)}")
        lines.append(f"  if ({_condition(guard)}) {{")
        for guarded in branch:
            lines += ["  " + line for line in _step(guarded, plan)]
        lines.append("  }")
    return lines


def _step(step: StepPlan, plan: ExportPlan) -> list[str]:
    lines = [f"  await test.step({js_string(step.id)}, async () => {{"]
    if step.note:
        lines.append(f"    // {comment(step.note)}")
    lines += _action_lines(step.action, plan)
    lines += [f"    {_check(check)}" for check in step.checks]
    lines.append("  });")
    return lines


def _condition(guard: Guard) -> str:
    """The guard as the page is now: no waiting, as a run decides it."""
    if guard.url_pattern is not None:
        literal = "/" + guard.url_pattern.replace("/", "\\/") + "/"
        return f"{literal}.test(page.url())"
    # Compile refuses a snapshot ref in a guard: its target is always a role and a name.
    assert isinstance(guard.target, Locator)
    locator = _locator(guard.target) + ("" if guard.target.nth is not None else ".first()")
    shown = f"await {locator}.isVisible()"
    if guard.kind == "visible":
        return shown
    if guard.kind == "hidden":
        return f"!({shown})"
    text = f"(await {locator}.innerText()).replace(/\\s+/g, ' ').trim()"
    expected = js_string(" ".join((guard.expected or "").split()))
    compared = (
        f"{text}.includes({expected})"
        if guard.kind == "text_contains"
        else (f"{text} === {expected}")
    )
    return f"({shown}) && {compared}"


def _header(plan: ExportPlan) -> list[str]:
    lines = [
        f"// {comment(plan.goal)}",
        "//",
        f"// Exported by Automium from {plan.ref}",
        "// (checked against the page models when exported; this file has not been run).",
        "// Serve the app in the journey's fixture, then run this file against the base URL",
        "// that `automium apps serve` prints (use.baseURL in playwright.config.ts):",
        f"//   automium apps serve --app {plan.app_id} --fixture {plan.fixture_id}",
        f"//   npx playwright test {file_name(plan)}",
    ]
    if plan.uses_secrets:
        names = sorted({a.secret_env for a in plan.actions if a.secret_env})
        lines.append(f"// Secrets come from the environment: {', '.join(names)}.")
    if plan.uses_files:
        lines.append(f"// Fixture files are read below ${FILES_ENV} (default: {DEFAULT_ROOT}).")
    lines += _recovery_lines(plan, "//")
    return lines


def _recovery_lines(plan: ExportPlan, mark: str) -> list[str]:
    recovery = plan.recovery
    lines = [f"{mark} Recovery:"]
    for kept in recovery.kept:
        line = kept
        if kept.startswith("retry_step"):
            # toPass bounds retries by time, not by count: say so rather than claim a count.
            seconds = recovery.attempts * ACTION_TIMEOUT_MS // 1000
            line = (
                f"retry_step: each step is retried with expect(...).toPass() within {seconds} s "
                f"({recovery.attempts} attempts at the {ACTION_TIMEOUT_MS // 1000} s action "
                "timeout)"
            )
        lines.append(f"{mark}   {line}.")
    lines += [f"{mark}   Lost: {lost}." for lost in recovery.lost]
    return lines


def _locator(target: Locator) -> str:
    base = "page"
    for frame in target.frames:
        base += f".locator({js_string(frame.selector)})"
        if frame.nth is not None:
            base += f".nth({frame.nth})"
        base += ".contentFrame()"
    options = f"{{ name: {js_string(target.name)}, exact: true }}"
    nth = "" if target.nth is None else f".nth({target.nth})"
    return f"{base}.getByRole({js_string(target.role)}, {options}){nth}"


def _unresolved(target: Unresolved, where: str) -> str:
    return f"throw new Error({js_string(f'{where}: {target.why}')});"


def _action_lines(action: Action, plan: ExportPlan) -> list[str]:
    if isinstance(action.target, Unresolved):
        return [f"    {_unresolved(action.target, 'step')}"]
    statement = _statement(action)
    if not plan.retries:
        return [f"    {statement}"]
    timeout = plan.recovery.attempts * ACTION_TIMEOUT_MS
    return [
        "    await expect(async () => {",
        f"      {statement}",
        f"    }}).toPass({{ timeout: {timeout:_} }});",
    ]


def _statement(action: Action) -> str:
    intent = action.intent
    if intent == Intent.NAVIGATE:
        return f"await page.goto({js_string(action.path or '/')});"
    if intent == Intent.GO_BACK:
        return "await page.goBack();"
    if intent == Intent.SCROLL and action.target is None:
        return {
            "down": f"await page.mouse.wheel(0, {action.distance});",
            "up": f"await page.mouse.wheel(0, -{action.distance});",
            "top": "await page.evaluate(() => window.scrollTo(0, 0));",
            "bottom": "await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));",
        }[action.direction or "down"]
    if intent == Intent.PRESS_KEY and action.target is None:
        return f"await page.keyboard.press({js_string(action.key or '')});"
    assert isinstance(action.target, Locator)
    locator = _locator(action.target)
    timeout = action.timeout_ms or 0  # wait_for's
    if intent == Intent.WAIT_FOR and action.state == "enabled":
        return f"await expect({locator}).toBeEnabled({{ timeout: {timeout:_} }});"
    call = {
        Intent.CLICK: "click()",
        Intent.FILL: f"fill({_fill_value(action)})",
        Intent.CLEAR: "clear()",
        Intent.SELECT_OPTION: f"selectOption({{ label: {js_string(action.value or '')} }})",
        Intent.CHECK: "check()",
        Intent.UNCHECK: "uncheck()",
        Intent.PRESS_KEY: f"press({js_string(action.key or '')})",
        Intent.HOVER: "hover()",
        Intent.SCROLL: "scrollIntoViewIfNeeded()",
        Intent.WAIT_FOR: f"waitFor({{ state: '{action.state}', timeout: {timeout:_} }})",
        Intent.UPLOAD_FILE: f"setInputFiles(path.join(FILES, {js_string(action.file or '')}))",
    }[Intent(intent)]
    return f"await {locator}.{call};"


def _fill_value(action: Action) -> str:
    if action.secret_env:
        return f"secret({js_string(action.secret_env)})"
    return js_string(action.value or "")


def _check(check: Check) -> str:
    label = js_string(check.id)
    if check.url_pattern is not None:
        literal = "/" + check.url_pattern.replace("/", "\\/") + "/"
        return f"await expect(page, {label}).toHaveURL({literal});"
    if isinstance(check.target, Unresolved):
        return _unresolved(check.target, f"assertion {check.id}")
    assert isinstance(check.target, Locator)
    matcher = _ASSERTIONS[check.kind].format(
        expected=js_string(check.expected or ""), count=check.count
    )
    return f"await expect({_locator(check.target)}, {label}).{matcher};"
