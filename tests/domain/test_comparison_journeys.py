"""Comparing planners on your own journeys: checked as compile checks them, compared instead
of the reference journeys of their apps."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from automium import corpus
from automium.capabilities import COMPARE_PLANNERS
from automium.contracts import BenchmarkReport, to_document, tool_input_schema
from automium.errors import AutomiumError
from automium.journeys import check_journey
from automium.validation import check
from tests.answers import answered
from tests.filled import filled

CLAUDE = {"id": "claude", "vendor": "anthropic", "model": "claude-sonnet-4"}
GPT = {"id": "gpt", "vendor": "openai", "model": "gpt-5"}


def reference(journey_id: str) -> dict[str, Any]:
    journey = next(j for j in corpus.reference_journeys() if j.id == journey_id)
    return to_document(journey)


def own_journey() -> dict[str, Any]:
    """A journey of shop-lite that is not a reference journey: a mug, bought via the cart."""
    journey = copy.deepcopy(reference("shop-lite.buy-one-mug"))
    journey["id"] = "team.buy-mug-via-cart"
    journey["goal"] = "Buy one mug, looking at the cart before checkout"
    journey["steps"].insert(4, {"id": "see-cart", "intent": "navigate", "route": "cart"})
    return journey


def compare(**overrides: Any) -> BenchmarkReport:
    """The tool as tools/call runs it (limits, contract, corpus, domain), minus MCP framing."""
    arguments = {
        "corpusVersion": "2026.1",
        "appIds": ["shop-lite", "todo-mvc"],
        "planners": [CLAUDE, GPT],
        "repetitions": 3,
        "journeys": [own_journey()],
        **overrides,
    }
    return answered(COMPARE_PLANNERS, arguments)


def refusal(**overrides: Any) -> list[tuple[str, str]]:
    with pytest.raises(AutomiumError) as caught:
        compare(**overrides)
    return [(p.code.value, p.path) for p in caught.value.problems]


def test_the_own_journey_is_valid_as_compile_sees_it() -> None:
    assert check_journey(own_journey()).problems == ()


def test_own_journeys_are_compared_instead_of_their_apps_reference_journeys() -> None:
    report = compare()
    todo = [j.id for j in corpus.reference_journeys() if j.app_id == "todo-mvc"]

    assert [(j.app_id, j.journey_id, j.origin.value) for j in filled(report.journeys)] == [
        ("shop-lite", "team.buy-mug-via-cart", "given"),
        *(("todo-mvc", journey_id, "reference") for journey_id in todo),
    ]
    assert filled(report.journeys)[0].steps == len(own_journey()["steps"])
    assert report.trial_count == 2 * (1 + len(todo)) * 3
    shop = [a.metrics for p in report.planners for a in filled(p.apps) if a.app_id == "shop-lite"]
    assert [(m.trials, m.journeys) for m in shop] == [(3, 1), (3, 1)]


def test_an_own_journeys_trials_fail_at_its_own_steps() -> None:
    report = compare(appIds=["shop-lite"], repetitions=100)
    steps = {s["id"] for s in own_journey()["steps"]}

    failing = [f for p in report.planners for f in filled(p.failing_steps)]
    assert failing
    assert {f.journey_id for f in failing} == {"team.buy-mug-via-cart"}
    assert {f.step_id for f in failing} <= steps


def test_a_report_on_own_journeys_matches_its_snapshot_and_its_contract(
    snapshot_json: SnapshotAssertion,
) -> None:
    document = to_document(compare(appIds=["shop-lite"]))

    assert check("benchmark-report.v1", document) == []
    assert document == snapshot_json


def test_a_refused_journey_is_refused_with_its_index_in_the_path() -> None:
    broken = own_journey()
    broken["steps"][3]["target"]["name"] = "Add to cartt"

    assert refusal(journeys=[own_journey(), broken]) == [
        ("unknown_target", "/journeys/1/steps/3/target")
    ]


@pytest.mark.parametrize(
    "breaks",
    [
        lambda j: j["steps"][1].update(intent="type"),  # the contract: an unknown intent
        lambda j: j["steps"][3]["target"].pop("nth"),  # the pages: two "Add to cart" buttons
        lambda j: j["steps"].__setitem__(0, {"id": "open", "intent": "navigate", "route": "nope"}),
        lambda j: j.update(fixtureId="todo-mvc.empty"),  # the corpus: another app's fixture
    ],
    ids=["unsupported intent", "ambiguous target", "unknown route", "fixture of another app"],
)
def test_every_problem_of_a_journey_is_the_one_compile_finds_under_its_index(breaks: Any) -> None:
    broken = own_journey()
    breaks(broken)
    compiled = [(p.code.value, "/journeys/2" + p.path) for p in check_journey(broken).problems]

    found = refusal(journeys=[own_journey() | {"id": "a"}, own_journey() | {"id": "b"}, broken])

    assert compiled
    assert found == compiled


def test_a_journey_of_an_app_not_compared_is_refused() -> None:
    assert refusal(appIds=["todo-mvc"]) == [("app_not_compared", "/journeys/0/appId")]


def test_two_journeys_with_one_id_are_refused() -> None:
    assert refusal(journeys=[own_journey(), own_journey()]) == [("invalid_input", "/journeys/1/id")]


def test_more_than_twenty_journeys_are_refused_before_any_is_walked() -> None:
    many = [own_journey() | {"id": f"team.j{i}"} for i in range(21)]

    assert refusal(journeys=many) == [("limit_exceeded", "/journeys")]


def test_journeys_and_recorded_trials_do_not_go_together() -> None:
    record = {
        "plannerId": "claude",
        "appId": "shop-lite",
        "journeyId": "team.buy-mug-via-cart",
        "repetition": 0,
        "passed": True,
        "latencyMs": 1000,
        "inputTokens": 10,
        "outputTokens": 1,
        "recoveryAttempts": 0,
    }

    assert refusal(trials=[record]) == [("invalid_input", "/trials")]


def test_the_published_input_schema_names_the_journey_contract_instead_of_repeating_it() -> None:
    journeys = tool_input_schema("compare-planners-input.v1")["properties"]["journeys"]

    assert journeys["maxItems"] == 20
    assert journeys["items"] == {
        "type": "object",
        "description": "A journey of an app in appIds. (a whole journey.v1 document)",
    }
    assert "Journey" not in tool_input_schema("compare-planners-input.v1").get("$defs", {})
