""" "Valid" means it will pass: every assertion is checked against what the page models know
at its step and refused when they contradict it, or listed as unchecked with its reason.

Each case edits a reference journey, so the one edit is the only thing wrong. Codes, paths
and ``allowed`` values are what an agent reads, so they are asserted exactly.
"""

from __future__ import annotations

from typing import Any

import pytest

from automium.capabilities import COMPARE_PLANNERS, COMPILE_JOURNEY, CREATE_RUN_SUBMISSION
from automium.compilation import compilation_document
from automium.contracts import ErrorCode, UncheckedReason, WarningCode
from automium.errors import AutomiumError
from automium.journeys import check_journey
from tests.cases import reference_journey
from tests.mutations import Mutation, all_of, append_at, drop_at, insert_at, set_at

MUG = "shop-lite.buy-one-mug"
SETTINGS = "admin-console.admin-updates-settings"
AUDITOR = "admin-console.auditor-cannot-edit-user"
CLEAR = "todo-mvc.clear-completed"
STATEMENT = "bank-sandbox.download-statement"
REPLY = "helpdesk.reply-and-solve-ticket"
IMPORT = "admin-console.import-users-csv"

Expected = list[tuple[ErrorCode, str, tuple[str | int, ...]]]


def step(step_id: str, intent: str, **fields: Any) -> dict[str, Any]:
    return {"id": step_id, "intent": intent, **fields}


def edited(journey_id: str, mutate: Mutation) -> dict[str, Any]:
    document = reference_journey(journey_id)
    mutate(document)
    return document


def problems_of(document: dict[str, Any]) -> Expected:
    return [(p.code, p.path, p.allowed) for p in check_journey(document).problems]


REFUSED: list[tuple[str, str, Mutation, Expected]] = [
    (
        "static text the page never shows",
        SETTINGS,
        set_at("assertions", 0, "expected", value="Settings failed"),
        [(ErrorCode.ASSERTION_CONTRADICTED, "/assertions/0/expected", ("Settings saved",))],
    ),
    (
        "a hidden assertion on an element the page shows",
        AUDITOR,
        set_at("assertions", 1, "target", value={"role": "link", "name": "Back to users"}),
        [(ErrorCode.ASSERTION_CONTRADICTED, "/assertions/1/target", ("visible",))],
    ),
    (
        "a visible assertion before the step that reveals its element",
        SETTINGS,
        append_at(
            "assertions",
            value={
                "id": "too-early",
                "kind": "visible",
                "target": {"role": "status", "name": "Settings saved"},
                "afterStep": "require-2fa",
            },
        ),
        [(ErrorCode.ASSERTION_CONTRADICTED, "/assertions/3/target", ("hidden",))],
    ),
    (
        "a count the fixture's list contradicts",
        CLEAR,
        append_at(
            "assertions",
            value={
                "id": "rows",
                "kind": "count_equals",
                "target": {"role": "checkbox", "name": "Toggle Todo"},
                "count": 4,
                "afterStep": "open-all",
            },
        ),
        [(ErrorCode.ASSERTION_CONTRADICTED, "/assertions/3/count", ("3",))],
    ),
    (
        "a value other than the one the journey selected",
        STATEMENT,
        set_at("assertions", 0, "expected", value="Everyday Checking"),
        [(ErrorCode.ASSERTION_CONTRADICTED, "/assertions/0/expected", ("Rainy Day Savings",))],
    ),
    (
        "fill on a select",
        REPLY,
        set_at(
            "steps",
            3,
            value=step(
                "set-solved", "fill", target={"role": "combobox", "name": "Status"}, value="Solved"
            ),
        ),
        [(ErrorCode.TARGET_NOT_ACTIONABLE, "/steps/3/target", ())],
    ),
    (
        "a key pressed on a heading",
        MUG,
        insert_at(
            "steps",
            6,
            value=step(
                "key",
                "press_key",
                key="Enter",
                target={"role": "heading", "name": "Thank you for your order"},
            ),
        ),
        [(ErrorCode.TARGET_NOT_ACTIONABLE, "/steps/6/target", ())],
    ),
    (
        "go_back with no earlier page",
        MUG,
        insert_at("steps", 1, value=step("back", "go_back")),
        [(ErrorCode.STEP_NOT_POSSIBLE, "/steps/1", ())],
    ),
    (
        "a journey that starts with go_back",
        MUG,
        insert_at("steps", 0, value=step("back", "go_back")),
        [(ErrorCode.STEP_NOT_POSSIBLE, "/steps/0", ())],
    ),
    (
        "a row an earlier step deleted",
        "todo-mvc.complete-delete-and-filter",
        insert_at(
            "steps",
            3,
            value=step(
                "check-rent", "check", target={"role": "checkbox", "name": "Toggle Todo", "nth": 2}
            ),
        ),
        [
            (
                ErrorCode.UNKNOWN_TARGET,
                "/steps/3/target/nth",
                (
                    '0: checkbox "Toggle Todo" in listitem "Buy milk"',
                    '1: checkbox "Toggle Todo" in listitem "Walk the dog"',
                ),
            )
        ],
    ),
    (
        "Clear completed with nothing completed",
        CLEAR,
        all_of(drop_at("steps", 2), drop_at("steps", 1)),
        [(ErrorCode.UNKNOWN_TARGET, "/steps/2/target", ())],
    ),
    (
        "a counter that contradicts the todos the journey added",
        "todo-mvc.add-two-todos",
        set_at("assertions", 0, "expected", value="3 items left"),
        [(ErrorCode.ASSERTION_CONTRADICTED, "/assertions/0/expected", ("2 items left",))],
    ),
    (
        "a cart row no product of the app can make",
        MUG,
        all_of(
            set_at("steps", 4, "route", value="cart"),
            set_at("steps", 5, "target", value={"role": "button", "name": "Remove Blue teapot"}),
        ),
        [(ErrorCode.UNKNOWN_TARGET, "/steps/5/target", ('button "Search"',))],
    ),
]


@pytest.mark.parametrize(
    ("journey_id", "mutate", "expected"),
    [pytest.param(j, m, e, id=name) for name, j, m, e in REFUSED],
)
def test_a_journey_that_would_fail_is_refused_with_its_code_path_and_observed_value(
    journey_id: str, mutate: Mutation, expected: Expected
) -> None:
    assert problems_of(edited(journey_id, mutate)) == expected


def test_independent_mistakes_all_come_back_in_one_answer() -> None:
    document = reference_journey(SETTINGS)
    document["steps"][1]["value"] = "Editors"  # an option the select does not have
    document["assertions"][0]["expected"] = "Saved!"  # text the status never shows
    document["steps"][6]["target"]["name"] = "Actions"  # a near-miss on the next page

    assert [(code, path) for code, path, _ in problems_of(document)] == [
        (ErrorCode.ASSERTION_CONTRADICTED, "/assertions/0/expected"),
        (ErrorCode.UNKNOWN_OPTION, "/steps/1/value"),
        (ErrorCode.UNKNOWN_TARGET, "/steps/6/target"),
    ]


def _towel_in_the_cart(*, asserted: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "shop-lite.towel-in-cart",
        "appId": "shop-lite",
        "fixtureId": "shop-lite.guest-empty-cart",
        "goal": "Add the tea towel and find it in the cart",
        "steps": [
            step("open-home", "navigate", route="home"),
            step("add-towel", "click", target={"role": "button", "name": "Add to cart", "nth": 2}),
            step("open-cart", "click", target={"role": "link", "name": "Cart"}),
        ],
        "assertions": [{"id": "towel", **asserted, "afterStep": "open-cart"}],
        "recovery": {"maxAttempts": 1, "strategies": ["retry_step"], "onExhausted": "fail_run"},
    }


@pytest.mark.parametrize(
    "asserted",
    [
        {"kind": "visible", "target": {"role": "cell", "name": "Linen tea towel"}},
        {"kind": "visible", "target": {"role": "button", "name": "Remove Linen tea towel"}},
        {"kind": "count_equals", "target": {"role": "cell", "name": "Linen tea towel"}, "count": 1},
    ],
    ids=["its cell", "its remove button", "one row of it"],
)
def test_a_correct_journey_on_the_cart_compiles_with_the_dynamic_row_unchecked(
    asserted: dict[str, Any],
) -> None:
    compilation = compilation_document(_towel_in_the_cart(asserted=asserted))

    assert [(u["path"], u["reason"]) for u in compilation["unchecked"]] == [
        (
            "/assertions/0",
            UncheckedReason.DYNAMIC_COUNT
            if asserted["kind"] == "count_equals"
            else UncheckedReason.DYNAMIC_PRESENCE,
        )
    ]


def test_dynamic_text_is_listed_unchecked_and_counted_in_the_summary_line() -> None:
    document = reference_journey(IMPORT)
    compilation = compilation_document(document)

    assert [(u["path"], u["reason"]) for u in compilation["unchecked"]] == [
        ("/assertions/1", UncheckedReason.DYNAMIC_TEXT),
        ("/successChecks/1", UncheckedReason.DYNAMIC_TEXT),
    ]
    assert "proven only by a run (automium run)" in compilation["unchecked"][0]["message"]
    assert COMPILE_JOURNEY.summary(compilation).startswith(
        "Journey admin-console.import-users-csv is valid; 1 assertion unchecked (dynamic): "
    )


def test_the_summary_line_counts_unchecked_items_by_section_and_the_warnings() -> None:
    guest = compilation_document(reference_journey("shop-lite.guest-browse-then-checkout-gate"))
    twice = compilation_document(
        edited(
            IMPORT,
            insert_at(
                "steps",
                6,
                value=step(
                    "again",
                    "uncheck",
                    target={"role": "checkbox", "name": "Show deactivated users"},
                ),
            ),
        )
    )

    assert COMPILE_JOURNEY.summary(guest).startswith(
        "Journey shop-lite.guest-browse-then-checkout-gate is valid; 2 assertions unchecked "
        "(dynamic); 1 step unchecked (dynamic): "
    )
    assert [(w["code"], w["path"]) for w in twice["warnings"]] == [
        (WarningCode.NO_EFFECT, "/steps/6")
    ]
    assert COMPILE_JOURNEY.summary(twice).startswith(
        "Journey admin-console.import-users-csv is valid; 1 assertion unchecked (dynamic); "
        "1 warning: "
    )


# --- modeled runs agree with compile ----------------------------------------------------


def _run(journey_id: str, profile: str = "desktop-1280x720", **extra: Any) -> dict[str, Any]:
    journey = reference_journey(journey_id)
    request = {
        "journeyId": journey["id"],
        "appId": journey["appId"],
        "fixtureId": journey["fixtureId"],
        "planner": {"id": "p", "vendor": "openai", "model": "gpt-5"},
        "environmentProfileId": profile,
        "includeEvents": True,
        **extra,
    }
    summary, document = CREATE_RUN_SUBMISSION.answer(request)
    return {"summary": summary, **document}


def test_a_modeled_run_reports_the_assertions_compile_left_unchecked_as_not_known() -> None:
    run = _run("shop-lite.guest-browse-then-checkout-gate", "mobile-390x844")
    outcomes = {
        e["payload"]["assertionId"]: e["type"]
        for e in run["events"]
        if e["type"].startswith("assertion.")
    }

    assert outcomes == {
        "cart-empty": "assertion.unknown",
        "page-two": "assertion.unknown",
        "sent-to-login": "assertion.passed",
    }
    assert run["timeline"]["assertionsNotKnown"] == ["cart-empty", "page-two"]
    assert "2 assertions not known (modeled: only a real run can say)" in run["summary"]


def test_a_failing_variant_is_a_run_of_its_own_with_its_own_run_id() -> None:
    passing = _run(MUG)
    failing = _run(MUG, failure={"stepId": "pay", "failureClass": "product_issue"})

    assert passing["runId"] != failing["runId"]
    assert {e["runId"] for e in failing["events"]} == {failing["runId"]}


def test_a_profile_of_another_device_than_the_fixtures_is_refused() -> None:
    with pytest.raises(AutomiumError) as refused:
        _run("shop-lite.guest-browse-then-checkout-gate")

    assert [(p.code, p.path, p.allowed) for p in refused.value.problems] == [
        (ErrorCode.INVALID_INPUT, "/environmentProfileId", ("mobile-390x844",))
    ]


# --- modeled comparisons rank nothing --------------------------------------------------------


def test_planners_that_differ_only_in_identity_get_identical_modeled_entries() -> None:
    planners = [
        {"id": "alpha", "vendor": "anthropic", "model": "claude-opus-4"},
        {"id": "renamed-beta", "vendor": "openai", "model": "gpt-5"},
        {"id": "gamma", "vendor": "meta", "model": "llama-4"},
    ]
    _, report = COMPARE_PLANNERS.answer(
        {
            "corpusVersion": "2026.1",
            "appIds": ["todo-mvc", "shop-lite"],
            "planners": planners,
            "repetitions": 4,
        }
    )

    entries = [{k: v for k, v in p.items() if k != "planner"} for p in report["planners"]]
    assert entries[0] == entries[1] == entries[2]
    verdict = report["verdict"]
    assert (verdict["best"], verdict["separable"], verdict["overlapping"]) == (
        ["alpha", "renamed-beta", "gamma"],
        False,
        [],
    )
    assert "cannot be measured without recorded trials" in verdict["summary"]
    assert [w for w in ("ahead", "better", "dominat", "highest") if w in verdict["summary"]] == []
