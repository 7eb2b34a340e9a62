"""``automium_compare_planners``: check the request, get its trials, report metrics and verdict.

Trials come from one of two sources, and everything after that is the same code:

- modeled: the planner model runs every planner on every journey of every app (its own
  journeys when the request gives some for it, else its reference journeys), ``repetitions``
  times; the report carries a ``modeled`` block with the model's assumptions;
- recorded: the request's ``trials``, checked for consistency (:mod:`.recorded`); the report
  carries a ``recorded`` block saying what was observed and what not.

The request is checked in one pass, as compile checks a journey: its contract, every given
journey exactly as ``automium_compile_journey`` checks it (paths under ``/journeys/<i>``),
then the domain rules; every problem is reported at once, before any trial runs.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from automium import corpus
from automium.benchmark.executed import executed_fields, executed_metrics
from automium.benchmark.metrics import Sums, tallies
from automium.benchmark.recorded import notice, observed, record_problems, recorded_trials
from automium.benchmark.runner import app_journeys, run_trials
from automium.benchmark.simulation import ASSUMPTIONS
from automium.benchmark.step_hazards import JourneyProfile, journey_profile
from automium.benchmark.trials import Trial
from automium.benchmark.verdict import (
    modeled_verdict_document,
    pareto,
    standings,
    verdict_document,
)
from automium.contracts import (
    ComparePlannersInput,
    ErrorCode,
    Journey,
    Origin,
    PlannerReference,
    Recorded,
    RecordedTrial,
    Source,
    present,
    to_document,
)
from automium.errors import AutomiumError, Problem, pointer, pointer_key, quoted
from automium.journeys import CheckedJourney, accepted, check_journey
from automium.journeys.checking import Checked
from automium.modeled import modeled
from automium.validation import check, to_model

# Bounds the work of one call (the contract's maximum too): 5 apps x 8 planners x 19
# reference journeys x 100 repetitions is 15,200 modeled trials, well under a second; pass^k
# for k above 100 would round to 0 for any planner that ever fails.
REPETITIONS_CAP = 100
MAX_JOURNEYS = 20
"""Journeys a request may give (the contract's maxItems): checking one walks its pages."""
FAILING_STEPS_LISTED = 5
"""Failing steps a planner report lists (the contract's maxItems)."""

Document = dict[str, Any]

NOTICE = (
    "Modeled comparison: trials come from Automium's deterministic planner model, run on "
    "the steps and pages of each journey; no planner API was called."
)


def normalized_repetitions(repetitions: int) -> int:
    """Values below 1 count as 1, as the contract says."""
    return max(1, repetitions)


def request_problems(request: ComparePlannersInput) -> list[Problem]:
    """Everything the domain refuses in ``request``, beyond what its contract already checks.

    Blank planner fields and duplicate app ids are refused again because a model can be
    built without validation; the rest (corpus version, app ids, distinct planner ids, the
    repetition cap, the apps of given journeys, the consistency of recorded trials) the
    contract cannot express or leaves to the domain. Given journeys are checked against the
    corpus by :func:`report_document`, which has their documents.
    """
    problems: list[Problem] = []
    if request.corpus_version != corpus.CORPUS_VERSION:
        problems.append(
            Problem(
                ErrorCode.UNSUPPORTED_CORPUS_VERSION,
                f"corpus version {quoted(request.corpus_version)} is not supported; "
                f"use {quoted(corpus.CORPUS_VERSION)}",
                "/corpusVersion",
                (corpus.CORPUS_VERSION,),
            )
        )
    app_ids = [app.root for app in request.app_ids]
    problems += _app_problems(app_ids)
    problems += _planner_problems(request.planners)
    if request.repetitions > REPETITIONS_CAP:
        problems.append(
            Problem(
                ErrorCode.LIMIT_EXCEEDED,
                f"{request.repetitions} repetitions is above the limit of {REPETITIONS_CAP}",
                "/repetitions",
            )
        )
    if request.journeys is not None:
        problems += _journey_problems(request.journeys, app_ids)
    if request.trials is not None:
        if request.journeys is not None:
            problems.append(
                Problem(
                    ErrorCode.INVALID_INPUT,
                    "give journeys (to model trials of them) or trials (to report recorded "
                    "outcomes), not both",
                    "/trials",
                )
            )
        ids = [p.id for p in request.planners]
        problems += record_problems(request.trials, ids, app_ids)
    return problems


def report_document(document: object) -> dict[str, Any]:
    """The comparison report of ``document`` (the arguments of a call) as its
    ``benchmark-report.v1`` document, built directly: a report holds some 70 small models,
    and building them only to dump them again was a third of a small comparison.

    Raises :class:`AutomiumError` with every problem of the request before any trial runs.
    """
    request, checked = _checked(document)
    app_ids = [app.root for app in request.app_ids]
    if request.trials is not None:
        trials = recorded_trials(request.trials)
        report = _report(
            request,
            trials,
            journeys=_recorded_journeys(trials, app_ids),
            repetitions=min(n for n, _ in tallies(trials).values()),
            source=Source.RECORDED,
            marker={"recorded": to_document(_recorded(trials, request.trials))},
        )
        for planner in report["planners"]:
            planner.update(executed_metrics(request.trials, planner["planner"]["id"]))
        return report
    repetitions = normalized_repetitions(request.repetitions)
    given = _given_profiles(checked)
    return _report(
        request,
        run_trials(request.planners, app_ids, repetitions, given),
        journeys=_modeled_journeys(app_ids, given),
        repetitions=repetitions,
        source=Source.MODELED,
        marker={"modeled": _modeled_block()},
    )


def _modeled_block() -> Document:
    # The same block in every modeled report: dumped once, copied per report (an answer's
    # documents are its own); its values are strings and booleans, and one list of strings.
    return {k: list(v) if isinstance(v, list) else v for k, v in _modeled_dump().items()}


@cache
def _modeled_dump() -> Document:
    return to_document(modeled(NOTICE, ASSUMPTIONS))


def _report(
    request: ComparePlannersInput,
    trials: Sequence[Trial],
    *,
    journeys: list[Document],
    repetitions: int,
    source: Source,
    marker: Mapping[str, Any],
) -> Document:
    app_ids = [app.root for app in request.app_ids]
    reports = _planner_documents(request.planners, app_ids, trials)
    ranked = standings([(r["planner"]["id"], r["metrics"]) for r in reports])
    marks = pareto(ranked)
    for report in reports:  # the Pareto mark: None when left out (no success)
        dominators = marks.get(report["planner"]["id"])
        report["paretoOptimal"] = None if dominators is None else not dominators
        report["dominatedBy"] = dominators or []
        report["failingSteps"] = report.pop("failingSteps")  # the contract's order
    return {
        "schemaVersion": "automium.benchmark-report/v1",
        "corpusVersion": corpus.CORPUS_VERSION,
        "source": source.value,
        "repetitions": repetitions,
        "appIds": app_ids,
        "journeys": journeys,
        "trialCount": len(trials),
        "planners": reports,
        "verdict": (
            modeled_verdict_document(ranked, marks)
            if source is Source.MODELED
            else verdict_document(ranked, marks)
        ),
        **marker,
    }


def _planner_documents(
    planners: Sequence[PlannerReference], app_ids: Sequence[str], trials: Sequence[Trial]
) -> list[Document]:
    """Per planner (in the given order) and per app (in ``app_ids`` order), from any
    trials; the Pareto mark is left for :func:`_report`, which needs every planner's."""
    by_pair: defaultdict[tuple[str, str], list[Trial]] = defaultdict(list)
    for trial in trials:
        by_pair[(trial.planner_id, trial.app_id)].append(trial)
    reports = []
    for planner in planners:
        per_app = [by_pair[(planner.id, app_id)] for app_id in app_ids]
        sums = [Sums().add(app) for app in per_app]
        reports.append(
            {
                "planner": to_document(planner),
                "metrics": Sums.merged(sums).document(),
                "apps": [
                    {"appId": app_id, "metrics": app.document()}
                    for app_id, app in zip(app_ids, sums, strict=True)
                ],
                "failingSteps": _failing_steps([t for app in per_app for t in app]),
            }
        )
    return reports


def _failing_steps(trials: Sequence[Trial]) -> list[Document]:
    """Where trials ended failed, most failures first (ties in the order first seen)."""
    counts = Counter(
        (t.app_id, t.journey_id, t.failing_step, t.failing_lane)
        for t in trials
        if not t.passed and t.failing_step is not None
    )
    ranked = sorted(counts.items(), key=lambda item: -item[1])[:FAILING_STEPS_LISTED]
    return [
        {"appId": app, "journeyId": journey, "stepId": step, "lane": lane, "failures": count}
        for (app, journey, step, lane), count in ranked
    ]


# -- checking ---------------------------------------------------------------------------------


def _checked(document: object) -> tuple[ComparePlannersInput, list[CheckedJourney]]:
    """The request and each given journey checked (once, as compile checks it), once
    everything accepts them."""
    problems: dict[str, Problem] = {}
    walks: list[Checked] = []
    given = document.get("journeys") if isinstance(document, dict) else None
    if isinstance(given, list) and len(given) <= MAX_JOURNEYS:
        # Compile's problems first: they know the journey's app (its routes, its pages).
        for index, journey in enumerate(given):
            checked = check_journey(journey)
            walks.append(checked)
            at = pointer("journeys", index)
            for problem in checked.problems:
                problems.setdefault(at + problem.path, _under(problem, at))
    for problem in check("compare-planners-input.v1", document, corpus.vocabularies()):
        problems.setdefault(problem.path, problem)
    if problems:
        raise AutomiumError(sorted(problems.values(), key=lambda p: pointer_key(p.path)))
    request = to_model(ComparePlannersInput, document)
    found = request_problems(request)
    if found:
        raise AutomiumError(found)
    journeys = request.journeys or []
    assert isinstance(given, list) or not journeys  # the models were built from it
    return request, [
        accepted(document, walked, model=model)
        for document, walked, model in zip(given or [], walks, journeys, strict=True)
    ]


def _under(problem: Problem, at: str) -> Problem:
    return Problem(problem.code, problem.message, at + problem.path, problem.allowed)


def _journey_problems(journeys: Sequence[Journey], app_ids: Sequence[str]) -> list[Problem]:
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for index, journey in enumerate(journeys):
        if journey.app_id not in app_ids:
            problems.append(
                Problem(
                    ErrorCode.APP_NOT_COMPARED,
                    f"journey {journey.id} runs on {journey.app_id}, which is not in appIds; "
                    "add the app there, or leave the journey out",
                    pointer("journeys", index, "appId"),
                    tuple(app_ids),
                )
            )
        if journey.id in seen:
            problems.append(
                Problem(
                    ErrorCode.INVALID_INPUT,
                    f"journey id {quoted(journey.id)} is also the id of journey "
                    f"{seen[journey.id]}; give every journey its own id",
                    pointer("journeys", index, "id"),
                )
            )
        seen.setdefault(journey.id, index)
    return problems


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


# -- journeys ---------------------------------------------------------------------------------


def _given_profiles(journeys: Sequence[CheckedJourney]) -> dict[str, list[JourneyProfile]]:
    by_app: dict[str, list[JourneyProfile]] = {}
    for journey in journeys:
        by_app.setdefault(journey.model.app_id, []).append(journey_profile(journey))
    return by_app


def _modeled_journeys(
    app_ids: Sequence[str], given: Mapping[str, Sequence[JourneyProfile]]
) -> list[Document]:
    return [
        {
            "appId": app_id,
            "journeyId": journey.journey_id,
            "origin": (Origin.GIVEN if app_id in given else Origin.REFERENCE).value,
            "steps": len(journey.steps),
        }
        for app_id in app_ids
        for journey in given.get(app_id) or app_journeys(app_id)
    ]


def _recorded_journeys(trials: Sequence[Trial], app_ids: Sequence[str]) -> list[Document]:
    steps: dict[tuple[str, str], int | None] = {}
    for trial in trials:
        key = (trial.app_id, trial.journey_id)
        if steps.get(key) is None:
            steps[key] = trial.steps_total
    order = {app_id: i for i, app_id in enumerate(app_ids)}
    return [
        {
            "appId": app,
            "journeyId": journey,
            "origin": Origin.RECORDED.value,
            **present(steps=total),
        }
        for (app, journey), total in sorted(steps.items(), key=lambda item: order[item[0][0]])
    ]


def _recorded(trials: Sequence[Trial], records: Sequence[RecordedTrial]) -> Recorded:
    held, missing = observed(trials)
    refs = [r.artifact_manifest_ref for r in records if r.artifact_manifest_ref is not None]
    executed = len(refs) == len(records)
    extra = executed_fields(records)
    return Recorded(
        recorded=True,
        executed=executed,
        artifact_manifest_refs=refs,
        notice=notice(trials, executed=executed),
        observed=[*held, *extra],
        not_observed=missing,
    )
