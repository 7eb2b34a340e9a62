"""Metrics over trials, from any source: the contract's ``Metrics`` for a set of trials.

Rates and the median are rounded to ``DECIMALS`` places: four decimals are finer than any
difference a comparison of at most a few thousand trials can resolve, and they keep reports
short, readable and stable in snapshot diffs (no float noise in the last digits).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from fractions import Fraction
from math import comb

from automium.benchmark.trials import Trial, TrialError
from automium.contracts import Metrics, TokenSpend, present

DECIMALS = 4

TaskKey = tuple[str, str, str]  # (planner id, app id, journey id)


def task_key(trial: Trial) -> TaskKey:
    """A task of pass^k: one journey of one app, for one planner."""
    return (trial.planner_id, trial.app_id, trial.journey_id)


def pass_hat_k(trials: Iterable[Trial], k: int) -> Fraction:
    """pass^k as in tau-bench: the mean over tasks of C(c, k) / C(n, k), exactly.

    C(c, k) / C(n, k) is the chance that k of a task's n trials, drawn without replacement,
    all passed (``math.comb`` is 0 when c < k). No trials give 0.

    Raises :class:`TrialError` when ``k`` < 1 or a task has fewer than ``k`` trials, where the
    ratio is undefined.
    """
    if k < 1:
        raise TrialError(f"pass^k needs k >= 1, got {k}")
    counts: dict[TaskKey, list[int]] = {}
    for trial in trials:
        tally = counts.setdefault(task_key(trial), [0, 0])
        tally[0] += 1
        tally[1] += trial.passed
    short = [key for key, (n, _) in counts.items() if n < k]
    if short:
        raise TrialError(f"pass^{k} needs at least {k} trials per task; too few for {short}")
    if not counts:
        return Fraction(0)
    total = sum((Fraction(comb(c, k), comb(n, k)) for n, c in counts.values()), Fraction(0))
    return total / len(counts)


def metrics_for(trials: Iterable[Trial], repetitions: int) -> Metrics:
    """The contract's metrics over ``trials``, with pass^k for k = ``repetitions``.

    An empty set gives zero counts and zero rates. ``recoverySuccessRate`` is left out when
    no trial tried recovery, as the contract asks (a rate over nothing is not 0).
    """
    chosen = list(trials)
    count = len(chosen)
    passed = sum(t.passed for t in chosen)
    attempts = sum(t.recovery_attempted for t in chosen)
    recovered = sum(t.recovered for t in chosen)
    input_tokens = sum(t.input_tokens for t in chosen)
    output_tokens = sum(t.output_tokens for t in chosen)
    median = statistics.median(t.latency_ms for t in chosen) if chosen else 0
    return Metrics(
        trials=count,
        passed=passed,
        pass_rate=_rounded(passed / count if count else 0.0),
        repeatability=_rounded(pass_hat_k(chosen, repetitions)),
        median_latency_ms=_rounded(median),
        tokens=TokenSpend(
            input=input_tokens, output=output_tokens, total=input_tokens + output_tokens
        ),
        recovery_attempts=attempts,
        **present(recovery_success_rate=_rounded(recovered / attempts) if attempts else None),
    )


def _rounded(value: float | Fraction) -> float:
    return round(float(value), DECIMALS)
