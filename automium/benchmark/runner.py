"""Enumerate the trials of a modeled comparison and draw each one from the planner model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

from automium import corpus
from automium.benchmark.simulation import model_trials, modeled_planner
from automium.benchmark.step_hazards import JourneyProfile, journey_profile
from automium.benchmark.trials import Trial
from automium.contracts import PlannerReference
from automium.journeys import reference_journey


@cache
def app_journeys(app_id: str) -> tuple[JourneyProfile, ...]:
    """Every reference journey of every fixture of the app, in corpus order (the corpus is
    checked in, so each app's profiles are built once)."""
    return tuple(
        journey_profile(reference_journey(journey.id))
        for fixture in corpus.fixtures(app_id)
        for journey in corpus.reference_journeys(fixture.id)
    )


def run_trials(
    planners: Sequence[PlannerReference],
    app_ids: Sequence[str],
    repetitions: int,
    journeys: Mapping[str, Sequence[JourneyProfile]] | None = None,
) -> list[Trial]:
    """Planners x apps x journeys x repetitions, nested in that order.

    ``journeys`` gives an app's journeys when it has its own; the others run their reference
    journeys. Takes checked input: no repetition cap is applied here (``report_document``
    applies it), so callers that measure or replay larger runs can reuse the enumeration.
    """
    given = journeys or {}
    compared = {app_id: given.get(app_id) or app_journeys(app_id) for app_id in app_ids}
    # One set of trials for every planner: a model cannot tell planners apart, so a modeled
    # comparison must not rank them by what their names hash to.
    shared = [
        trial
        for app_id in app_ids
        for journey in compared[app_id]
        for trial in model_trials(corpus.CORPUS_VERSION, modeled_planner(), journey, repetitions)
    ]
    return [trial._replace(planner_id=planner.id) for planner in planners for trial in shared]
