"""Recorded trials: the same metric code on observed outcomes, labelled recorded, with a
null wherever the records cannot support a metric, and inconsistent records refused."""

from __future__ import annotations

from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from automium.benchmark import run_trials
from automium.capabilities import COMPARE_PLANNERS
from automium.contracts import BenchmarkReport, PlannerReference, to_document
from automium.errors import AutomiumError
from automium.validation import check
from tests.answers import answered
from tests.filled import filled

CLAUDE = {"id": "claude", "vendor": "anthropic", "model": "claude-sonnet-4"}
GPT = {"id": "gpt", "vendor": "openai", "model": "gpt-5"}
LLAMA = {"id": "llama", "vendor": "local", "model": "llama-70b"}


def record(
    planner: str, journey: str, repetition: int, passed: bool, **fields: Any
) -> dict[str, Any]:
    return {
        "plannerId": planner,
        "appId": "shop-lite",
        "journeyId": journey,
        "repetition": repetition,
        "passed": passed,
        "latencyMs": 1000 * (repetition + 1),
        "inputTokens": 1000,
        "outputTokens": 100,
        "recoveryAttempts": 0,
        **fields,
    }


# claude: 3 of 4 on checkout (one recovered), 2 of 2 on search; gpt: 1 of 3 on checkout only.
RECORDS = [
    record("claude", "checkout", 0, True, stepsCompleted=6, stepsTotal=6),
    record(
        "claude",
        "checkout",
        1,
        False,
        failingStep="pay",
        failingLane="executor",
        stepsCompleted=5,
        stepsTotal=6,
    ),
    record("claude", "checkout", 2, True, recoveryAttempts=1, stepsCompleted=6, stepsTotal=6),
    record("claude", "checkout", 3, True, stepsCompleted=6, stepsTotal=6),
    record("claude", "search", 0, True, stepsCompleted=3, stepsTotal=3),
    record("claude", "search", 1, True, stepsCompleted=3, stepsTotal=3),
    record("gpt", "checkout", 0, False, failingStep="pay", inputTokens=500, outputTokens=50),
    record("gpt", "checkout", 1, True, inputTokens=500, outputTokens=50),
    record("gpt", "checkout", 2, False, recoveryAttempts=2, inputTokens=500, outputTokens=50),
]


def compare(trials: list[dict[str, Any]], **overrides: Any) -> BenchmarkReport:
    """The tool as tools/call runs it (limits, contract, corpus, domain), minus MCP framing."""
    arguments = {
        "corpusVersion": "2026.1",
        "appIds": ["shop-lite"],
        "planners": [CLAUDE, GPT],
        "repetitions": 3,
        "trials": trials,
        **overrides,
    }
    return answered(COMPARE_PLANNERS, arguments)


def refusal(trials: list[dict[str, Any]], **overrides: Any) -> list[tuple[str, str]]:
    with pytest.raises(AutomiumError) as caught:
        compare(trials, **overrides)
    return [(p.code.value, p.path) for p in caught.value.problems]


def metrics(report: BenchmarkReport, planner: str) -> dict[str, Any]:
    found: dict[str, Any] = next(
        to_document(p)["metrics"] for p in report.planners if p.planner.id == planner
    )
    return found


# --- the report --------------------------------------------------------------------------------


def test_a_recorded_report_matches_its_snapshot_and_its_contract(
    snapshot_json: SnapshotAssertion,
) -> None:
    document = to_document(compare(RECORDS))

    assert check("benchmark-report.v1", document) == []
    assert document == snapshot_json


def test_a_recorded_report_is_labelled_recorded_and_says_what_was_observed() -> None:
    report = compare(RECORDS)

    assert report.source.value == "recorded"
    assert report.modeled is None
    assert report.recorded is not None
    recorded = to_document(report.recorded)
    assert (recorded["recorded"], recorded["executed"]) == (True, False)
    assert recorded["observed"] == [
        "passed",
        "latencyMs",
        "inputTokens",
        "outputTokens",
        "recoveryAttempts",
        "failingStep",
        "failingLane",
        "stepsCompleted",
        "stepsTotal",
    ]
    assert recorded["notObserved"] == []
    assert "Failing step given for 2 of 3 failed trial(s), its lane for 1" in recorded["notice"]
    assert "Step counts given for 6 of 9 trial(s)" in recorded["notice"]
    assert [(j.journey_id, j.origin.value, j.steps) for j in filled(report.journeys)] == [
        ("checkout", "recorded", 6),
        ("search", "recorded", 3),
    ]
    line = COMPARE_PLANNERS.summarize(to_document(report))
    assert "9 recorded trials" in line
    assert line.endswith("nothing ran here.")


def test_recorded_metrics_are_exact() -> None:
    claude = metrics(compare(RECORDS), "claude")

    assert claude["trials"] == 6
    assert claude["passed"] == 5
    assert claude["journeys"] == 2
    assert claude["passRate"] == 0.8333
    # checkout: 3 of 4, search: 2 of 2; pass^1 = (3/4 + 1) / 2, pass^2 = (C(3,2)/C(4,2) + 1) / 2
    assert claude["passHatK"] == [{"k": 1, "value": 0.875}, {"k": 2, "value": 0.75}]
    assert claude["repeatability"] == 0.75
    assert claude["stepSuccessRate"] == round(29 / 30, 4)  # 6+5+6+6+3+3 of 6+6+6+6+3+3
    assert claude["latencyMs"] == {"method": "nearest-rank", "p50": 2000.0, "p90": 4000.0}
    assert claude["tokensPerSuccess"] == 1320.0  # 6 x 1100 / 5
    assert (claude["recoveryAttempts"], claude["recoverySuccessRate"]) == (1, 1.0)


def test_uneven_repetitions_run_pass_hat_k_up_to_the_smallest_n_of_a_journey() -> None:
    report = compare(RECORDS)

    assert [p["k"] for p in metrics(report, "claude")["passHatK"]] == [1, 2]  # search has 2
    assert [p["k"] for p in metrics(report, "gpt")["passHatK"]] == [1, 2, 3]
    assert report.repetitions == 2  # the fewest trials of any planner's journey


def test_a_metric_the_records_cannot_support_is_null() -> None:
    gpt = metrics(compare(RECORDS), "gpt")

    assert gpt["stepSuccessRate"] is None  # no step counts
    assert gpt["passRate"] == 0.3333
    assert gpt["recoverySuccessRate"] == 0.0

    nothing = metrics(compare([r for r in RECORDS if not r["passed"]]), "gpt")
    assert nothing["tokensPerSuccess"] is None  # no success
    assert nothing["recoverySuccessRate"] == 0.0


def test_the_pareto_mark_leaves_out_a_planner_without_a_success() -> None:
    report = compare(
        [*RECORDS, record("llama", "checkout", 0, False)], planners=[CLAUDE, GPT, LLAMA]
    )
    marks = {
        p.planner.id: (p.pareto_optimal, to_document(p)["dominatedBy"]) for p in report.planners
    }

    assert marks == {"claude": (True, []), "gpt": (False, ["claude"]), "llama": (None, [])}
    assert report.verdict.summary.endswith("left out without a success: llama.")


def test_a_planner_without_records_is_left_out_of_the_verdict() -> None:
    report = compare([r for r in RECORDS if r["plannerId"] == "claude"])

    gpt = metrics(report, "gpt")
    assert (gpt["trials"], gpt["passRate"], gpt["passHatK"], gpt["latencyMs"]) == (
        0,
        None,
        [],
        None,
    )
    assert to_document(report.verdict)["best"] == ["claude"]
    assert report.verdict.separable is None  # only one planner has trials


def test_failing_steps_come_from_the_records_with_a_null_lane_when_not_recorded() -> None:
    report = compare(RECORDS)

    listed = {
        p.planner.id: [to_document(f) for f in filled(p.failing_steps)] for p in report.planners
    }
    assert listed == {
        "claude": [
            {
                "appId": "shop-lite",
                "journeyId": "checkout",
                "stepId": "pay",
                "lane": "executor",
                "failures": 1,
            }
        ],
        "gpt": [
            {
                "appId": "shop-lite",
                "journeyId": "checkout",
                "stepId": "pay",
                "lane": None,
                "failures": 1,
            }
        ],
    }


def test_modeled_trials_fed_back_as_records_give_the_same_metrics_and_standing() -> None:
    planners = [PlannerReference(**p) for p in (CLAUDE, GPT)]
    modeled = answered(
        COMPARE_PLANNERS,
        {
            "corpusVersion": "2026.1",
            "appIds": ["bank-sandbox"],
            "planners": [CLAUDE, GPT],
            "repetitions": 6,
        },
    )
    records = [
        {
            "plannerId": t.planner_id,
            "appId": t.app_id,
            "journeyId": t.journey_id,
            "repetition": t.repetition,
            "passed": t.passed,
            "latencyMs": t.latency_ms,
            "inputTokens": t.input_tokens,
            "outputTokens": t.output_tokens,
            "recoveryAttempts": t.recovery_attempts,
            **({} if t.failing_step is None else {"failingStep": t.failing_step}),
            **({} if t.failing_lane is None else {"failingLane": t.failing_lane}),
            "stepsCompleted": t.steps_completed,
            "stepsTotal": t.steps_total,
        }
        for t in run_trials(planners, ["bank-sandbox"], 6)
    ]

    recorded = compare(records, appIds=["bank-sandbox"])

    executed_only = {"decisionLatencyMs", "failuresByClass"}  # recorded reports alone
    assert [
        {k: v for k, v in to_document(p).items() if k not in executed_only}
        for p in recorded.planners
    ] == [to_document(p) for p in modeled.planners]
    assert [(p.decision_latency_ms, p.failures_by_class) for p in recorded.planners] == [
        (None, []),
        (None, []),
    ]
    # The same trials for both planners, recorded or modeled: tied, neither ahead. Only the
    # summary differs: a modeled one says why it cannot rank.
    same = {"best", "tied", "overlapping", "separable", "paretoFrontier"}
    assert {k: v for k, v in to_document(recorded.verdict).items() if k in same} == {
        k: v for k, v in to_document(modeled.verdict).items() if k in same
    }


# --- refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changed", "expected"),
    [
        ({"plannerId": "mistral"}, ("unknown_planner", "/trials/1/plannerId")),
        ({"appId": "todo-mvc"}, ("app_not_compared", "/trials/1/appId")),
        ({"appId": "gmail"}, ("invalid_app_id", "/trials/1/appId")),
        ({"repetition": 0}, ("duplicate_trial", "/trials/1/repetition")),
        ({"failingStep": "pay"}, ("inconsistent_trial", "/trials/1/failingStep")),  # passed
        (
            {"passed": False, "failingLane": "executor"},
            ("inconsistent_trial", "/trials/1/failingLane"),
        ),
        ({"stepsCompleted": 3}, ("inconsistent_trial", "/trials/1/stepsCompleted")),
        ({"stepsTotal": 3}, ("inconsistent_trial", "/trials/1/stepsTotal")),
        (
            {"stepsCompleted": 4, "stepsTotal": 3},
            ("inconsistent_trial", "/trials/1/stepsCompleted"),
        ),
        (
            {"stepsCompleted": 2, "stepsTotal": 3},
            ("inconsistent_trial", "/trials/1/stepsCompleted"),
        ),
        ({"latencyMs": -1}, ("invalid_input", "/trials/1/latencyMs")),
    ],
    ids=[
        "planner not in planners",
        "app not in appIds",
        "app not in the corpus",
        "duplicate trial",
        "failing step on a passed trial",
        "lane without a step",
        "steps completed without a total",
        "a total without steps completed",
        "more steps completed than the total",
        "a passed trial with steps left",
        "negative latency",
    ],
)
def test_an_inconsistent_record_is_refused_with_its_own_code(
    changed: dict[str, Any], expected: tuple[str, str]
) -> None:
    second = {**record("claude", "checkout", 1, True), **changed}
    records = [record("claude", "checkout", 0, True), second]

    assert refusal(records, appIds=["shop-lite", "admin-console"]) == [expected]


def test_a_journey_recorded_under_two_apps_is_refused() -> None:
    records = [
        record("claude", "checkout", 0, True),
        record("gpt", "checkout", 0, True, appId="todo-mvc"),
    ]

    assert refusal(records, appIds=["shop-lite", "todo-mvc"]) == [
        ("journey_app_conflict", "/trials/1/appId")
    ]


def test_a_reference_journey_recorded_under_another_app_is_refused() -> None:
    records = [record("claude", "shop-lite.buy-one-mug", 0, True, appId="todo-mvc")]

    with pytest.raises(AutomiumError) as caught:
        compare(records, appIds=["shop-lite", "todo-mvc"])

    (problem,) = caught.value.problems
    assert (problem.code.value, problem.path, problem.allowed) == (
        "journey_app_conflict",
        "/trials/0/appId",
        ("shop-lite",),
    )


def test_a_journey_with_two_step_totals_is_refused() -> None:
    records = [
        record("claude", "checkout", 0, True, stepsCompleted=6, stepsTotal=6),
        record("gpt", "checkout", 0, True, stepsCompleted=5, stepsTotal=5),
    ]

    assert refusal(records) == [("inconsistent_trial", "/trials/1/stepsTotal")]


def test_every_inconsistent_record_is_reported_at_once() -> None:
    records = [
        record("claude", "checkout", 0, True),
        record("mistral", "checkout", 0, True),
        record("claude", "checkout", 0, True),
        record("gpt", "checkout", 0, True, appId="todo-mvc"),
    ]

    assert refusal(records) == [
        ("unknown_planner", "/trials/1/plannerId"),
        ("duplicate_trial", "/trials/2/repetition"),
        ("app_not_compared", "/trials/3/appId"),
    ]


def test_an_unknown_planner_refusal_lists_the_planners_compared() -> None:
    with pytest.raises(AutomiumError) as caught:
        compare([record("mistral", "checkout", 0, True)])

    assert caught.value.problems[0].allowed == ("claude", "gpt")


def test_more_than_a_thousand_records_are_refused() -> None:
    records = [record("claude", "checkout", r, True) for r in range(1001)]

    assert refusal(records) == [("limit_exceeded", "")]


def test_a_trial_of_a_reference_journey_failing_at_no_step_of_it_is_refused() -> None:
    records = [record("claude", "shop-lite.buy-one-mug", 0, False, failingStep="refund")]

    assert refusal(records) == [("unknown_step", "/trials/0/failingStep")]


def test_a_trial_of_a_reference_journey_with_another_step_count_is_refused() -> None:
    records = [
        record("claude", "shop-lite.buy-one-mug", 0, True, stepsCompleted=9, stepsTotal=9),
        record("gpt", "shop-lite.buy-one-mug", 0, True, stepsCompleted=6, stepsTotal=6),
    ]

    assert refusal(records) == [("inconsistent_trial", "/trials/0/stepsTotal")]
