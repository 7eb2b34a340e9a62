"""Modeled run submissions: a run is bound to the exact journey it runs, the same journey,
planner and profile always get the same run id and opaque refs, nothing is executed, and
every refusal carries its code, its JSON path and the values that would be accepted there."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from automium import corpus
from automium.capabilities import BY_NAME
from automium.contracts import (
    ErrorCode,
    JourneyCompilation,
    RunSubmission,
    RunSubmissionInput,
    to_document,
)
from automium.journeys import reference_journeys
from automium.runs import run_id_for
from tests.answers import answered
from tests.cases import (
    FAILURE_CLASSES,
    SUBMISSION,
    TOOLS,
    WORKED_EXAMPLE,
    journey_with,
    journey_with_step,
    reference_journey,
    refusal,
    refused,
)
from tests.mutations import Document, Mutation, drop_at, set_at

RUN = BY_NAME["automium_create_run_submission"]
COMPILE = BY_NAME["automium_compile_journey"]
# The reference journeys of the worked example's fixture: what an agent may name instead.
BUYER_JOURNEYS = (
    "shop-lite.buy-one-mug",
    "shop-lite.reorder-from-history",
    "shop-lite.buyer-signs-in",
)


def request(*mutations: Mutation) -> Document:
    document = copy.deepcopy(SUBMISSION)
    for mutate in mutations:
        mutate(document)
    return document


def given(journey: dict[str, Any]) -> Mutation:
    """Pass ``journey`` itself, named by its id (as the contract asks)."""

    def mutate(document: Document) -> None:
        document["journey"] = copy.deepcopy(journey)
        document["journeyId"] = journey["id"]

    return mutate


def submit(document: object) -> RunSubmission:
    submission = answered(RUN, document)
    assert isinstance(submission, RunSubmission)
    return submission


def compiled(journey: dict[str, Any]) -> JourneyCompilation:
    compilation = answered(COMPILE, journey)
    assert isinstance(compilation, JourneyCompilation)
    return compilation


# --- success ----------------------------------------------------------------------------------


def test_a_submission_echoes_the_request_and_the_corpus_version() -> None:
    document = to_document(submit(request()))

    assert {k: document[k] for k in SUBMISSION} == SUBMISSION
    assert document["corpusVersion"] == corpus.CORPUS_VERSION
    assert document["schemaVersion"] == "automium.run-submission/v1"


def test_the_same_request_gets_the_same_run_id_every_time() -> None:
    run_ids = {submit(request()).run_id for _ in range(3)}

    assert len(run_ids) == 1
    (run_id,) = run_ids
    assert re.fullmatch(r"run-[0-9a-f]{16}", run_id)
    assert run_id == run_id_for(
        reference_journeys()[WORKED_EXAMPLE], RunSubmissionInput.model_validate(request())
    )


def test_the_order_of_properties_in_the_request_does_not_change_the_run_id() -> None:
    reordered = dict(reversed(list(request().items())))
    reordered["planner"] = dict(reversed(list(SUBMISSION["planner"].items())))

    assert submit(reordered).run_id == submit(request()).run_id


def test_a_submission_is_bound_to_the_journey_compile_gives_a_ref_to() -> None:
    submission = submit(request())

    assert submission.journey_ref == compiled(reference_journey()).journey_ref
    assert re.fullmatch(
        r"journey:shop-lite\.returning-buyer/shop-lite\.buy-one-mug@[0-9a-f]{20}",
        submission.journey_ref,
    )


def test_a_given_journey_is_bound_by_its_own_ref() -> None:
    journey = journey_with(goal="Buy a mug and see that the order is confirmed")

    submission = submit(request(given(journey)))

    assert submission.journey_ref == compiled(journey).journey_ref
    assert submission.journey_ref != submit(request()).journey_ref


def test_refs_are_opaque_names_of_the_run_never_urls_or_paths() -> None:
    submission = submit(request())

    refs = (submission.artifact_manifest_ref, submission.replay_stream_ref)
    assert refs == (f"artifacts:run/{submission.run_id}", f"replay:run/{submission.run_id}")
    for ref in refs:
        assert "://" not in ref
        assert not ref.startswith("/")
        assert "\\" not in ref


def test_a_submission_says_it_was_modeled_and_nothing_was_executed() -> None:
    submission = submit(request())
    marker = submission.modeled

    # "queued" next to "nothing was queued" contradicted itself (issue 12).
    assert submission.status == "modeled"
    assert (marker.modeled, marker.executed) == (True, False)
    assert marker.notice.strip()


# --- run ids ----------------------------------------------------------------------------------

# Each of what the run id derives from (journey, planner, profile), changed alone. The app
# and the fixture come with the journey: changing them means naming a journey of them.
CHANGES: list[tuple[str, list[Mutation]]] = [
    (
        "another journey of the fixture",
        [set_at("journeyId", value="shop-lite.reorder-from-history")],
    ),
    (
        "another fixture, with its journey",
        [
            set_at("fixtureId", value="shop-lite.guest-empty-cart"),
            set_at("journeyId", value="shop-lite.guest-browse-then-checkout-gate"),
            set_at("environmentProfileId", value="mobile-390x844"),
        ],
    ),
    (
        "another app, with its fixture and journey",
        [
            set_at("appId", value="todo-mvc"),
            set_at("fixtureId", value="todo-mvc.empty"),
            set_at("journeyId", value="todo-mvc.add-two-todos"),
        ],
    ),
    ("planner id", [set_at("planner", "id", value="claude-2")]),
    ("planner vendor", [set_at("planner", "vendor", value="anthropic-eu")]),
    ("planner model", [set_at("planner", "model", value="claude-opus-4")]),
    # A failing variant is another run: its events are digested under its own id.
    (
        "a failing variant",
        [set_at("failure", value={"stepId": "pay", "failureClass": "product_issue"})],
    ),
]

_WORKED = reference_journey()
# The worked example, edited in each way an agent might edit a journey; every one compiles.
EDITS: list[tuple[str, dict[str, Any]]] = [
    ("the id", journey_with(id="shop-lite.buy-one-mug-again")),
    ("the goal", journey_with(goal="Buy a mug and see that the order is confirmed")),
    (
        "a step's value",
        journey_with_step(
            1,
            {
                "id": "search",
                "intent": "fill",
                "target": {"role": "searchbox", "name": "Search"},
                "value": "cup",
            },
        ),
    ),
    (
        "a step's target",
        journey_with_step(
            3,
            {
                "id": "add",
                "intent": "click",
                "target": {"role": "button", "name": "Add to cart", "nth": 1},
            },
        ),
    ),
    (
        "a step's id",
        journey_with(
            steps=[*_WORKED["steps"][:5], {**_WORKED["steps"][5], "id": "place-order"}],
            assertions=[{**a, "afterStep": "place-order"} for a in _WORKED["assertions"]],
        ),
    ),
    (
        "an assertion's expected text",
        journey_with(
            assertions=[
                _WORKED["assertions"][0],
                {**_WORKED["assertions"][1], "expected": "Thank you for your order"},
            ]
        ),
    ),
    ("an assertion dropped", journey_with(assertions=_WORKED["assertions"][:1])),
    ("the retry budget", journey_with(recovery={**_WORKED["recovery"], "maxAttempts": 3})),
    (
        "the recovery strategies",
        journey_with(recovery={**_WORKED["recovery"], "strategies": ["retry_step"]}),
    ),
]


@pytest.mark.parametrize("mutations", [pytest.param(m, id=name) for name, m in CHANGES])
def test_changing_what_the_run_id_derives_from_changes_the_run_id(
    mutations: list[Mutation],
) -> None:
    assert submit(request(*mutations)).run_id != submit(request()).run_id


@pytest.mark.parametrize("journey", [pytest.param(j, id=name) for name, j in EDITS])
def test_an_edited_journey_gets_a_new_run_id_and_a_new_ref(journey: dict[str, Any]) -> None:
    edited = submit(request(given(journey)))
    original = submit(request())

    assert edited.run_id != original.run_id
    assert edited.journey_ref != original.journey_ref


def test_run_ids_of_all_changed_requests_and_edited_journeys_are_distinct() -> None:
    run_ids = [submit(request(*m)).run_id for _, m in CHANGES]
    run_ids += [submit(request(given(j))).run_id for _, j in EDITS]

    assert len(set(run_ids)) == len(CHANGES) + len(EDITS)


# What the run id does not derive from: the same journey, planner and profile is the same run.
SAME_RUN: list[tuple[str, list[Mutation]]] = [
    ("the reference journey passed in instead of named", [given(_WORKED)]),
    (
        "the journey passed in with its keys in another order",
        [given(dict(reversed(list(_WORKED.items()))))],
    ),
    (
        "the journey passed in with its schemaVersion",
        [given({"schemaVersion": "automium.journey/v1", **_WORKED})],
    ),
    # mermaid asks compile for a drawing; it is not part of the journey.
    ("the journey passed in asking for mermaid", [given({**_WORKED, "mermaid": True})]),
    ("the events asked for", [set_at("includeEvents", value=True)]),
]


@pytest.mark.parametrize("mutations", [pytest.param(m, id=name) for name, m in SAME_RUN])
def test_the_same_journey_planner_and_profile_get_the_same_run_id_and_ref(
    mutations: list[Mutation],
) -> None:
    same = submit(request(*mutations))
    original = submit(request())

    assert (same.run_id, same.journey_ref) == (original.run_id, original.journey_ref)


# --- journeys ---------------------------------------------------------------------------------

JOURNEY_REFUSALS: list[tuple[str, list[Mutation], tuple[ErrorCode, str, tuple[str, ...]]]] = [
    (
        "an id no journey has",
        [set_at("journeyId", value="totally-made-up")],
        (ErrorCode.UNKNOWN_JOURNEY, "/journeyId", BUYER_JOURNEYS),
    ),
    (
        "a near miss of a reference journey's id",
        [set_at("journeyId", value="shop-lite.buy-one-mugs")],
        (ErrorCode.UNKNOWN_JOURNEY, "/journeyId", BUYER_JOURNEYS),
    ),
    # journeyId must repeat the given journey's id: the journey's own id is the one allowed.
    (
        "a given journey under another id",
        [given(_WORKED), set_at("journeyId", value="shop-lite.buy-two-mugs")],
        (ErrorCode.UNKNOWN_JOURNEY, "/journeyId", (WORKED_EXAMPLE,)),
    ),
    # A given journey is never swapped for the reference journey of the same name.
    (
        "a reference journey's id next to another given journey",
        [given(journey_with(id="my.buy-one-mug")), set_at("journeyId", value=WORKED_EXAMPLE)],
        (ErrorCode.UNKNOWN_JOURNEY, "/journeyId", ("my.buy-one-mug",)),
    ),
    (
        "a journey of another fixture of the app",
        [set_at("journeyId", value="shop-lite.guest-browse-then-checkout-gate")],
        (ErrorCode.JOURNEY_APP_MISMATCH, "/journeyId", BUYER_JOURNEYS),
    ),
    (
        "a journey of another app",
        [set_at("journeyId", value="todo-mvc.add-two-todos")],
        (ErrorCode.JOURNEY_APP_MISMATCH, "/journeyId", BUYER_JOURNEYS),
    ),
    (
        "the worked example under another app and its fixture",
        [set_at("appId", value="todo-mvc"), set_at("fixtureId", value="todo-mvc.empty")],
        (ErrorCode.JOURNEY_APP_MISMATCH, "/journeyId", ("todo-mvc.add-two-todos",)),
    ),
    (
        "a given journey of another fixture of the app",
        [given(reference_journey("shop-lite.guest-browse-then-checkout-gate"))],
        (ErrorCode.JOURNEY_APP_MISMATCH, "/journey/fixtureId", ("shop-lite.returning-buyer",)),
    ),
    (
        "a given journey of another app",
        [given(reference_journey("todo-mvc.add-two-todos"))],
        (ErrorCode.JOURNEY_APP_MISMATCH, "/journey/fixtureId", ("shop-lite.returning-buyer",)),
    ),
]


@pytest.mark.parametrize(
    ("mutations", "expected"),
    [pytest.param(m, e, id=name) for name, m, e in JOURNEY_REFUSALS],
)
def test_a_journey_that_is_not_the_submissions_is_refused_with_what_would_be(
    mutations: list[Mutation], expected: tuple[ErrorCode, str, tuple[str, ...]]
) -> None:
    (problem,) = refused(RUN.answer, request(*mutations))

    assert (problem.code, problem.path, problem.allowed) == expected


def test_every_journey_id_a_refusal_allows_is_accepted_in_its_place() -> None:
    # Allowed journey ids are a way out, not a hint: each one, put at /journeyId, runs.
    for name, mutations, _expected in JOURNEY_REFUSALS:
        (problem,) = refused(RUN.answer, request(*mutations))
        if problem.path != "/journeyId":
            continue
        for journey_id in problem.allowed:
            document = request(*mutations, set_at("journeyId", value=journey_id))
            assert submit(document).journey_id == journey_id, name


_COMPILE_REFUSALS = [
    pytest.param(case.arguments, id=name)
    for name, case in TOOLS[COMPILE.name].refusals.items()
    if case.code is not ErrorCode.LIMIT_EXCEEDED  # a size limit applies to the whole input
]


@pytest.mark.parametrize("journey", _COMPILE_REFUSALS)
def test_a_given_journey_is_refused_as_compile_refuses_it_under_journey(
    journey: dict[str, Any],
) -> None:
    expected = [(code, "/journey" + path) for code, path in refusal(COMPILE.answer, journey)]
    document = request(given({**journey, "id": journey.get("id", WORKED_EXAMPLE)}))

    assert refusal(RUN.answer, document) == expected


# --- failing variants ---------------------------------------------------------------------


def test_a_failure_at_a_step_the_journey_lacks_is_refused_with_its_steps() -> None:
    document = request(set_at("failure", value={"stepId": "place", "failureClass": "runtime_gap"}))

    (problem,) = refused(RUN.answer, document)

    assert (problem.code, problem.path, problem.allowed) == (
        ErrorCode.UNKNOWN_STEP,
        "/failure/stepId",
        ("open-home", "search", "submit", "add", "checkout", "pay"),
    )


def test_a_failure_class_outside_the_taxonomy_is_refused_with_the_classes() -> None:
    document = request(set_at("failure", value={"stepId": "pay", "failureClass": "flaky"}))

    (problem,) = refused(RUN.answer, document)

    assert (problem.code, problem.path, problem.allowed) == (
        ErrorCode.INVALID_INPUT,
        "/failure/failureClass",
        FAILURE_CLASSES,
    )


# --- refusals -------------------------------------------------------------------------------

INVALID = ErrorCode.INVALID_INPUT
MALFORMED = ErrorCode.MALFORMED_PLANNER_METADATA
REFUSALS: list[tuple[str, list[Mutation], list[tuple[ErrorCode, str]]]] = [
    ("unknown app", [set_at("appId", value="shop-max")], [(ErrorCode.INVALID_APP_ID, "/appId")]),
    (
        "app id that is no id",
        [set_at("appId", value="Shop Lite")],
        [(ErrorCode.INVALID_APP_ID, "/appId")],
    ),
    (
        "unknown fixture",
        [set_at("fixtureId", value="shop-lite.vip-buyer")],
        [(ErrorCode.UNKNOWN_FIXTURE, "/fixtureId")],
    ),
    (
        "fixture of another app",
        [set_at("fixtureId", value="todo-mvc.empty")],
        [(ErrorCode.FIXTURE_APP_MISMATCH, "/fixtureId")],
    ),
    ("planner without vendor", [drop_at("planner", "vendor")], [(MALFORMED, "/planner/vendor")]),
    ("planner without model", [drop_at("planner", "model")], [(MALFORMED, "/planner/model")]),
    ("planner without id", [drop_at("planner", "id")], [(MALFORMED, "/planner/id")]),
    (
        "blank planner model",
        [set_at("planner", "model", value="  ")],
        [(MALFORMED, "/planner/model")],
    ),
    ("no planner at all", [drop_at("planner")], [(MALFORMED, "/planner")]),
    ("planner that is no object", [set_at("planner", value="claude")], [(MALFORMED, "/planner")]),
    (
        "planner with an extra property",
        [set_at("planner", "apiKey", value="sk-not-here")],
        [(MALFORMED, "/planner/apiKey")],
    ),
    (
        "unknown environment profile",
        [set_at("environmentProfileId", value="tablet-800x1280")],
        [(INVALID, "/environmentProfileId")],
    ),
    ("missing journey id", [drop_at("journeyId")], [(INVALID, "/journeyId")]),
    (
        "events asked for with a string",
        [set_at("includeEvents", value="yes")],
        [(INVALID, "/includeEvents")],
    ),
    ("extra property", [set_at("priority", value="high")], [(INVALID, "/priority")]),
]


@pytest.mark.parametrize(
    ("mutations", "expected"), [pytest.param(m, e, id=name) for name, m, e in REFUSALS]
)
def test_an_invalid_request_is_refused_with_its_code_and_path(
    mutations: list[Mutation], expected: list[tuple[ErrorCode, str]]
) -> None:
    assert refusal(RUN.answer, request(*mutations)) == expected


ALLOWED: list[tuple[str, list[Mutation], tuple[str, ...]]] = [
    ("unknown app", [set_at("appId", value="shop-max")], corpus.app_ids()),
    (
        "unknown fixture",
        [set_at("fixtureId", value="shop-lite.vip-buyer")],
        ("shop-lite.guest-empty-cart", "shop-lite.returning-buyer"),
    ),
    (
        "fixture of another app",
        [set_at("fixtureId", value="todo-mvc.empty")],
        ("shop-lite.guest-empty-cart", "shop-lite.returning-buyer"),
    ),
    (
        "unknown environment profile",
        [set_at("environmentProfileId", value="tablet-800x1280")],
        ("desktop-1280x720", "mobile-390x844"),
    ),
    (
        "a phone profile for a desktop fixture",
        [set_at("environmentProfileId", value="mobile-390x844")],
        ("desktop-1280x720",),
    ),
]


@pytest.mark.parametrize(
    ("mutations", "allowed"), [pytest.param(m, a, id=name) for name, m, a in ALLOWED]
)
def test_a_refusal_lists_the_values_an_agent_may_use_instead(
    mutations: list[Mutation], allowed: tuple[str, ...]
) -> None:
    (problem,) = refused(RUN.answer, request(*mutations))
    assert problem.allowed == allowed


def test_every_corpus_problem_of_a_request_is_reported_at_once_in_path_order() -> None:
    document = request(
        set_at("appId", value="shop-max"),
        set_at("fixtureId", value="shop-lite.vip-buyer"),
        set_at("environmentProfileId", value="tablet-800x1280"),
    )

    assert refusal(RUN.answer, document) == [
        (ErrorCode.INVALID_APP_ID, "/appId"),
        (INVALID, "/environmentProfileId"),
        (ErrorCode.UNKNOWN_FIXTURE, "/fixtureId"),
    ]


def test_a_fixture_mismatch_and_an_unknown_profile_are_reported_together() -> None:
    document = request(
        set_at("fixtureId", value="todo-mvc.empty"),
        set_at("environmentProfileId", value="tablet-800x1280"),
    )

    assert refusal(RUN.answer, document) == [
        (INVALID, "/environmentProfileId"),
        (ErrorCode.FIXTURE_APP_MISMATCH, "/fixtureId"),
    ]


def test_corpus_problems_come_before_the_journey_is_looked_up() -> None:
    # An unknown fixture has no journeys to offer: the fixture is what to fix first.
    document = request(
        set_at("fixtureId", value="shop-lite.vip-buyer"),
        set_at("journeyId", value="totally-made-up"),
    )

    assert refusal(RUN.answer, document) == [(ErrorCode.UNKNOWN_FIXTURE, "/fixtureId")]


def test_every_contract_problem_of_a_request_is_reported_at_once_in_path_order() -> None:
    document = request(
        set_at("journeyId", value="Buy One Mug"),
        drop_at("planner", "vendor"),
        set_at("planner", "model", value="  "),
        set_at("priority", value="high"),
    )

    assert refusal(RUN.answer, document) == [
        (INVALID, "/journeyId"),
        (MALFORMED, "/planner/model"),
        (MALFORMED, "/planner/vendor"),
        (INVALID, "/priority"),
    ]


@pytest.mark.parametrize("document", [None, [], "run", 42])
def test_a_request_that_is_no_object_is_refused_at_the_root(document: object) -> None:
    assert refusal(RUN.answer, document) == [(INVALID, "")]
