"""Invalid documents of every contract: a valid example, one edit, and the rule it breaks.

A row starts from a valid example (``examples/<contract>/valid-<name>.json``), applies one
edit of :mod:`tests.mutations` and says why the result is invalid. ``schema_only`` marks a
rule a pydantic model cannot carry (generated lists ignore ``uniqueItems``;
``Literal[True]`` accepts ``1`` by equality): only the contract rejects those, and the
boundary always checks the contract first.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tests.mutations import Mutation, append_at, drop_at, set_at

EXAMPLES = Path(__file__).parent / "examples"


@cache
def _load(contract: str, name: str) -> Any:
    return json.loads((EXAMPLES / contract / f"valid-{name}.json").read_text("utf-8"))


@dataclass(frozen=True)
class ValidExample:
    """``examples/<contract>/valid-<name>.json``; calling it makes a row that edits it."""

    contract: str
    name: str

    def document(self) -> Any:
        return copy.deepcopy(_load(self.contract, self.name))

    def __call__(self, mutation: Mutation, why: str, *, schema_only: bool = False) -> Invalid:
        return Invalid(self, mutation, why, schema_only)


@dataclass(frozen=True)
class Invalid:
    example: ValidExample
    mutation: Mutation
    why: str
    schema_only: bool = False

    @property
    def contract(self) -> str:
        return self.example.contract

    def document(self) -> Any:
        document = self.example.document()
        self.mutation(document)
        return document


apps = ValidExample("app-catalog.v1", "four-apps")
manifest_input = ValidExample("artifact-manifest-input.v1", "shop-lite-run")
manifest = ValidExample("artifact-manifest.v1", "shop-lite-run")
run_index = ValidExample("run-index.v1", "first-of-two-shards")
report = ValidExample("benchmark-report.v1", "two-planners")
own_journey_report = ValidExample("benchmark-report.v1", "modeled-own-journey")
recorded_report = ValidExample("benchmark-report.v1", "recorded")
compare = ValidExample("compare-planners-input.v1", "two-apps-two-planners")
recorded_trials = ValidExample("compare-planners-input.v1", "recorded-trials")
corpus = ValidExample("corpus.v1", "shop-and-todo")
fixtures = ValidExample("fixture-catalog.v1", "shop-lite")
compilation = ValidExample("journey-compilation.v1", "worked-example")
graph = ValidExample("journey-graph.v1", "worked-example")
journey = ValidExample("journey.v1", "worked-example")
list_apps = ValidExample("list-apps-input.v1", "empty")
list_fixtures = ValidExample("list-fixtures-input.v1", "all-fixtures")
planner_request = ValidExample("planner-adapter.v1", "request")
planner_decision = ValidExample("planner-adapter.v1", "decision-fill")
action_failed = ValidExample("replay-event.v1", "action-failed")
decision_made = ValidExample("replay-event.v1", "decision-made")
run_finished = ValidExample("replay-event.v1", "run-finished")
summary_input = ValidExample("replay-summary-input.v1", "failed-run")
summary = ValidExample("replay-summary.v1", "failed-run")
submission_input = ValidExample("run-submission-input.v1", "shop-lite-buy-one-mug")
submission = ValidExample("run-submission.v1", "shop-lite-buy-one-mug")
snapshot = ValidExample("semantic-snapshot.v1", "shop-checkout")
tool_error = ValidExample("tool-error.v1", "journey-problems")

UPPER_SHA256 = "0B1C2D3E4F5A6B7C8D9E0F1A2B3C4D5E6F7A8B9C0D1E2F3A4B5C6D7E8F9A0B1C"
PDF = {"kind": "pdf", "path": "report.pdf", "contentType": "application/pdf", "sizeBytes": 20480}
SIX_APPS = ["todo-mvc", "shop-lite", "admin-console", "helpdesk", "bank-sandbox", "wiki-lite"]
PLACE_ORDER = ("root", "children", 3)
CDN_URL = "https://cdn.automium.dev/run-3f2a9c0d41b7e865/steps/pay/screenshot.png"
RETRY_EDGE = {"from": "step:pay", "to": "step:pay", "on": "retry"}

INVALID: tuple[Invalid, ...] = (
    apps(append_at("apps", 3, "capabilities", value="Drag & Drop"), "a capability not kebab-case"),
    apps(set_at("corpusVersion", value="v2026.1"), "a corpus version not YYYY.N"),
    apps(
        set_at("apps", 2, "routes", 0, "url", value="https://shop-lite.local/"),
        "extra property: url",
    ),
    apps(drop_at("apps", 2, "routes"), "missing required: an app's routes"),
    apps(set_at("apps", 0, "hosting", value="cloud-vm"), "wrong enum: hosting"),
    manifest_input(set_at("entries", 2, "url", value=CDN_URL), "extra property: url"),
    manifest_input(
        set_at("entries", 2, "contentType", value="PNG image"), "a content type not a MIME type"
    ),
    manifest_input(set_at("entries", 0, "sizeBytes", value=-1), "a negative size"),
    manifest_input(set_at("entries", 3, "sha256", value=UPPER_SHA256), "an upper-case sha256"),
    manifest_input(append_at("entries", value=PDF), "wrong enum: kind"),
    manifest(
        set_at("entries", 2, "contentType", value="PNG image"), "a content type not a MIME type"
    ),
    manifest(set_at("entries", 0, "path", value=""), "an empty path"),
    manifest(
        set_at(
            "entries",
            1,
            "absolutePath",
            value="/var/automium/artifacts/steps/checkout/semantic-snapshot.json",
        ),
        "extra property: absolutePath",
    ),
    manifest(drop_at("runId"), "missing required: runId"),
    run_index(set_at("runs", 0, "folder", value=""), "an empty folder"),
    run_index(set_at("shards", 0, value="0/2"), "a shard numbered from 0"),
    run_index(set_at("runs", 1, "host", value="ci-7"), "extra property: host"),
    run_index(drop_at("selection"), "missing required: selection"),
    run_index(set_at("runs", 0, "verdict", value="flaky"), "wrong enum: verdict"),
    manifest(set_at("entries", 2, "kind", value="pdf"), "wrong enum: kind"),
    manifest(set_at("schemaVersion", value="automium.artifact-manifest/v2"), "schema version v2"),
    report(set_at("planners", 1, "planner", "vendor", value="  "), "a blank vendor"),
    report(
        set_at("planners", 1, "metrics", "p95LatencyMs", value=61200.0),
        "extra property: p95LatencyMs",
    ),
    report(
        drop_at("planners", 0, "apps", 1, "metrics", "repeatability"),
        "missing required: repeatability",
    ),
    report(set_at("planners", 0, "apps", 0, "metrics", "passRate", value=1.2), "pass rate above 1"),
    report(
        set_at("planners", 0, "metrics", "passRate", value="0.9166666666666666"),
        "a pass rate as a string",
    ),
    report(set_at("modeled", "executed", value=True), "executed true: a report is modeled"),
    report(set_at("repetitions", value=0), "zero repetitions"),
    own_journey_report(
        drop_at("planners", 0, "metrics", "recoverySuccessRate"),
        "missing required: recoverySuccessRate (null when unknown, never absent)",
    ),
    own_journey_report(
        set_at("planners", 0, "metrics", "passRateInterval", "method", value="wald"),
        "wrong enum: interval method",
    ),
    own_journey_report(
        set_at("planners", 0, "metrics", "passHatK", 0, "k", value=0), "pass^k at k = 0"
    ),
    own_journey_report(
        drop_at("modeled"), "a modeled report without its modeled block", schema_only=True
    ),
    recorded_report(
        set_at("modeled", value=_load("benchmark-report.v1", "modeled-own-journey")["modeled"]),
        "a recorded report with a modeled block",
        schema_only=True,
    ),
    compare(set_at("appIds", 1, value="TodoMVC"), "an app id not kebab-case"),
    compare(set_at("appIds", 1, value="shop-lite"), "an app id twice", schema_only=True),
    compare(set_at("planners", 0, "apiKey", value="sk-redacted"), "extra property: apiKey"),
    compare(drop_at("planners"), "missing required: planners"),
    compare(set_at("appIds", value=SIX_APPS), "six apps, one over the limit"),
    compare(set_at("repetitions", value=101), "101 repetitions, one over the limit"),
    recorded_trials(set_at("trials", 0, "verdict", value="passed"), "extra property: verdict"),
    recorded_trials(set_at("trials", 2, "latencyMs", value=-5), "a negative latency"),
    recorded_trials(drop_at("trials", 2, "passed"), "missing required: passed"),
    corpus(
        set_at("environmentProfiles", 0, "userAgent", value="Mozilla/5.0"),
        "extra property: userAgent",
    ),
    corpus(set_at("referenceJourneys", 0, "steps", 4, "intent", value="teleport"), "a bad intent"),
    corpus(drop_at("fixtures", 0, "artifactRoot"), "missing required: artifactRoot"),
    corpus(set_at("referenceJourneys", value=[]), "no reference journeys"),
    corpus(
        set_at("apps", 1, "routes", 3, "path", value="https://shop-lite.local/cart"), "a route url"
    ),
    corpus(set_at("environmentProfiles", 1, "deviceClass", value="tablet"), "wrong enum: device"),
    fixtures(set_at("fixtures", 1, "password", value="hunter2"), "extra property: password"),
    fixtures(drop_at("environmentProfiles"), "missing required: environmentProfiles"),
    fixtures(
        set_at("fixtures", 1, "seedRefs", value=["seeds/catalog-basic.sql"]),
        "a seed ref that is a path",
    ),
    fixtures(set_at("environmentProfiles", 1, "viewport", "width", value=120), "a tiny viewport"),
    fixtures(set_at("environmentProfiles", 0, "deviceClass", value="tablet"), "wrong enum: device"),
    compilation(set_at("graph", "edges", 1, "weight", value=1), "extra property: weight"),
    compilation(
        set_at("graph", "schemaVersion", value="automium.journey/v1"),
        "a graph with the journey schema version",
    ),
    compilation(drop_at("warnings"), "missing required: warnings"),
    compilation(set_at("graph", "nodes", 2, "intent", value="teleport"), "wrong enum: intent"),
    compilation(set_at("stepCount", value=0), "zero steps"),
    graph(set_at("nodes", 4, "selector", value="button.add-to-cart"), "extra property: selector"),
    graph(drop_at("nodes", 3, "label"), "missing required: label"),
    graph(set_at("exits", value=[]), "no exits"),
    graph(set_at("edges", 0, "to", value="step:Open Home"), "a node id not kebab-case"),
    graph(set_at("nodes", 6, "retryBudget", value=4), "a retry budget of 4, one over the limit"),
    graph(
        append_at("edges", value=RETRY_EDGE),
        "wrong enum: a retry back-edge (retries are node budgets)",
    ),
    journey(set_at("goal", value="   "), "a blank goal"),
    journey(
        set_at("recovery", "strategies", 1, value="retry_step"),
        "a recovery strategy twice",
        schema_only=True,
    ),
    journey(set_at("steps", 0, "url", value="https://shop-lite.local/"), "extra property: url"),
    # One model class per step kind: "value or secretRef" is a rule between two fields of
    # one kind, which the schema check (always run first) holds, not a type of its own.
    journey(drop_at("steps", 1, "value"), "fill without a value", schema_only=True),
    journey(set_at("recovery", "maxAttempts", value=4), "four attempts, one over the limit"),
    journey(set_at("recovery", "maxAttempts", value="2"), "attempts as a string"),
    journey(drop_at("fixtureId"), "missing required: fixtureId"),
    journey(set_at("steps", value=[]), "no steps"),
    journey(set_at("steps", 4, "route", value="/checkout"), "a route that is a path"),
    journey(set_at("steps", 3, "intent", value="teleport"), "wrong enum: intent"),
    journey(set_at("schemaVersion", value="automium.journey/v2"), "schema version v2"),
    list_apps(set_at("appId", value="shop-lite"), "extra property: appId"),
    list_fixtures(set_at("appId", value=["shop-lite", "todo-mvc"]), "an app id that is a list"),
    list_fixtures(set_at("appId", value="Shop_Lite"), "an app id not kebab-case"),
    list_fixtures(set_at("fixtureId", value="shop-lite.returning-buyer"), "extra property"),
    planner_request(
        set_at("snapshot", *PLACE_ORDER, "selector", value="button.place-order"),
        "extra property: selector",
    ),
    planner_request(set_at("history", 3, "outcome", value="skipped"), "wrong enum: outcome"),
    planner_request(set_at("allowedIntents", value=[]), "no allowed intents"),
    planner_decision(set_at("messageType", value="response"), "wrong message type"),
    planner_decision(drop_at("rationale"), "missing required: rationale"),
    planner_decision(set_at("planner", "model", value=" "), "a blank model"),
    planner_decision(set_at("intent", value="teleport"), "wrong enum: intent"),
    action_failed(
        set_at("screenshotUrl", value="https://cdn.automium.dev/steps/add/screenshot.png"),
        "extra property: url",
    ),
    action_failed(drop_at("payload"), "missing required: payload"),
    decision_made(set_at("payload", "input_tokens", value=1840), "a payload key not camelCase"),
    decision_made(
        set_at("payload", "target", value={"role": "button", "name": "Place order"}),
        "a nested payload",
    ),
    decision_made(set_at("type", value="Decision Made"), "a type not dotted lower case"),
    run_finished(set_at("verdict", value="maybe"), "a verdict outside the vocabulary"),
    action_failed(set_at("lane", value="browser"), "wrong enum: lane"),
    summary_input(
        set_at("replayStreamRef", value="replay:run/run-3f2a9c0d41b7e865"), "extra property"
    ),
    summary_input(
        set_at("artifactManifestRef", value="artifacts/shop-lite/returning-buyer"),
        "a manifest ref path",
    ),
    summary_input(drop_at("artifactManifestRef"), "missing required: artifactManifestRef"),
    summary_input(set_at("retryCount", value=-1), "negative retries"),
    summary_input(set_at("verdict", value="maybe"), "wrong enum: verdict"),
    summary(append_at("requiredArtifactKinds", value="pdf"), "an artifact kind pdf"),
    summary(set_at("modeled", "notice", value="\t"), "a blank notice"),
    summary(
        set_at("modeled", "replayedAt", value="2026-01-15T10:00:00Z"), "extra property: replayedAt"
    ),
    summary(drop_at("modeled"), "missing required: modeled"),
    summary(set_at("inspectLanes", value=[]), "no lanes"),
    summary(set_at("verdict", value="maybe"), "wrong enum: verdict"),
    submission_input(set_at("planner", "vendor", value=""), "an empty vendor"),
    submission_input(set_at("planner", "apiKey", value="sk-redacted"), "extra property: apiKey"),
    submission_input(set_at("fixtureId", value="returning-buyer"), "a fixture id without app"),
    submission_input(drop_at("planner", "model"), "missing required: model"),
    submission(set_at("modeled", "executed", value=True), "executed true: a submission is modeled"),
    submission(set_at("planner", "temperature", value=0.2), "extra property: temperature"),
    submission(
        set_at("artifactManifestRef", value="https://automium.dev/artifacts/run-3f2a9c0d41b7e865"),
        "a manifest ref url",
    ),
    submission(drop_at("replayStreamRef"), "missing required: replayStreamRef"),
    submission(
        set_at("modeled", "modeled", value=1), "modeled as 1 instead of true", schema_only=True
    ),
    submission(set_at("status", value="running"), "wrong enum: status"),
    snapshot(
        set_at(*PLACE_ORDER, "selector", value="button.place-order"), "extra property: selector"
    ),
    snapshot(drop_at("root", "children", 1, "children", 0, "name"), "missing required: name"),
    snapshot(set_at("root", "children", 0, "ref", value="node-2"), "a ref not of the form eN"),
    snapshot(set_at("viewport", "height", value=100), "a tiny viewport"),
    snapshot(set_at(*PLACE_ORDER, "states", value=["active"]), "wrong enum: state"),
    tool_error(set_at("problems", 2, "allowed", value=[True, False]), "allowed booleans"),
    tool_error(set_at("problems", 2, "allowed", value=[{"min": 1, "max": 3}]), "allowed objects"),
    tool_error(set_at("message", value=" "), "a blank message"),
    tool_error(set_at("problems", 0, "severity", value="error"), "extra property: severity"),
    tool_error(drop_at("problems", 1, "path"), "missing required: path"),
    tool_error(set_at("code", value="not_found"), "wrong enum: code"),
)

# Documents that are no object at all: there is no example to start from.
NOT_OBJECTS: tuple[tuple[str, Any, str], ...] = (
    ("list-apps-input.v1", [], "an array"),
    ("list-apps-input.v1", "shop-lite", "a string"),
    ("list-fixtures-input.v1", ["shop-lite"], "an array of app ids"),
)


def invalid_documents() -> list[tuple[str, str, Any, bool]]:
    """``(contract, why, document, schema_only)`` of every row of both tables."""
    edited = [(r.contract, r.why, r.document(), r.schema_only) for r in INVALID]
    return edited + [(contract, why, document, False) for contract, document, why in NOT_OBJECTS]
