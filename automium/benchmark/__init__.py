"""Benchmark runner: trials -> metrics -> planner comparison report.

``trials`` holds the one record the metrics read; ``step_hazards`` reads each journey's
hazards off its pages; ``simulation``, the planner model, draws modeled trials from them
deterministically; ``recorded`` checks and converts recorded trials; ``runner`` enumerates
a modeled comparison's trials; ``metrics`` aggregates any trials (modeled or recorded);
``verdict`` weighs the planners; ``planners`` reads planner references as a person types
them; ``report`` checks a request and assembles the report.
"""

from automium.benchmark.metrics import k_points, metrics_for, pass_hat_k, wilson_interval
from automium.benchmark.planners import parse_planners, planner_id
from automium.benchmark.report import (
    MAX_JOURNEYS,
    NOTICE,
    REPETITIONS_CAP,
    normalized_repetitions,
    report_document,
    request_problems,
)
from automium.benchmark.runner import app_journeys, run_trials
from automium.benchmark.simulation import ASSUMPTIONS, trial_seed
from automium.benchmark.trials import Trial, TrialError

__all__ = [
    "ASSUMPTIONS",
    "MAX_JOURNEYS",
    "NOTICE",
    "REPETITIONS_CAP",
    "Trial",
    "TrialError",
    "app_journeys",
    "k_points",
    "metrics_for",
    "normalized_repetitions",
    "parse_planners",
    "pass_hat_k",
    "planner_id",
    "report_document",
    "request_problems",
    "run_trials",
    "trial_seed",
    "wilson_interval",
]
