"""Same input, byte-identical output, everywhere: every case of ``tests/cases.py`` (each
success and refusal of every tool, every prompt) and every journey drawing gives the same
bytes in fresh interpreters with different hash seeds, so no output depends on set or dict
iteration order, the clock, or the process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from automium import corpus
from tests.cases import prompt_refusals, prompt_renders, tool_refusals, tool_successes

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[1]

# Runs in a fresh interpreter and prints one JSON object: case id -> what it produced.
SCRIPT = """
import json

from automium import corpus
from automium.contracts import to_document
from automium.errors import AutomiumError
from automium.guidance import find
from automium.compilation import compilation_document
from automium.journeys import render_mermaid
from automium.mcp_server.tools import call_result
from tests.cases import prompt_refusals, prompt_renders, tool_refusals, tool_successes

produced = {}
calls = [*tool_successes(), *((c, t, r.arguments) for c, t, r in tool_refusals())]
for case, tool, arguments in calls:
    produced["tool " + case] = call_result(tool, arguments).model_dump(mode="json", by_alias=True)
for case, prompt, arguments in prompt_renders():
    produced["prompt " + case] = find(prompt).render(arguments)
for case, prompt, refusal in prompt_refusals():
    try:
        find(prompt).render(refusal.arguments)
    except AutomiumError as refused:
        produced["prompt " + case] = refused.to_tool_error().model_dump(mode="json")
for journey in corpus.reference_journeys():
    graph = compilation_document(to_document(journey))["graph"]
    produced["mermaid " + journey.id] = render_mermaid(graph)
print(json.dumps(produced))
"""


def run_with_hash_seeds(*seeds: str) -> list[str]:
    """What the script prints in one fresh interpreter per hash seed, run side by side."""
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", SCRIPT],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={"PYTHONHASHSEED": seed, "PATH": os.environ.get("PATH", "")},
        )
        for seed in seeds
    ]
    outputs = []
    try:
        for run in runs:
            stdout, stderr = run.communicate(timeout=120)
            assert (run.returncode, stderr) == (0, ""), stderr
            outputs.append(stdout)
    finally:
        for run in runs:
            run.kill()  # nothing to do once it has exited
    return outputs


def test_every_output_is_byte_identical_across_interpreters_and_hash_seeds() -> None:
    first, second = run_with_hash_seeds("0", "12345")

    cases = [*tool_successes(), *tool_refusals()]
    journeys = [journey.id for journey in corpus.reference_journeys()]
    assert set(json.loads(first)) == {
        *(f"tool {case}" for case, _, _ in cases),
        *(f"prompt {case}" for case, _, _ in [*prompt_renders(), *prompt_refusals()]),
        *(f"mermaid {case}" for case in journeys),
    }
    assert first == second
