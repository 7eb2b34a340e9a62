"""Compile's verdict on each journey that once split a page model from its app
(:mod:`tests.conformance_cases`): what the model knows it refuses, what only a run can know
it marks unchecked, and it never calls valid silently what fails for real."""

from __future__ import annotations

import copy

import pytest

from automium.contracts import ErrorCode
from automium.errors import AutomiumError
from automium.journeys import check_journey, checked_journey
from tests.conformance_cases import CASES, Case
from tests.journey_mutants import static_verdict


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_compile_gives_each_case_its_verdict(case: Case) -> None:
    assert static_verdict(case.journey) == case.static


def test_a_select_value_refusal_names_each_value_with_its_label() -> None:
    (journey,) = [c.journey for c in CASES if c.name == "select value is not the option's label"]
    (problem,) = check_journey(journey).problems
    assert (problem.code, problem.path, problem.allowed) == (
        ErrorCode.ASSERTION_CONTRADICTED,
        "/assertions/0/expected",
        ("relevance",),
    )
    assert problem.message.endswith(
        '"relevance" (labelled "Relevance"), "price-asc" (labelled "Price: low to high"), '
        '"price-desc" (labelled "Price: high to low")'
    )


def test_nth_written_as_a_float_is_the_same_integer_everywhere() -> None:
    as_float = next(c.journey for c in CASES if c.name == "nth 3.0 is nth 3")
    as_int = copy.deepcopy(as_float)
    as_int["steps"][1]["target"]["nth"] = 3
    assert check_journey(as_float).problems == check_journey(as_int).problems
    valid = copy.deepcopy(as_float)
    valid["steps"][1]["target"]["nth"] = 2.0
    checked = checked_journey(valid)
    # The document compile hands on (to the executor, to export) holds the integer.
    assert checked.document["steps"][1]["target"]["nth"] == 2
    assert isinstance(checked.document["steps"][1]["target"]["nth"], int)


def test_the_route_after_a_step_only_a_run_can_settle_is_unchecked_not_asserted() -> None:
    journey = next(c.journey for c in CASES if c.name == "previous page on a second page")
    checked = checked_journey(journey)
    assert "/assertions/0" in {u.path for u in checked.unchecked}


def test_an_empty_reply_is_refused_where_the_notice_is_awaited() -> None:
    journey = next(c.journey for c in CASES if c.name == "empty reply is not sent")
    with pytest.raises(AutomiumError) as raised:
        checked_journey(journey)
    assert [(p.code, p.path) for p in raised.value.problems] == [
        (ErrorCode.UNKNOWN_TARGET, "/steps/2/target")
    ]
