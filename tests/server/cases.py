"""Inputs an agent would send: one valid call per tool and every refusal the spec lists."""

from __future__ import annotations

import copy
from typing import Any

from automium import corpus
from automium.contracts import to_document

PLANNER = {"id": "claude-default", "vendor": "anthropic", "model": "claude-sonnet-4"}
GPT = {"id": "gpt", "vendor": "openai", "model": "gpt-5"}
RUN_ID = "run-3f2a9c0d41b7e865"


def worked_journey() -> dict[str, Any]:
    """The worked example of the design (a reference journey of shop-lite.returning-buyer)."""
    journey = next(j for j in corpus.reference_journeys() if j.id == "shop-lite.buy-one-mug")
    return to_document(journey)


def journey_with(**changes: Any) -> dict[str, Any]:
    journey = worked_journey()
    journey.update(copy.deepcopy(changes))
    return journey


def _steps_with(index: int, step: dict[str, Any]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = worked_journey()["steps"]
    steps[index] = step
    return steps


SUBMISSION = {
    "journeyId": "shop-lite.buy-one-mug",
    "appId": "shop-lite",
    "fixtureId": "shop-lite.returning-buyer",
    "planner": PLANNER,
    "environmentProfileId": "desktop-1280x720",
}
REPLAY = {
    "runId": RUN_ID,
    "verdict": "failed",
    "retryCount": 1,
    "artifactManifestRef": f"artifacts:run/{RUN_ID}",
}
MANIFEST = {
    "runId": RUN_ID,
    "root": "artifacts/shop-lite/returning-buyer",
    "entries": [
        {
            "kind": "screenshot",
            "path": "steps/pay/after.png",
            "contentType": "image/png",
            "sizeBytes": 48213,
            "sha256": "a" * 64,
            "stepId": "pay",
        },
        {"kind": "trace", "path": "trace.zip", "contentType": "application/zip", "sizeBytes": 1},
    ],
}
COMPARE = {
    "corpusVersion": "2026.1",
    "appIds": ["shop-lite", "todo-mvc"],
    "planners": [PLANNER, GPT],
    "repetitions": 3,
}

# id -> (tool, arguments)
TOOL_CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "list_apps": ("automium_list_apps", {}),
    "list_fixtures": ("automium_list_fixtures", {"appId": "shop-lite"}),
    "list_fixtures_all": ("automium_list_fixtures", {}),
    "compile_journey": ("automium_compile_journey", worked_journey()),
    "create_run_submission": ("automium_create_run_submission", SUBMISSION),
    "get_replay_summary": ("automium_get_replay_summary", REPLAY),
    "get_artifact_manifest": ("automium_get_artifact_manifest", MANIFEST),
    "compare_planners": ("automium_compare_planners", COMPARE),
}

# id -> (tool, arguments, code, path)
TOOL_ERRORS: dict[str, tuple[str, dict[str, Any], str, str]] = {
    "unknown_tool": ("automium_execute_run", {}, "unsupported_operation", ""),
    "list_apps_extra": ("automium_list_apps", {"verbose": True}, "invalid_input", "/verbose"),
    "list_fixtures_unknown_app": (
        "automium_list_fixtures",
        {"appId": "gmail"},
        "invalid_app_id",
        "/appId",
    ),
    "compile_unknown_app": (
        "automium_compile_journey",
        journey_with(appId="gmail"),
        "invalid_app_id",
        "/appId",
    ),
    "compile_unknown_fixture": (
        "automium_compile_journey",
        journey_with(fixtureId="shop-lite.vip"),
        "unknown_fixture",
        "/fixtureId",
    ),
    "compile_fixture_of_another_app": (
        "automium_compile_journey",
        journey_with(fixtureId="todo-mvc.empty"),
        "fixture_app_mismatch",
        "/fixtureId",
    ),
    "compile_unsupported_intent": (
        "automium_compile_journey",
        journey_with(steps=_steps_with(3, {"id": "add", "intent": "teleport"})),
        "unsupported_intent",
        "/steps/3/intent",
    ),
    "compile_unknown_route": (
        "automium_compile_journey",
        journey_with(steps=_steps_with(0, {"id": "open", "intent": "navigate", "route": "admin"})),
        "unknown_route",
        "/steps/0/route",
    ),
    "compile_url_as_route": (
        "automium_compile_journey",
        journey_with(
            steps=_steps_with(0, {"id": "o", "intent": "navigate", "route": "https://x.test/"})
        ),
        "unknown_route",
        "/steps/0/route",
    ),
    "compile_fill_without_value": (
        "automium_compile_journey",
        journey_with(
            steps=_steps_with(
                1, {"id": "s", "intent": "fill", "target": {"role": "searchbox", "name": "Search"}}
            )
        ),
        "invalid_input",
        "/steps/1/value",
    ),
    "compile_blank_goal": (
        "automium_compile_journey",
        journey_with(goal="   "),
        "invalid_input",
        "/goal",
    ),
    "compile_missing_steps": (
        "automium_compile_journey",
        {k: v for k, v in worked_journey().items() if k != "steps"},
        "invalid_input",
        "/steps",
    ),
    "run_unknown_app": (
        "automium_create_run_submission",
        {**SUBMISSION, "appId": "gmail"},
        "invalid_app_id",
        "/appId",
    ),
    "run_unknown_fixture": (
        "automium_create_run_submission",
        {**SUBMISSION, "fixtureId": "shop-lite.vip"},
        "unknown_fixture",
        "/fixtureId",
    ),
    "run_fixture_of_another_app": (
        "automium_create_run_submission",
        {**SUBMISSION, "fixtureId": "helpdesk.customer-new"},
        "fixture_app_mismatch",
        "/fixtureId",
    ),
    "run_planner_without_vendor": (
        "automium_create_run_submission",
        {**SUBMISSION, "planner": {"id": "p", "model": "m"}},
        "malformed_planner_metadata",
        "/planner/vendor",
    ),
    "run_planner_blank_model": (
        "automium_create_run_submission",
        {**SUBMISSION, "planner": {**PLANNER, "model": "  "}},
        "malformed_planner_metadata",
        "/planner/model",
    ),
    "replay_unknown_verdict": (
        "automium_get_replay_summary",
        {**REPLAY, "verdict": "flaky"},
        "invalid_input",
        "/verdict",
    ),
    "replay_negative_retries": (
        "automium_get_replay_summary",
        {**REPLAY, "retryCount": -1},
        "invalid_input",
        "/retryCount",
    ),
    "manifest_unknown_kind": (
        "automium_get_artifact_manifest",
        {**MANIFEST, "entries": [{**MANIFEST["entries"][0], "kind": "pdf"}]},
        "invalid_artifact_kind",
        "/entries/0/kind",
    ),
    "manifest_escaping_path": (
        "automium_get_artifact_manifest",
        {
            **MANIFEST,
            "entries": [
                MANIFEST["entries"][0],
                {**MANIFEST["entries"][1], "path": "../../etc/passwd"},
            ],
        },
        "invalid_artifact_path",
        "/entries/1/path",
    ),
    "manifest_absolute_root": (
        "automium_get_artifact_manifest",
        {**MANIFEST, "root": "/var/artifacts"},
        "invalid_artifact_path",
        "/root",
    ),
    "compare_unsupported_corpus": (
        "automium_compare_planners",
        {**COMPARE, "corpusVersion": "2025.9"},
        "unsupported_corpus_version",
        "/corpusVersion",
    ),
    "compare_unknown_app": (
        "automium_compare_planners",
        {**COMPARE, "appIds": ["gmail"]},
        "invalid_app_id",
        "/appIds/0",
    ),
    "compare_malformed_planner": (
        "automium_compare_planners",
        {**COMPARE, "planners": [{"id": "x", "vendor": "acme"}]},
        "malformed_planner_metadata",
        "/planners/0/model",
    ),
    "compare_too_many_repetitions": (
        "automium_compare_planners",
        {**COMPARE, "repetitions": 101},
        "limit_exceeded",
        "/repetitions",
    ),
}

# id -> (prompt, arguments)
PROMPT_CALLS: dict[str, tuple[str, dict[str, str]]] = {
    "draft_journey": (
        "draft_journey",
        {"appId": "shop-lite", "fixtureId": "shop-lite.returning-buyer", "goal": "Buy a mug"},
    ),
    "debug_failed_run": (
        "debug_failed_run",
        {
            "runId": RUN_ID,
            "verdict": "failed",
            "evidence": "assertion thanks failed after step pay: heading 'Thank you' not found",
            "artifactManifestRef": f"artifacts:run/{RUN_ID}",
        },
    ),
    "compare_planner_backends": (
        "compare_planner_backends",
        {
            "appIds": "shop-lite, todo-mvc",
            "planners": "anthropic/claude-sonnet-4, openai/gpt-5",
            "repetitions": "3",
        },
    ),
}

# id -> (prompt, arguments, code in error data)
PROMPT_ERRORS: dict[str, tuple[str, dict[str, str], str]] = {
    "unknown_prompt": ("write_tests", {}, "unsupported_operation"),
    "missing_argument": ("draft_journey", {"appId": "shop-lite", "goal": "x"}, "invalid_input"),
    "unknown_app": (
        "draft_journey",
        {"appId": "gmail", "fixtureId": "shop-lite.returning-buyer", "goal": "x"},
        "invalid_app_id",
    ),
    "fixture_of_another_app": (
        "draft_journey",
        {"appId": "shop-lite", "fixtureId": "todo-mvc.empty", "goal": "x"},
        "fixture_app_mismatch",
    ),
    "unknown_verdict": (
        "debug_failed_run",
        {**PROMPT_CALLS["debug_failed_run"][1], "verdict": "flaky"},
        "invalid_input",
    ),
    "malformed_planners": (
        "compare_planner_backends",
        {**PROMPT_CALLS["compare_planner_backends"][1], "planners": "claude"},
        "malformed_planner_metadata",
    ),
    "unknown_app_in_list": (
        "compare_planner_backends",
        {**PROMPT_CALLS["compare_planner_backends"][1], "appIds": "shop-lite,gmail"},
        "invalid_app_id",
    ),
}
