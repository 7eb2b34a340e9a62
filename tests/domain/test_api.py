"""The operations table: every operation names real contracts, accepts what its input
contract accepts, returns what its output contract describes, and refuses by code."""

from __future__ import annotations

from typing import Any

import pytest

from automium import corpus
from automium.capabilities import BY_NAME
from automium.contracts import ErrorCode, contract_names, to_document
from automium.errors import AutomiumError
from automium.validation import check

OPERATIONS = {name.removeprefix("automium_"): c for name, c in BY_NAME.items()}
RUN_ID = "run-3f2a9c0d41b7e865"
CLAUDE = {"id": "claude", "vendor": "anthropic", "model": "claude-sonnet-4"}
GPT = {"id": "gpt", "vendor": "openai", "model": "gpt-5"}

# One valid call per operation; a new operation without one fails the table test below.
VALID_ARGUMENTS: dict[str, Any] = {
    "list_apps": {},
    "list_fixtures": {"appId": "shop-lite"},
    "compile_journey": to_document(corpus.reference_journeys("shop-lite.returning-buyer")[0]),
    "create_run_submission": {
        "journeyId": "shop-lite.buy-one-mug",
        "appId": "shop-lite",
        "fixtureId": "shop-lite.returning-buyer",
        "planner": CLAUDE,
        "environmentProfileId": "desktop-1280x720",
    },
    "get_replay_summary": {
        "runId": RUN_ID,
        "verdict": "failed",
        "retryCount": 1,
        "artifactManifestRef": f"artifacts:run/{RUN_ID}",
    },
    "get_artifact_manifest": {
        "runId": RUN_ID,
        "root": "artifacts/shop-lite/returning-buyer",
        "entries": [
            {
                "kind": "screenshot",
                "path": "steps/pay/screenshot.png",
                "contentType": "image/png",
                "sizeBytes": 2048,
                "stepId": "pay",
            }
        ],
    },
    "compare_planners": {
        "corpusVersion": "2026.1",
        "appIds": ["todo-mvc"],
        "planners": [CLAUDE, GPT],
        "repetitions": 2,
    },
}


def test_every_operation_has_a_valid_call_in_this_table() -> None:
    assert sorted(VALID_ARGUMENTS) == sorted(OPERATIONS)


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_an_operations_contracts_are_real_contracts(name: str) -> None:
    operation = OPERATIONS[name]

    assert operation.input_contract in contract_names()
    assert operation.output_contract in contract_names()


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_the_valid_call_satisfies_the_operations_input_contract(name: str) -> None:
    assert check(OPERATIONS[name].input_contract, VALID_ARGUMENTS[name]) == []


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_a_valid_calls_output_satisfies_the_operations_output_contract(name: str) -> None:
    operation = OPERATIONS[name]

    output = operation.run(VALID_ARGUMENTS[name])

    assert check(operation.output_contract, to_document(output)) == []


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_a_valid_call_gives_equal_output_every_time(name: str) -> None:
    run = OPERATIONS[name].run

    assert to_document(run(VALID_ARGUMENTS[name])) == to_document(run(VALID_ARGUMENTS[name]))


@pytest.mark.parametrize("name", sorted(OPERATIONS))
@pytest.mark.parametrize("arguments", [None, [], "x", 1])
def test_arguments_that_are_no_object_are_refused_at_the_root(name: str, arguments: object) -> None:
    with pytest.raises(AutomiumError) as refused:
        OPERATIONS[name].run(arguments)

    assert [(p.code, p.path) for p in refused.value.problems] == [(ErrorCode.INVALID_INPUT, "")]


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_an_unexpected_property_is_refused_at_its_path(name: str) -> None:
    arguments = {**VALID_ARGUMENTS[name], "sneaky": True}

    with pytest.raises(AutomiumError) as refused:
        OPERATIONS[name].run(arguments)

    assert [(p.code, p.path) for p in refused.value.problems] == [
        (ErrorCode.INVALID_INPUT, "/sneaky")
    ]


@pytest.mark.parametrize("app_id", ["shop-max", "Shop Lite", ""])
def test_list_fixtures_of_an_unknown_app_is_refused_with_the_app_ids_allowed(app_id: str) -> None:
    with pytest.raises(AutomiumError) as refused:
        OPERATIONS["list_fixtures"].run({"appId": app_id})

    assert [(p.code, p.path, p.allowed) for p in refused.value.problems] == [
        (ErrorCode.INVALID_APP_ID, "/appId", corpus.app_ids())
    ]


def test_list_fixtures_without_an_app_lists_every_fixture() -> None:
    catalog = OPERATIONS["list_fixtures"].run({})

    assert [f["id"] for f in to_document(catalog)["fixtures"]] == list(corpus.fixture_ids())


def test_list_apps_with_an_extra_property_is_refused_at_that_property() -> None:
    with pytest.raises(AutomiumError) as refused:
        OPERATIONS["list_apps"].run({"extra": 1})

    assert [(p.code, p.path, p.allowed) for p in refused.value.problems] == [
        (ErrorCode.INVALID_INPUT, "/extra", ())
    ]
