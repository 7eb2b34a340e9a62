"""A run index as JUnit XML, where CI systems read test results.

One ``<testsuite>`` per app and one ``<testcase>`` per trial, named for its journey, planner
and repetition. A trial that did not pass carries a ``<failure>`` (failed) or ``<error>``
(errored, blocked) naming the failing step, its lane and the failure class, and the run
directory to open; each retry that did not pass adds a ``<rerunFailure>``. A flaky trial
(it passed on a retry) is a passing case with ``<flakyFailure>`` elements, as Maven
Surefire writes them, unless flaky trials count as failing. Times are the first attempt's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.etree import ElementTree as ET

Json = dict[str, Any]


def junit_report(index: Json, *, fail_on_flaky: bool = False) -> str:
    """The ``run-index.v1`` document ``index`` as a JUnit XML document."""
    runs = index["runs"]
    suites = ET.Element("testsuites", {"name": "automium run", **_counts(runs, fail_on_flaky)})
    for app_id in sorted({run["trial"]["appId"] for run in runs}):
        of_app = [run for run in runs if run["trial"]["appId"] == app_id]
        suite = ET.SubElement(
            suites, "testsuite", {"name": app_id, **_counts(of_app, fail_on_flaky)}
        )
        for run in of_app:
            _testcase(suite, run, fail_on_flaky)
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def _final(run: Json, fail_on_flaky: bool) -> str:
    """The verdict the case reports: a flaky trial's passed, unless flaky fails."""
    if run.get("flaky"):
        return "failed" if fail_on_flaky else "passed"
    return str(run["retries"][-1]["verdict"] if run.get("retries") else run["verdict"])


def _testcase(suite: ET.Element, run: Json, fail_on_flaky: bool) -> None:
    trial = run["trial"]
    case = ET.SubElement(
        suite,
        "testcase",
        classname=trial["appId"],
        name=f"{trial['journeyId']} [{trial['plannerId']}] #{trial['repetition']}",
        time=f"{trial['latencyMs'] / 1000:.3f}",
    )
    if run["verdict"] != "passed":
        final = _final(run, fail_on_flaky)
        first = {"passed": "flakyFailure", "failed": "failure"}.get(final, "error")
        step = trial.get("failingStep", "-")
        where = f"at step {step} ({trial.get('failingLane', '-')} lane)"
        _failure(case, first, f"{run['verdict']} {where}", run)
        again = "flakyFailure" if final == "passed" else "rerunFailure"
        for number, retry in enumerate(run.get("retries", []), start=1):
            if retry["verdict"] != "passed":
                _failure(case, again, f"retry {number}: {retry['verdict']}", retry)
    ET.SubElement(case, "system-out").text = run["folder"]


def _failure(case: ET.Element, tag: str, what: str, attempt: Json) -> None:
    failure_class = attempt.get("failureClass", "-")
    element = ET.SubElement(case, tag, message=f"{what}: {failure_class}", type=failure_class)
    element.text = f"evidence in {attempt['folder']}"


def _counts(runs: Sequence[Json], fail_on_flaky: bool) -> dict[str, str]:
    verdicts = [_final(run, fail_on_flaky) for run in runs]
    return {
        "tests": str(len(verdicts)),
        "failures": str(verdicts.count("failed")),
        "errors": str(len(verdicts) - verdicts.count("failed") - verdicts.count("passed")),
        "time": f"{sum(run['trial']['latencyMs'] for run in runs) / 1000:.3f}",
    }
