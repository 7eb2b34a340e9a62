"""Export: a checked journey becomes a Playwright test a QA engineer would write, in
TypeScript (@playwright/test) and in Python (pytest-playwright).

The worked example's files are snapshotted as files a reviewer opens; the rest asserts what
a reader of an exported file relies on: exact role locators with nth, iframes entered,
secrets from the environment, no scheme anywhere, every intent, every assertion, and
recovery kept or said lost.
"""

from __future__ import annotations

import ast
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from automium import corpus
from automium.compilation import compilation_document
from automium.contracts import ErrorCode
from automium.errors import AutomiumError
from automium.export import FORMATS, export_journey
from automium.export import python as python_format
from automium.export import typescript as typescript_format
from automium.export.plan import (
    Action,
    Check,
    ExportPlan,
    Frame,
    Locator,
    Recovery,
    StepPlan,
    Unresolved,
    secret_env,
)
from automium.export.routes import route_path, route_pattern
from tests.cases import journey_with, reference_journey
from tests.conftest import examples
from tests.domain.page_journeys import valid_journeys

REFERENCE_IDS = [j.id for j in corpus.reference_journeys()]


class _TypeScriptFile(SingleFileSnapshotExtension):
    file_extension = "spec.ts"
    _write_mode = WriteMode.TEXT


class _PythonFile(SingleFileSnapshotExtension):
    # Not ".py": pytest would collect a snapshot named test_*.py as a test module.
    file_extension = "py.txt"
    _write_mode = WriteMode.TEXT


def exported(document: dict[str, Any], fmt: str) -> str:
    (file,) = export_journey(document, [fmt])
    return file.text


# --- the worked example, as files --------------------------------------------------------------


def test_the_worked_example_exports_as_this_playwright_test_spec(
    snapshot: SnapshotAssertion,
) -> None:
    (file,) = export_journey(reference_journey(), ["ts"])

    assert file.file_name == "shop-lite.buy-one-mug.spec.ts"
    assert file.text == snapshot.use_extension(_TypeScriptFile)


def test_the_worked_example_exports_as_this_pytest_module(snapshot: SnapshotAssertion) -> None:
    (file,) = export_journey(reference_journey(), ["py"])

    assert file.file_name == "test_shop_lite_buy_one_mug.py"
    assert file.text == snapshot.use_extension(_PythonFile)


def test_formats_come_in_the_order_asked_and_each_once() -> None:
    files = export_journey(reference_journey(), ["py", "ts", "py"])

    assert [f.format for f in files] == ["py", "ts"]
    assert FORMATS == ("ts", "py")


# --- what every exported file holds ------------------------------------------------------------


@pytest.mark.parametrize("journey_id", REFERENCE_IDS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_no_exported_file_names_a_scheme_even_in_a_comment(journey_id: str, fmt: str) -> None:
    text = exported(reference_journey(journey_id), fmt)

    assert "://" not in text.replace("[a-z]+://", "").replace("[a-z]+:\\/\\/", "")
    assert not re.search(r"https?:", text, re.IGNORECASE)


@pytest.mark.parametrize("journey_id", REFERENCE_IDS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_every_assertion_is_an_expect_labelled_with_its_id(journey_id: str, fmt: str) -> None:
    document = reference_journey(journey_id)
    text = exported(document, fmt)

    for assertion in document["assertions"]:
        label = re.escape(assertion["id"])
        assert re.search(rf"expect\(.*, ['\"]{label}['\"]\)\.", text), assertion["id"]


@pytest.mark.parametrize("journey_id", REFERENCE_IDS)
def test_every_step_is_a_test_step_named_by_its_id(journey_id: str) -> None:
    document = reference_journey(journey_id)
    ts, py = exported(document, "ts"), exported(document, "py")

    for step in document["steps"]:
        assert f"await test.step('{step['id']}', async () => {{" in ts
        assert f"    # step {step['id']}" in py


@pytest.mark.parametrize("journey_id", REFERENCE_IDS)
def test_every_python_export_is_valid_python_with_one_test_on_the_page_fixture(
    journey_id: str,
) -> None:
    module = ast.parse(exported(reference_journey(journey_id), "py"))

    tests = [f for f in module.body if isinstance(f, ast.FunctionDef) and f.name.startswith("test")]
    assert [[a.arg for a in t.args.args] for t in tests] == [["page"]]


@pytest.mark.parametrize("journey_id", REFERENCE_IDS)
def test_the_header_names_the_ref_and_how_to_serve_and_run_the_file(journey_id: str) -> None:
    document = reference_journey(journey_id)
    ref = compilation_document(document)["journeyRef"]
    serve = f"automium apps serve --app {document['appId']} --fixture {document['fixtureId']}"

    for fmt, run in (("ts", "npx playwright test "), ("py", "pytest test_")):
        text = exported(document, fmt)
        assert f"Exported by Automium from {ref}" in text
        assert serve in text
        assert run in text
        assert "this file has not been run" in text


def test_the_goal_is_the_tests_title() -> None:
    ts, py = exported(reference_journey(), "ts"), exported(reference_journey(), "py")

    assert "test('Buy one mug and see the order confirmation', async ({ page }) => {" in ts
    assert "def test_buy_one_mug_and_see_the_order_confirmation(page: Page) -> None:" in py
    assert '    """Buy one mug and see the order confirmation"""' in py


# --- locators ----------------------------------------------------------------------------------


def test_a_target_is_an_exact_role_locator_with_its_nth() -> None:
    ts, py = exported(reference_journey(), "ts"), exported(reference_journey(), "py")

    assert "page.getByRole('button', { name: 'Add to cart', exact: true }).nth(0).click()" in ts
    assert 'page.get_by_role("button", name="Add to cart", exact=True).nth(0).click()' in py


def test_a_target_under_an_iframe_is_reached_through_that_frame() -> None:
    document = reference_journey("bank-sandbox.transfer-to-savings")
    ts, py = exported(document, "ts"), exported(document, "py")

    frame_ts = "page.locator('iframe[title=\"Verification\"]').contentFrame()"
    frame_py = "page.locator('iframe[title=\"Verification\"]').content_frame"
    assert f"{frame_ts}.getByRole('button', {{ name: 'Verify', exact: true }}).click()" in ts
    assert f'{frame_py}.get_by_role("button", name="Verify", exact=True).click()' in py
    # A target outside the frame stays on the page.
    assert "await page.getByRole('button', { name: 'Confirm transfer', exact: true })" in ts


def test_a_snapshot_ref_target_is_written_as_the_role_and_name_it_stands_for() -> None:
    document = reference_journey()
    document["steps"][5]["target"] = {"ref": "e14"}  # checkout's "Place order" button

    ts = exported(document, "ts")

    assert "page.getByRole('button', { name: 'Place order', exact: true }).click()" in ts


def test_quotes_and_backslashes_in_names_are_escaped_for_each_language() -> None:
    target = Locator("button", 'Say "hi" it\'s \\ok', 2, (Frame('a "b"', 1),))

    ts = typescript_format._locator(target)
    py = python_format._locator(target)

    assert ts == (
        'page.locator(\'iframe[title="a \\\\"b\\\\""]\').nth(1).contentFrame()'
        ".getByRole('button', { name: 'Say \"hi\" it\\'s \\\\ok', exact: true }).nth(2)"
    )
    tree = ast.parse(py, mode="eval")
    strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)]
    assert 'Say "hi" it\'s \\ok' in strings
    assert 'iframe[title="a \\"b\\""]' in strings


def test_a_value_holding_a_web_address_is_written_without_its_scheme_yet_reads_back_whole() -> None:
    document = reference_journey()
    document["steps"][1]["value"] = "see https://example.org/mugs"

    py = exported(document, "py")

    (literal,) = re.findall(r'\.fill\(("(?:[^"\\]|\\.)*")\)', py)
    assert ast.literal_eval(literal) == "see https://example.org/mugs"
    assert "https://" not in py


# --- routes, secrets, files --------------------------------------------------------------------


def test_navigate_opens_the_routes_path_with_the_entitys_value() -> None:
    assert route_path("shop-lite", "shop-lite.returning-buyer", "product", "stoneware-mug") == (
        "/products/stoneware-mug"
    )
    assert route_path("helpdesk", "helpdesk.agent-open-queue", "ticket", "printer-offline") == (
        "/tickets/1042"
    )
    assert route_path("shop-lite", "shop-lite.returning-buyer", "home", None) == "/"


@pytest.mark.parametrize(
    ("app", "route", "url", "matches"),
    [
        ("shop-lite", "home", "http://127.0.0.1:8123/", True),
        ("shop-lite", "home", "http://127.0.0.1:8123/?q=mug", True),
        ("shop-lite", "home", "http://127.0.0.1:8123/cart", False),
        ("shop-lite", "order-confirmation", "http://127.0.0.1:8123/orders/1042/confirmation", True),
        ("shop-lite", "orders", "http://127.0.0.1:8123/orders/1042/confirmation", False),
        ("helpdesk", "ticket", "http://127.0.0.1:8123/tickets/1042#reply", True),
        ("helpdesk", "ticket", "http://127.0.0.1:8123/tickets/new", False),
        ("helpdesk", "new-ticket", "http://127.0.0.1:8123/tickets/new", True),
        ("bank-sandbox", "transfer", "http://127.0.0.1:8123/transfer/review", False),
    ],
)
def test_route_is_expects_the_url_of_exactly_that_route(
    app: str, route: str, url: str, matches: bool
) -> None:
    assert bool(re.search(route_pattern(app, route), url)) is matches


@pytest.mark.parametrize(
    ("secret_ref", "variable"),
    [
        ("account:shop-lite/buyer#password", "AUTOMIUM_SECRET_ACCOUNT_SHOP_LITE_BUYER_PASSWORD"),
        (
            "account:bank-sandbox/customer#one-time-code",
            "AUTOMIUM_SECRET_ACCOUNT_BANK_SANDBOX_CUSTOMER_ONE_TIME_CODE",
        ),
    ],
)
def test_a_secret_is_read_from_its_environment_variable(secret_ref: str, variable: str) -> None:
    assert secret_env(secret_ref) == variable


def test_a_secret_is_never_a_literal_in_either_format() -> None:
    document = reference_journey("bank-sandbox.transfer-to-savings")
    name = "AUTOMIUM_SECRET_ACCOUNT_BANK_SANDBOX_CUSTOMER_ONE_TIME_CODE"

    ts, py = exported(document, "ts"), exported(document, "py")

    assert f".fill(secret('{name}'));" in ts
    assert f'.fill(os.environ["{name}"])' in py


def test_an_upload_reads_the_fixture_file_below_the_files_root() -> None:
    document = reference_journey("admin-console.import-users-csv")

    ts, py = exported(document, "ts"), exported(document, "py")

    assert "const FILES = process.env.AUTOMIUM_FILES ?? 'automium/corpus/apps';" in ts
    assert ".setInputFiles(path.join(FILES, 'admin-console/files/users.csv'))" in ts
    assert '.set_input_files(FILES / "admin-console/files/users.csv")' in py


# --- every intent and every assertion kind, as each format writes it ---------------------------

_BUTTON = Locator("button", "Go")
_FIELD = Locator("textbox", "Name")

INTENTS = [
    (Action("navigate", path="/cart"), "await page.goto('/cart');", 'page.goto("/cart")'),
    (Action("go_back"), "await page.goBack();", "page.go_back()"),
    (
        Action("click", _BUTTON),
        "await page.getByRole('button', { name: 'Go', exact: true }).click();",
        'page.get_by_role("button", name="Go", exact=True).click()',
    ),
    (
        Action("fill", _FIELD, value="Sam"),
        "await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Sam');",
        'page.get_by_role("textbox", name="Name", exact=True).fill("Sam")',
    ),
    (
        Action("clear", _FIELD),
        "await page.getByRole('textbox', { name: 'Name', exact: true }).clear();",
        'page.get_by_role("textbox", name="Name", exact=True).clear()',
    ),
    (
        Action("select_option", Locator("combobox", "Role"), value="Editor"),
        "await page.getByRole('combobox', { name: 'Role', exact: true })"
        ".selectOption({ label: 'Editor' });",
        'page.get_by_role("combobox", name="Role", exact=True).select_option(label="Editor")',
    ),
    (
        Action("check", Locator("checkbox", "Done")),
        "await page.getByRole('checkbox', { name: 'Done', exact: true }).check();",
        'page.get_by_role("checkbox", name="Done", exact=True).check()',
    ),
    (
        Action("uncheck", Locator("checkbox", "Done")),
        "await page.getByRole('checkbox', { name: 'Done', exact: true }).uncheck();",
        'page.get_by_role("checkbox", name="Done", exact=True).uncheck()',
    ),
    (
        Action("press_key", key="Escape"),
        "await page.keyboard.press('Escape');",
        'page.keyboard.press("Escape")',
    ),
    (
        Action("press_key", _FIELD, key="Enter"),
        "await page.getByRole('textbox', { name: 'Name', exact: true }).press('Enter');",
        'page.get_by_role("textbox", name="Name", exact=True).press("Enter")',
    ),
    (
        Action("hover", _BUTTON),
        "await page.getByRole('button', { name: 'Go', exact: true }).hover();",
        'page.get_by_role("button", name="Go", exact=True).hover()',
    ),
    (
        Action("scroll", direction="down", distance=720),
        "await page.mouse.wheel(0, 720);",
        "page.mouse.wheel(0, 720)",
    ),
    (
        Action("scroll", direction="up", distance=720),
        "await page.mouse.wheel(0, -720);",
        "page.mouse.wheel(0, -720)",
    ),
    (
        Action("scroll", direction="top"),
        "await page.evaluate(() => window.scrollTo(0, 0));",
        'page.evaluate("window.scrollTo(0, 0)")',
    ),
    (
        Action("scroll", direction="bottom"),
        "await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));",
        'page.evaluate("window.scrollTo(0, document.body.scrollHeight)")',
    ),
    (
        Action("scroll", _BUTTON, direction="down"),
        "await page.getByRole('button', { name: 'Go', exact: true }).scrollIntoViewIfNeeded();",
        'page.get_by_role("button", name="Go", exact=True).scroll_into_view_if_needed()',
    ),
    (
        Action("wait_for", _BUTTON, state="hidden", timeout_ms=5000),
        "await page.getByRole('button', { name: 'Go', exact: true })"
        ".waitFor({ state: 'hidden', timeout: 5_000 });",
        'page.get_by_role("button", name="Go", exact=True).wait_for(state="hidden", timeout=5_000)',
    ),
    (
        Action("wait_for", _BUTTON, state="enabled", timeout_ms=2500),
        "await expect(page.getByRole('button', { name: 'Go', exact: true }))"
        ".toBeEnabled({ timeout: 2_500 });",
        'expect(page.get_by_role("button", name="Go", exact=True)).to_be_enabled(timeout=2_500)',
    ),
    (
        Action("upload_file", Locator("button", "Choose file"), file="helpdesk/files/a.pdf"),
        "await page.getByRole('button', { name: 'Choose file', exact: true })"
        ".setInputFiles(path.join(FILES, 'helpdesk/files/a.pdf'));",
        'page.get_by_role("button", name="Choose file", exact=True)'
        '.set_input_files(FILES / "helpdesk/files/a.pdf")',
    ),
    (
        Action("fill", _FIELD, secret_env="AUTOMIUM_SECRET_X"),
        "await page.getByRole('textbox', { name: 'Name', exact: true })"
        ".fill(secret('AUTOMIUM_SECRET_X'));",
        'page.get_by_role("textbox", name="Name", exact=True)'
        '.fill(os.environ["AUTOMIUM_SECRET_X"])',
    ),
]

CHECKS = [
    (
        Check("a", "visible", _BUTTON),
        "await expect(page.getByRole('button', { name: 'Go', exact: true }), 'a').toBeVisible();",
        'expect(page.get_by_role("button", name="Go", exact=True), "a").to_be_visible()',
    ),
    (
        Check("a", "hidden", _BUTTON),
        "await expect(page.getByRole('button', { name: 'Go', exact: true }), 'a').toBeHidden();",
        'expect(page.get_by_role("button", name="Go", exact=True), "a").to_be_hidden()',
    ),
    (
        Check("a", "text_equals", _BUTTON, expected="Go"),
        "await expect(page.getByRole('button', { name: 'Go', exact: true }), 'a')"
        ".toHaveText('Go');",
        'expect(page.get_by_role("button", name="Go", exact=True), "a").to_have_text("Go")',
    ),
    (
        Check("a", "text_contains", _BUTTON, expected="G"),
        "await expect(page.getByRole('button', { name: 'Go', exact: true }), 'a')"
        ".toContainText('G');",
        'expect(page.get_by_role("button", name="Go", exact=True), "a").to_contain_text("G")',
    ),
    (
        Check("a", "value_equals", _FIELD, expected="Sam"),
        "await expect(page.getByRole('textbox', { name: 'Name', exact: true }), 'a')"
        ".toHaveValue('Sam');",
        'expect(page.get_by_role("textbox", name="Name", exact=True), "a").to_have_value("Sam")',
    ),
    (
        Check("a", "count_equals", Locator("listitem", "Milk"), count=3),
        "await expect(page.getByRole('listitem', { name: 'Milk', exact: true }), 'a')"
        ".toHaveCount(3);",
        'expect(page.get_by_role("listitem", name="Milk", exact=True), "a").to_have_count(3)',
    ),
    (
        Check("a", "route_is", route="cart", url_pattern="^[a-z]+://[^/]+/cart(?:[?#].*)?$"),
        "await expect(page, 'a').toHaveURL(/^[a-z]+:\\/\\/[^\\/]+\\/cart(?:[?#].*)?$/);",
        'expect(page, "a").to_have_url(re.compile(r"^[a-z]+://[^/]+/cart(?:[?#].*)?$"))',
    ),
    (
        Check("a", "visible", Unresolved("target e9 names nothing")),
        "throw new Error('assertion a: target e9 names nothing');",
        'raise AssertionError("assertion a: target e9 names nothing")',
    ),
]


def _plan(action: Action, checks: tuple[Check, ...] = (), attempts: int = 1) -> ExportPlan:
    return ExportPlan(
        journey_id="shop-lite.x",
        ref="journey:shop-lite.returning-buyer/shop-lite.x@00000000000000000000",
        goal="Do it",
        app_id="shop-lite",
        fixture_id="shop-lite.returning-buyer",
        steps=(StepPlan("only", action, checks),),
        recovery=Recovery(attempts, (), ()),
    )


@pytest.mark.parametrize(("action", "ts", "py"), INTENTS, ids=lambda v: getattr(v, "intent", ""))
def test_every_intent_is_one_playwright_call_in_each_format(
    action: Action, ts: str, py: str
) -> None:
    plan = _plan(action)

    assert f"\n    {ts}\n" in typescript_format.render(plan)
    assert f"\n    {py}\n" in python_format.render(plan)


def test_the_table_covers_every_intent_of_the_vocabulary() -> None:
    from automium.contracts import Intent  # noqa: PLC0415

    assert {a.intent for a, _, _ in INTENTS} == {i.value for i in Intent}


@pytest.mark.parametrize(("check", "ts", "py"), CHECKS, ids=lambda v: getattr(v, "kind", ""))
def test_every_assertion_kind_is_a_web_first_expect_in_each_format(
    check: Check, ts: str, py: str
) -> None:
    plan = _plan(Action("go_back"), (check,))

    assert f"\n    {ts}\n" in typescript_format.render(plan)
    assert f"\n    {py}\n" in python_format.render(plan)


def test_a_step_with_an_unresolved_target_fails_there_saying_why() -> None:
    plan = _plan(Action("click", Unresolved("target e9 is a snapshot ref")))

    assert "    throw new Error('step: target e9 is a snapshot ref');\n" in (
        typescript_format.render(plan)
    )
    assert '    raise AssertionError("step: target e9 is a snapshot ref")\n' in (
        python_format.render(plan)
    )


# --- recovery ----------------------------------------------------------------------------------


def test_retry_step_retries_each_step_up_to_max_attempts_in_each_format() -> None:
    document = journey_with(
        recovery={"maxAttempts": 3, "strategies": ["retry_step"], "onExhausted": "fail_run"}
    )
    ts, py = exported(document, "ts"), exported(document, "py")

    assert "test.use({ actionTimeout: 5_000 });" in ts
    assert ts.count("}).toPass({ timeout: 15_000 });") == len(document["steps"])
    assert "ATTEMPTS = 3" in py
    assert py.count("    retry_step(lambda: ") == len(document["steps"])
    assert "retry_step: each step is tried up to 3 times, with retry_step() below." in py
    assert (
        "// Recovery:\n//   retry_step: each step is retried with expect(...).toPass() within "
        "15 s (3 attempts at the 5 s action timeout).\n"
    ) in ts


def test_without_retry_step_nothing_is_retried() -> None:
    document = journey_with(
        recovery={"maxAttempts": 3, "strategies": ["refresh_snapshot"], "onExhausted": "fail_run"}
    )
    ts, py = exported(document, "ts"), exported(document, "py")

    assert "toPass" not in ts
    assert "actionTimeout" not in ts
    assert "retry_step" not in py
    assert "refresh_snapshot: a locator reads the page afresh at every action" in ts


def test_a_strategy_a_test_cannot_keep_is_a_comment_saying_what_is_lost() -> None:
    document = journey_with(
        recovery={
            "maxAttempts": 2,
            "strategies": ["restart_from_route", "dismiss_dialog"],
            "onExhausted": "mark_blocked",
        }
    )

    for fmt, mark in (("ts", "//"), ("py", "#")):
        lost = [ln for ln in exported(document, fmt).splitlines() if "Lost:" in ln]
        assert lost == [
            f"{mark}   Lost: restart_from_route: a failing step is not restarted from its "
            "route; a rerun of the test starts again from its first step.",
            f"{mark}   Lost: dismiss_dialog: a dialog left over the page is not dismissed; "
            "the step it blocks fails.",
            f"{mark}   Lost: onExhausted mark_blocked: a test that runs out of attempts "
            "fails; it is never blocked.",
        ]


# --- what is not exported ----------------------------------------------------------------------


def test_a_journey_compile_refuses_exports_nothing_and_says_why() -> None:
    document = journey_with(fixtureId="shop-lite.vip")

    with pytest.raises(AutomiumError) as refused:
        export_journey(document, ["ts", "py"])

    assert refused.value.code == ErrorCode.UNKNOWN_FIXTURE


def test_asking_for_an_export_does_not_change_the_journeys_ref() -> None:
    plain = compilation_document(reference_journey())
    with_export = compilation_document(journey_with(export=["ts"]))

    assert with_export["journeyRef"] == plain["journeyRef"]
    assert "exports" not in plain
    assert [e["fileName"] for e in with_export["exports"]] == ["shop-lite.buy-one-mug.spec.ts"]


# --- any journey that compiles -----------------------------------------------------------------


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_journeys())
def test_every_journey_that_compiles_exports_in_both_formats_with_every_step_and_assertion(
    document: dict[str, Any],
) -> None:
    ts, py = (f.text for f in export_journey(document, ["ts", "py"]))

    module = ast.parse(py)
    assert sum(isinstance(node, ast.FunctionDef) for node in module.body) >= 1
    assert ts.count("await test.step(") == len(document["steps"])
    assert py.count("    # step ") == len(document["steps"])
    for text in (ts, py):
        assert "://" not in text.replace("[a-z]+://", "").replace("[a-z]+:\\/\\/", "")
        labels = re.findall(r"expect\(.*?, ['\"](a\d+)['\"]\)\.|Error\(['\"]assertion (a\d+)", text)
        assert sorted(x or y for x, y in labels) == sorted(a["id"] for a in document["assertions"])
