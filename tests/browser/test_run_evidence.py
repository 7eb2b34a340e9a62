"""``automium run --evidence`` for real: what each level keeps of a passed and of a failed
trial, a manifest that lists what the level left out as not recorded (never missing), and
the same verdict and failure class at every level."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from automium import corpus
from automium.cli import _parser
from automium.execution import command

Json = dict[str, Any]

JOURNEY = "todo-mvc.add-two-todos"
BROKEN = ["--fault", "remove:textbox:What needs to be done?", "--timeout", "500"]
LOGS = ["console.log", "manifest.json", "planner-transcript.jsonl", "replay.jsonl"]
HEAVY = ["screenshot", "trace", "semantic-snapshot", "dom-snapshot", "network-har"]
# The failing step is the first one the broken field stops: ``type-first``.
FAILED_STEP = ["screenshots/01-type-first.png", "snapshots/01-type-first.json"]
WITH_TRACE = ["dom/final.html", "network.har", "trace.zip"]


def run(argv: list[str], browser: Browser) -> int:
    return command.main(_parser().parse_args(["run", *argv]), browser)


def kept(out: Path) -> tuple[list[str], Json, Json]:
    """The files of the one run under ``out`` (video aside: it needs an encoder), its
    manifest and its index entry."""
    (folder,) = [p for p in out.iterdir() if p.is_dir()]
    files = sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and p.name != "video.webm"
    )
    manifest = json.loads((folder / "manifest.json").read_text())
    (entry,) = json.loads((out / "index.json").read_text())["runs"]
    return files, manifest, entry


@pytest.mark.parametrize(
    ("level", "files", "not_recorded"),
    [
        ("on-failure", LOGS, HEAVY),
        ("verdict", LOGS, HEAVY),
    ],
)
def test_a_passed_trial_below_full_keeps_its_logs_and_says_what_it_did_not_record(
    chromium_browser: Browser, tmp_path: Path, level: str, files: list[str], not_recorded: list[str]
) -> None:
    assert run([JOURNEY, "--evidence", level, "--out", str(tmp_path)], chromium_browser) == 0

    found, manifest, entry = kept(tmp_path)
    assert found == files
    assert (manifest["notRecorded"], manifest["missingKinds"]) == (not_recorded, [])
    assert {e["kind"] for e in manifest["entries"]} == {
        "console-log",
        "planner-transcript",
        "replay-log",
    }
    assert entry["verdict"] == "passed"


def test_a_passed_trial_at_full_keeps_every_step_and_records_nothing_less(
    chromium_browser: Browser, tmp_path: Path
) -> None:
    assert run([JOURNEY, "--out", str(tmp_path)], chromium_browser) == 0

    found, manifest, _ = kept(tmp_path)
    steps = next(j for j in corpus.reference_journeys() if j.id == JOURNEY).steps
    assert [f for f in found if f.startswith("screenshots/")] == [
        f"screenshots/{i:02d}-{step.id}.png" for i, step in enumerate(steps, 1)
    ]
    assert set(WITH_TRACE) <= set(found)
    assert (manifest["notRecorded"], manifest["missingKinds"]) == ([], [])


def test_a_failed_trial_keeps_the_failing_steps_evidence_on_failure_and_none_at_verdict(
    chromium_browser: Browser, tmp_path: Path
) -> None:
    found: dict[str, tuple[list[str], Json, Json]] = {}
    for level in ("full", "on-failure", "verdict"):
        out = tmp_path / level
        assert (
            run([JOURNEY, *BROKEN, "--evidence", level, "--out", str(out)], chromium_browser) == 1
        )
        found[level] = kept(out)

    files, manifest, _ = found["on-failure"]
    assert files == sorted([*LOGS, *WITH_TRACE, *FAILED_STEP])
    assert manifest["notRecorded"] == []
    files, manifest, _ = found["verdict"]
    assert files == LOGS
    assert manifest["notRecorded"] == ["screenshot", "video", *HEAVY[1:]]
    assert manifest["missingKinds"] == []
    # The verdict and its classification come from the events, whatever was recorded.
    entries = {
        level: (e["verdict"], e["failureClass"], e["trial"]["failingStep"])
        for level, (_, _, e) in found.items()
    }
    assert set(entries.values()) == {("failed", "planner_issue", "type-first")}


def test_a_secret_journey_that_passes_on_failure_leaves_no_trace_chunk(
    chromium_browser: Browser, tmp_path: Path
) -> None:
    # Tracing pauses at a secret's fill and writes the chunk so far: a pass deletes it too.
    argv = ["bank-sandbox.customer-signs-in", "--evidence", "on-failure", "--out", str(tmp_path)]
    assert run(argv, chromium_browser) == 0

    found, manifest, _ = kept(tmp_path)
    assert found == LOGS
    assert "trace" in manifest["notRecorded"]
