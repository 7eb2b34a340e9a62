"""Modeled run submissions: the same request always gets the same run id and opaque refs,
nothing is executed, and every refusal carries its code and JSON path."""

from __future__ import annotations

import copy
import re

import pytest

from automium import corpus
from automium.capabilities import BY_NAME
from automium.contracts import ErrorCode, RunSubmission, RunSubmissionInput, to_document
from automium.runs import create_run_submission, run_id_for
from tests.cases import SUBMISSION, refusal, refused
from tests.mutations import Document, Mutation, drop_at, set_at

RUN = BY_NAME["automium_create_run_submission"]


def request(*mutations: Mutation) -> Document:
    document = copy.deepcopy(SUBMISSION)
    for mutate in mutations:
        mutate(document)
    return document


def submit(document: object) -> RunSubmission:
    submission = RUN.run(document)
    assert isinstance(submission, RunSubmission)
    return submission


# --- success ----------------------------------------------------------------------------------


def test_a_submission_echoes_the_request_and_the_corpus_version() -> None:
    document = to_document(submit(request()))

    assert {k: document[k] for k in SUBMISSION} == SUBMISSION
    assert document["corpusVersion"] == corpus.CORPUS_VERSION
    assert document["schemaVersion"] == "automium.run-submission/v1"


def test_the_domain_function_and_the_operation_give_the_same_submission() -> None:
    direct = create_run_submission(RunSubmissionInput.model_validate(request()))

    assert to_document(direct) == to_document(submit(request()))


def test_the_same_request_gets_the_same_run_id_every_time() -> None:
    run_ids = {submit(request()).run_id for _ in range(3)}

    assert len(run_ids) == 1
    (run_id,) = run_ids
    assert re.fullmatch(r"run-[0-9a-f]{16}", run_id)
    assert run_id == run_id_for(RunSubmissionInput.model_validate(request()))


def test_the_order_of_properties_in_the_request_does_not_change_the_run_id() -> None:
    reordered = dict(reversed(list(request().items())))
    reordered["planner"] = dict(reversed(list(SUBMISSION["planner"].items())))

    assert submit(reordered).run_id == submit(request()).run_id


CHANGES: list[tuple[str, list[Mutation]]] = [
    ("journeyId", [set_at("journeyId", value="shop-lite.buy-two-mugs")]),
    ("fixtureId", [set_at("fixtureId", value="shop-lite.guest-empty-cart")]),
    (
        "appId (with a fixture of that app)",
        [set_at("appId", value="todo-mvc"), set_at("fixtureId", value="todo-mvc.empty")],
    ),
    ("planner id", [set_at("planner", "id", value="claude-2")]),
    ("planner vendor", [set_at("planner", "vendor", value="anthropic-eu")]),
    ("planner model", [set_at("planner", "model", value="claude-opus-4")]),
    ("environmentProfileId", [set_at("environmentProfileId", value="mobile-390x844")]),
]


@pytest.mark.parametrize("mutations", [pytest.param(m, id=name) for name, m in CHANGES])
def test_changing_any_field_of_the_request_changes_the_run_id(
    mutations: list[Mutation],
) -> None:
    assert submit(request(*mutations)).run_id != submit(request()).run_id


def test_run_ids_of_all_changed_requests_are_distinct() -> None:
    run_ids = [submit(request(*m)).run_id for _, m in CHANGES]

    assert len(set(run_ids)) == len(CHANGES)


def test_refs_are_opaque_names_of_the_run_never_urls_or_paths() -> None:
    submission = submit(request())

    refs = (submission.artifact_manifest_ref, submission.replay_stream_ref)
    assert refs == (f"artifacts:run/{submission.run_id}", f"replay:run/{submission.run_id}")
    for ref in refs:
        assert "://" not in ref
        assert not ref.startswith("/")
        assert "\\" not in ref


def test_a_submission_says_it_was_modeled_and_nothing_was_executed() -> None:
    marker = submit(request()).modeled

    assert (marker.modeled, marker.executed) == (True, False)
    assert marker.notice.strip()


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
    ("extra property", [set_at("priority", value="high")], [(INVALID, "/priority")]),
]


@pytest.mark.parametrize(
    ("mutations", "expected"), [pytest.param(m, e, id=name) for name, m, e in REFUSALS]
)
def test_an_invalid_request_is_refused_with_its_code_and_path(
    mutations: list[Mutation], expected: list[tuple[ErrorCode, str]]
) -> None:
    assert refusal(RUN.run, request(*mutations)) == expected


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
]


@pytest.mark.parametrize(
    ("mutations", "allowed"), [pytest.param(m, a, id=name) for name, m, a in ALLOWED]
)
def test_a_refusal_lists_the_values_an_agent_may_use_instead(
    mutations: list[Mutation], allowed: tuple[str, ...]
) -> None:
    (problem,) = refused(RUN.run, request(*mutations))
    assert problem.allowed == allowed


def test_every_corpus_problem_of_a_request_is_reported_at_once_in_path_order() -> None:
    document = request(
        set_at("appId", value="shop-max"),
        set_at("fixtureId", value="shop-lite.vip-buyer"),
        set_at("environmentProfileId", value="tablet-800x1280"),
    )

    assert refusal(RUN.run, document) == [
        (ErrorCode.INVALID_APP_ID, "/appId"),
        (INVALID, "/environmentProfileId"),
        (ErrorCode.UNKNOWN_FIXTURE, "/fixtureId"),
    ]


def test_a_fixture_mismatch_and_an_unknown_profile_are_reported_together() -> None:
    document = request(
        set_at("fixtureId", value="todo-mvc.empty"),
        set_at("environmentProfileId", value="tablet-800x1280"),
    )

    assert refusal(RUN.run, document) == [
        (INVALID, "/environmentProfileId"),
        (ErrorCode.FIXTURE_APP_MISMATCH, "/fixtureId"),
    ]


def test_every_contract_problem_of_a_request_is_reported_at_once_in_path_order() -> None:
    document = request(
        set_at("journeyId", value="Buy One Mug"),
        drop_at("planner", "vendor"),
        set_at("planner", "model", value="  "),
        set_at("priority", value="high"),
    )

    assert refusal(RUN.run, document) == [
        (INVALID, "/journeyId"),
        (MALFORMED, "/planner/model"),
        (MALFORMED, "/planner/vendor"),
        (INVALID, "/priority"),
    ]


@pytest.mark.parametrize("document", [None, [], "run", 42])
def test_a_request_that_is_no_object_is_refused_at_the_root(document: object) -> None:
    assert refusal(RUN.run, document) == [(INVALID, "")]
