"""The demo's debug step asks ``debug_failed_run`` about the failing variant it modeled: by
that run's own id and manifest ref, beside that run's own events."""

from __future__ import annotations

from automium import guidance
from automium.capabilities import find
from automium.commands.demo import FAILURE, FIXTURE, PLANNER, debug_arguments
from automium.journeys.checked import reference_journey


def test_the_demos_debug_step_gets_the_failing_runs_own_id() -> None:
    journey = reference_journey("shop-lite.buy-one-mug")
    run_input = {
        "journeyId": journey.model.id,
        "appId": "shop-lite",
        "fixtureId": FIXTURE,
        "planner": PLANNER,
        "environmentProfileId": "desktop-1280x720",
    }
    _, passing = find("automium_create_run_submission").answer(run_input)
    _, failing = find("automium_create_run_submission").answer(
        {**run_input, "failure": FAILURE, "includeEvents": True}
    )

    arguments = debug_arguments(failing, journey.ref)

    assert failing["runId"] != passing["runId"]
    assert (arguments["runId"], arguments["artifactManifestRef"]) == (
        failing["runId"],
        failing["artifactManifestRef"],
    )
    assert arguments["verdict"] == "failed"
    assert {e["runId"] for e in failing["events"]} == {arguments["runId"]}
    text = guidance.find("debug_failed_run").render(arguments)
    assert failing["runId"] in text
    assert passing["runId"] not in text
