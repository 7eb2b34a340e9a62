"""What an agent sends, in one place: every tool's and prompt's cases, and every resource.

:data:`TOOLS` is keyed by the rows of :data:`automium.capabilities.CAPABILITIES` and
:data:`PROMPTS` by the rows of :data:`automium.guidance.GUIDES`; a row without a success
and a refusal here fails ``tests/domain/test_capabilities.py``. The cases are read by:

- ``tests/server/test_tools.py`` and ``test_prompts.py``: over MCP in both protocol eras,
  one snapshot per success and per refusal;
- ``tests/domain/test_capabilities.py``: the same calls in-process, by code and path;
- ``tests/safety/test_boundaries.py``: every case again under the audit-hook guard;
- ``tests/test_determinism.py``: byte-identical answers in fresh interpreters;
- ``tests/server/test_differential.py``: :attr:`ToolCases.corpus_rules`.

Adding a tool: its row in ``automium/capabilities.py``, then its entry in :data:`TOOLS`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest

from automium import corpus
from automium.contracts import ErrorCode, Journey, to_document
from automium.errors import AutomiumError, Problem

PLANNER: dict[str, str] = {
    "id": "claude-default",
    "vendor": "anthropic",
    "model": "claude-sonnet-4",
}
GPT: dict[str, str] = {"id": "gpt", "vendor": "openai", "model": "gpt-5"}
RUN_ID = "run-3f2a9c0d41b7e865"
MANIFEST_REF = f"artifacts:run/{RUN_ID}"
WORKED_EXAMPLE = "shop-lite.buy-one-mug"

INVALID = ErrorCode.INVALID_INPUT
LIMIT = ErrorCode.LIMIT_EXCEEDED
UNSUPPORTED = ErrorCode.UNSUPPORTED_OPERATION


def reference_journey(journey_id: str = WORKED_EXAMPLE) -> dict[str, Any]:
    """A reference journey of the corpus as a document (the design's worked example)."""
    journey = next(j for j in corpus.reference_journeys() if j.id == journey_id)
    return to_document(journey)


def journey_with(**changes: Any) -> dict[str, Any]:
    """The worked example with some properties replaced."""
    return {**reference_journey(), **copy.deepcopy(changes)}


def journey_with_step(index: int, step: dict[str, Any]) -> dict[str, Any]:
    """The worked example with its step ``index`` replaced."""
    journey = reference_journey()
    journey["steps"][index] = step
    return journey


def nested(depth: int) -> Any:
    """A JSON value ``depth`` containers deep."""
    value: Any = {}
    for _ in range(depth - 1):
        value = [value]
    return value


SUBMISSION: dict[str, Any] = {
    "journeyId": WORKED_EXAMPLE,
    "appId": "shop-lite",
    "fixtureId": "shop-lite.returning-buyer",
    "planner": PLANNER,
    "environmentProfileId": "desktop-1280x720",
}
REPLAY: dict[str, Any] = {
    "runId": RUN_ID,
    "verdict": "failed",
    "retryCount": 1,
    "artifactManifestRef": MANIFEST_REF,
}
MANIFEST: dict[str, Any] = {
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
WORKER_LEASED: dict[str, Any] = {
    "schemaVersion": "automium.replay-event/v1",
    "runId": RUN_ID,
    "seq": 0,
    "offsetMs": 0,
    "lane": "worker",
    "type": "worker.leased",
    "payload": {"workerId": "worker-1", "environmentProfileId": "desktop-1280x720"},
}
COMPARE: dict[str, Any] = {
    "corpusVersion": "2026.1",
    "appIds": ["shop-lite", "todo-mvc"],
    "planners": [PLANNER, GPT],
    "repetitions": 3,
}


# What the pages of a journey's fixture refuse in a journey the contract accepts: every tool
# that takes a journey (compile, and the ones a journey rides along in) may earn these.
# A journey's uses names another journey, which compile finds (or refuses) first.
USES_RULES = frozenset(
    {
        ErrorCode.UNKNOWN_JOURNEY,
        ErrorCode.JOURNEY_APP_MISMATCH,
        ErrorCode.JOURNEY_FIXTURE_MISMATCH,
        ErrorCode.USES_CYCLE,
        ErrorCode.USES_TOO_DEEP,
    }
)
PAGE_RULES = frozenset(
    {
        ErrorCode.INVALID_APP_ID,
        ErrorCode.UNKNOWN_FIXTURE,
        ErrorCode.FIXTURE_APP_MISMATCH,
        ErrorCode.UNKNOWN_ROUTE,
        ErrorCode.UNKNOWN_TARGET,
        ErrorCode.AMBIGUOUS_TARGET,
        ErrorCode.UNKNOWN_ROLE,
        ErrorCode.INVALID_LOCATOR,
        ErrorCode.TARGET_NOT_ACTIONABLE,
        ErrorCode.UNKNOWN_OPTION,
        ErrorCode.MISSING_ROUTE_PARAM,
        ErrorCode.UNKNOWN_ROUTE_PARAM,
        ErrorCode.UNKNOWN_FILE_REF,
        ErrorCode.LITERAL_SECRET,
        ErrorCode.ROUTE_NOT_REACHED,
        ErrorCode.ASSERTION_CONTRADICTED,  # an assertion the page models say would fail
        ErrorCode.STEP_NOT_POSSIBLE,  # go_back with no earlier page
        INVALID,  # duplicate ids, a dangling afterStep
    }
)


def with_add_target(target: dict[str, Any]) -> dict[str, Any]:
    """The worked example clicking ``target`` where it clicks "Add to cart"."""
    return journey_with_step(3, {"id": "add", "intent": "click", "target": target})


# The taxonomy of debug_failed_run, in the designed order (the contract's FailureClass).
FAILURE_CLASSES = (
    "product_issue",
    "fixture_issue",
    "planner_issue",
    "unsupported_intent",
    "policy_denial",
    "runtime_gap",
)


def run_request(journey: Journey, failure: tuple[str, str] | None = None) -> dict[str, Any]:
    """A submission of reference journey ``journey`` with its events, and the failing
    variant ``(stepId, failureClass)`` if given."""
    document: dict[str, Any] = {
        "journeyId": journey.id,
        "appId": journey.app_id,
        "fixtureId": journey.fixture_id,
        "planner": PLANNER,
        # The fixture's own profile: a phone fixture is not run on a desktop.
        "environmentProfileId": corpus.get_fixture(
            journey.fixture_id, journey.app_id
        ).environment_profile_id,
        "includeEvents": True,
    }
    if failure is not None:
        document["failure"] = {"stepId": failure[0], "failureClass": failure[1]}
    return document


def manifest_with_path(path: str) -> dict[str, Any]:
    """:data:`MANIFEST` with its second entry at ``path``."""
    manifest = copy.deepcopy(MANIFEST)
    manifest["entries"][1]["path"] = path
    return manifest


@dataclass(frozen=True)
class Refusal:
    """A call that is refused, and how: the top problem's code and path, and every problem
    (code, path) when it has several."""

    arguments: Any
    code: ErrorCode
    path: str
    problems: tuple[tuple[ErrorCode, str], ...] = ()


@dataclass(frozen=True)
class ToolCases:
    successes: Mapping[str, Any]
    """Case name -> the arguments of a call that succeeds."""
    refusals: Mapping[str, Refusal]
    corpus_rules: frozenset[ErrorCode] = field(default_factory=frozenset)
    """Codes a call its input schema accepts may still earn: rules of the corpus (an app id
    that is well-formed but unknown), not of the schema."""


TOOLS: Mapping[str, ToolCases] = {
    "automium_list_apps": ToolCases(
        successes={"no-arguments": {}},
        refusals={
            "unexpected-property": Refusal({"verbose": True}, INVALID, "/verbose"),
            "unicode-digit-property": Refusal({"²": 1}, INVALID, "/²"),
            "3000-character-property": Refusal({"k" * 3000: 1}, INVALID, ""),
            "arguments-100-deep": Refusal({"x": nested(100)}, LIMIT, ""),
        },
    ),
    "automium_list_fixtures": ToolCases(
        successes={"of-shop-lite": {"appId": "shop-lite"}, "of-every-app": {}},
        refusals={
            "unknown-app": Refusal({"appId": "gmail"}, ErrorCode.INVALID_APP_ID, "/appId"),
        },
        corpus_rules=frozenset({ErrorCode.INVALID_APP_ID}),
    ),
    "automium_compile_journey": ToolCases(
        # Every reference journey's compilation is snapshotted in tests/domain/test_journeys.py.
        successes={
            WORKED_EXAMPLE: reference_journey(),
            "worked-example-drawn": journey_with(mermaid=True),
            "worked-example-exported": journey_with(export=["ts", "py"]),
            # A valid verdict with unchecked assertions: the cart's heading and the
            # pagination text are dynamic, proven only by a run.
            "dynamic-content-unchecked": reference_journey(
                "shop-lite.guest-browse-then-checkout-gate"
            ),
        },
        refusals={
            "unknown-app": Refusal(journey_with(appId="gmail"), ErrorCode.INVALID_APP_ID, "/appId"),
            "unknown-export-format": Refusal(journey_with(export=["rb"]), INVALID, "/export/0"),
            "unknown-fixture": Refusal(
                journey_with(fixtureId="shop-lite.vip"), ErrorCode.UNKNOWN_FIXTURE, "/fixtureId"
            ),
            "fixture-of-another-app": Refusal(
                journey_with(fixtureId="todo-mvc.empty"),
                ErrorCode.FIXTURE_APP_MISMATCH,
                "/fixtureId",
            ),
            "unsupported-intent": Refusal(
                journey_with_step(3, {"id": "add", "intent": "teleport"}),
                ErrorCode.UNSUPPORTED_INTENT,
                "/steps/3/intent",
            ),
            "teleport-to-a-url": Refusal(
                journey_with_step(
                    0, {"id": "open-home", "intent": "teleport", "url": "https://example.com/"}
                ),
                ErrorCode.UNSUPPORTED_INTENT,
                "/steps/0/intent",
            ),
            "unknown-route": Refusal(
                journey_with_step(0, {"id": "open", "intent": "navigate", "route": "admin"}),
                ErrorCode.UNKNOWN_ROUTE,
                "/steps/0/route",
            ),
            "url-as-route": Refusal(
                journey_with_step(0, {"id": "o", "intent": "navigate", "route": "https://x.test/"}),
                ErrorCode.UNKNOWN_ROUTE,
                "/steps/0/route",
            ),
            "fill-without-value": Refusal(
                journey_with_step(
                    1,
                    {
                        "id": "s",
                        "intent": "fill",
                        "target": {"role": "searchbox", "name": "Search"},
                    },
                ),
                INVALID,
                "/steps/1/value",
            ),
            "blank-goal": Refusal(journey_with(goal="   "), INVALID, "/goal"),
            "missing-steps": Refusal(
                {k: v for k, v in reference_journey().items() if k != "steps"}, INVALID, "/steps"
            ),
            "every-problem-at-once": Refusal(
                journey_with(
                    fixtureId="todo-mvc.empty",
                    goal=" ",
                    steps=[*reference_journey()["steps"], {"id": "pay", "intent": "go_back"}],
                ),
                ErrorCode.FIXTURE_APP_MISMATCH,
                "/fixtureId",
                problems=(
                    (ErrorCode.FIXTURE_APP_MISMATCH, "/fixtureId"),
                    (INVALID, "/goal"),
                    (INVALID, "/steps/6/id"),
                ),
            ),
            "two-megabyte-goal": Refusal(journey_with(goal="x" * 2_000_000), LIMIT, ""),
            "wrapped-journey": Refusal({"journey": reference_journey()}, INVALID, "/journey"),
            "target-not-on-the-page": Refusal(
                with_add_target({"role": "button", "name": "Frobnicate the widget"}),
                ErrorCode.UNKNOWN_TARGET,
                "/steps/3/target",
            ),
            "btn-for-button": Refusal(
                with_add_target({"role": "btn", "name": "Add to cart"}),
                ErrorCode.UNKNOWN_ROLE,
                "/steps/3/target/role",
            ),
            "css-selector-as-name": Refusal(
                with_add_target({"role": "button", "name": "#cart .add"}),
                ErrorCode.INVALID_LOCATOR,
                "/steps/3/target/name",
            ),
        },
        corpus_rules=PAGE_RULES | USES_RULES,
    ),
    "automium_create_run_submission": ToolCases(
        successes={
            "worked-example": SUBMISSION,
            "worked-example-failing-at-pay": {
                **SUBMISSION,
                "failure": {"stepId": "pay", "failureClass": "product_issue"},
            },
        },
        refusals={
            "unknown-app": Refusal(
                {**SUBMISSION, "appId": "gmail"}, ErrorCode.INVALID_APP_ID, "/appId"
            ),
            "unknown-fixture": Refusal(
                {**SUBMISSION, "fixtureId": "shop-lite.vip"},
                ErrorCode.UNKNOWN_FIXTURE,
                "/fixtureId",
            ),
            "fixture-of-another-app": Refusal(
                {**SUBMISSION, "fixtureId": "helpdesk.customer-new"},
                ErrorCode.FIXTURE_APP_MISMATCH,
                "/fixtureId",
            ),
            "planner-without-vendor": Refusal(
                {**SUBMISSION, "planner": {"id": "p", "model": "m"}},
                ErrorCode.MALFORMED_PLANNER_METADATA,
                "/planner/vendor",
            ),
            "planner-with-blank-model": Refusal(
                {**SUBMISSION, "planner": {**PLANNER, "model": "  "}},
                ErrorCode.MALFORMED_PLANNER_METADATA,
                "/planner/model",
            ),
            "unknown-journey": Refusal(
                {**SUBMISSION, "journeyId": "shop-lite.buy-two-mugs"},
                ErrorCode.UNKNOWN_JOURNEY,
                "/journeyId",
            ),
            "journey-of-another-fixture": Refusal(
                {**SUBMISSION, "journeyId": "shop-lite.guest-browse-then-checkout-gate"},
                ErrorCode.JOURNEY_APP_MISMATCH,
                "/journeyId",
            ),
        },
        # An unknown environment profile is invalid_input; a given journey, its page rules.
        corpus_rules=PAGE_RULES
        | {ErrorCode.UNKNOWN_JOURNEY, ErrorCode.JOURNEY_APP_MISMATCH, ErrorCode.UNKNOWN_STEP},
    ),
    "automium_get_replay_summary": ToolCases(
        successes={
            "failed-after-one-retry": REPLAY,
            **{
                verdict: {**REPLAY, "verdict": verdict, "retryCount": 0}
                for verdict in ("passed", "failed", "errored", "blocked")
            },
            "passed-after-two-retries": {**REPLAY, "verdict": "passed", "retryCount": 2},
        },
        refusals={
            "unknown-verdict": Refusal({**REPLAY, "verdict": "flaky"}, INVALID, "/verdict"),
            "negative-retries": Refusal({**REPLAY, "retryCount": -1}, INVALID, "/retryCount"),
            "events-of-another-run": Refusal(
                {**REPLAY, "events": [{**WORKER_LEASED, "runId": "run-0000000000000000"}]},
                ErrorCode.EVENT_RUN_MISMATCH,
                "/events/0/runId",
            ),
        },
        # A manifest ref of another run, seq used twice, time running backwards: invalid_input.
        corpus_rules=frozenset(
            {
                INVALID,
                ErrorCode.EVENT_RUN_MISMATCH,
                ErrorCode.EVENT_VERDICT_MISMATCH,
                ErrorCode.EVENT_RETRY_MISMATCH,
                ErrorCode.EVENT_AFTER_RELEASE,
            }
        ),
    ),
    "automium_get_artifact_manifest": ToolCases(
        successes={"two-entries": MANIFEST},
        refusals={
            "unknown-kind": Refusal(
                {**MANIFEST, "entries": [{**MANIFEST["entries"][0], "kind": "pdf"}]},
                ErrorCode.INVALID_ARTIFACT_KIND,
                "/entries/0/kind",
            ),
            "escaping-path": Refusal(
                manifest_with_path("../../etc/passwd"),
                ErrorCode.INVALID_ARTIFACT_PATH,
                "/entries/1/path",
            ),
            "absolute-path": Refusal(
                manifest_with_path("/etc/passwd"),
                ErrorCode.INVALID_ARTIFACT_PATH,
                "/entries/1/path",
            ),
            "path-to-a-key": Refusal(
                manifest_with_path("../../../.ssh/id_rsa"),
                ErrorCode.INVALID_ARTIFACT_PATH,
                "/entries/1/path",
            ),
            "file-url": Refusal(
                manifest_with_path("file:///etc/shadow"),
                ErrorCode.INVALID_ARTIFACT_PATH,
                "/entries/1/path",
            ),
            "absolute-root": Refusal(
                {**MANIFEST, "root": "/var/artifacts"}, ErrorCode.INVALID_ARTIFACT_PATH, "/root"
            ),
            "screenshot-said-to-be-a-video": Refusal(
                {**MANIFEST, "entries": [{**MANIFEST["entries"][0], "contentType": "video/mp4"}]},
                ErrorCode.CONTENT_TYPE_MISMATCH,
                "/entries/0/contentType",
            ),
        },
        # Colliding paths and content types no extension infers are invalid_input.
        corpus_rules=PAGE_RULES
        | {
            ErrorCode.INVALID_ARTIFACT_PATH,
            ErrorCode.CONTENT_TYPE_MISMATCH,
            ErrorCode.UNKNOWN_STEP,
            ErrorCode.UNKNOWN_JOURNEY,
            ErrorCode.JOURNEY_ID_MISMATCH,
            ErrorCode.ARTIFACT_ROOT_APP_MISMATCH,
        },
    ),
    "automium_compare_planners": ToolCases(
        successes={"two-planners-on-two-apps": COMPARE},
        refusals={
            "unsupported-corpus": Refusal(
                {**COMPARE, "corpusVersion": "2025.9"},
                ErrorCode.UNSUPPORTED_CORPUS_VERSION,
                "/corpusVersion",
            ),
            "unknown-app": Refusal(
                {**COMPARE, "appIds": ["gmail"]}, ErrorCode.INVALID_APP_ID, "/appIds/0"
            ),
            "malformed-planner": Refusal(
                {**COMPARE, "planners": [{"id": "x", "vendor": "acme"}]},
                ErrorCode.MALFORMED_PLANNER_METADATA,
                "/planners/0/model",
            ),
            "too-many-repetitions": Refusal({**COMPARE, "repetitions": 101}, LIMIT, "/repetitions"),
            "journey-of-an-app-not-compared": Refusal(
                {**COMPARE, "journeys": [reference_journey("helpdesk.agent-signs-in")]},
                ErrorCode.APP_NOT_COMPARED,
                "/journeys/0/appId",
            ),
        },
        # Duplicate planner ids, journeys and trials together: invalid_input.
        corpus_rules=PAGE_RULES
        | USES_RULES
        | {
            ErrorCode.UNSUPPORTED_CORPUS_VERSION,
            ErrorCode.UNKNOWN_PLANNER,
            ErrorCode.DUPLICATE_TRIAL,
            ErrorCode.JOURNEY_APP_CONFLICT,
            ErrorCode.APP_NOT_COMPARED,
            ErrorCode.INCONSISTENT_TRIAL,
            ErrorCode.UNKNOWN_STEP,
        },
    ),
}

# Case name -> (tool name, refusal): names that are no v1 tool.
UNKNOWN_TOOLS: Mapping[str, tuple[str, Refusal]] = {
    "live-execution": ("automium_execute_run", Refusal({"runId": "run-1"}, UNSUPPORTED, "")),
    "a-browser": ("automium_run_browser", Refusal({"url": "https://example.com"}, UNSUPPORTED, "")),
    "3000-character-name": ("t" * 3000, Refusal({}, UNSUPPORTED, "")),
}


T = TypeVar("T")


def _flat(table: Mapping[str, Mapping[str, T]]) -> list[tuple[str, str, T]]:
    """``(case id, name, case)`` of every case of a table keyed by tool or prompt name."""
    return [
        (f"{name}.{case}", name, value)
        for name, cases in table.items()
        for case, value in cases.items()
    ]


def _unknown(kind: str, table: Mapping[str, tuple[str, Refusal]]) -> list[tuple[str, str, Refusal]]:
    return [(f"{kind}.{case}", name, refusal) for case, (name, refusal) in table.items()]


def tool_successes() -> list[tuple[str, str, Any]]:
    """``(case id, tool, arguments)`` of every success."""
    return _flat({tool: cases.successes for tool, cases in TOOLS.items()})


def tool_refusals() -> list[tuple[str, str, Refusal]]:
    """``(case id, tool, refusal)`` of every refusal, unknown tools included."""
    known = _flat({tool: cases.refusals for tool, cases in TOOLS.items()})
    return known + _unknown("unknown-tool", UNKNOWN_TOOLS)


# --- prompts ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GuideCases:
    renders: Mapping[str, dict[str, str]]
    """Case name -> the arguments of a prompt that renders."""
    refusals: Mapping[str, Refusal]


DEBUG: dict[str, str] = {
    "runId": RUN_ID,
    "verdict": "failed",
    "evidence": "assertion thanks failed after step pay: heading 'Thank you' not found",
    "artifactManifestRef": MANIFEST_REF,
}
COMPARE_BACKENDS: dict[str, str] = {
    "appIds": "shop-lite, todo-mvc",
    "planners": "anthropic/claude-sonnet-4, openai/gpt-5",
    "repetitions": "3",
}

PROMPTS: Mapping[str, GuideCases] = {
    "draft_journey": GuideCases(
        renders={
            "buy-a-mug": {
                "appId": "shop-lite",
                "fixtureId": "shop-lite.returning-buyer",
                "goal": "Buy a mug",
            }
        },
        refusals={
            "missing-argument": Refusal({"appId": "shop-lite", "goal": "x"}, INVALID, "/fixtureId"),
            "unknown-app": Refusal(
                {"appId": "gmail", "fixtureId": "shop-lite.returning-buyer", "goal": "x"},
                ErrorCode.INVALID_APP_ID,
                "/appId",
            ),
            "fixture-of-another-app": Refusal(
                {"appId": "shop-lite", "fixtureId": "todo-mvc.empty", "goal": "x"},
                ErrorCode.FIXTURE_APP_MISMATCH,
                "/fixtureId",
            ),
        },
    ),
    "debug_failed_run": GuideCases(
        renders={"failed-assertion": DEBUG},
        refusals={"unknown-verdict": Refusal({**DEBUG, "verdict": "flaky"}, INVALID, "/verdict")},
    ),
    "compare_planner_backends": GuideCases(
        renders={"two-planners-on-two-apps": COMPARE_BACKENDS},
        refusals={
            "malformed-planners": Refusal(
                {**COMPARE_BACKENDS, "planners": "claude"},
                ErrorCode.MALFORMED_PLANNER_METADATA,
                "/planners",
            ),
            "unknown-app-in-the-list": Refusal(
                {**COMPARE_BACKENDS, "appIds": "shop-lite,gmail"},
                ErrorCode.INVALID_APP_ID,
                "/appIds",
            ),
        },
    ),
}
UNKNOWN_PROMPTS: Mapping[str, tuple[str, Refusal]] = {
    "write-tests": ("write_tests", Refusal({}, UNSUPPORTED, "")),
}


def prompt_renders() -> list[tuple[str, str, dict[str, str]]]:
    """``(case id, prompt, arguments)`` of every prompt that renders."""
    return _flat({prompt: cases.renders for prompt, cases in PROMPTS.items()})


def prompt_refusals() -> list[tuple[str, str, Refusal]]:
    """``(case id, prompt, refusal)`` of every refused prompt, unknown prompts included."""
    known = _flat({prompt: cases.refusals for prompt, cases in PROMPTS.items()})
    return known + _unknown("unknown-prompt", UNKNOWN_PROMPTS)


# --- resources ----------------------------------------------------------------------------

# A corpus listing is the answer of its tool to no arguments, byte for byte.
LISTING_RESOURCES: Mapping[str, str] = {
    "automium://apps": "automium_list_apps",
    "automium://fixtures": "automium_list_fixtures",
}
# A contract resource is the bundled contract, byte for byte.
CONTRACT_RESOURCES: Mapping[str, str] = {
    "automium://contracts/planner-adapter-v1": "planner-adapter.v1",
    "automium://contracts/replay-event-v1": "replay-event.v1",
    "automium://contracts/semantic-snapshot-v1": "semantic-snapshot.v1",
    "automium://contracts/artifact-manifest-v1": "artifact-manifest.v1",
}
RESOURCE_URIS = (*LISTING_RESOURCES, *CONTRACT_RESOURCES)
BAD_RESOURCE_URIS = (
    "automium://APPS",
    "Automium://apps",
    "automium://apps/",
    "automium://apps?x=1",
    "automium://apps#top",
    "automium://contracts/../apps",
    "automium://contracts/journey-v1",
    "automium://contracts/replay-event-v2",
    "automium://../../etc/passwd",
    "automium://fixtures/../../etc/passwd",
    "file:///etc/passwd",
    "https://example.com/apps",
)


# --- refusals, as a test reads them -------------------------------------------------------

A = TypeVar("A")


def refused(run: Callable[[A], object], argument: A) -> tuple[Problem, ...]:
    """The problems of ``run(argument)``, which must raise :class:`AutomiumError`."""
    with pytest.raises(AutomiumError) as refusal:
        run(argument)
    return refusal.value.problems


def refusal(run: Callable[[A], object], argument: A) -> list[tuple[ErrorCode, str]]:
    """``(code, path)`` of each problem of ``run(argument)``, which must be refused."""
    return [(p.code, p.path) for p in refused(run, argument)]


def error_problems(document: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(code, path)`` of every problem of a tool-error document: the one it states, then
    the others it lists."""
    every = [document, *document.get("problems", [])]
    return [(p["code"], p.get("path", "")) for p in every]
