"""The comparison's metrics, checked against brute force and exact fractions on small inputs."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from automium.benchmark import Trial, TrialError, k_points, metrics_for, pass_hat_k, wilson_interval
from automium.benchmark.metrics import Z, nearest_rank
from automium.contracts import to_document
from tests.filled import filled


def trial(journey: str, repetition: int, passed: bool, **fields: Any) -> Trial:
    values: dict[str, Any] = {
        "planner_id": "p",
        "app_id": "shop-lite",
        "journey_id": journey,
        "repetition": repetition,
        "passed": passed,
        "latency_ms": 1000,
        "input_tokens": 100,
        "output_tokens": 10,
    }
    return Trial(**{**values, **fields})


def outcomes_as_trials(tasks: Sequence[Sequence[bool]]) -> list[Trial]:
    return [
        trial(f"journey-{t}", r, passed)
        for t, outcomes in enumerate(tasks)
        for r, passed in enumerate(outcomes)
    ]


# --- pass^k ----------------------------------------------------------------------------------


def brute_force_pass_hat_k(tasks: Sequence[Sequence[bool]], k: int) -> Fraction:
    """Every k-subset of every task's trials, counted: the share that all passed, averaged."""
    ratios = []
    for outcomes in tasks:
        subsets = list(itertools.combinations(outcomes, k))
        ratios.append(Fraction(sum(all(s) for s in subsets), len(subsets)))
    return sum(ratios, Fraction(0)) / len(ratios)


@st.composite
def uneven_tasks(draw: st.DrawFn) -> list[list[bool]]:
    return draw(st.lists(st.lists(st.booleans(), min_size=1, max_size=8), min_size=1, max_size=4))


@given(uneven_tasks())
def test_every_point_of_the_pass_hat_k_curve_is_the_brute_force_share(
    tasks: list[list[bool]],
) -> None:
    metrics = metrics_for(outcomes_as_trials(tasks))
    fewest = min(len(t) for t in tasks)

    assert [p.k for p in filled(metrics.pass_hat_k)] == list(range(1, fewest + 1))
    for point in filled(metrics.pass_hat_k):
        assert point.value == round(float(brute_force_pass_hat_k(tasks, point.k)), 4)
    assert metrics.repeatability == filled(metrics.pass_hat_k)[-1].value


@given(uneven_tasks())
def test_pass_hat_k_is_exact_for_every_k_up_to_the_smallest_task(tasks: list[list[bool]]) -> None:
    trials = outcomes_as_trials(tasks)
    for k in range(1, min(len(t) for t in tasks) + 1):
        assert pass_hat_k(trials, k) == brute_force_pass_hat_k(tasks, k)


def test_pass_hat_k_of_a_known_case_is_the_exact_fraction() -> None:
    # Task 1: 3 of 4 passed; task 2: 4 of 4. pass^2 = (C(3,2)/C(4,2) + 1) / 2 = (1/2 + 1) / 2.
    trials = outcomes_as_trials([[True, True, False, True], [True] * 4])

    assert pass_hat_k(trials, 1) == Fraction(7, 8)
    assert pass_hat_k(trials, 2) == Fraction(3, 4)
    assert pass_hat_k(trials, 3) == Fraction(5, 8)  # (1/4 + 1) / 2
    assert pass_hat_k(trials, 4) == Fraction(1, 2)  # (0 + 1) / 2


def test_an_85_percent_planner_keeps_a_graded_curve_instead_of_a_zero() -> None:
    # The coarse old repeatability: pass^k with k = n only; a single failure in 20 made it 0.
    outcomes = [[r not in {7, 13, 19} for r in range(20)]]  # 17 of 20 passed

    curve = {p.k: p.value for p in filled(metrics_for(outcomes_as_trials(outcomes)).pass_hat_k)}

    assert curve == {
        1: 0.85,
        2: round(float(Fraction(math.comb(17, 2), math.comb(20, 2))), 4),
        5: round(float(Fraction(math.comb(17, 5), math.comb(20, 5))), 4),
        10: round(float(Fraction(math.comb(17, 10), math.comb(20, 10))), 4),
        20: 0.0,
    }


def test_uneven_repetitions_run_the_curve_up_to_the_smallest_task() -> None:
    metrics = metrics_for(outcomes_as_trials([[True] * 5, [True, False, True]]))

    assert [p.k for p in filled(metrics.pass_hat_k)] == [1, 2, 3]
    assert metrics.repeatability == round(float(Fraction(1 + 0, 2)), 4)  # pass^3: (1 + 0) / 2


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, [1]),
        (3, [1, 2, 3]),
        (10, list(range(1, 11))),
        (11, [1, 2, 5, 10, 11]),
        (20, [1, 2, 5, 10, 20]),
        (37, [1, 2, 5, 10, 20, 37]),
        (100, [1, 2, 5, 10, 20, 50, 100]),
        (1000, [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]),
    ],
)
def test_k_runs_one_by_one_up_to_ten_then_log_spaced_ending_at_n(
    n: int, expected: list[int]
) -> None:
    assert k_points(n) == expected


@pytest.mark.parametrize("k", [0, 3])
def test_pass_hat_k_is_undefined_for_k_below_one_or_above_a_tasks_trials(k: int) -> None:
    with pytest.raises(TrialError):
        pass_hat_k(outcomes_as_trials([[True, True]]), k)


# --- the Wilson interval ---------------------------------------------------------------------


@given(
    st.integers(min_value=1, max_value=400).flatmap(
        lambda n: st.tuples(st.integers(0, n), st.just(n))
    )
)
def test_the_wilson_bounds_solve_the_score_equation(case: tuple[int, int]) -> None:
    passed, n = case
    low, high = wilson_interval(passed, n)
    p = Fraction(passed, n)

    # Both bounds are roots of (p - x)^2 = z^2 x (1 - x) / n, with low <= p <= high.
    for bound in (low, high):
        assert abs((float(p) - bound) ** 2 - Z * Z * bound * (1 - bound) / n) < 1e-9
    assert 0.0 <= low <= float(p) <= high <= 1.0


@pytest.mark.parametrize(
    ("passed", "trials", "expected"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857, table I: 81/263 and 15/148.
        (81, 263, (0.2553, 0.3662)),
        (15, 148, (0.0624, 0.1605)),
        # All or nothing: one bound is exact, the other z^2 / (n + z^2) from it.
        (0, 10, (0.0, 0.2775)),
        (10, 10, (0.7225, 1.0)),
        (0, 1, (0.0, 0.7935)),
    ],
)
def test_the_wilson_interval_matches_published_values(
    passed: int, trials: int, expected: tuple[float, float]
) -> None:
    low, high = wilson_interval(passed, trials)

    assert (round(low, 4), round(high, 4)) == expected


def test_the_interval_in_the_metrics_names_its_method_and_confidence() -> None:
    document = to_document(metrics_for(outcomes_as_trials([[True] * 8 + [False] * 2])))

    assert document["passRateInterval"] == {
        "method": "wilson",
        "confidence": 0.95,
        "low": 0.4902,
        "high": 0.9433,
    }


# --- latency, steps, tokens, recovery --------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "p50", "p90"),
    [
        ([5], 5, 5),
        ([1, 2], 1, 2),
        ([10, 20, 30, 40], 20, 40),
        (list(range(1, 11)), 5, 9),
        (list(range(1, 101)), 50, 90),
    ],
)
def test_latency_percentiles_are_nearest_rank(values: list[int], p50: int, p90: int) -> None:
    assert (nearest_rank(values, 50), nearest_rank(values, 90)) == (p50, p90)

    latency = metrics_for(
        trial("j", i, True, latency_ms=v) for i, v in enumerate(reversed(values))
    ).latency_ms
    assert latency is not None
    assert (latency.method, latency.p50, latency.p90) == ("nearest-rank", p50, p90)


def test_step_success_is_steps_completed_over_steps_attempted() -> None:
    trials = [
        trial("j", 0, True, steps_completed=5, steps_total=5),  # 5 of 5
        trial("j", 1, False, steps_completed=2, steps_total=5, failing_step="s3"),  # 2 of 3
        trial("j", 2, False, steps_completed=5, steps_total=5, failing_step="s5"),  # 5 of 5
    ]

    assert metrics_for(trials).step_success_rate == round(12 / 13, 4)


def test_step_success_is_null_when_a_trial_has_no_step_counts() -> None:
    trials = [trial("j", 0, True, steps_completed=5, steps_total=5), trial("j", 1, True)]

    document = to_document(metrics_for(trials))

    assert document["stepSuccessRate"] is None


def test_tokens_per_success_spends_failed_trials_tokens_on_the_successes() -> None:
    trials = [
        trial("j", 0, True, input_tokens=100, output_tokens=10),
        trial("j", 1, False, input_tokens=300, output_tokens=30),
        trial("j", 2, True, input_tokens=200, output_tokens=20),
    ]

    metrics = metrics_for(trials)

    assert (filled(metrics.tokens).total, metrics.tokens_per_trial, metrics.tokens_per_success) == (
        660,
        220.0,
        330.0,
    )


def test_without_a_success_tokens_per_success_is_null_not_infinite() -> None:
    document = to_document(metrics_for([trial("j", 0, False), trial("j", 1, False)]))

    assert document["tokensPerSuccess"] is None
    assert document["tokensPerTrial"] == 110.0


def test_recovery_success_rate_counts_trials_that_tried_and_passed() -> None:
    trials = [
        trial("j", 0, True, recovery_attempts=1),
        trial("j", 1, False, recovery_attempts=2),
        trial("j", 2, True, recovery_attempts=1),
        trial("j", 3, True),
    ]

    metrics = metrics_for(trials)

    assert (metrics.recovery_attempts, metrics.recovery_success_rate) == (3, round(2 / 3, 4))


def test_the_recovery_success_rate_is_null_not_absent_when_no_trial_tried_recovery() -> None:
    document = to_document(metrics_for([trial("j", 0, True), trial("j", 1, False)]))

    assert "recoverySuccessRate" in document
    assert document["recoverySuccessRate"] is None
    assert document["recoveryAttempts"] == 0


def test_no_trials_give_counts_of_zero_and_null_for_every_rate() -> None:
    assert to_document(metrics_for([])) == {
        "trials": 0,
        "passed": 0,
        "journeys": 0,
        "passRate": None,
        "passRateInterval": None,
        "passHatK": [],
        "repeatability": None,
        "stepSuccessRate": None,
        "latencyMs": None,
        "tokens": {"input": 0, "output": 0, "total": 0},
        "tokensPerTrial": None,
        "tokensPerSuccess": None,
        "recoveryAttempts": 0,
        "recoverySuccessRate": None,
    }


@pytest.mark.parametrize(
    "fields",
    [
        {"latency_ms": -1},
        {"input_tokens": -1},
        {"recovery_attempts": -1},
        {"failing_step": "s1"},  # on a passed trial
        {"passed": False, "failing_lane": "executor"},  # a lane without its step
        {"steps_completed": 3},  # without its total
        {"steps_completed": 6, "steps_total": 5},
        {"steps_completed": 4, "steps_total": 5},  # a passed trial with steps left
    ],
)
def test_an_inconsistent_trial_is_refused(fields: dict[str, Any]) -> None:
    others = {k: v for k, v in fields.items() if k != "passed"}

    with pytest.raises(TrialError):
        trial("j", 0, fields.get("passed", True), **others)
