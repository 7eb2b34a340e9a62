"""``automium_compare_planners``: check the request, run the modeled trials, report metrics."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from automium import corpus
from automium.benchmark.metrics import metrics_for
from automium.benchmark.model import ASSUMPTIONS
from automium.benchmark.runner import run_trials
from automium.benchmark.trials import Trial
from automium.contracts import (
    AppMetrics,
    BenchmarkReport,
    ComparePlannersInput,
    ErrorCode,
    PlannerReference,
    PlannerReport,
)
from automium.errors import AutomiumError, Problem, pointer, quoted
from automium.modeled import modeled

# Bounds the work of one call (the contract's maximum too): 5 apps x 8 planners x 2 journeys
# per app x 100 repetitions is 8,000 modeled trials, well under a second; pass^k for k above
# 100 would round to 0 for any planner that ever fails.
REPETITIONS_CAP = 100

NOTICE = (
    "Modeled comparison: trials come from Automium's deterministic planner model; "
    "no planner API was called."
)


def normalized_repetitions(repetitions: int) -> int:
    """Values below 1 count as 1, as the contract says."""
    return max(1, repetitions)


def request_problems(request: ComparePlannersInput) -> list[Problem]:
    """Everything the domain refuses in ``request``, beyond what its contract already checks.

    Blank planner fields and duplicate app ids are refused again because a model can be
    built without validation; the rest (corpus version, app ids, distinct planner ids, the
    repetition cap) the contract cannot express or leaves to the domain.
    """
    problems: list[Problem] = []
    if request.corpus_version != corpus.CORPUS_VERSION:
        problems.append(
            Problem(
                ErrorCode.UNSUPPORTED_CORPUS_VERSION,
                f"corpus version {quoted(request.corpus_version)} is not supported; "
                f"use {corpus.CORPUS_VERSION!r}",
                "/corpusVersion",
                (corpus.CORPUS_VERSION,),
            )
        )
    problems += _app_problems([app.root for app in request.app_ids])
    problems += _planner_problems(request.planners)
    if request.repetitions > REPETITIONS_CAP:
        problems.append(
            Problem(
                ErrorCode.LIMIT_EXCEEDED,
                f"{request.repetitions} repetitions is above the limit of {REPETITIONS_CAP}",
                "/repetitions",
            )
        )
    return problems


def compare_planners(request: ComparePlannersInput) -> BenchmarkReport:
    """The modeled comparison report of ``request``'s planners on its apps.

    Raises :class:`AutomiumError` with every problem of the request before any trial runs.
    """
    problems = request_problems(request)
    if problems:
        raise AutomiumError(problems)
    repetitions = normalized_repetitions(request.repetitions)
    app_ids = [app.root for app in request.app_ids]
    trials = run_trials(request.planners, app_ids, repetitions)
    return BenchmarkReport(
        schema_version="automium.benchmark-report/v1",
        corpus_version=corpus.CORPUS_VERSION,
        repetitions=repetitions,
        app_ids=app_ids,
        trial_count=len(trials),
        planners=planner_reports(request.planners, app_ids, trials, repetitions),
        modeled=modeled(NOTICE, ASSUMPTIONS),
    )


def planner_reports(
    planners: Sequence[PlannerReference],
    app_ids: Sequence[str],
    trials: Sequence[Trial],
    repetitions: int,
) -> list[PlannerReport]:
    """Per planner (in the given order) and per app (in ``app_ids`` order), from any trials."""
    by_pair: defaultdict[tuple[str, str], list[Trial]] = defaultdict(list)
    for trial in trials:
        by_pair[(trial.planner_id, trial.app_id)].append(trial)
    reports = []
    for planner in planners:
        per_app = [by_pair[(planner.id, app_id)] for app_id in app_ids]
        reports.append(
            PlannerReport(
                planner=planner,
                metrics=metrics_for((t for app in per_app for t in app), repetitions),
                apps=[
                    AppMetrics(app_id=app_id, metrics=metrics_for(app, repetitions))
                    for app_id, app in zip(app_ids, per_app, strict=True)
                ],
            )
        )
    return reports


def _app_problems(app_ids: Sequence[str]) -> list[Problem]:
    problems: list[Problem] = []
    seen: set[str] = set()
    for index, app_id in enumerate(app_ids):
        path = pointer("appIds", index)
        if problem := corpus.app_problem(app_id, path):
            problems.append(problem)
        elif app_id in seen:
            problems.append(
                Problem(ErrorCode.INVALID_INPUT, f"app {quoted(app_id)} is listed twice", path)
            )
        seen.add(app_id)
    return problems


def _planner_problems(planners: Sequence[PlannerReference]) -> list[Problem]:
    problems: list[Problem] = []
    seen: set[str] = set()
    for index, planner in enumerate(planners):
        fields = (("id", planner.id), ("vendor", planner.vendor), ("model", planner.model))
        problems += [
            Problem(
                ErrorCode.MALFORMED_PLANNER_METADATA,
                f"planner {name} must not be blank",
                pointer("planners", index, name),
            )
            for name, value in fields
            if not isinstance(value, str) or not value.strip()
        ]
        if planner.id in seen:
            problems.append(
                Problem(
                    ErrorCode.INVALID_INPUT,
                    f"planner id {quoted(planner.id)} is used twice; planner ids must be distinct",
                    pointer("planners", index, "id"),
                )
            )
        seen.add(planner.id)
    return problems
