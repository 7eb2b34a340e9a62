"""Calls that exercise every tool, resource and prompt: successes and refusals.

Kept here (not shared with the boundary tests of the server) so the safety suite pins its
own inputs, including the hostile ones: paths that point outside the artifact root, URLs,
secrets-looking names, oversized and over-nested arguments.
"""

from __future__ import annotations

from typing import Any

from automium import corpus
from automium.contracts import to_document
from tests.server.cases import COMPARE, REPLAY, RUN_ID, SUBMISSION

FIXTURE = "shop-lite.returning-buyer"


def reference_journey() -> dict[str, Any]:
    journey = next(j for j in corpus.reference_journeys() if j.id == "shop-lite.buy-one-mug")
    return to_document(journey)


def _journey(**changes: Any) -> dict[str, Any]:
    return {**reference_journey(), **changes}


def _journey_with_first_step(step: dict[str, Any]) -> dict[str, Any]:
    journey = reference_journey()
    journey["steps"][0] = {"id": journey["steps"][0]["id"], **step}
    return journey


def _manifest(path: str) -> dict[str, Any]:
    entry = {"kind": "trace", "path": path, "contentType": "application/zip", "sizeBytes": 1}
    return {"runId": RUN_ID, "root": "artifacts/shop-lite/returning-buyer", "entries": [entry]}


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


# (tool, arguments, expected error code or None for a success)
TOOL_CASES: dict[str, tuple[str, Any, str | None]] = {
    "list_apps": ("automium_list_apps", {}, None),
    "list_fixtures": ("automium_list_fixtures", {"appId": "shop-lite"}, None),
    "list_fixtures_unknown_app": ("automium_list_fixtures", {"appId": "gmail"}, "invalid_app_id"),
    "compile": ("automium_compile_journey", reference_journey(), None),
    "compile_unknown_route": (
        "automium_compile_journey",
        _journey_with_first_step({"intent": "navigate", "route": "admin"}),
        "unknown_route",
    ),
    "compile_teleport": (
        "automium_compile_journey",
        _journey_with_first_step({"intent": "teleport", "url": "https://example.com/"}),
        "unsupported_intent",
    ),
    "submit": ("automium_create_run_submission", SUBMISSION, None),
    "submit_mismatch": (
        "automium_create_run_submission",
        {**SUBMISSION, "fixtureId": "todo-mvc.empty"},
        "fixture_app_mismatch",
    ),
    "replay": ("automium_get_replay_summary", REPLAY, None),
    "replay_negative_retries": (
        "automium_get_replay_summary",
        {**REPLAY, "retryCount": -1},
        "invalid_input",
    ),
    "manifest": ("automium_get_artifact_manifest", _manifest("trace.zip"), None),
    "manifest_etc_passwd": (
        "automium_get_artifact_manifest",
        _manifest("/etc/passwd"),
        "invalid_artifact_path",
    ),
    "manifest_dotdot": (
        "automium_get_artifact_manifest",
        _manifest("../../../.ssh/id_rsa"),
        "invalid_artifact_path",
    ),
    "manifest_url": (
        "automium_get_artifact_manifest",
        _manifest("file:///etc/shadow"),
        "invalid_artifact_path",
    ),
    "compare": ("automium_compare_planners", COMPARE, None),
    "compare_too_many_repetitions": (
        "automium_compare_planners",
        {**COMPARE, "repetitions": 101},
        "limit_exceeded",
    ),
    "unknown_tool": (
        "automium_run_browser",
        {"url": "https://example.com"},
        "unsupported_operation",
    ),
    "unicode_digit_property": ("automium_list_apps", {"²": 1}, "invalid_input"),
    "long_property_name": ("automium_list_apps", {"k" * 3000: 1}, "invalid_input"),
    "long_tool_name": ("t" * 3000, {}, "unsupported_operation"),
    "oversized_arguments": (
        "automium_compile_journey",
        _journey(goal="x" * 2_000_000),
        "limit_exceeded",
    ),
    "over_nested_arguments": ("automium_list_apps", {"x": _nested(100)}, "limit_exceeded"),
}

RESOURCE_URIS = (
    "automium://apps",
    "automium://fixtures",
    "automium://contracts/planner-adapter-v1",
    "automium://contracts/replay-event-v1",
    "automium://contracts/semantic-snapshot-v1",
    "automium://contracts/artifact-manifest-v1",
)
BAD_RESOURCE_URIS = (
    "file:///etc/passwd",
    "automium://../../etc/passwd",
    "https://example.com/x.json",
    "automium://contracts/journey-v1",
)

# (prompt, arguments, expected error code or None)
PROMPT_CASES: dict[str, tuple[str, dict[str, str], str | None]] = {
    "draft": ("draft_journey", {"appId": "shop-lite", "fixtureId": FIXTURE, "goal": "buy"}, None),
    "draft_unknown_app": (
        "draft_journey",
        {"appId": "gmail", "fixtureId": FIXTURE, "goal": "buy"},
        "invalid_app_id",
    ),
    "debug": (
        "debug_failed_run",
        {
            "runId": RUN_ID,
            "verdict": "failed",
            "evidence": "assertion confirmed failed",
            "artifactManifestRef": f"artifacts:run/{RUN_ID}",
        },
        None,
    ),
    "debug_bad_verdict": (
        "debug_failed_run",
        {"runId": RUN_ID, "verdict": "exploded", "evidence": "e", "artifactManifestRef": "a"},
        "invalid_input",
    ),
    "compare": (
        "compare_planner_backends",
        {"appIds": "shop-lite,todo-mvc", "planners": "anthropic/claude", "repetitions": "3"},
        None,
    ),
    "compare_bad_planners": (
        "compare_planner_backends",
        {"appIds": "shop-lite", "planners": "nonsense", "repetitions": "3"},
        "malformed_planner_metadata",
    ),
    "unknown_prompt": ("read_secrets", {}, "unsupported_operation"),
}
