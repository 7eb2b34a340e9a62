"""Metrics over trials, from any source: the contract's ``Metrics`` for a set of trials.

Definitions (the report's contract says the same):

- pass rate: passed / trials, with a 95% Wilson score interval (z = the 97.5% quantile of
  the standard normal, 1.95996...): unlike the normal approximation it stays inside [0, 1]
  and keeps its coverage at the 6 to 20 trials per app a comparison typically has;
- pass^k (tau-bench): per task (one journey of one app, for one planner) C(c, k) / C(n, k)
  when c of its n trials passed, averaged over tasks, computed exactly with ``Fraction``; the
  curve takes k = 1..n when n <= 10 and k = 1, 2, 5, 10, 20, 50, ... below n, then n, above
  that, n being the fewest trials of any task, so uneven repetitions run up to the smallest;
  repeatability is pass^n, the curve's last point;
- step success rate: steps completed / steps attempted (Mind2Web's per-step view next to
  task success); null unless every trial knows its step counts;
- latency p50 and p90 by nearest rank (the smallest latency with at least p% of trials at or
  below it: always an observed latency, no interpolation);
- tokens per trial and tokens per success (all tokens, failed trials' included, over the
  passed trials: what one success costs); null without trials or without a success;
- recovery success rate: trials that tried recovery and passed / trials that tried recovery;
  null when none tried.

Rates are rounded to ``DECIMALS`` places: four decimals are finer than any difference a
comparison of at most a few thousand trials can resolve, and they keep reports short and
stable in snapshot diffs. Token averages are rounded to 0.1 token.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from statistics import NormalDist
from typing import Any

from automium.benchmark.trials import Trial, TrialError
from automium.contracts import Metrics

DECIMALS = 4
CONFIDENCE = 0.95
Z = NormalDist().inv_cdf(1 - (1 - CONFIDENCE) / 2)  # 1.959963984540054
_LOG_SPACED = (1, 2, 5)  # the 1-2-5 series: 1, 2, 5, 10, 20, 50, 100, ...
_DENSE_UP_TO = 10

TaskKey = tuple[str, str, str]  # (planner id, app id, journey id)
Tally = tuple[int, int]  # (trials, passed)


def task_key(trial: Trial) -> TaskKey:
    """A task of pass^k: one journey of one app, for one planner."""
    return (trial.planner_id, trial.app_id, trial.journey_id)


def tallies(trials: Iterable[Trial]) -> dict[TaskKey, Tally]:
    """Trials and passes per task, in the order tasks first appear."""
    counts: dict[TaskKey, list[int]] = {}
    for trial in trials:
        tally = counts.setdefault(task_key(trial), [0, 0])
        tally[0] += 1
        tally[1] += trial.passed
    return {key: (n, c) for key, (n, c) in counts.items()}


def pass_hat_k(trials: Iterable[Trial], k: int) -> Fraction:
    """pass^k as in tau-bench: the mean over tasks of C(c, k) / C(n, k), exactly.

    C(c, k) / C(n, k) is the chance that k of a task's n trials, drawn without replacement,
    all passed (``math.comb`` is 0 when c < k). No trials give 0.

    Raises :class:`TrialError` when ``k`` < 1 or a task has fewer than ``k`` trials, where the
    ratio is undefined.
    """
    return _pass_hat_k(tallies(trials), k)


def _pass_hat_k(counts: Mapping[TaskKey, Tally], k: int) -> Fraction:
    if k < 1:
        raise TrialError(f"pass^k needs k >= 1, got {k}")
    short = [key for key, (n, _) in counts.items() if n < k]
    if short:
        raise TrialError(f"pass^{k} needs at least {k} trials per task; too few for {short}")
    if not counts:
        return Fraction(0)
    numerator, denominator = _pass_hat_k_ratio(Counter(counts.values()), k)
    return Fraction(numerator, denominator)


def _pass_hat_k_ratio(tallies: Mapping[Tally, int], k: int) -> tuple[int, int]:
    """pass^k over tasks counted by their tally, as an exact ratio of two integers; every
    task has at least ``k`` trials."""
    # Tasks with the same n share a denominator: sum their numerators as integers first, so a
    # comparison of many tasks adds a handful of ratios instead of one per task.
    numerators: dict[int, int] = {}
    for (n, c), tasks in tallies.items():
        numerators[n] = numerators.get(n, 0) + tasks * math.comb(c, k)
    count = sum(tallies.values())
    if len(numerators) == 1:  # every task has n trials, as in any modeled comparison
        ((n, total),) = numerators.items()
        return total, math.comb(n, k) * count
    mean = sum((Fraction(total, math.comb(n, k)) for n, total in numerators.items()), Fraction(0))
    mean /= count
    return mean.numerator, mean.denominator


def k_points(n: int) -> list[int]:
    """The k of the pass^k curve for tasks of at least ``n`` trials (empty when ``n`` < 1)."""
    if n <= _DENSE_UP_TO:
        return list(range(1, n + 1))
    points: list[int] = []
    scale = 1
    while True:
        for step in _LOG_SPACED:
            if step * scale >= n:
                return [*points, n]
            points.append(step * scale)
        scale *= 10


def wilson_interval(passed: int, trials: int, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval of ``passed`` successes in ``trials`` (unrounded).

    Its bounds are the two p with (passed/trials - p)^2 = z^2 p (1 - p) / trials.
    """
    if trials < 1 or not 0 <= passed <= trials:
        raise TrialError(f"no interval for {passed} of {trials}")
    p = passed / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    center = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    # At 0 or n successes one bound is exact; floats would put it a hair off.
    low = 0.0 if passed == 0 else max(0.0, center - half)
    high = 1.0 if passed == trials else min(1.0, center + half)
    return low, high


def nearest_rank(values: Sequence[int], percent: int) -> int:
    """The ``percent``-th percentile of ``values`` (sorted, non-empty) by nearest rank."""
    rank = max(1, -(-percent * len(values) // 100))  # ceil without floats
    return values[rank - 1]


def metrics_for(trials: Iterable[Trial]) -> Metrics:
    """The contract's metrics over ``trials``; what they cannot support is ``None``."""
    return Metrics.model_validate(Sums().add(trials).document())


@dataclass(slots=True)
class Sums:
    """The running sums metrics are computed from. Sums of disjoint trials merge, so a
    planner's metrics come from its apps' sums without a second pass over its trials (a
    comparison has up to 15,200)."""

    count: int = 0
    passed: int = 0
    tried: int = 0
    recovered: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    completed: int = 0
    attempted: int = 0
    stepped: bool = True
    latencies: list[int] = field(default_factory=list)
    tasks: dict[TaskKey, list[int]] = field(default_factory=dict)  # [trials, passed]

    def add(self, trials: Iterable[Trial]) -> Sums:
        """These sums, with ``trials`` counted in."""
        tasks, latencies = self.tasks, self.latencies
        # A trial is a tuple: unpacked, its fields are read without an attribute lookup each.
        for (
            planner,
            app,
            journey,
            _,
            passed,
            latency,
            inputs,
            outputs,
            tries,
            *_,
            done,
            total,
        ) in trials:
            self.count += 1
            self.passed += passed
            self.input_tokens += inputs
            self.output_tokens += outputs
            latencies.append(latency)
            if tries:
                self.tried += 1
                self.recovered += passed
            if done is None or total is None:  # Trial.steps_attempted, inlined
                self.stepped = False
            else:
                self.completed += done
                self.attempted += total if passed else min(total, done + 1)
            tally = tasks.setdefault((planner, app, journey), [0, 0])
            tally[0] += 1
            tally[1] += passed
        return self

    @classmethod
    def merged(cls, parts: Iterable[Sums]) -> Sums:
        """The sums of all the trials ``parts`` counted."""
        whole = cls()
        for part in parts:
            whole.count += part.count
            whole.passed += part.passed
            whole.tried += part.tried
            whole.recovered += part.recovered
            whole.input_tokens += part.input_tokens
            whole.output_tokens += part.output_tokens
            whole.completed += part.completed
            whole.attempted += part.attempted
            whole.stepped = whole.stepped and part.stepped
            whole.latencies += part.latencies
            for key, (n, c) in part.tasks.items():
                tally = whole.tasks.setdefault(key, [0, 0])
                tally[0] += n
                tally[1] += c
        return whole

    def document(self) -> dict[str, Any]:
        """The metrics as their ``Metrics`` document: exactly what the model dumps to."""
        count, passed, tried = self.count, self.passed, self.tried
        by_tally = Counter((n, c) for n, c in self.tasks.values())
        fewest = min((n for n, _ in by_tally), default=0)
        curve = [
            {"k": k, "value": _ratio(*_pass_hat_k_ratio(by_tally, k))} for k in k_points(fewest)
        ]
        total_tokens = self.input_tokens + self.output_tokens
        stepped = self.stepped and self.attempted
        return {
            "trials": count,
            "passed": passed,
            "journeys": len(self.tasks),
            "passRate": _ratio(passed, count) if count else None,
            "passRateInterval": _interval(passed, count) if count else None,
            "passHatK": curve,
            "repeatability": curve[-1]["value"] if curve else None,
            "stepSuccessRate": _ratio(self.completed, self.attempted) if stepped else None,
            "latencyMs": _latency(sorted(self.latencies)) if count else None,
            "tokens": {
                "input": self.input_tokens,
                "output": self.output_tokens,
                "total": total_tokens,
            },
            "tokensPerTrial": round(total_tokens / count, 1) if count else None,
            "tokensPerSuccess": round(total_tokens / passed, 1) if passed else None,
            "recoveryAttempts": tried,
            "recoverySuccessRate": _ratio(self.recovered, tried) if tried else None,
        }


def _interval(passed: int, trials: int) -> dict[str, object]:
    low, high = wilson_interval(passed, trials)
    return {
        "method": "wilson",
        "confidence": CONFIDENCE,
        "low": _rounded(low),
        "high": _rounded(high),
    }


def _latency(ordered: Sequence[int]) -> dict[str, object]:
    return {
        "method": "nearest-rank",
        "p50": float(nearest_rank(ordered, 50)),  # the contract's numbers are floats
        "p90": float(nearest_rank(ordered, 90)),
    }


def _rounded(value: float | Fraction) -> float:
    return round(float(value), DECIMALS)


def _ratio(numerator: int, denominator: int) -> float:
    # int / int is correctly rounded, as float(Fraction(numerator, denominator)) is: the
    # same float, without building the Fraction.
    return round(numerator / denominator, DECIMALS)
