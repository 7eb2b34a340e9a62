"""What the benchmarks send: each tool's typical input, and the growth points' inputs.

The typical inputs are the demo's (``automium/commands/demo.py``, the developer-experience
path), so a measured call is the call an agent makes: the reference journey of the
``shop-lite.returning-buyer`` fixture (``shop-lite.buy-one-mug``), a modeled run of it, and
compare_planners over 2 apps x 2 planners x 3 repetitions.
"""

from __future__ import annotations

from typing import Any

from automium import corpus
from automium.capabilities import BY_NAME
from automium.commands.demo import ARTIFACT_ENTRIES, FIXTURE, PLANNER
from automium.contracts import to_document

APP = "shop-lite"
JOURNEY = to_document(corpus.reference_journeys(FIXTURE)[0])
RUN = {"journeyId": JOURNEY["id"], "appId": APP, "fixtureId": FIXTURE, "planner": PLANNER}
RUN_SUBMISSION: dict[str, Any] = {**RUN, "environmentProfileId": "desktop-1280x720"}
ARTIFACT_ROOT = "artifacts/shop-lite/returning-buyer"


def tool_inputs() -> dict[str, dict[str, Any]]:
    """One typical input per tool; the run ids come from the modeled run (deterministic)."""
    run = BY_NAME["automium_create_run_submission"].answer(RUN_SUBMISSION)[1]
    run_id, ref = run["runId"], run["artifactManifestRef"]
    replay = {"runId": run_id, "verdict": "failed", "retryCount": 1, "artifactManifestRef": ref}
    manifest = {"runId": run_id, "root": ARTIFACT_ROOT, "entries": ARTIFACT_ENTRIES}
    return {
        "automium_list_apps": {},
        "automium_list_fixtures": {"appId": APP},
        "automium_compile_journey": JOURNEY,
        "automium_create_run_submission": RUN_SUBMISSION,
        "automium_get_replay_summary": replay,
        "automium_get_artifact_manifest": manifest,
        "automium_compare_planners": compare_input(2, 2, 3),
    }


_MODELS = (("anthropic", "claude-sonnet-4"), ("openai", "gpt-5"), ("local", "llama-70b"))


def compare_input(apps: int, planners: int, repetitions: int) -> dict[str, Any]:
    """A compare_planners request over the first ``apps`` corpus apps, shop-lite first."""
    app_ids = [APP, *(app for app in corpus.app_ids() if app != APP)][:apps]
    models = [_MODELS[i % len(_MODELS)] for i in range(planners)]
    return {
        "corpusVersion": corpus.app_catalog().corpus_version,
        "appIds": app_ids,
        "planners": [
            {"id": f"planner-{i}", "vendor": vendor, "model": model}
            for i, (vendor, model) in enumerate(models)
        ],
        "repetitions": repetitions,
    }


# Growth points (apps, planners, repetitions): from one trial up to the input's limits.
_COMPARE_SIZES = ((1, 1, 1), (1, 1, 10), (2, 2, 10), (5, 8, 1), (5, 8, 10), (5, 8, 50), (5, 8, 100))
COMPARE_CASES = {
    f"{a} app x {p} planner x {n} rep": compare_input(a, p, n) for a, p, n in _COMPARE_SIZES
}

_ADD = {"role": "button", "name": "Add to cart", "nth": 0}
_CART_STATUS = {"role": "status", "name": "Cart updates"}
_SORT = {"role": "combobox", "name": "Sort by"}
# Ten steps that are valid on the returning buyer's pages, cycled through (nine intents):
# search from home, add the first result, sort, open the mug and set a quantity.
_STEPS: tuple[dict[str, Any], ...] = (
    {"intent": "navigate", "route": "home"},
    {"intent": "fill", "target": {"role": "searchbox", "name": "Search"}, "value": "mug"},
    {"intent": "press_key", "key": "Enter"},
    {"intent": "hover", "target": _ADD},
    {"intent": "click", "target": _ADD},
    {"intent": "wait_for", "target": _CART_STATUS, "state": "visible"},
    {"intent": "select_option", "target": _SORT, "value": "Price: low to high"},
    {"intent": "scroll", "direction": "down"},
    {"intent": "click", "target": {"role": "link", "name": "Stoneware mug"}},
    {"intent": "fill", "target": {"role": "spinbutton", "name": "Quantity"}, "value": "2"},
)


def generated_journey(steps: int) -> dict[str, Any]:
    """A valid shop-lite journey of ``steps`` steps (a multiple of ten: unique ids, mixed
    intents, every one checked against its page) and 3 assertions."""
    body = [{"id": f"s{i:04d}", **_STEPS[i % len(_STEPS)]} for i in range(steps)]
    mug = {"role": "heading", "name": "Stoneware mug"}
    mug_after_last = {"target": mug, "afterStep": body[-1]["id"]}
    assertions = [
        {"id": "a-route", "kind": "route_is", "route": "home", "afterStep": body[0]["id"]},
        {"id": "a-visible", "kind": "visible", **mug_after_last},
        {"id": "a-text", "kind": "text_contains", "expected": "mug", **mug_after_last},
    ]
    name, goal = f"shop-lite.generated-{steps}", f"A generated journey of {steps} steps"
    return {**JOURNEY, "id": name, "goal": goal, "steps": body, "assertions": assertions}


JOURNEY_CASES = {f"{n} steps, 3 assertions": generated_journey(n) for n in (10, 100, 1000)}


def hostile_journey() -> dict[str, Any]:
    """The 1,000-step journey a hostile client sends: 60 unexpected properties per step."""
    journey = generated_journey(1000)
    for step in journey["steps"]:
        step.update({f"extra{i}": i for i in range(60)})
    return journey
