"""The modeled planner comparison: a verdict a reader can trust, trials run step by step."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

from automium import corpus
from automium.benchmark import ASSUMPTIONS, metrics_for, report_document, run_trials
from automium.benchmark import simulation as planner_model
from automium.benchmark.step_hazards import HAZARDS, LANES, journey_profile
from automium.benchmark.trials import Trial
from automium.benchmark.verdict import Standing, dominates, judge, pareto, standings
from automium.capabilities import COMPARE_PLANNERS
from automium.contracts import (
    FailureClass,
    PlannerReference,
    ReplayEvent,
    to_document,
)
from automium.journeys import reference_journey, reference_journeys
from automium.replay.event_reading import digest
from automium.runs.timeline import timeline
from automium.validation import check

CLAUDE = {"id": "claude", "vendor": "anthropic", "model": "claude-sonnet-4"}
GPT = {"id": "gpt", "vendor": "openai", "model": "gpt-5"}
LLAMA = {"id": "llama", "vendor": "local", "model": "llama-70b"}


def request(**overrides: Any) -> dict[str, Any]:
    return {
        "corpusVersion": "2026.1",
        "appIds": ["shop-lite", "todo-mvc"],
        "planners": [CLAUDE, GPT],
        "repetitions": 3,
        **overrides,
    }


def journey_count(app_ids: Sequence[str]) -> int:
    return sum(
        len(corpus.reference_journeys(f.id)) for app_id in app_ids for f in corpus.fixtures(app_id)
    )


# --- the verdict, on planners whose numbers we choose -----------------------------------------


def outcomes(planner: str, passed: int, trials: int, tokens: int = 1000) -> list[Trial]:
    """``passed`` of ``trials`` trials of one journey, ``tokens`` spent in all (input only)."""
    share, extra = divmod(tokens, trials)
    return [
        Trial(
            planner_id=planner,
            app_id="shop-lite",
            journey_id="j",
            repetition=r,
            passed=r < passed,
            latency_ms=1000,
            input_tokens=share + (r < extra),
            output_tokens=0,
        )
        for r in range(trials)
    ]


def verdict_of(*planners: tuple[str, int, int, int]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The verdict (as its document) on planners given as (id, passed, trials, tokens), and
    the Pareto marks."""
    ranked = standings(
        [
            (pid, to_document(metrics_for(outcomes(pid, p, n, tokens))))
            for pid, p, n, tokens in planners
        ]
    )
    marks = pareto(ranked)
    return to_document(judge(ranked, marks)), dict(marks)


def test_planners_tied_on_pass_rate_are_all_named_best() -> None:
    verdict, _ = verdict_of(("a", 9, 10, 900), ("b", 9, 10, 1200), ("c", 5, 10, 900))

    assert (verdict["best"], verdict["tied"]) == (["a", "b"], True)
    assert verdict["summary"].startswith("a and b are tied for the highest pass rate, 90.0%")


def test_a_tie_is_exact_not_a_rounding_accident() -> None:
    # 2/3 and 6667/10000 round alike to four decimals; they are not tied.
    verdict, _ = verdict_of(("a", 2, 3, 300), ("b", 6667, 10000, 1000))

    assert (verdict["best"], verdict["tied"]) == (["b"], False)


def test_overlapping_intervals_are_said_to_be_not_separable_at_this_sample_size() -> None:
    verdict, _ = verdict_of(("a", 9, 10, 900), ("b", 8, 10, 900))

    assert verdict["best"] == ["a"]
    assert (verdict["overlapping"], verdict["separable"]) == (["b"], False)
    assert "Its 95% interval overlaps b's: not separable at this sample size." in verdict["summary"]


def test_a_best_planner_whose_interval_overlaps_no_other_is_separable() -> None:
    verdict, _ = verdict_of(("a", 95, 100, 900), ("b", 50, 100, 900))

    assert (verdict["best"], verdict["overlapping"], verdict["separable"]) == (["a"], [], True)
    assert "overlaps no other planner's: ahead at this sample size" in verdict["summary"]


def test_a_long_pareto_sentence_names_the_dominated_and_leaves_by_whom_to_the_document() -> None:
    verdict, marks = verdict_of(*((f"p{i}", 10 - i, 10, 1000) for i in range(5)))

    assert marks == {f"p{i}": [f"p{j}" for j in range(i)] for i in range(5)}
    assert verdict["summary"].endswith(
        "Pareto-optimal on pass rate vs tokens per success: p0; dominated: p1, p2, p3 and p4 "
        "(dominatedBy says by whom)."
    )


def test_the_summary_names_who_overlaps_and_who_is_behind() -> None:
    verdict, _ = verdict_of(("a", 95, 100, 900), ("b", 93, 100, 900), ("c", 40, 100, 900))

    assert (verdict["overlapping"], verdict["separable"]) == (["b"], False)
    assert (
        "Its 95% interval overlaps b's: not separable at this sample size; it is ahead of c."
        in verdict["summary"]
    )


def test_a_single_planner_is_reported_without_claiming_separation() -> None:
    verdict, _ = verdict_of(("a", 7, 10, 900))

    assert (verdict["best"], verdict["separable"]) == (["a"], None)
    assert verdict["summary"].startswith("Only a has trials: pass rate 70.0% (95% Wilson interval")


def test_the_pareto_mark_keeps_planners_no_other_beats_on_both_pass_rate_and_cost() -> None:
    # tokens per success: a 1000/9 = 111.1, b 500/8 = 62.5, c 2000/7 = 285.7; d never passed.
    verdict, marks = verdict_of(
        ("a", 9, 10, 1000), ("b", 8, 10, 500), ("c", 7, 10, 2000), ("d", 0, 10, 100)
    )

    assert marks == {"a": [], "b": [], "c": ["a", "b"], "d": None}
    assert verdict["paretoFrontier"] == ["a", "b"]
    assert verdict["summary"].endswith(
        "Pareto-optimal on pass rate vs tokens per success: a and b; dominated: c by a and b; "
        "left out without a success: d."
    )


_COUNTS = st.tuples(st.integers(1, 400), st.integers(0, 400), st.integers(0, 10**9)).map(
    lambda t: Standing("p", t[0], min(t[0], t[1]), t[2], 0.0, 1.0)
)


@given(a=_COUNTS, b=_COUNTS)
def test_dominance_is_decided_on_exact_rates_and_costs(a: Standing, b: Standing) -> None:
    # The definition, in exact fractions: pass rate, and tokens per success.
    expected = False
    if a.passed and b.passed:
        rates = Fraction(a.passed, a.trials), Fraction(b.passed, b.trials)
        costs = Fraction(a.tokens, a.passed), Fraction(b.tokens, b.passed)
        better = rates[0] > rates[1] or costs[0] < costs[1]
        expected = rates[0] >= rates[1] and costs[0] <= costs[1] and better
    assert dominates(a, b) is expected


def test_equal_planners_do_not_dominate_each_other() -> None:
    _, marks = verdict_of(("a", 8, 10, 1000), ("b", 8, 10, 1000))

    assert marks == {"a": [], "b": []}


def test_the_report_marks_pareto_exactly_as_its_own_numbers_say() -> None:
    planners = [CLAUDE, GPT, LLAMA, {**GPT, "id": "gpt-again"}]
    report = report_document(request(appIds=["admin-console", "bank-sandbox"], planners=planners))
    ranked = {
        s.planner_id: s
        for s in standings([(p["planner"]["id"], p["metrics"]) for p in report["planners"]])
    }

    for planner in report["planners"]:
        me = ranked[planner["planner"]["id"]]
        expected = [o for o, other in ranked.items() if other is not me and dominates(other, me)]
        assert planner["dominatedBy"] == expected
        assert planner["paretoOptimal"] is (not expected)
    assert report["verdict"]["paretoFrontier"] == [
        p["planner"]["id"] for p in report["planners"] if p["paretoOptimal"]
    ]


def test_the_one_line_summary_of_modeled_trials_ranks_no_planner() -> None:
    report = report_document(request())

    line = COMPARE_PLANNERS.summarize(report)

    assert line == (
        f"Compared 2 planner(s) on 2 app(s), {report['trialCount']} modeled trials, k up to 3: "
        "modeled trials rank no planner; see verdict.summary. "
        "Nothing was executed: no browser was launched and nothing was persisted."
    )
    assert len(line.encode()) <= 200  # the budget of a summary line beside the document


@pytest.mark.parametrize(
    ("best", "tied", "named"),
    [
        (["a"], False, ": best a; "),
        (["a", "b"], True, ": best a, b (tied); "),
        (["a", "b", "c", "d"], True, ": 4 planners tied best; "),
        ([], False, ": no planner has trials; "),
    ],
)
def test_the_one_line_summary_of_recorded_trials_names_the_best(
    best: list[str], tied: bool, named: str
) -> None:
    report = report_document(request())
    report = {
        **report,
        "source": "recorded",
        "verdict": {**report["verdict"], "best": best, "tied": tied},
    }

    assert named in COMPARE_PLANNERS.summarize(report)


# --- the modeled report ----------------------------------------------------------------------


def test_a_report_with_tied_planners_matches_its_snapshot_and_its_contract(
    snapshot_json: SnapshotAssertion,
) -> None:
    document = report_document(
        request(appIds=["helpdesk"], planners=[CLAUDE, GPT, LLAMA], repetitions=4)
    )

    assert document["verdict"]["tied"]
    assert check("benchmark-report.v1", document) == []
    assert document == snapshot_json


def test_every_planner_app_journey_and_repetition_is_a_trial_in_the_given_order() -> None:
    report = report_document(request(appIds=["todo-mvc", "shop-lite"], planners=[GPT, CLAUDE]))

    assert report["source"] == "modeled"
    assert report["trialCount"] == 2 * journey_count(["todo-mvc", "shop-lite"]) * 3
    assert [p["planner"]["id"] for p in report["planners"]] == ["gpt", "claude"]
    assert [(j["appId"], j["origin"]) for j in report["journeys"]] == [
        (j.app_id, "reference")
        for app in ("todo-mvc", "shop-lite")
        for f in corpus.fixtures(app)
        for j in corpus.reference_journeys(f.id)
    ]
    for planner in report["planners"]:
        assert [a["appId"] for a in planner["apps"]] == ["todo-mvc", "shop-lite"]
        assert planner["metrics"]["trials"] == sum(a["metrics"]["trials"] for a in planner["apps"])
        assert [p["k"] for p in planner["metrics"]["passHatK"]] == [1, 2, 3]
    assert "recorded" not in report
    assert report["modeled"]["assumptions"] == list(ASSUMPTIONS)


def test_the_largest_comparison_has_every_trial_and_a_log_spaced_curve() -> None:
    planners = [{"id": f"p{i}", "vendor": f"vendor-{i % 3}", "model": f"m{i}"} for i in range(8)]
    apps = list(corpus.app_ids())

    report = report_document(request(appIds=apps, planners=planners, repetitions=100))

    assert report["trialCount"] == 8 * journey_count(apps) * 100
    assert [p["k"] for p in report["planners"][0]["metrics"]["passHatK"]] == [
        1,
        2,
        5,
        10,
        20,
        50,
        100,
    ]


@pytest.mark.parametrize("repetitions", [0, -5, -1_000_000, 1])
def test_repetitions_below_one_are_normalised_to_one(repetitions: int) -> None:
    report = report_document(request(repetitions=repetitions))

    assert report["repetitions"] == 1
    assert report == report_document(request(repetitions=1))


def test_the_same_request_twice_gives_the_same_report() -> None:
    assert report_document(request()) == report_document(request())


def test_a_trial_depends_on_its_own_seed_only_so_more_repetitions_extend_fewer() -> None:
    planners = [PlannerReference(**CLAUDE)]

    three = run_trials(planners, ["bank-sandbox"], 3)
    five = run_trials(planners, ["bank-sandbox"], 5)

    assert [t for t in five if t.repetition < 3] == three


def test_every_assumption_in_the_report_is_stated_in_the_models_docstring() -> None:
    docstring = " ".join((inspect.getdoc(planner_model) or "").split())

    for assumption in ASSUMPTIONS:
        assert " ".join(assumption.split()) in docstring


# --- trials run the journey's steps ------------------------------------------------------------


def hazards_at(journey_id: str, step_id: str) -> set[str]:
    step = next(
        s for s in journey_profile(reference_journey(journey_id)).steps if s.step_id == step_id
    )
    return {hazard.name for hazard, _ in step.hazards}


@pytest.mark.parametrize(
    ("journey", "step", "expected"),
    [
        ("todo-mvc.clear-completed", "complete-first", {"decision", "ambiguous-name"}),
        ("shop-lite.buy-one-mug", "add", {"decision", "ambiguous-name"}),
        (
            "shop-lite.guest-browse-then-checkout-gate",
            "next-page",
            {"decision", "disabled-look-alike", "assertion"},
        ),
        ("bank-sandbox.locked-account-notice", "hover-help", {"decision", "disabled-look-alike"}),
        ("shop-lite.buy-one-mug", "open-home", {"decision"}),
        ("helpdesk.customer-submits-ticket", "subject", {"decision", "revealed"}),
        ("helpdesk.agent-signs-in", "password", {"decision", "secret-field"}),
        ("admin-console.import-users-csv", "attach-csv", {"decision", "dialog", "file-upload"}),
        (
            "bank-sandbox.transfer-to-savings",
            "enter-code",
            {"decision", "dialog", "one-time-code", "iframe"},
        ),
        (
            "bank-sandbox.locked-customer-signs-in",
            "code",
            {"decision", "revealed", "one-time-code", "iframe"},
        ),
        (
            "bank-sandbox.transfer-to-savings",
            "verify",
            {"decision", "dialog", "iframe", "assertion"},
        ),
    ],
)
def test_a_steps_hazards_come_from_what_its_page_holds(
    journey: str, step: str, expected: set[str]
) -> None:
    assert hazards_at(journey, step) == expected


def test_a_harder_step_fails_more_often_than_a_plain_one() -> None:
    profile = journey_profile(reference_journey("bank-sandbox.transfer-to-savings"))
    plan = planner_model.plan(planner_model.planner_profile("p", "openai", "gpt-5"), profile)
    failure = {
        step.step_id: 1 - plan.survival[i + 1] / plan.survival[i]
        for i, step in enumerate(profile.steps)
    }

    assert failure["enter-code"] > 3 * failure["amount"]
    assert failure["amount"] > failure["open-transfer"]  # a navigate acts on no element


def test_a_failed_trial_names_the_step_it_ended_at_and_a_lane_of_that_steps_hazards() -> None:
    trials = run_trials(
        [PlannerReference(**c) for c in (CLAUDE, GPT, LLAMA)], list(corpus.app_ids()), 20
    )
    failed = [t for t in trials if not t.passed]
    profiles = {j.id: journey_profile(reference_journey(j.id)) for j in corpus.reference_journeys()}

    assert failed
    for trial in failed:
        steps = [s.step_id for s in profiles[trial.journey_id].steps]
        assert trial.failing_step in steps
        assert trial.steps_completed == steps.index(trial.failing_step)
        assert trial.steps_total == len(steps)
        step = profiles[trial.journey_id].steps[steps.index(trial.failing_step)]
        assert trial.failing_lane in {hazard.lane.value for hazard, _ in step.hazards}
    assert all(
        t.failing_step is None and t.steps_completed == t.steps_total for t in trials if t.passed
    )


def test_the_report_lists_each_planners_most_failing_steps() -> None:
    report = report_document(
        request(appIds=list(corpus.app_ids()), planners=[CLAUDE], repetitions=50)
    )
    (planner,) = report["planners"]
    # The steps each runs: a journey that uses another has that one's first.
    journeys = {i: {s["id"] for s in c.document["steps"]} for i, c in reference_journeys().items()}

    counts = [f["failures"] for f in planner["failingSteps"]]
    assert len(counts) == 5
    assert counts == sorted(counts, reverse=True)
    assert sum(counts) <= planner["metrics"]["trials"] - planner["metrics"]["passed"]
    for failing in planner["failingSteps"]:
        assert failing["stepId"] in journeys[failing["journeyId"]]
        assert failing["lane"] is not None


@pytest.mark.parametrize("failure_class", list(LANES))
def test_a_failures_lane_is_the_lane_its_failing_timeline_shows(
    failure_class: FailureClass,
) -> None:
    journey = reference_journey("shop-lite.buy-one-mug")
    modeled = timeline(
        "run-lanes", journey, ("p", "openai", "gpt-5"), "desktop-1280x720", ("add", failure_class)
    )

    found = digest(modeled.verdict, [ReplayEvent.model_validate(e) for e in modeled.events])

    assert found.first_failure is not None
    assert found.first_failure.lane.value == LANES[failure_class].value
    assert found.classification is not None
    assert found.classification.failure_class is failure_class


def test_every_hazard_has_a_lane_and_says_when_it_applies() -> None:
    assert {h.failure_class for h in HAZARDS} <= set(LANES)
    assert len({h.name for h in HAZARDS}) == len(HAZARDS)
    assert all(h.when and h.weight > 0 for h in HAZARDS)
