"""A run index as JUnit XML, where CI systems read test results.

One ``<testsuite>`` per app and one ``<testcase>`` per trial, named for its journey, planner
and repetition; a trial that did not pass carries a ``<failure>`` (failed) or ``<error>``
(errored, blocked) naming the failing step, its lane and the failure class, and the run
directory to open. Times are the trials' own, in seconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.etree import ElementTree as ET

Json = dict[str, Any]


def junit_report(index: Json) -> str:
    """The ``run-index.v1`` document ``index`` as a JUnit XML document."""
    runs = index["runs"]
    suites = ET.Element("testsuites", {"name": "automium run", **_counts(runs)})
    for app_id in sorted({run["trial"]["appId"] for run in runs}):
        of_app = [run for run in runs if run["trial"]["appId"] == app_id]
        suite = ET.SubElement(suites, "testsuite", {"name": app_id, **_counts(of_app)})
        for run in of_app:
            _testcase(suite, run)
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def _testcase(suite: ET.Element, run: Json) -> None:
    trial = run["trial"]
    case = ET.SubElement(
        suite,
        "testcase",
        classname=trial["appId"],
        name=f"{trial['journeyId']} [{trial['plannerId']}] #{trial['repetition']}",
        time=f"{trial['latencyMs'] / 1000:.3f}",
    )
    verdict = run["verdict"]
    if verdict != "passed":
        step = trial.get("failingStep", "-")
        where = f"at step {step} ({trial.get('failingLane', '-')} lane)"
        failure_class = run.get("failureClass", "-")
        ET.SubElement(
            case,
            "failure" if verdict == "failed" else "error",
            message=f"{verdict} {where}: {failure_class}",
            type=failure_class,
        ).text = f"run {run['runId']}: evidence in {run['folder']}"
    ET.SubElement(case, "system-out").text = run["folder"]


def _counts(runs: Sequence[Json]) -> dict[str, str]:
    verdicts = [run["verdict"] for run in runs]
    return {
        "tests": str(len(verdicts)),
        "failures": str(verdicts.count("failed")),
        "errors": str(len(verdicts) - verdicts.count("failed") - verdicts.count("passed")),
        "time": f"{sum(run['trial']['latencyMs'] for run in runs) / 1000:.3f}",
    }
