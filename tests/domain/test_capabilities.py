"""The capability table: every row has its cases, names real contracts and a handler of the
one shape (arguments in, output document out), accepts what its input contract accepts,
answers in its output contract, and refuses by code and path. The prompt table likewise has
its cases."""

from __future__ import annotations

import inspect
import typing
from typing import Any

import pytest

from automium import corpus
from automium.capabilities import BY_NAME, CAPABILITIES, Capability, find
from automium.contracts import ErrorCode, contract_names, to_document, to_json
from automium.guidance import GUIDES
from automium.validation import check
from tests.answers import answered
from tests.cases import PROMPTS, TOOLS, Refusal, refusal, refused, tool_refusals, tool_successes

ROWS = [pytest.param(c, id=c.name) for c in CAPABILITIES]


def test_every_capability_has_a_success_and_a_refusal_case_in_table_order() -> None:
    assert list(TOOLS) == [c.name for c in CAPABILITIES]
    for name, cases in TOOLS.items():
        assert cases.successes, f"{name} has no success case in tests/cases.py"
        assert cases.refusals, f"{name} has no refusal case in tests/cases.py"


def test_every_prompt_has_a_render_and_a_refusal_case_in_table_order() -> None:
    assert list(PROMPTS) == [g.name for g in GUIDES]
    for name, cases in PROMPTS.items():
        assert cases.renders, f"{name} has no render case in tests/cases.py"
        assert cases.refusals, f"{name} has no refusal case in tests/cases.py"


@pytest.mark.parametrize("capability", ROWS)
def test_a_capability_names_real_contracts_and_a_handler_typed_by_the_one_shape(
    capability: Capability[Any],
) -> None:
    assert {capability.input_contract, capability.output_contract} <= set(contract_names())
    hints = typing.get_type_hints(capability.handler)
    (parameter,) = inspect.signature(capability.handler).parameters
    assert hints[parameter] is object
    assert hints["return"] == dict[str, Any]


@pytest.mark.parametrize(("tool", "arguments"), [(t, a) for _, t, a in tool_successes()])
def test_a_success_case_satisfies_the_input_contract_and_its_output_the_output_contract(
    tool: str, arguments: Any
) -> None:
    capability = BY_NAME[tool]

    assert check(capability.input_contract, arguments) == []
    assert check(capability.output_contract, capability.answer(arguments)[1]) == []


@pytest.mark.parametrize(("tool", "arguments"), [(t, a) for _, t, a in tool_successes()])
def test_an_answer_reads_back_through_its_output_model_byte_for_byte(
    tool: str, arguments: Any
) -> None:
    capability = BY_NAME[tool]

    summary, document = capability.answer(arguments)

    expected = to_document(answered(capability, arguments))
    assert to_json(document) == to_json(expected)  # key order too: the text copy shows it
    assert summary == capability.summarize(expected)


@pytest.mark.parametrize(
    ("tool", "case"), [pytest.param(t, r, id=i) for i, t, r in tool_refusals()]
)
def test_a_refusal_case_is_refused_in_process_with_its_code_and_path(
    tool: str, case: Refusal
) -> None:
    problems = refusal(lambda arguments: find(tool).answer(arguments), case.arguments)

    assert problems[0] == (case.code, case.path)
    if case.problems:
        assert problems == list(case.problems)


@pytest.mark.parametrize("capability", ROWS)
@pytest.mark.parametrize("arguments", [None, [], "x", 1])
def test_arguments_that_are_no_object_are_refused_at_the_root(
    capability: Capability[Any], arguments: object
) -> None:
    assert refusal(capability.answer, arguments) == [(ErrorCode.INVALID_INPUT, "")]


@pytest.mark.parametrize("capability", ROWS)
def test_an_unexpected_property_is_refused_at_its_path(capability: Capability[Any]) -> None:
    arguments = next(iter(TOOLS[capability.name].successes.values()))

    assert refusal(capability.answer, {**arguments, "sneaky": True}) == [
        (ErrorCode.INVALID_INPUT, "/sneaky")
    ]


@pytest.mark.parametrize("app_id", ["shop-max", "Shop Lite", ""])
def test_list_fixtures_of_an_unknown_app_is_refused_with_the_app_ids_allowed(app_id: str) -> None:
    problems = refused(BY_NAME["automium_list_fixtures"].answer, {"appId": app_id})

    assert [(p.code, p.path, p.allowed) for p in problems] == [
        (ErrorCode.INVALID_APP_ID, "/appId", corpus.app_ids())
    ]


def test_list_fixtures_without_an_app_lists_every_fixture() -> None:
    _, catalog = BY_NAME["automium_list_fixtures"].answer({})

    assert [f["id"] for f in catalog["fixtures"]] == list(corpus.fixture_ids())
