"""Benchmark runner: modeled trials -> metrics -> planner comparison report."""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from automium import corpus
from automium.benchmark import (
    ASSUMPTIONS,
    REPETITIONS_CAP,
    Trial,
    TrialError,
    compare_planners,
    metrics_for,
    pass_hat_k,
    request_problems,
    run_trials,
    trial_seed,
)
from automium.benchmark import model as planner_model
from automium.contracts import (
    BenchmarkReport,
    ComparePlannersInput,
    ErrorCode,
    PlannerReference,
    bundled_schema,
    to_document,
)
from tests.cases import COMPARE, GPT, PLANNER, refusal, refused


def request(**overrides: Any) -> ComparePlannersInput:
    return ComparePlannersInput.model_validate({**COMPARE, **overrides})


def journey_count(app_ids: Sequence[str]) -> int:
    return sum(
        len(corpus.reference_journeys(f.id)) for app_id in app_ids for f in corpus.fixtures(app_id)
    )


def trial(
    journey: str,
    repetition: int,
    passed: bool,
    latency_ms: int,
    *,
    tokens: tuple[int, int] = (100, 10),
    recovery: tuple[bool, bool] = (False, False),
    planner: str = "recorded",
    app: str = "shop-lite",
) -> Trial:
    return Trial(
        planner_id=planner,
        app_id=app,
        journey_id=journey,
        repetition=repetition,
        passed=passed,
        latency_ms=latency_ms,
        input_tokens=tokens[0],
        output_tokens=tokens[1],
        recovery_attempted=recovery[0],
        recovered=recovery[1],
    )


# --- the report ------------------------------------------------------------------------------


def test_the_report_counts_every_planner_app_journey_and_repetition_in_the_given_order() -> None:
    report = compare_planners(request(appIds=["todo-mvc", "shop-lite"], planners=[GPT, PLANNER]))

    assert report.trial_count == 2 * journey_count(["todo-mvc", "shop-lite"]) * 3
    assert [p.planner.id for p in report.planners] == ["gpt", PLANNER["id"]]
    for planner in report.planners:
        assert [a.app_id for a in planner.apps] == ["todo-mvc", "shop-lite"]
        assert planner.metrics.trials == sum(a.metrics.trials for a in planner.apps)
    assert report.modeled.modeled is True
    assert report.modeled.executed is False


def test_the_largest_comparison_runs_every_trial_of_five_apps_and_eight_planners() -> None:
    planners = [{"id": f"p{i}", "vendor": f"vendor-{i % 3}", "model": f"m{i}"} for i in range(8)]
    apps = list(corpus.app_ids())

    report = compare_planners(request(appIds=apps, planners=planners, repetitions=100))

    assert len(apps) == 5
    assert report.trial_count == 8 * journey_count(apps) * 100


@pytest.mark.parametrize("repetitions", [0, -5, 1])
def test_repetitions_below_one_count_as_one(repetitions: int) -> None:
    report = compare_planners(request(repetitions=repetitions))

    assert report.repetitions == 1
    assert report.trial_count == 2 * journey_count(["shop-lite", "todo-mvc"])
    assert to_document(report) == to_document(compare_planners(request(repetitions=1)))


# --- refusals --------------------------------------------------------------------------------


# Values the contract already refuses at the edge (a 101st repetition) can only reach the
# domain in a model built in code; ``unchecked`` fields are set without validation.
@pytest.mark.parametrize(
    ("overrides", "unchecked", "expected"),
    [
        (
            {"corpusVersion": "2025.1"},
            {},
            [(ErrorCode.UNSUPPORTED_CORPUS_VERSION, "/corpusVersion")],
        ),
        (
            {"appIds": ["shop-lite", "no-such-app"]},
            {},
            [(ErrorCode.INVALID_APP_ID, "/appIds/1")],
        ),
        (
            {"appIds": ["todo-mvc", "todo-mvc"]},
            {},
            [(ErrorCode.INVALID_INPUT, "/appIds/1")],
        ),
        (
            {"planners": [PLANNER, GPT, {**GPT, "model": "gpt-4.1"}]},
            {},
            [(ErrorCode.INVALID_INPUT, "/planners/2/id")],
        ),
        (
            {},
            {"repetitions": 101},
            [(ErrorCode.LIMIT_EXCEEDED, "/repetitions")],
        ),
        (
            {
                "corpusVersion": "2027.1",
                "appIds": ["nope", "shop-lite", "also-nope"],
                "planners": [PLANNER, PLANNER],
            },
            {"repetitions": 1_000_000},
            [  # AutomiumError orders problems by path
                (ErrorCode.INVALID_APP_ID, "/appIds/0"),
                (ErrorCode.INVALID_APP_ID, "/appIds/2"),
                (ErrorCode.UNSUPPORTED_CORPUS_VERSION, "/corpusVersion"),
                (ErrorCode.INVALID_INPUT, "/planners/1/id"),
                (ErrorCode.LIMIT_EXCEEDED, "/repetitions"),
            ],
        ),
    ],
    ids=[
        "unsupported corpus version",
        "unknown app id",
        "duplicate app id",
        "duplicate planner id",
        "too many repetitions",
        "every problem at once",
    ],
)
def test_a_bad_request_is_refused_with_each_problem_code_and_path(
    overrides: dict[str, Any],
    unchecked: dict[str, Any],
    expected: list[tuple[ErrorCode, str]],
) -> None:
    assert refusal(compare_planners, request(**overrides).model_copy(update=unchecked)) == expected


def test_refusals_name_what_is_allowed_for_the_corpus_version_and_app_ids() -> None:
    problems = refused(compare_planners, request(corpusVersion="2025.1", appIds=["no-such-app"]))

    allowed = {p.path: p.allowed for p in problems}
    assert allowed == {"/corpusVersion": ("2026.1",), "/appIds/0": corpus.app_ids()}


@pytest.mark.parametrize("field", ["id", "vendor", "model"])
def test_a_blank_planner_field_is_malformed_planner_metadata(field: str) -> None:
    # The contract already forbids blanks, so the model has to be built without validation.
    blank = PlannerReference.model_construct(None, **{**GPT, field: "  "})
    req = request().model_copy(update={"planners": [PlannerReference(**PLANNER), blank]})

    assert [(p.code, p.path) for p in request_problems(req)] == [
        (ErrorCode.MALFORMED_PLANNER_METADATA, f"/planners/1/{field}")
    ]
    assert refusal(compare_planners, req) == [
        (ErrorCode.MALFORMED_PLANNER_METADATA, f"/planners/1/{field}")
    ]


def test_the_repetition_cap_is_the_contracts_maximum() -> None:
    schema = bundled_schema("compare-planners-input.v1")

    assert schema["$defs"]["Repetitions"]["maximum"] == REPETITIONS_CAP
    assert compare_planners(request(repetitions=REPETITIONS_CAP)).repetitions == REPETITIONS_CAP


# --- pass^k ----------------------------------------------------------------------------------


def brute_force_pass_hat_k(tasks: Sequence[Sequence[bool]], k: int) -> Fraction:
    ratios = []
    for outcomes in tasks:
        subsets = list(itertools.combinations(outcomes, k))
        ratios.append(Fraction(sum(all(s) for s in subsets), len(subsets)))
    return sum(ratios, Fraction(0)) / len(ratios)


@st.composite
def tasks_and_k(draw: st.DrawFn) -> tuple[list[list[bool]], int]:
    tasks = draw(st.lists(st.lists(st.booleans(), min_size=1, max_size=7), min_size=1, max_size=4))
    k = draw(st.integers(min_value=1, max_value=min(len(t) for t in tasks)))
    return tasks, k


@given(tasks_and_k())
def test_pass_hat_k_equals_the_share_of_all_passing_k_subsets_averaged_over_tasks(
    case: tuple[list[list[bool]], int],
) -> None:
    tasks, k = case
    trials = [
        trial(f"journey-{t}", r, passed, 1000)
        for t, outcomes in enumerate(tasks)
        for r, passed in enumerate(outcomes)
    ]

    assert pass_hat_k(trials, k) == brute_force_pass_hat_k(tasks, k)


def test_pass_hat_k_tells_the_same_journey_of_different_planners_apart() -> None:
    trials = [
        trial("j", 0, True, 1, planner="a"),
        trial("j", 1, True, 1, planner="a"),
        trial("j", 0, False, 1, planner="b"),
        trial("j", 1, True, 1, planner="b"),
    ]

    assert pass_hat_k(trials, 2) == Fraction(1, 2)


@pytest.mark.parametrize("k", [0, 3])
def test_pass_hat_k_is_undefined_for_k_below_one_or_above_a_tasks_trials(k: int) -> None:
    with pytest.raises(TrialError):
        pass_hat_k([trial("j", 0, True, 1), trial("j", 1, True, 1)], k)


# --- metrics from recorded trials ------------------------------------------------------------


def test_metrics_of_recorded_trials_are_exact() -> None:
    trials = [
        trial("j1", 0, True, 1000, tokens=(100, 10)),
        trial("j1", 1, False, 3000, tokens=(300, 30), recovery=(True, False)),
        trial("j2", 0, True, 2000, tokens=(200, 20), recovery=(True, True)),
        trial("j2", 1, True, 4000, tokens=(400, 40)),
    ]

    assert to_document(metrics_for(trials, 2)) == {
        "trials": 4,
        "passed": 3,
        "passRate": 0.75,
        "repeatability": 0.5,
        "medianLatencyMs": 2500.0,
        "tokens": {"input": 1000, "output": 100, "total": 1100},
        "recoveryAttempts": 2,
        "recoverySuccessRate": 0.5,
    }


def test_rates_are_rounded_to_four_decimals() -> None:
    trials = [
        trial("j", 0, True, 10, recovery=(True, True)),
        trial("j", 1, True, 20),
        trial("j", 2, False, 31, recovery=(True, False)),
        trial("j", 3, False, 40, recovery=(True, False)),
        trial("j", 4, True, 50),
        trial("j", 5, True, 60),
    ]

    metrics = metrics_for(trials, 2)

    assert metrics.pass_rate == 0.6667
    assert metrics.repeatability == 0.4  # C(4,2)/C(6,2) = 6/15
    assert metrics.recovery_success_rate == 0.3333
    assert metrics.median_latency_ms == 35.5


def test_the_recovery_success_rate_is_absent_when_no_trial_tried_recovery() -> None:
    trials = [trial("j", 0, True, 700), trial("j", 1, False, 900)]

    document = to_document(metrics_for(trials, 1))

    assert document["recoveryAttempts"] == 0
    assert "recoverySuccessRate" not in document
    assert document["medianLatencyMs"] == 800.0


def test_no_trials_give_zero_metrics() -> None:
    assert to_document(metrics_for([], 3)) == {
        "trials": 0,
        "passed": 0,
        "passRate": 0.0,
        "repeatability": 0.0,
        "medianLatencyMs": 0.0,
        "tokens": {"input": 0, "output": 0, "total": 0},
        "recoveryAttempts": 0,
    }


@pytest.mark.parametrize(
    "fields",
    [
        {"recovered": True, "recovery_attempted": False, "passed": True},
        {"recovered": True, "recovery_attempted": True, "passed": False},
        {"latency_ms": -1},
        {"input_tokens": -1},
    ],
)
def test_an_inconsistent_recorded_trial_is_refused(fields: dict[str, Any]) -> None:
    base = trial("j", 0, True, 100)
    values = {name: getattr(base, name) for name in Trial.__dataclass_fields__}

    with pytest.raises(TrialError):
        Trial(**{**values, **fields})


# --- determinism and the model ---------------------------------------------------------------


def test_the_same_request_twice_gives_the_same_report() -> None:
    assert to_document(compare_planners(request())) == to_document(compare_planners(request()))


def test_every_repetition_index_has_its_own_seed() -> None:
    seeds = {
        trial_seed(
            corpus_version="2026.1",
            journey_id="shop-lite.buy-one-mug",
            planner_id="claude",
            vendor="anthropic",
            model="claude-sonnet-4",
            repetition=repetition,
        )
        for repetition in range(1000)
    }

    assert len(seeds) == 1000


@pytest.mark.parametrize(
    "field", ["corpus_version", "journey_id", "planner_id", "vendor", "model", "repetition"]
)
def test_the_seed_changes_with_each_of_its_inputs(field: str) -> None:
    inputs: dict[str, Any] = {
        "corpus_version": "2026.1",
        "journey_id": "todo-mvc.add-two-todos",
        "planner_id": "gpt",
        "vendor": "openai",
        "model": "gpt-5",
        "repetition": 0,
    }
    changed = {**inputs, field: 1 if field == "repetition" else inputs[field] + "x"}

    assert trial_seed(**inputs) != trial_seed(**changed)


def test_a_trial_depends_on_its_own_seed_only_so_more_repetitions_extend_fewer() -> None:
    planners = [PlannerReference(**PLANNER)]

    three = run_trials(planners, ["bank-sandbox"], 3)
    five = run_trials(planners, ["bank-sandbox"], 5)

    assert [t for t in five if t.repetition < 3] == three


def test_planner_traits_come_from_vendor_and_model_not_from_the_planner_id() -> None:
    one = planner_model.planner_profile("a", "Anthropic", "claude-sonnet-4")
    two = planner_model.planner_profile("b", " anthropic", "CLAUDE-SONNET-4 ")
    other = planner_model.planner_profile("a", "openai", "gpt-5")

    assert (one.skill, one.speed, one.verbosity) == (two.skill, two.speed, two.verbosity)
    assert (one.skill, one.speed, one.verbosity) != (other.skill, other.speed, other.verbosity)


def test_every_assumption_in_the_report_is_stated_in_the_models_docstring() -> None:
    docstring = " ".join((inspect.getdoc(planner_model) or "").split())
    report: BenchmarkReport = compare_planners(request(repetitions=1))

    assert [a.root for a in report.modeled.assumptions or []] == list(ASSUMPTIONS)
    for assumption in ASSUMPTIONS:
        assert " ".join(assumption.split()) in docstring
