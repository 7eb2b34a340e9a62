"""Recorded trials: outcomes observed elsewhere, checked for consistency and made ``Trial``s.

A record names its planner, app and journey (any id: recorded runs come from elsewhere), its
repetition and what was observed. The metric code is the modeled one; this module only
refuses records that would make it lie, each with its own code:

===================== ======================================================================
code                  refused record
===================== ======================================================================
unknown_planner       its plannerId is not the id of a planner in ``planners``
app_not_compared      its appId is not in ``appIds`` (``invalid_app_id`` when not a corpus app)
journey_app_conflict  its journey is recorded under another app by an earlier record, or is a
                      reference journey of another app
duplicate_trial       an earlier record has the same planner, journey and repetition
inconsistent_trial    a failing step on a passed trial, a failing lane without a step, step
                      counts apart or out of range, a passed trial with steps left, a
                      journey given two step totals
===================== ======================================================================
"""

from __future__ import annotations

from collections.abc import Sequence

from automium import corpus
from automium.benchmark.trials import Trial
from automium.contracts import ErrorCode, RecordedTrial, to_document
from automium.errors import Problem, pointer, quoted
from automium.journeys.composition import run_step_ids

OPTIONAL_FIELDS = ("failingStep", "failingLane", "stepsCompleted", "stepsTotal")
ALWAYS_OBSERVED = ("passed", "latencyMs", "inputTokens", "outputTokens", "recoveryAttempts")


def record_problems(
    records: Sequence[RecordedTrial], planner_ids: Sequence[str], app_ids: Sequence[str]
) -> list[Problem]:
    """Every problem of ``records`` for a comparison of ``planner_ids`` on ``app_ids``."""
    problems: list[Problem] = []
    reference = {j.id: j.app_id for j in corpus.reference_journeys()}
    # The steps a run performs: a journey that uses another has that one's first.
    reference_steps = {j.id: run_step_ids(to_document(j)) for j in corpus.reference_journeys()}
    first: dict[str, tuple[str, int]] = {}  # journey id -> (app id, index of its first trial)
    seen: dict[tuple[str, str, int], int] = {}
    totals: dict[str, tuple[int, int]] = {}  # journey id -> (steps total, first trial giving it)
    for index, record in enumerate(records):
        at = ("trials", index)
        if record.planner_id not in planner_ids:
            problems.append(
                Problem(
                    ErrorCode.UNKNOWN_PLANNER,
                    f"planner {quoted(record.planner_id)} is not one of planners; record only "
                    "trials of the planners compared",
                    pointer(*at, "plannerId"),
                    tuple(planner_ids),
                )
            )
        journey, app = record.journey_id, record.app_id
        if problem := _app_problem(record, app_ids, pointer(*at, "appId")):
            problems.append(problem)
        elif reference.get(journey, app) != app:
            problems.append(
                Problem(
                    ErrorCode.JOURNEY_APP_CONFLICT,
                    f"{journey} is a reference journey of {reference[journey]}, not of {app}; "
                    "record it under its app, or give your journey another id",
                    pointer(*at, "appId"),
                    (reference[journey],),
                )
            )
        elif first.setdefault(journey, (app, index))[0] != app:
            problems.append(
                Problem(
                    ErrorCode.JOURNEY_APP_CONFLICT,
                    f"journey {quoted(journey)} is recorded under {first[journey][0]} by trial "
                    f"{first[journey][1]} and under {app} here; a journey runs on one app",
                    pointer(*at, "appId"),
                    (first[journey][0],),
                )
            )
        key = (record.planner_id, record.journey_id, record.repetition)
        if key in seen:
            problems.append(
                Problem(
                    ErrorCode.DUPLICATE_TRIAL,
                    f"trials {seen[key]} and {index} are both repetition {record.repetition} "
                    f"of {record.journey_id} by {record.planner_id}; give each repetition once",
                    pointer(*at, "repetition"),
                )
            )
        seen.setdefault(key, index)
        problems += _inconsistencies(record, at)
        if journey in reference_steps:  # its steps are known: the record must agree with them
            problems += _against_reference(record, at, reference_steps[journey])
        elif record.steps_total is not None:
            known = totals.setdefault(journey, (record.steps_total, index))
            if known[0] != record.steps_total:
                problems.append(
                    Problem(
                        ErrorCode.INCONSISTENT_TRIAL,
                        f"journey {quoted(journey)} has {known[0]} steps in trial {known[1]} "
                        f"and {record.steps_total} here; a journey has one step count",
                        pointer(*at, "stepsTotal"),
                        (known[0],),
                    )
                )
    return problems


def _against_reference(
    record: RecordedTrial, at: tuple[str, int], steps: Sequence[str]
) -> list[Problem]:
    """What a trial of a reference journey says that its steps contradict."""
    found = []
    if record.failing_step is not None and record.failing_step not in steps:
        found.append(
            Problem(
                ErrorCode.UNKNOWN_STEP,
                f"failingStep {quoted(record.failing_step)} is no step of reference journey "
                f"{record.journey_id}",
                pointer(*at, "failingStep"),
                tuple(steps),
            )
        )
    if record.steps_total is not None and record.steps_total != len(steps):
        found.append(
            Problem(
                ErrorCode.INCONSISTENT_TRIAL,
                f"stepsTotal is {record.steps_total}, but reference journey "
                f"{record.journey_id} has {len(steps)} steps",
                pointer(*at, "stepsTotal"),
                (len(steps),),
            )
        )
    return found


def _app_problem(record: RecordedTrial, app_ids: Sequence[str], path: str) -> Problem | None:
    if problem := corpus.app_problem(record.app_id, path):
        return problem
    if record.app_id in app_ids:
        return None
    return Problem(
        ErrorCode.APP_NOT_COMPARED,
        f"app {record.app_id} is not in appIds; add it there, or leave its trials out",
        path,
        tuple(app_ids),
    )


def _inconsistencies(record: RecordedTrial, at: tuple[str, int]) -> list[Problem]:
    found: list[tuple[str, str]] = []
    if record.passed and record.failing_step is not None:
        found.append(("failingStep", "a passed trial has no failing step; drop failingStep"))
    if record.failing_lane is not None and record.failing_step is None:
        found.append(("failingLane", "failingLane needs the failingStep it belongs to"))
    completed, total = record.steps_completed, record.steps_total
    if (completed is None) != (total is None):
        field = "stepsCompleted" if completed is not None else "stepsTotal"
        found.append((field, "give stepsCompleted and stepsTotal together, or neither"))
    elif completed is not None and total is not None:
        if completed > total:
            found.append(("stepsCompleted", f"{completed} steps completed of {total}"))
        elif record.passed and completed < total:
            found.append(
                (
                    "stepsCompleted",
                    f"a passed trial completed all {total} steps, not {completed}",
                )
            )
    return [
        Problem(ErrorCode.INCONSISTENT_TRIAL, message, pointer(*at, field))
        for field, message in found
    ]


def recorded_trials(records: Sequence[RecordedTrial]) -> list[Trial]:
    """The records (consistent: :func:`record_problems` found nothing) as trials."""
    return [
        Trial(
            planner_id=r.planner_id,
            app_id=r.app_id,
            journey_id=r.journey_id,
            repetition=r.repetition,
            passed=r.passed,
            latency_ms=r.latency_ms,
            input_tokens=r.input_tokens,
            output_tokens=r.output_tokens,
            recovery_attempts=r.recovery_attempts,
            failing_step=r.failing_step,
            failing_lane=None if r.failing_lane is None else r.failing_lane.value,
            steps_completed=r.steps_completed,
            steps_total=r.steps_total,
        )
        for r in records
    ]


def observed(trials: Sequence[Trial]) -> tuple[list[str], list[str]]:
    """The record fields some trial holds, and the optional ones none holds."""
    held = {
        "failingStep": any(t.failing_step is not None for t in trials),
        "failingLane": any(t.failing_lane is not None for t in trials),
        "stepsCompleted": any(t.steps_completed is not None for t in trials),
        "stepsTotal": any(t.steps_total is not None for t in trials),
    }
    return (
        [*ALWAYS_OBSERVED, *(f for f in OPTIONAL_FIELDS if held[f])],
        [f for f in OPTIONAL_FIELDS if not held[f]],
    )


def notice(trials: Sequence[Trial], *, executed: bool = False) -> str:
    """What the records observed and what they did not, in words."""
    failed = [t for t in trials if not t.passed]
    stepped = [t for t in failed if t.failing_step is not None]
    laned = [t for t in stepped if t.failing_lane is not None]
    counted = [t for t in trials if t.steps_completed is not None]
    given = (
        f"Executed comparison: computed from {len(trials)} trial(s) given in the request, "
        "each naming the run directory (artifactManifestRef) automium run executed it in; "
        "this server ran nothing."
        if executed
        else f"Recorded comparison: computed from {len(trials)} trial(s) given in the request, "
        "observed elsewhere; Automium ran nothing and did not check that they happened."
    )
    parts = [
        given,
        "Observed for every trial: the verdict, latency, input and output tokens and recovery "
        "attempts.",
        f"Failing step given for {len(stepped)} of {len(failed)} failed trial(s), its lane for "
        f"{len(laned)}; failures without one are not listed in failingSteps.",
        f"Step counts given for {len(counted)} of {len(trials)} trial(s)"
        + (
            "."
            if len(counted) == len(trials)
            else "; stepSuccessRate is null where any trial lacks them."
        ),
        "Not observed: the planner's decisions and the pages, so no model assumption applies."
        if not executed
        else "The decisions and pages are in each run's planner transcript and snapshots.",
    ]
    return " ".join(parts)
