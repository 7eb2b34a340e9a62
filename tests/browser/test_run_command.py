"""The ``automium run`` command: what it prints and exits with, the trials it records, and
the MCP tools giving the same answer on its real events and manifest."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from playwright.sync_api import Browser

from automium.capabilities import find
from automium.cli import _parser
from automium.contracts import to_document
from automium.execution import command
from automium.execution.executor import Options, Outcome, run_journey
from automium.execution.retries import Tried
from automium.mcp_server.server import build_server
from tests.browser.journeys import FAILING_TIMEOUT_MS, TIMEOUT_MS, built, reference, variant

needs_todo = pytest.mark.skipif(not built("todo-mvc"), reason="app not built")


@pytest.fixture(scope="module")
def failed_run(chromium_browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    journey = reference("todo-mvc.add-two-todos")
    options = Options(
        tmp_path_factory.mktemp("failed"), FAILING_TIMEOUT_MS, (variant(journey).fault,)
    )
    return run_journey(to_document(journey), chromium_browser, options)


def run(argv: list[str], browser: Browser) -> int:
    """``automium run`` as the command line gives it, on the session's browser."""
    return command.main(_parser().parse_args(["run", *argv]), browser)


def _wrong_at_run_time(tmp_path: Path) -> Path:
    """A journey compile accepts (the pagination text depends on the catalog's search
    results, so compile lists it unchecked) that the app contradicts."""
    document = to_document(reference("shop-lite.guest-browse-then-checkout-gate"))
    document["id"] = "shop-lite.expects-page-three"
    document["assertions"][1]["expected"] = "Page 3"
    path = tmp_path / "journey.json"
    path.write_text(json.dumps(document))
    return path


@needs_todo
def test_a_journey_wrong_only_at_run_time_exits_1_with_a_manifest_and_a_failing_assertion(
    chromium_browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journey = _wrong_at_run_time(tmp_path)
    out = tmp_path / "out"
    code = run([str(journey), "--out", str(out), "--timeout", str(TIMEOUT_MS)], chromium_browser)
    printed = capsys.readouterr().out
    assert code == 1
    assert "failing step: next-page" in printed
    assert "failure class: product_issue" in printed
    (folder,) = (path for path in out.iterdir() if path.is_dir())
    index = json.loads((out / "index.json").read_text())
    assert [(r["folder"], r["verdict"], r["failureClass"]) for r in index["runs"]] == [
        (folder.name, "failed", "product_issue")
    ]
    manifest = json.loads((folder / "manifest.json").read_text())
    events = [json.loads(line) for line in (folder / "replay.jsonl").read_text().splitlines()]
    failed = [e for e in events if e["type"] == "assertion.failed"]
    assert {e["payload"]["assertionId"] for e in failed} == {"page-two"}
    assert manifest["runId"] == folder.name


@needs_todo
def test_json_prints_the_replay_summary_document(
    chromium_browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = run(["todo-mvc.add-two-todos", "--out", str(tmp_path), "--json"], chromium_browser)
    summary = json.loads(capsys.readouterr().out)
    assert (code, summary["schemaVersion"], summary["verdict"]) == (
        0,
        "automium.replay-summary/v1",
        "passed",
    )


@needs_todo
def test_repeated_runs_are_recorded_trials_compare_planners_reports_as_recorded(
    chromium_browser: Browser, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trials = tmp_path / "trials.json"
    argv = ["todo-mvc.add-two-todos", "--repeat", "2"]
    code = run(
        [*argv, "--out", str(tmp_path / "out"), "--trials-out", str(trials)], chromium_browser
    )
    capsys.readouterr()
    request = json.loads(trials.read_text())
    assert code == 0
    assert [(t["journeyId"], t["repetition"]) for t in request["trials"]] == [
        ("todo-mvc.add-two-todos", 1),
        ("todo-mvc.add-two-todos", 2),
    ]
    _, comparison = find("automium_compare_planners").answer(request)
    assert comparison["source"] == "recorded"
    assert [p["id"] for p in request["planners"]] == ["scripted-journey"]


async def _ask_the_server(failed_run: Outcome, printed: str) -> tuple[Any, Any, Any]:
    async with Client(build_server(), mode="legacy") as client:
        summary = await client.call_tool("automium_get_replay_summary", failed_run.summary_input)
        manifest = await client.call_tool(
            "automium_get_artifact_manifest", failed_run.manifest_input
        )
        prompt = await client.get_prompt(
            "debug_failed_run",
            {
                "runId": failed_run.run_id,
                "verdict": failed_run.verdict.value,
                "retryCount": str(failed_run.retry_count),
                "evidence": printed,
                "artifactManifestRef": f"artifacts:run/{failed_run.run_id}",
                "events": json.dumps(failed_run.events),
            },
        )
    return summary, manifest, prompt


@needs_todo
def test_the_mcp_tools_digest_the_real_run_as_the_command_printed(failed_run: Outcome) -> None:
    printed = command.report(Tried((failed_run,)))
    # In a thread of its own: the sync Playwright of the session holds this thread's loop.
    with ThreadPoolExecutor(1) as pool:
        summary, manifest, prompt = pool.submit(
            anyio.run, _ask_the_server, failed_run, printed
        ).result()
    digest = (summary.structured_content or {})["digest"]
    assert summary.structured_content == failed_run.summary
    assert manifest.structured_content == failed_run.manifest
    assert f"failing step: {digest['failingStep']}" in printed
    assert f"failure class: {digest['classification']['failureClass']}" in printed
    text = prompt.messages[0].content.text
    # The prompt names the events the agent gave instead of repeating them; with them added
    # back, its call is the one the command made.
    block = re.search(
        r"automium_get_replay_summary with[^\n]*:\n(`{3,})json\n(.*?)\n\1", text, re.S
    )
    assert block is not None, text
    call = {**json.loads(block.group(2)), "events": failed_run.events}
    assert call == failed_run.summary_input
    assert f"the {len(failed_run.events)} events you gave this prompt, unchanged" in text
