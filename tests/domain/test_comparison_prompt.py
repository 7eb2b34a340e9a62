"""The compare_planner_backends prompt and the tool it leads to follow one rule: whatever the
prompt renders, its ready-made call is a call the tool accepts; whatever the tool refuses,
the prompt refuses too."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from automium import corpus, guidance
from automium.benchmark import REPETITIONS_CAP
from automium.capabilities import COMPARE_PLANNERS
from automium.contracts import bundled_schema
from automium.errors import AutomiumError
from tests.answers import answered
from tests.conftest import fixed

PROMPT = guidance.find("compare_planner_backends")
PROPERTY = settings(
    max_examples=fixed(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

_SPACE = st.sampled_from(["", " ", "  ", "\t"])
_NAME = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,12}", fullmatch=True)
_ODD = st.text(max_size=12)  # anything at all, to find what the rules forget


@st.composite
def app_ids_argument(draw: st.DrawFn) -> str:
    known = st.lists(st.sampled_from(corpus.app_ids()), min_size=1, max_size=5, unique=True)
    anything = st.lists(st.one_of(st.sampled_from(corpus.app_ids()), _NAME, _ODD), max_size=6)
    ids = draw(st.one_of(known, known, known, anything))  # mostly ids the corpus has
    return ",".join(f"{draw(_SPACE)}{a}{draw(_SPACE)}" for a in ids)


@st.composite
def planners_argument(draw: st.DrawFn) -> str:
    pairs = draw(st.lists(st.tuples(_NAME, _NAME), min_size=1, max_size=9, unique_by=lambda p: p))
    references = draw(
        st.lists(
            st.fixed_dictionaries(
                {"id": st.one_of(_NAME.map(str.lower), _ODD), "vendor": _NAME, "model": _NAME},
                optional={"extra": _ODD},
            ),
            max_size=9,
            unique_by=lambda r: r["id"],
        )
    )
    as_pairs = ", ".join(f"{vendor}/{model}" for vendor, model in pairs)
    return draw(st.sampled_from([as_pairs, as_pairs, json.dumps(references), draw(_ODD)]))


@st.composite
def repetitions_argument(draw: st.DrawFn) -> str:
    number = draw(
        st.one_of(
            st.integers(min_value=-3, max_value=REPETITIONS_CAP + 3),
            st.integers(min_value=-3, max_value=REPETITIONS_CAP + 3),
            st.integers(min_value=-(10**12), max_value=10**12),
        )
    )
    spelled = draw(
        st.sampled_from([str(number), str(number), f"+{number}", f"{number:_}", f"{number}.0"])
    )
    padded = f"{draw(_SPACE)}{spelled}{draw(_SPACE)}"
    return draw(st.sampled_from([padded, padded, padded, draw(_ODD)]))


def rendered_call(arguments: dict[str, str]) -> dict[str, Any] | None:
    """The ready-made call of the rendered prompt, or ``None`` when the prompt refuses."""
    try:
        text = PROMPT.render(arguments)
    except AutomiumError:
        return None
    block = text.split("```json\n", 1)[1].split("\n```", 1)[0]
    call: dict[str, Any] = json.loads(block)
    return call


@PROPERTY
@given(app_ids_argument(), planners_argument(), repetitions_argument())
def test_the_prompts_ready_made_call_is_always_accepted_by_the_tool(
    app_ids: str, planners: str, repetitions: str
) -> None:
    call = rendered_call({"appIds": app_ids, "planners": planners, "repetitions": repetitions})
    if call is None:
        return

    report = answered(COMPARE_PLANNERS, call)  # raises AutomiumError if the tool refuses

    assert 1 <= call["repetitions"] <= REPETITIONS_CAP
    assert report.repetitions == call["repetitions"]


def test_the_property_reaches_calls_the_tool_accepts() -> None:
    call = rendered_call(
        {
            "appIds": " shop-lite ,todo-mvc",
            "planners": "anthropic/claude-sonnet-4",
            "repetitions": " 0 ",
        }
    )

    assert call is not None
    assert call["repetitions"] == 1
    assert answered(COMPARE_PLANNERS, call).trial_count > 0


@pytest.mark.parametrize("repetitions", [REPETITIONS_CAP + 1, 500, 10**30])
def test_repetitions_above_the_cap_are_refused_by_the_prompt_as_by_the_tool(
    repetitions: int,
) -> None:
    arguments = {"appIds": "shop-lite", "planners": "anthropic/claude-sonnet-4"}
    with pytest.raises(AutomiumError) as by_prompt:
        PROMPT.render({**arguments, "repetitions": str(repetitions)})
    call = {
        "corpusVersion": corpus.CORPUS_VERSION,
        "appIds": ["shop-lite"],
        "planners": [{"id": "p", "vendor": "anthropic", "model": "claude-sonnet-4"}],
        "repetitions": repetitions,
    }
    with pytest.raises(AutomiumError) as by_tool:
        answered(COMPARE_PLANNERS, call)

    expected = [("limit_exceeded", "/repetitions")]
    assert [(p.code.value, p.path) for p in by_prompt.value.problems] == expected
    assert [(p.code.value, p.path) for p in by_tool.value.problems] == expected


@pytest.mark.parametrize("repetitions", ["0", "-7", "-1000000", "1"])
def test_repetitions_below_one_are_normalised_to_one_by_the_prompt_as_by_the_tool(
    repetitions: str,
) -> None:
    call = rendered_call(
        {"appIds": "shop-lite", "planners": "openai/gpt-5", "repetitions": repetitions}
    )

    assert call is not None
    assert call["repetitions"] == 1
    assert answered(COMPARE_PLANNERS, {**call, "repetitions": int(repetitions)}).repetitions == 1


def test_the_contract_says_below_one_is_normalised_and_the_cap_is_its_maximum() -> None:
    repetitions = bundled_schema("compare-planners-input.v1")["$defs"]["Repetitions"]

    assert repetitions["maximum"] == REPETITIONS_CAP
    assert "below 1 are normalised to 1" in repetitions["description"]


def test_the_prompt_tells_how_to_read_the_new_report() -> None:
    text = PROMPT.render({"appIds": "shop-lite", "planners": "openai/gpt-5", "repetitions": "3"})

    for expected in (
        "passHatK",
        "Wilson",
        "not separable at this sample size",
        "paretoFrontier",
        "tokensPerSuccess",
        "failingSteps",
        '"journeys"',
        '"trials"',
    ):
        assert expected in text
