"""What the benchmarks send: typical tool inputs, generated journeys, comparison sizes.

The typical inputs follow ``automium/mcp_server/demo.py`` (the developer-experience path),
so a measured call is the call an agent actually makes.
"""

from __future__ import annotations

import itertools
from typing import Any

from automium.mcp_server.demo import ARTIFACT_ENTRIES

APP = "shop-lite"
FIXTURE = "shop-lite.returning-buyer"
PLANNER = {"id": "claude-default", "vendor": "anthropic", "model": "claude-sonnet-4"}
CORPUS_VERSION = "2026.1"
ALL_APPS = ("todo-mvc", "shop-lite", "admin-console", "helpdesk", "bank-sandbox")

# The reference journey the draft_journey prompt shows for shop-lite (6 steps, 2 assertions).
BUY_ONE_MUG: dict[str, Any] = {
    "id": "shop-lite.buy-one-mug",
    "appId": APP,
    "fixtureId": FIXTURE,
    "goal": "Buy one mug and see the order confirmation",
    "steps": [
        {"id": "open-home", "intent": "navigate", "route": "home"},
        {
            "id": "search",
            "intent": "fill",
            "target": {"role": "searchbox", "name": "Search"},
            "value": "mug",
        },
        {"id": "submit", "intent": "press_key", "key": "Enter"},
        {
            "id": "add",
            "intent": "click",
            "target": {"role": "button", "name": "Add to cart", "nth": 0},
        },
        {"id": "checkout", "intent": "navigate", "route": "checkout"},
        {"id": "pay", "intent": "click", "target": {"role": "button", "name": "Place order"}},
    ],
    "assertions": [
        {"id": "confirmed", "kind": "route_is", "route": "order-confirmation", "afterStep": "pay"},
        {
            "id": "thanks",
            "kind": "text_contains",
            "target": {"role": "heading", "name": "Thank you"},
            "expected": "Thank you",
            "afterStep": "pay",
        },
    ],
    "recovery": {
        "maxAttempts": 2,
        "strategies": ["retry_step", "refresh_snapshot"],
        "onExhausted": "fail_run",
    },
}

RUN_SUBMISSION: dict[str, Any] = {
    "journeyId": BUY_ONE_MUG["id"],
    "appId": APP,
    "fixtureId": FIXTURE,
    "planner": PLANNER,
    "environmentProfileId": "desktop-1280x720",
}


def tool_inputs(run_id: str, manifest_ref: str) -> dict[str, dict[str, Any]]:
    """One typical input per tool; the run ids come from a modeled run submission."""
    return {
        "automium_list_apps": {},
        "automium_list_fixtures": {"appId": APP},
        "automium_compile_journey": BUY_ONE_MUG,
        "automium_create_run_submission": RUN_SUBMISSION,
        "automium_get_replay_summary": {
            "runId": run_id,
            "verdict": "failed",
            "retryCount": 1,
            "artifactManifestRef": manifest_ref,
        },
        "automium_get_artifact_manifest": {
            "runId": run_id,
            "root": "artifacts/shop-lite/returning-buyer",
            "entries": ARTIFACT_ENTRIES,
        },
        "automium_compare_planners": compare_input(2, 2, 3),
    }


def planners(count: int) -> list[dict[str, str]]:
    vendors = itertools.cycle(
        [("anthropic", "claude-sonnet-4"), ("openai", "gpt-5"), ("local", "llama-70b")]
    )
    return [
        {"id": f"planner-{i}", "vendor": vendor, "model": model}
        for i, (vendor, model) in zip(range(count), vendors, strict=False)
    ]


def compare_input(apps: int, planner_count: int, repetitions: int) -> dict[str, Any]:
    """A compare_planners request over the first ``apps`` corpus apps."""
    ordered = (APP, *(a for a in ALL_APPS if a != APP))
    return {
        "corpusVersion": CORPUS_VERSION,
        "appIds": list(ordered[:apps]),
        "planners": planners(planner_count),
        "repetitions": repetitions,
    }


# (apps, planners, repetitions): from one trial's worth of work up to the input's limits.
COMPARE_POINTS: tuple[tuple[int, int, int], ...] = (
    (1, 1, 1),
    (1, 1, 10),
    (2, 2, 10),
    (5, 8, 1),
    (5, 8, 10),
    (5, 8, 50),
    (5, 8, 100),
)
JOURNEY_SIZES: tuple[int, ...] = (10, 100, 1000)

_ROUTES = ("home", "search", "product", "cart", "checkout", "orders")


_BUTTON = {"role": "button", "name": "Add to cart"}
# One step of each shape, cycled through: ten steps use nine intents (click twice).
_STEP_SHAPES: tuple[dict[str, Any], ...] = (
    {"intent": "navigate", "route": "home"},
    {"intent": "click", "target": _BUTTON},
    {"intent": "fill", "target": {"role": "textbox", "name": "Search"}, "value": "mug"},
    {"intent": "press_key", "key": "Enter"},
    {"intent": "hover", "target": {**_BUTTON, "nth": 0}},
    {"intent": "scroll", "direction": "down"},
    {"intent": "click", "target": {"role": "link", "name": "Cart"}},
    {"intent": "wait_for", "target": _BUTTON, "state": "visible"},
    {"intent": "select_option", "target": {"role": "combobox", "name": "Quantity"}, "value": "2"},
    {"intent": "check", "target": {"role": "checkbox", "name": "Gift wrap"}},
)


def _step(index: int) -> dict[str, Any]:
    """Step ``index`` of a generated journey: unique id, intents mixed, routes varied."""
    step: dict[str, Any] = {"id": f"s{index:04d}", **_STEP_SHAPES[index % len(_STEP_SHAPES)]}
    if step["intent"] == "navigate":
        step["route"] = _ROUTES[(index // len(_STEP_SHAPES)) % len(_ROUTES)]
    return step


def generated_journey(steps: int) -> dict[str, Any]:
    """A valid shop-lite journey of ``steps`` steps (unique ids, mixed intents), 3 assertions."""
    body = [_step(i) for i in range(steps)]
    last = body[-1]["id"]
    first = body[0]["id"]
    return {
        "id": f"shop-lite.generated-{steps}",
        "appId": APP,
        "fixtureId": FIXTURE,
        "goal": f"A generated journey of {steps} steps",
        "steps": body,
        "assertions": [
            {"id": "a-route", "kind": "route_is", "route": "home", "afterStep": first},
            {
                "id": "a-visible",
                "kind": "visible",
                "target": {"role": "heading", "name": "Cart"},
                "afterStep": last,
            },
            {
                "id": "a-text",
                "kind": "text_contains",
                "target": {"role": "status", "name": "Total"},
                "expected": "Total",
                "afterStep": last,
            },
        ],
        "recovery": {
            "maxAttempts": 2,
            "strategies": ["retry_step", "refresh_snapshot"],
            "onExhausted": "fail_run",
        },
    }
