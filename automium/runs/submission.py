"""Turn a run request into a modeled submission, bound to the exact journey it runs.

A run names its journey in one of two ways: ``journeyId`` alone names a reference journey
of the corpus, or ``journey`` carries the journey itself (``journeyId`` then repeats its
id), checked exactly as ``automium_compile_journey`` checks it. The run id is a digest of
the corpus version, the journey ref (a content digest of the journey), the planner and the
environment profile: an edited journey gets a new run id, and the same journey, planner and
profile always get the same one. The submission reports what the run's modeled timeline
holds (:mod:`automium.runs.timeline`), and the events themselves when asked.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from automium import corpus
from automium.contracts import (
    ErrorCode,
    FailureClass,
    Journey,
    RunSubmission,
    RunSubmissionInput,
    present,
    to_document,
)
from automium.errors import AutomiumError, Problem, quoted
from automium.journeys import (
    CheckedJourney,
    accepted,
    check_journey,
    reference_journeys,
    with_nested_journey,
)
from automium.modeled import modeled
from automium.runs.timeline import timeline
from automium.validation import check, to_model

MAX_EVENTS = 1000
"""Events a submission returns at most: what automium_get_replay_summary takes back."""


def run_id_for(
    journey: CheckedJourney,
    request: RunSubmissionInput,
    failure: tuple[str, FailureClass] | None = None,
) -> str:
    """The run's id: the same journey, planner, profile and injected failure give the same
    id; a failing variant is another run, so it gets an id of its own."""
    canonical = json.dumps(
        [
            corpus.CORPUS_VERSION,
            journey.ref,
            to_document(request.planner),
            request.environment_profile_id,
            *([list(failure)] if failure is not None else []),
        ],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return "run-" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:16]


def create_run_submission(document: object) -> RunSubmission:
    """The modeled submission of ``document`` (raw arguments), or every problem of it."""
    request, given = _checked(document)
    journey = _journey(request, given)
    failure = _failure(request, journey.model)
    run_id = run_id_for(journey, request, failure)
    planner = (request.planner.id, request.planner.vendor, request.planner.model)
    profile = request.environment_profile_id
    modeled_run = timeline(run_id, journey, planner, profile, failure)
    events = modeled_run.events[:MAX_EVENTS] if request.include_events else ()
    left_out = len(modeled_run.events) - len(events) if request.include_events else 0
    return RunSubmission(
        schema_version="automium.run-submission/v1",
        corpus_version=corpus.CORPUS_VERSION,
        run_id=run_id,
        journey_id=journey.id,
        journey_ref=journey.ref,
        app_id=request.app_id,
        fixture_id=request.fixture_id,
        planner=request.planner,
        environment_profile_id=request.environment_profile_id,
        status="modeled",
        artifact_manifest_ref=f"artifacts:run/{run_id}",
        replay_stream_ref=f"replay:run/{run_id}",
        timeline=modeled_run.summary,
        **present(events=list(events) or None, events_left_out=left_out or None),
        modeled=modeled(
            "Modeled run submission: nothing was queued, no worker was leased, and the "
            "timeline is what a run of the journey would record."
        ),
    )


@cache  # the corpus is checked in: its journeys' refs never change while serving
def reference_refs() -> dict[str, str]:
    """Each reference journey's ref, by journey id."""
    return {journey_id: j.ref for journey_id, j in reference_journeys().items()}


def _checked(document: object) -> tuple[RunSubmissionInput, CheckedJourney | None]:
    """The request and its given journey, checked once (as compile checks one), once the
    contract and the corpus accept them; otherwise every problem at once."""
    nested = document.get("journey") if isinstance(document, dict) else None
    walked = check_journey(nested) if isinstance(nested, dict) else None
    problems = with_nested_journey(
        check("run-submission-input.v1", document, corpus.vocabularies()), document, walked
    )
    if problems:
        raise AutomiumError(problems)
    request = to_model(RunSubmissionInput, document)
    found = [
        corpus.app_problem(request.app_id, "/appId"),
        corpus.fixture_problem(request.fixture_id, request.app_id, "/fixtureId"),
        corpus.profile_problem(request.environment_profile_id, "/environmentProfileId"),
    ]
    if any(found):
        raise AutomiumError(p for p in found if p is not None)
    _profile_fits(request)
    given = (
        accepted(nested, walked, model=request.journey)
        if walked is not None and request.journey is not None
        else None
    )
    return request, given


def _profile_fits(request: RunSubmissionInput) -> None:
    """A profile of another device class than the fixture's (desktop on a phone fixture)
    is refused: the fixture's pages are what its own device shows."""
    fixture = corpus.get_fixture(request.fixture_id, request.app_id)
    wanted = corpus.get_environment_profile(fixture.environment_profile_id)
    asked = corpus.get_environment_profile(request.environment_profile_id)
    if asked.device_class != wanted.device_class:
        raise AutomiumError.single(
            ErrorCode.INVALID_INPUT,
            f"{request.fixture_id} is a {wanted.device_class.value} fixture "
            f"({wanted.id}); a run on {asked.id} ({asked.device_class.value}) would not see "
            "the pages its journeys were checked against",
            "/environmentProfileId",
            [wanted.id],
        )


def _journey(request: RunSubmissionInput, given_journey: CheckedJourney | None) -> CheckedJourney:
    given = request.journey
    if given_journey is not None and given_journey.id == request.journey_id:
        journey = given_journey
    else:
        references = reference_journeys()
        journey_or_none = references.get(request.journey_id) if given is None else None
        if journey_or_none is None:
            raise AutomiumError.single(
                ErrorCode.UNKNOWN_JOURNEY,
                f"{quoted(request.journey_id)} names "
                + (
                    "neither a reference journey nor the journey given in journey (its id is "
                    f"{quoted(given.id)})"
                    if given is not None
                    else "no reference journey"
                )
                + ": name a reference journey by its id (a fixture's referenceJourneyIds), or "
                "pass your journey in journey with journeyId set to its id",
                "/journeyId",
                [given.id] if given is not None else _journeys_of(request.fixture_id),
            )
        journey = journey_or_none
    if (journey.model.app_id, journey.model.fixture_id) != (request.app_id, request.fixture_id):
        # Allowed values are values of the path that agree with the submission: the
        # submission's fixture for a given journey, its fixture's journeys for a named one.
        raise AutomiumError.single(
            ErrorCode.JOURNEY_APP_MISMATCH,
            f"journey {journey.id} runs on {journey.model.fixture_id} of "
            f"{journey.model.app_id}, but the "
            f"submission names {request.fixture_id} of {request.app_id}; give the journey's "
            "app and fixture",
            "/journey/fixtureId" if given is not None else "/journeyId",
            [request.fixture_id] if given is not None else _journeys_of(request.fixture_id),
        )
    return journey


def _journeys_of(fixture_id: str) -> list[str]:
    return [j.id for j in corpus.reference_journeys(fixture_id)]


def _failure(request: RunSubmissionInput, journey: Journey) -> tuple[str, FailureClass] | None:
    if request.failure is None:
        return None
    steps = [step.id for step in journey.steps]
    if request.failure.step_id not in steps:
        raise AutomiumError(
            [
                Problem(
                    ErrorCode.UNKNOWN_STEP,
                    f"{quoted(request.failure.step_id)} is not a step of journey {journey.id}",
                    "/failure/stepId",
                    tuple(steps),
                )
            ]
        )
    return request.failure.step_id, request.failure.failure_class
