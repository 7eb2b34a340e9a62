"""``automium demo``: a real MCP session over stdio, printed as a transcript.

It starts ``automium serve`` as a subprocess, connects as an MCP client and walks the
product spec's developer-experience path in order, following a journey to its evidence:
compile it (its ref), model a run of it, model the run's failing variant, digest that
timeline in a replay summary, check a manifest's coverage of the verdict and get the debug
prompt. Then it compares planners and makes one deliberate mistake to show the error an
agent gets. It exits 0 only if every step behaved as expected.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import anyio
from mcp import Client, StdioServerParameters, types

PLANNER = {"id": "claude-default", "vendor": "anthropic", "model": "claude-sonnet-4"}
FIXTURE = "shop-lite.returning-buyer"
# The failure the demo models: the order is placed, but the confirmation does not show.
FAILURE = {"stepId": "pay", "failureClass": "product_issue"}
# What a run of the worked journey would have left: a screenshot after paying, the replay log.
ARTIFACT_ENTRIES = [
    {"kind": "screenshot", "path": "steps/pay/after.png", "stepId": "pay"},
    {"kind": "replay-log", "path": "replay.jsonl"},
]


def _server_parameters(log_level: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "automium.mcp_server", "--log-level", log_level],
    )


class _Transcript:
    def __init__(self, out: Callable[[str], None]) -> None:
        self.out = out
        self.failures: list[str] = []
        self.step = 0

    def ask(self, what: str) -> None:
        self.step += 1
        self.out(f"\n{self.step}. {what}")

    def saw(self, text: str) -> None:
        for line in text.splitlines():
            self.out(f"   <- {line}")

    def expect(self, ok: bool, what: str) -> None:
        self.out(f"   {'ok' if ok else 'UNEXPECTED'}: {what}")
        if not ok:
            self.failures.append(f"step {self.step}: {what}")


def _json(result: types.ReadResourceResult) -> Any:
    content = result.contents[0]
    return json.loads(content.text if isinstance(content, types.TextResourceContents) else "{}")


def _text(result: types.CallToolResult) -> str:
    first = result.content[0] if result.content else None
    return first.text if isinstance(first, types.TextContent) else ""


async def _walk(client: Client, t: _Transcript) -> None:
    t.ask("read automium://apps")
    apps = _json(await client.read_resource("automium://apps"))
    t.saw(f"{len(apps['apps'])} apps: {', '.join(a['id'] for a in apps['apps'])}")
    t.expect(len(apps["apps"]) == 5, "five owned benchmark apps")

    t.ask("read automium://fixtures")
    fixtures = _json(await client.read_resource("automium://fixtures"))
    t.saw(f"{len(fixtures['fixtures'])} fixtures, e.g. {FIXTURE}")
    t.expect(any(f["id"] == FIXTURE for f in fixtures["fixtures"]), f"{FIXTURE} is listed")

    t.ask(f"get prompt draft_journey(appId=shop-lite, fixtureId={FIXTURE})")
    goal = "Buy one mug and see the order confirmation"
    prompt = await client.get_prompt(
        "draft_journey", {"appId": "shop-lite", "fixtureId": FIXTURE, "goal": goal}
    )
    content = prompt.messages[0].content
    text = content.text if isinstance(content, types.TextContent) else ""
    t.saw(text.splitlines()[0])
    journey = json.loads(text.split("```json", 1)[1].split("```", 1)[0])
    t.expect("order-confirmation" in text, "the prompt lists the app's routes and an example")

    t.ask(f"call automium_compile_journey({journey['id']})")
    compiled = await client.call_tool("automium_compile_journey", journey)
    t.saw(_text(compiled))
    ref = (compiled.structured_content or {}).get("journeyRef", "")
    t.expect(
        not compiled.is_error and ref.startswith("journey:"), "the journey compiles, with its ref"
    )
    await _evidence(client, t, journey, ref)
    await _compare_and_err(client, t, journey)


async def _evidence(client: Client, t: _Transcript, journey: dict[str, Any], ref: str) -> None:
    """From the compiled journey to its evidence: run, failing variant, summary, manifest."""
    t.ask("call automium_create_run_submission")
    run_input = {
        "journeyId": journey["id"],
        "appId": "shop-lite",
        "fixtureId": FIXTURE,
        "planner": PLANNER,
        "environmentProfileId": "desktop-1280x720",
    }
    submission = await client.call_tool("automium_create_run_submission", run_input)
    run = submission.structured_content or {}
    t.saw(_text(submission))
    t.expect(
        run.get("journeyRef") == ref and run.get("modeled", {}).get("executed") is False,
        "the run is bound to the compiled journey, and modeled, not executed",
    )

    failure = f"{FAILURE['failureClass']} at {FAILURE['stepId']}"
    t.ask(f"call automium_create_run_submission (failing variant: {failure})")
    failing = await client.call_tool(
        "automium_create_run_submission", {**run_input, "failure": FAILURE, "includeEvents": True}
    )
    variant = failing.structured_content or {}
    events = variant.get("events", [])
    verdict = variant.get("timeline", {}).get("verdict", "")
    t.saw(_text(failing))
    t.expect(verdict == "failed" and len(events) > 10, "the modeled timeline of a failing run")

    t.ask("call automium_get_replay_summary with the failing variant's events")
    summary = await client.call_tool(
        "automium_get_replay_summary",
        {
            # The failing variant is a run of its own, with its own id.
            "runId": variant.get("runId", ""),
            "verdict": verdict,
            "retryCount": 1,
            "artifactManifestRef": variant.get("artifactManifestRef", ""),
            "events": events,
        },
    )
    digest = (summary.structured_content or {}).get("digest", {})
    t.saw(_text(summary))
    t.expect(
        digest.get("classification", {}).get("failureClass") == FAILURE["failureClass"]
        and digest.get("failingStep") == FAILURE["stepId"],
        "the events are classified, at the step that failed",
    )

    t.ask("call automium_get_artifact_manifest (what a failed run with a retry still lacks)")
    manifest = await client.call_tool(
        "automium_get_artifact_manifest",
        {
            "runId": variant.get("runId", ""),
            "root": "artifacts/shop-lite/returning-buyer",
            "entries": ARTIFACT_ENTRIES,
            "verdict": verdict,
            "retryCount": 1,
            "journeyId": journey["id"],
        },
    )
    t.saw(_text(manifest))
    t.expect(
        bool((manifest.structured_content or {}).get("missingKinds")),
        "the manifest names the evidence the verdict requires and the entries lack",
    )

    t.ask("get prompt debug_failed_run with the events")
    debug = await client.get_prompt("debug_failed_run", debug_arguments(variant, ref))
    content = debug.messages[0].content
    guidance = content.text if isinstance(content, types.TextContent) else ""
    t.saw(guidance.splitlines()[0])
    t.expect("automium_get_replay_summary" in guidance, "the guidance says which calls to make")


def debug_arguments(variant: dict[str, Any], journey_ref: str) -> dict[str, str]:
    """What the demo asks ``debug_failed_run`` about: the failing variant, by its own run id
    and manifest ref, with its own events (never the passing run's id beside them)."""
    return {
        "runId": variant.get("runId", ""),
        "verdict": variant.get("timeline", {}).get("verdict", ""),
        "retryCount": "1",
        "evidence": "The confirmation heading did not appear after paying.",
        "artifactManifestRef": variant.get("artifactManifestRef", ""),
        "journeyRef": journey_ref,
        "events": json.dumps(variant.get("events", [])),
    }


async def _compare_and_err(client: Client, t: _Transcript, journey: dict[str, Any]) -> None:
    t.ask("call automium_compare_planners (2 planners x 2 apps x 3 repetitions)")
    report = await client.call_tool(
        "automium_compare_planners",
        {
            "corpusVersion": "2026.1",
            "appIds": ["shop-lite", "todo-mvc"],
            "planners": [PLANNER, {"id": "gpt", "vendor": "openai", "model": "gpt-5"}],
            "repetitions": 3,
        },
    )
    t.saw(_text(report))
    t.expect(not report.is_error, "a modeled comparison report")

    t.ask("a deliberate mistake: compile with intent 'teleport' in steps[2]")
    broken = {**journey, "steps": [*journey["steps"]]}
    broken["steps"][2] = {"id": "warp", "intent": "teleport", "route": "cart"}
    error = await client.call_tool("automium_compile_journey", broken)
    t.saw(_text(error))
    document = error.structured_content or {}
    t.expect(
        bool(error.is_error)
        and document.get("code") == "unsupported_intent"
        and document.get("path") == "/steps/2/intent",
        "unsupported_intent at /steps/2/intent, with the allowed intents",
    )


async def _run(log_level: str, out: Callable[[str], None]) -> int:
    t = _Transcript(out)
    out("Automium demo: an MCP client talking to `automium serve` over stdio.")
    async with Client(_server_parameters(log_level)) as client:
        info = client.server_info
        out(f"connected: {info.name} {info.version}" if info else "connected")
        await _walk(client, t)
    if t.failures:
        out("\nDemo FAILED:\n" + "\n".join(f"- {f}" for f in t.failures))
        return 1
    out(f"\nDemo passed: {t.step} steps behaved as expected. Nothing was executed.")
    return 0


def run_demo(log_level: str = "WARNING", out: Callable[[str], None] = print) -> int:
    return anyio.run(_run, log_level, out)
