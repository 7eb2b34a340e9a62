"""Same input, byte-identical output, everywhere: every operation (and every refusal, and
every journey drawing) gives the same bytes in fresh interpreters with different hash seeds,
so no output depends on set or dict iteration order, the clock, or the process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Runs in a fresh interpreter and prints one JSON document of everything it produced.
SCRIPT = """
import json
import sys

from automium import corpus
from automium.capabilities import BY_NAME
from automium.contracts import to_document
from automium.errors import AutomiumError
from automium.journeys import compile_journey, render_mermaid

RUN_ID = "run-3f2a9c0d41b7e865"
CLAUDE = {"id": "claude", "vendor": "anthropic", "model": "claude-sonnet-4"}
GPT = {"id": "gpt", "vendor": "openai", "model": "gpt-5"}
RUN = {
    "journeyId": "shop-lite.buy-one-mug",
    "appId": "shop-lite",
    "fixtureId": "shop-lite.returning-buyer",
    "planner": CLAUDE,
    "environmentProfileId": "desktop-1280x720",
}
ENTRY = {"kind": "trace", "path": "trace.zip", "contentType": "application/zip", "sizeBytes": 9}

calls = [
    ("list_apps", {}),
    ("list_fixtures", {}),
    *(("list_fixtures", {"appId": app_id}) for app_id in corpus.app_ids()),
    *(("compile_journey", to_document(j)) for j in corpus.reference_journeys()),
    ("create_run_submission", RUN),
    *(
        (
            "get_replay_summary",
            {
                "runId": RUN_ID,
                "verdict": verdict,
                "retryCount": retries,
                "artifactManifestRef": "artifacts:run/" + RUN_ID,
            },
        )
        for verdict in ("passed", "failed", "errored", "blocked")
        for retries in (0, 2)
    ),
    ("get_artifact_manifest", {"runId": RUN_ID, "root": "artifacts/run", "entries": [ENTRY]}),
    (
        "compare_planners",
        {
            "corpusVersion": "2026.1",
            "appIds": ["shop-lite", "todo-mvc"],
            "planners": [CLAUDE, GPT],
            "repetitions": 3,
        },
    ),
]
refusals = [
    ("list_fixtures", {"appId": "shop-max"}),
    ("compile_journey", {"appId": "shop-max", "steps": [{"intent": "teleport"}]}),
    ("create_run_submission", {**RUN, "appId": "x", "environmentProfileId": "tablet"}),
    ("get_replay_summary", {"runId": RUN_ID, "verdict": "flaky", "retryCount": -1}),
    ("get_artifact_manifest", {"runId": RUN_ID, "root": "/", "entries": [ENTRY, ENTRY]}),
    ("compare_planners", {"corpusVersion": "1999.1", "appIds": ["x"], "planners": []}),
]
OPERATIONS = {name.removeprefix("automium_"): c for name, c in BY_NAME.items()}
if {name for name, _ in calls} != set(OPERATIONS):
    sys.exit("not every operation is called: " + ", ".join(sorted(OPERATIONS)))

produced = []
for name, arguments in calls:
    produced.append({"operation": name, "output": to_document(OPERATIONS[name].run(arguments))})
for name, arguments in refusals:
    try:
        OPERATIONS[name].run(arguments)
    except AutomiumError as refused:
        produced.append({"refused": name, "error": to_document(refused.to_tool_error())})
    else:
        sys.exit(name + " accepted a request it should refuse")
for journey in corpus.reference_journeys():
    graph = compile_journey(to_document(journey)).graph
    produced.append({"mermaid": journey.id, "text": render_mermaid(graph)})

print(json.dumps(produced, sort_keys=False))
"""


def run_with_hash_seed(seed: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env={"PYTHONHASHSEED": seed, "PATH": os.environ.get("PATH", "")},
        timeout=120,
    )
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    return result.stdout


def test_every_output_is_byte_identical_across_interpreters_and_hash_seeds() -> None:
    first = run_with_hash_seed("0")
    second = run_with_hash_seed("12345")

    assert first.startswith('[{"operation": "list_apps"')
    assert len(first) > 10_000
    assert first == second
