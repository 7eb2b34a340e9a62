"""The answers an agent reads must fit its context: budgets in bytes, and the rest on request.

Bytes (1 KB = 1,000 B) of the minified ``structuredContent`` of a tool answer, or of a
prompt's text, built in process the way ``tools/call`` and ``prompts/get`` answer. The
inputs are ``benchmarks/answers.py``'s, which ``benchmarks/RESULTS.md`` measures the same
way, with the o200k tokens beside the bytes.
"""

from __future__ import annotations

import json
import statistics
from typing import Any

import pytest

from automium import corpus
from automium.capabilities import BY_NAME, COMPILE_JOURNEY
from automium.contracts import to_document
from automium.corpus.aria_text import aria_text
from automium.corpus.pages import page
from automium.validation import check
from benchmarks import answers
from benchmarks.answers import wire_result
from benchmarks.workloads import JOURNEY, compare_input
from tests.answers import answered
from tests.filled import filled

KB = 1_000
SUMMARY_LINE = 200
"""What the text content may add to the structured content: the one-line summary."""


def _document(answer: answers.Answer) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(answer.structured)
    return document


# --- the budgets ----------------------------------------------------------------------------


@pytest.mark.parametrize(("planners", "budget"), [(2, 3 * KB), (8, 6 * KB)])
def test_a_comparison_answers_by_default_within_its_budget(planners: int, budget: int) -> None:
    answer = answers.compare(planners)

    assert answer.structured_bytes <= budget
    assert answer.text_bytes <= answer.structured_bytes + SUMMARY_LINE


def test_a_valid_compile_answers_within_2_kb() -> None:
    answer = answers.compile_()

    assert answer.structured_bytes <= 2 * KB
    assert answer.text_bytes <= answer.structured_bytes + SUMMARY_LINE


def test_draft_journey_fits_6_kb_for_the_median_fixture_and_8_kb_for_the_largest() -> None:
    sizes = {fixture: a.structured_bytes for fixture, a in answers.drafts().items()}

    assert len(sizes) == 10
    assert statistics.median(sizes.values()) <= 6 * KB, sizes
    assert max(sizes.values()) <= 8 * KB, sizes


def test_debug_failed_run_with_events_fits_4_kb() -> None:
    assert answers.debug(with_events=True).structured_bytes <= 4 * KB


@pytest.mark.parametrize("case", [c for c in answers.CASES if not c.startswith("debug")])
def test_a_tool_answers_text_is_its_document_and_one_summary_line(case: str) -> None:
    answer = answers.CASES[case]()

    summary, text = answer.text.split("\n", 1)
    assert text == answer.structured
    assert len(summary.encode()) <= SUMMARY_LINE


# --- what the default leaves out comes on request -------------------------------------------


def _request(planners: int) -> dict[str, Any]:
    request = compare_input(1, planners, answers.REPETITIONS)
    return {**request, "appIds": list(answers.COMPARED_APPS)}


def _contained(part: Any, whole: Any) -> bool:
    """Every key of ``part`` is in ``whole`` with the same value, at any depth."""
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(
            k in whole and _contained(v, whole[k]) for k, v in part.items()
        )
    if isinstance(part, list):
        return (
            isinstance(whole, list)
            and len(part) == len(whole)
            and all(_contained(p, w) for p, w in zip(part, whole, strict=True))
        )
    return bool(part == whole)


def test_a_full_comparison_is_the_whole_report_and_the_default_a_part_of_it() -> None:
    _, report = BY_NAME["automium_compare_planners"].answer(_request(2))
    default = _document(answers.compare(2))
    full = _document(answers.compare(2, detail="full"))

    assert full == report
    assert _contained(default, full)
    planner = default["planners"][0]
    assert set(planner) == {"planner", "metrics"}
    assert set(planner["metrics"]) == {
        "trials",
        "passed",
        "passRate",
        "passRateInterval",
        "repeatability",
        "latencyMs",
        "tokensPerSuccess",
        "recoveryAttempts",
        "recoverySuccessRate",
    }
    assert "journeys" not in default
    assert set(default["modeled"]) == {"modeled", "executed", "notice"}


def test_detail_summary_is_the_default_answer() -> None:
    assert answers.compare(2, detail="summary") == answers.compare(2)
    assert answers.compile_(detail="summary") == answers.compile_()


def test_a_full_compile_adds_the_graph_and_keeps_everything_the_default_says() -> None:
    default = _document(answers.compile_())
    full = _document(answers.compile_(detail="full"))
    compilation = answered(COMPILE_JOURNEY, JOURNEY)
    graph = filled(compilation.graph)

    assert "graph" not in default
    assert full["graph"] == to_document(graph)
    assert {k: v for k, v in full.items() if k != "graph"} == default
    assert default["graphSummary"] == {
        "nodes": len(graph.nodes),
        "edges": len(graph.edges),
        "exits": ["pass", "fail"],
    }
    assert default["journeyRef"] == compilation.journey_ref


def test_detail_does_not_change_the_journeys_ref() -> None:
    refs = {_document(answers.compile_(detail=d))["journeyRef"] for d in ("summary", "full")}

    assert refs == {_document(answers.compile_())["journeyRef"]}


@pytest.mark.parametrize(
    "case",
    [
        "compare_planners, 2 planners",
        "compare_planners, 8 planners, full",
        "compile_journey, valid",
        "compile_journey, valid, full",
    ],
)
def test_both_forms_satisfy_the_output_contract(case: str) -> None:
    tool = "automium_compare_planners" if case.startswith("compare") else "automium_compile_journey"

    assert check(BY_NAME[tool].output_contract, _document(answers.CASES[case]())) == []


@pytest.mark.parametrize("tool", ["automium_compare_planners", "automium_compile_journey"])
def test_an_unknown_detail_is_refused_at_its_path_with_the_values_allowed(tool: str) -> None:
    arguments = _request(2) if tool == "automium_compare_planners" else dict(JOURNEY)
    result = wire_result(tool, {**arguments, "detail": "everything"})

    assert result["isError"]
    error = result["structuredContent"]
    assert (error["code"], error["path"], error["allowed"]) == (
        "invalid_input",
        "/detail",
        ["summary", "full"],
    )


# --- prompts that carry what the goal needs ------------------------------------------------


def test_debug_failed_run_names_the_events_given_instead_of_repeating_them() -> None:
    text = answers.debug(with_events=True).text
    events = answers.failing_events()

    assert "replay-event/v1" not in text
    assert (
        "1. Call automium_get_replay_summary with these, adding events: the "
        f"{len(events)} events you gave this prompt, unchanged (the first failing one is seq "
        "25, assertion.failed at step pay):"
    ) in text


def test_a_recorded_comparisons_default_answer_keeps_its_notice_and_satisfies_the_contract() -> (
    None
):
    trial = {
        "plannerId": "planner-0",
        "appId": "shop-lite",
        "journeyId": "shop-lite.buy-one-mug",
        "repetition": 0,
        "passed": True,
        "latencyMs": 9000,
        "inputTokens": 12000,
        "outputTokens": 400,
        "recoveryAttempts": 0,
    }
    request = {**compare_input(1, 1, 1), "trials": [trial]}
    result = wire_result("automium_compare_planners", request)

    report = result["structuredContent"]
    assert check("benchmark-report.v1", report) == []
    assert report["recorded"]["executed"] is False
    assert set(report["planners"][0]) == {"planner", "metrics"}


@pytest.mark.parametrize("fixture_id", corpus.fixture_ids(None))
def test_draft_journey_still_shows_every_name_and_text_of_every_page_it_shows(
    fixture_id: str,
) -> None:
    fixture = corpus.get_fixture(fixture_id, fixture_id.split(".", maxsplit=1)[0])
    text = answers.drafts()[fixture_id].text
    redirected = {r.route for r in fixture.redirects}

    for route in corpus.get_app(fixture.app_id).routes:
        if route.id in redirected:
            continue
        for line in aria_text(page(fixture.app_id, route.id).view(fixture, None)).splitlines():
            item = line.strip().removeprefix("- ")
            if item.startswith("text: "):
                assert item in text, (route.id, line)
            elif '"' in item:
                name = item.split('"')[1]
                assert f'"{name}"' in text, (route.id, line)


def test_a_part_every_route_shares_is_shown_once() -> None:
    text = answers.drafts()["admin-console.admin-user"].text

    assert text.count('link "Audit log" → audit-log') == 1
    assert text.count('navigation "Main"') == 1
    assert "route login (/login): Sign in; no shared parts" in text
