"""Shards split a run as Playwright splits tests; their indexes merge into the whole run's,
and a comparison of the merged trials is the comparison of the run not split."""

from __future__ import annotations

import copy
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from automium import corpus
from automium.capabilities import find
from automium.contracts import ErrorCode, Verdict
from automium.errors import AutomiumError
from automium.execution.junit import junit_report
from automium.execution.retries import tried
from automium.execution.sharding import (
    WHOLE,
    Shard,
    merge,
    parse_shard,
    run_index,
    selection,
    trials_of,
)
from automium.validation import check

Json = dict[str, Any]
PLANNER = {"id": "scripted-journey", "vendor": "scripted", "model": "journey"}
JOURNEYS = ["todo-mvc.add-two-todos", "todo-mvc.complete-delete-and-filter"]
PLANNED = [(journey, repetition) for journey in JOURNEYS for repetition in (1, 2, 3)]
DIGEST = selection([PLANNER], PLANNED)


def _run(position: int) -> Json:
    journey, repetition = PLANNED[position]
    steps = [s.id for s in next(j for j in corpus.reference_journeys() if j.id == journey).steps]
    passed = position != 4
    trial: Json = {
        "plannerId": "scripted-journey",
        "appId": "todo-mvc",
        "journeyId": journey,
        "repetition": repetition,
        "passed": passed,
        "latencyMs": 900 + 37 * position,
        "inputTokens": 0,
        "outputTokens": 0,
        "recoveryAttempts": 0,
        "stepsCompleted": len(steps) if passed else 2,
        "stepsTotal": len(steps),
    }
    run: Json = {
        "position": position,
        "runId": f"run-{position:016x}.{repetition}",
        "fixtureId": "todo-mvc.empty",
        "artifactManifestRef": f"artifacts:run/run-{position:016x}.{repetition}",
        "verdict": "passed" if passed else "failed",
        "folder": f"run-{position:016x}.{repetition}",
    }
    if not passed:
        trial |= {"failingStep": steps[2], "failingLane": "assertion"}
        run["failureClass"] = "product_issue"
    return run | {"trial": trial}


def _index(shard: Shard) -> Json:
    runs = [_run(p) for p in shard.positions(len(PLANNED))]
    return run_index(shard, DIGEST, len(PLANNED), [PLANNER], runs)


def _refusal(indexes: list[Json]) -> AutomiumError:
    with pytest.raises(AutomiumError) as caught:
        merge(indexes)
    return caught.value


@pytest.mark.parametrize(
    ("trials", "total", "sizes"),
    [(10, 3, [4, 3, 3]), (6, 4, [2, 2, 1, 1]), (2, 3, [1, 1, 0]), (7, 1, [7])],
)
def test_shards_take_contiguous_slices_sized_as_playwright_sizes_them(
    trials: int, total: int, sizes: list[int]
) -> None:
    slices = [Shard(i, total).positions(trials) for i in range(1, total + 1)]
    assert [len(s) for s in slices] == sizes
    assert [p for s in slices for p in s] == list(range(trials))


@pytest.mark.parametrize("text", ["0/3", "4/3", "1/0", "a/b", "1-3", "1/3/", " 1/3", "10000/10000"])
def test_a_shard_that_is_not_i_of_n_is_refused_with_the_form_it_takes(text: str) -> None:
    with pytest.raises(AutomiumError) as caught:
        parse_shard(text)
    assert (caught.value.code, caught.value.problems[0].path) == (ErrorCode.INVALID_INPUT, "/shard")


def test_every_index_follows_its_contract_and_the_merged_one_is_the_whole_runs() -> None:
    shards = [_index(Shard(i, 3)) for i in (3, 1, 2)]  # in any order
    merged = merge(shards)
    whole = _index(WHOLE)
    for document in [*shards, merged]:
        assert check("run-index.v1", document) == []
    assert merged == whole | {"shards": ["1/3", "2/3", "3/3"]}
    assert trials_of(merged) == trials_of(whole)


def test_two_shards_merged_give_the_comparison_of_the_run_not_split() -> None:
    compare = find("automium_compare_planners").answer
    merged = merge([_index(Shard(1, 2)), _index(Shard(2, 2))])
    whole = compare(trials_of(_index(WHOLE)) | {"detail": "full"})
    assert compare(trials_of(merged) | {"detail": "full"}) == whole
    assert whole[1]["planners"][0]["metrics"]["trials"] == len(PLANNED)


def test_a_missing_shard_is_refused_naming_it() -> None:
    error = _refusal([_index(Shard(1, 3)), _index(Shard(3, 3))])
    assert (error.code, error.problems[0].allowed) == (ErrorCode.MISSING_SHARDS, ("2/3",))


def test_a_shard_cut_off_before_its_last_trial_is_refused_as_missing() -> None:
    cut = _index(Shard(2, 2))
    cut["runs"] = cut["runs"][:-1]
    assert _refusal([_index(Shard(1, 2)), cut]).code is ErrorCode.MISSING_SHARDS


def test_the_same_shard_twice_is_refused_as_overlapping_at_its_place() -> None:
    error = _refusal([_index(Shard(1, 2)), _index(Shard(2, 2)), _index(Shard(1, 2))])
    assert (error.code, error.problems[0].path) == (
        ErrorCode.OVERLAPPING_SHARDS,
        "/indexes/2/shards/0",
    )


def test_a_trial_two_shards_both_ran_is_refused_as_overlapping() -> None:
    second = _index(Shard(2, 2))
    second["runs"].insert(0, _run(2))  # shard 1/2 ran position 2 too
    error = _refusal([_index(Shard(1, 2)), second])
    assert (error.code, error.problems[0].path) == (
        ErrorCode.OVERLAPPING_SHARDS,
        "/indexes/1/runs/0/position",
    )


def test_shards_of_another_corpus_version_are_refused_as_mixed() -> None:
    other = _index(Shard(2, 2)) | {"corpusVersion": "2025.9"}
    error = _refusal([_index(Shard(1, 2)), other])
    assert (error.code, error.problems[0].path, error.problems[0].allowed) == (
        ErrorCode.MIXED_CORPUS_VERSIONS,
        "/indexes/1/corpusVersion",
        ("2026.1",),
    )


def test_shards_of_another_run_or_another_split_are_refused_as_mixed() -> None:
    another_run = _index(Shard(2, 2)) | {"selection": selection([PLANNER], PLANNED[:5])}
    assert _refusal([_index(Shard(1, 2)), another_run]).code is ErrorCode.MIXED_SHARD_RUNS
    another_split = _index(Shard(2, 3))
    error = _refusal([_index(Shard(1, 2)), another_split])
    assert (error.code, error.problems[0].path) == (
        ErrorCode.MIXED_SHARD_RUNS,
        "/indexes/0/shards/0",
    )


def test_junit_has_a_testcase_per_trial_and_a_failure_naming_the_failing_step() -> None:
    index = _index(WHOLE)
    index["runs"][5] = copy.deepcopy(index["runs"][5]) | {"verdict": "errored"}
    suites = ET.fromstring(junit_report(index))
    assert suites.attrib | {"time": ""} == {
        "name": "automium run",
        "tests": "6",
        "failures": "1",
        "errors": "1",
        "time": "",
    }
    cases = suites.findall("testsuite/testcase")
    assert [c.attrib["name"] for c in cases][:2] == [
        "todo-mvc.add-two-todos [scripted-journey] #1",
        "todo-mvc.add-two-todos [scripted-journey] #2",
    ]
    failing = index["runs"][4]["trial"]["failingStep"]
    failure = cases[4].find("failure")
    assert failure is not None
    assert failure.attrib == {
        "message": f"failed at step {failing} (assertion lane): product_issue",
        "type": "product_issue",
    }
    assert cases[5].find("error") is not None
    assert cases[0].find("failure") is None
    assert cases[0].attrib["time"] == "0.900"


def _retried(index: Json, position: int, *verdicts: str) -> Json:
    run = index["runs"][position]
    run["retries"] = [
        {"verdict": v, "folder": f"retry-{n}/{run['runId']}"} for n, v in enumerate(verdicts, 1)
    ]
    run["flaky"] = verdicts[-1] == "passed"
    return index


def test_a_flaky_trial_passes_in_junit_with_its_flaky_failure_unless_flaky_fails() -> None:
    index = _retried(_index(WHOLE), 4, "passed")
    assert check("run-index.v1", index) == []
    for fail_on_flaky, tag, failures in ((False, "flakyFailure", "0"), (True, "failure", "1")):
        suites = ET.fromstring(junit_report(index, fail_on_flaky=fail_on_flaky))
        case = suites.findall("testsuite/testcase")[4]
        assert [child.tag for child in case] == [tag, "system-out"]
        assert suites.attrib["failures"] == failures


def test_retries_that_fail_again_are_rerun_failures_of_a_failing_case() -> None:
    index = _retried(_index(WHOLE), 4, "failed", "errored")
    suites = ET.fromstring(junit_report(index))
    case = suites.findall("testsuite/testcase")[4]
    assert [child.tag for child in case] == [
        "error",
        "rerunFailure",
        "rerunFailure",
        "system-out",
    ]
    assert [child.attrib["message"] for child in case[1:3]] == [
        "retry 1: failed: -",
        "retry 2: errored: -",
    ]
    assert (suites.attrib["failures"], suites.attrib["errors"]) == ("0", "1")  # ended errored


class _Ran:
    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict


@pytest.mark.parametrize(
    ("verdicts", "retries", "attempts", "flaky"),
    [
        (["passed"], 2, 1, False),
        (["failed", "passed"], 2, 2, True),
        (["failed", "failed", "failed"], 2, 3, False),
        (["failed", "errored"], 1, 2, False),
        (["failed"], 0, 1, False),
    ],
)
def test_a_trial_is_tried_again_while_it_does_not_pass_up_to_its_retries(
    verdicts: list[str], retries: int, attempts: int, flaky: bool
) -> None:
    asked: list[int] = []

    def attempt(number: int) -> Any:
        asked.append(number)
        return _Ran(Verdict(verdicts[number]))

    trial = tried(attempt, retries)
    assert (asked, trial.flaky) == (list(range(attempts)), flaky)
