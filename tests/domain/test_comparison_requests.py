"""What compare refuses in a request, with each problem's code and path, and what a trial's
numbers are drawn from (its seed, the planner's traits).

The report, its metrics and its verdict are tested in the other ``test_comparison*`` files.
"""

from __future__ import annotations

from typing import Any

import pytest

from automium import corpus
from automium.benchmark import REPETITIONS_CAP, report_document, trial_seed
from automium.benchmark import simulation as planner_model
from automium.contracts import ErrorCode, bundled_schema
from tests.cases import COMPARE, GPT, PLANNER, refusal, refused


def request(**overrides: Any) -> dict[str, Any]:
    return {**COMPARE, **overrides}


# The contract's problems come first: the corpus is consulted only for a request the
# contract accepts, so a request with both is told its contract problems alone.
@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        (
            {"corpusVersion": "2025.1"},
            [(ErrorCode.UNSUPPORTED_CORPUS_VERSION, "/corpusVersion")],
        ),
        (
            {"appIds": ["shop-lite", "no-such-app"]},
            [(ErrorCode.INVALID_APP_ID, "/appIds/1")],
        ),
        (
            {"appIds": ["todo-mvc", "todo-mvc"]},
            [(ErrorCode.INVALID_INPUT, "/appIds")],
        ),
        (
            {"planners": [PLANNER, GPT, {**GPT, "model": "gpt-4.1"}]},
            [(ErrorCode.INVALID_INPUT, "/planners/2/id")],
        ),
        (
            {"repetitions": REPETITIONS_CAP + 1},
            [(ErrorCode.LIMIT_EXCEEDED, "/repetitions")],
        ),
        (
            {
                "corpusVersion": "2027.1",
                "appIds": ["nope", "shop-lite", "also-nope"],
                "planners": [PLANNER, PLANNER],
            },
            [  # AutomiumError orders problems by path
                (ErrorCode.INVALID_APP_ID, "/appIds/0"),
                (ErrorCode.INVALID_APP_ID, "/appIds/2"),
                (ErrorCode.UNSUPPORTED_CORPUS_VERSION, "/corpusVersion"),
                (ErrorCode.INVALID_INPUT, "/planners/1/id"),
            ],
        ),
        (
            {"appIds": ["nope"], "repetitions": 1_000_000},
            [(ErrorCode.LIMIT_EXCEEDED, "/repetitions")],
        ),
    ],
    ids=[
        "unsupported corpus version",
        "unknown app id",
        "duplicate app id",
        "duplicate planner id",
        "too many repetitions",
        "every corpus problem at once",
        "contract problems before corpus problems",
    ],
)
def test_a_bad_request_is_refused_with_each_problem_code_and_path(
    overrides: dict[str, Any], expected: list[tuple[ErrorCode, str]]
) -> None:
    assert refusal(report_document, request(**overrides)) == expected


def test_refusals_name_what_is_allowed_for_the_corpus_version_and_app_ids() -> None:
    problems = refused(report_document, request(corpusVersion="2025.1", appIds=["no-such-app"]))

    allowed = {p.path: p.allowed for p in problems}
    assert allowed == {"/corpusVersion": ("2026.1",), "/appIds/0": corpus.app_ids()}


@pytest.mark.parametrize("field", ["id", "vendor", "model"])
def test_a_blank_planner_field_is_malformed_planner_metadata(field: str) -> None:
    document = request(planners=[PLANNER, {**GPT, field: "  "}])

    assert refusal(report_document, document) == [
        (ErrorCode.MALFORMED_PLANNER_METADATA, f"/planners/1/{field}")
    ]


def test_the_repetition_cap_is_the_contracts_maximum() -> None:
    schema = bundled_schema("compare-planners-input.v1")

    assert schema["$defs"]["Repetitions"]["maximum"] == REPETITIONS_CAP
    report = report_document(request(repetitions=REPETITIONS_CAP))
    assert report["repetitions"] == REPETITIONS_CAP


# --- what a trial is drawn from --------------------------------------------------------------

SEED_INPUTS: dict[str, Any] = {
    "corpus_version": "2026.1",
    "journey_id": "todo-mvc.add-two-todos",
    "planner_id": "gpt",
    "vendor": "openai",
    "model": "gpt-5",
    "repetition": 0,
}


def test_every_repetition_index_has_its_own_seed() -> None:
    seeds = {trial_seed(**{**SEED_INPUTS, "repetition": r}) for r in range(1000)}

    assert len(seeds) == 1000


@pytest.mark.parametrize("field", sorted(SEED_INPUTS))
def test_the_seed_changes_with_each_of_its_inputs(field: str) -> None:
    changed = {**SEED_INPUTS, field: 1 if field == "repetition" else SEED_INPUTS[field] + "x"}

    assert trial_seed(**SEED_INPUTS) != trial_seed(**changed)


def test_planner_traits_come_from_vendor_and_model_not_from_the_planner_id() -> None:
    one = planner_model.planner_profile("a", "Anthropic", "claude-sonnet-4")
    two = planner_model.planner_profile("b", " anthropic", "CLAUDE-SONNET-4 ")
    other = planner_model.planner_profile("a", "openai", "gpt-5")

    assert (one.skill, one.speed, one.verbosity) == (two.skill, two.speed, two.verbosity)
    assert (one.skill, one.speed, one.verbosity) != (other.skill, other.speed, other.verbosity)
