"""The answers an agent reads, and what each one costs its context.

Every byte of an answer lands in the agent's context at every call, so the answers of the
developer-experience path are measured here, in process and deterministically: the bytes
of each tool answer's minified ``structuredContent`` and of its text content, and the bytes
of each prompt's text. The inputs are the ones the context budgets name
(``tests/test_answer_budget.py`` holds the same answers to their budgets): compare_planners
over shop-lite and helpdesk with 3 repetitions, the compile of ``shop-lite.buy-one-mug``, a
modeled run of it, ``draft_journey`` for every fixture with one goal, and
``debug_failed_run`` with and without the events of the run's failing variant.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from automium import corpus
from automium.mcp_server import prompts, tools
from benchmarks.workloads import JOURNEY, RUN_SUBMISSION, compare_input

GOAL = "Do the main task"
COMPARED_APPS = ("shop-lite", "helpdesk")
REPETITIONS = 3
FAILURE = {"stepId": "pay", "failureClass": "product_issue"}


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer as the agent gets it."""

    structured: str
    """Tools: the minified ``structuredContent``. Prompts: the message text."""
    text: str
    """Tools: the text content, every part joined. Prompts: the message text."""
    subject: str = ""
    """What the answer is about when its name does not say: the fixture of a draft."""

    @property
    def structured_bytes(self) -> int:
        return len(self.structured.encode())

    @property
    def text_bytes(self) -> int:
        return len(self.text.encode())


def minified(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def wire_result(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The result of ``tools/call`` as the wire spells it."""
    result: dict[str, Any] = tools.call_result(name, arguments).model_dump(
        mode="json", by_alias=True, exclude_none=True
    )
    return result


def tool_answer(name: str, arguments: dict[str, Any]) -> Answer:
    """The answer of ``tools/call``; a refused call stops the measurement."""
    result = wire_result(name, arguments)
    if result["isError"]:
        raise RuntimeError(f"{name} refused its input: {result['content'][0]['text']}")
    text = "\n".join(part["text"] for part in result["content"])
    return Answer(minified(result["structuredContent"]), text)


def prompt_answer(name: str, arguments: dict[str, str]) -> Answer:
    content = prompts.get(name, arguments).messages[0].content
    text = getattr(content, "text", "")
    return Answer(text, text)


def compare(planners: int, **extra: Any) -> Answer:
    request = compare_input(1, planners, REPETITIONS)
    request["appIds"] = list(COMPARED_APPS)
    return tool_answer("automium_compare_planners", {**request, **extra})


def compile_(**extra: Any) -> Answer:
    return tool_answer("automium_compile_journey", {**JOURNEY, **extra})


def failing_events() -> list[Any]:
    """The events of the modeled run's failing variant: what an agent would pass along."""
    run = wire_result(
        "automium_create_run_submission",
        {**RUN_SUBMISSION, "failure": FAILURE, "includeEvents": True},
    )["structuredContent"]
    events: list[Any] = run["events"]
    return events


def debug(*, with_events: bool) -> Answer:
    run = wire_result("automium_create_run_submission", RUN_SUBMISSION)
    document = run["structuredContent"]
    arguments = {
        "runId": document["runId"],
        "verdict": "failed",
        "evidence": "The order was placed but no confirmation showed.",
        "artifactManifestRef": document["artifactManifestRef"],
        "journeyRef": document["journeyRef"],
    }
    if with_events:
        arguments["events"] = minified(failing_events())
    return prompt_answer("debug_failed_run", arguments)


def drafts() -> dict[str, Answer]:
    """``draft_journey`` for every fixture of the corpus, with the same goal."""
    return {
        fixture: prompt_answer(
            "draft_journey",
            {"appId": fixture.split(".", 1)[0], "fixtureId": fixture, "goal": GOAL},
        )
        for fixture in corpus.fixture_ids(None)
    }


CASES: dict[str, Callable[[], Answer]] = {
    "compare_planners, 2 planners": lambda: compare(2),
    "compare_planners, 8 planners": lambda: compare(8),
    "compare_planners, 2 planners, full": lambda: compare(2, detail="full"),
    "compare_planners, 8 planners, full": lambda: compare(8, detail="full"),
    "compile_journey, valid": compile_,
    "compile_journey, valid, full": lambda: compile_(detail="full"),
    "create_run_submission": lambda: tool_answer("automium_create_run_submission", RUN_SUBMISSION),
    "create_run_submission, with events": lambda: tool_answer(
        "automium_create_run_submission", {**RUN_SUBMISSION, "includeEvents": True}
    ),
    "debug_failed_run": lambda: debug(with_events=False),
    "debug_failed_run, with events": lambda: debug(with_events=True),
}


def measure() -> dict[str, Answer]:
    """Every answer of :data:`CASES`, and the drafts of the median and the largest fixture
    (the upper median of ten: at most it, for half the fixtures), by name.

    A case whose input the server refuses (``detail`` before the server knew it) is left
    out."""
    answers: dict[str, Answer] = {}
    for name, case in CASES.items():
        try:
            answers[name] = case()
        except RuntimeError:
            continue
    by_size = sorted(drafts().items(), key=lambda item: item[1].structured_bytes)
    median = statistics.median_high(a.structured_bytes for _, a in by_size)
    middle = next((f, a) for f, a in by_size if a.structured_bytes == median)
    for name, (fixture, answer) in (("median", middle), ("largest", by_size[-1])):
        answers[f"draft_journey, {name} fixture"] = replace(answer, subject=fixture)
    return answers
