"""``automium run`` for real: every reference journey passes in headless Chromium with a
complete manifest, each failing variant fails where and as expected, and the modeled
timeline agrees with the real run."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from automium.contracts import Verdict, to_document
from automium.execution.executor import Options, Outcome, base_run_id, run_journey
from automium.execution.video import find_ffmpeg
from automium.journeys.checked import checked_journey, reference_journey
from automium.replay.recording import TEXT_LIMIT
from automium.runs.timeline import timeline
from tests.browser.journeys import (
    EXPORT_VARIANTS,
    FAILING_TIMEOUT_MS,
    SLICE,
    TIMEOUT_MS,
    VARIANT_SLICE,
    WORKED_EXAMPLE,
    Variant,
    journeys,
    reference,
    variant,
)

Runner = Callable[[str], Outcome]


@pytest.fixture(scope="package")
def passing_run(chromium_browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Runner:
    """Each reference journey's real run, once per session."""
    out = tmp_path_factory.mktemp("runs")
    done: dict[str, Outcome] = {}

    def run(journey_id: str) -> Outcome:
        if journey_id not in done:
            document = to_document(reference(journey_id))
            done[journey_id] = run_journey(document, chromium_browser, Options(out, TIMEOUT_MS))
        return done[journey_id]

    return run


@pytest.mark.parametrize("journey_id", journeys(SLICE))
def test_a_reference_journey_passes_for_real_with_a_complete_manifest(
    passing_run: Runner, journey_id: str
) -> None:
    outcome = passing_run(journey_id)
    failures = [e for e in outcome.events if e["type"].endswith(("failed", "timed_out"))]
    assert (outcome.verdict, failures) == (Verdict.PASSED, [])
    assert "failingStep" not in outcome.summary["digest"]
    assert outcome.manifest["missingKinds"] == []
    for entry in outcome.manifest["entries"]:
        data = (outcome.folder / entry["path"]).read_bytes()
        assert (entry["sizeBytes"], entry["sha256"]) == (
            len(data),
            hashlib.sha256(data).hexdigest(),
        )
    shots = {e["stepId"] for e in outcome.manifest["entries"] if e["kind"] == "screenshot"}
    assert shots == {step.id for step in outcome.journey.steps}


@pytest.mark.parametrize("journey_id", journeys(SLICE))
def test_the_modeled_timeline_and_the_real_run_agree(passing_run: Runner, journey_id: str) -> None:
    real = passing_run(journey_id)
    modeled = timeline(
        "run-model", reference_journey(journey_id), ("p", "scripted", "journey"), "desktop-1280x720"
    )

    def steps(events: list[dict[str, object]] | tuple[dict[str, object], ...]) -> list[object]:
        return [e["stepId"] for e in events if e["type"] == "action.performed"]

    def outcomes(
        events: list[dict[str, object]] | tuple[dict[str, object], ...],
    ) -> list[tuple[object, object]]:
        return [
            (e["type"], e["payload"]["assertionId"])  # type: ignore[index]
            for e in events
            if e["lane"] == "assertion"
        ]

    def lanes(events: list[dict[str, object]] | tuple[dict[str, object], ...]) -> set[object]:
        return {e["lane"] for e in events}

    # Where compile left an assertion to a run, the model says "unknown"; everywhere else the
    # model's outcome must be the real one.
    known = {a: kind for kind, a in outcomes(modeled.events) if kind != "assertion.unknown"}
    real_outcomes = {a: kind for kind, a in outcomes(real.events)}
    assert steps(real.events) == steps(modeled.events)
    assert [a for _, a in outcomes(real.events)] == [a for _, a in outcomes(modeled.events)]
    assert {a: real_outcomes[a] for a in known} == known
    assert lanes(real.events) == lanes(modeled.events)
    assert (real.verdict, len(real.journey.steps)) == (modeled.verdict, modeled.steps)


def _envelope(event: dict[str, object]) -> tuple[tuple[str, str], ...]:
    """An event's envelope as its keys, in order, with the type of each value."""
    return tuple((key, type(value).__name__) for key, value in event.items())


def _scalars(events: list[dict[str, object]] | tuple[dict[str, object], ...]) -> set[str]:
    """The types a payload's values have (never None), and whether a text is over the cut."""
    found = set()
    for event in events:
        for value in event["payload"].values():  # type: ignore[attr-defined]
            found.add(type(value).__name__)
            if isinstance(value, str) and len(value) > TEXT_LIMIT:
                found.add("uncut text")
    return found


def test_a_modeled_run_and_a_real_run_of_a_journey_have_envelopes_of_one_shape(
    passing_run: Runner,
) -> None:
    # One recorder writes both: per event type, the same keys in the same order, values of
    # the same types, seq counted from 0 and time never going back.
    journey_id = "todo-mvc.add-two-todos"
    real = passing_run(journey_id)
    modeled = timeline(
        "run-model", reference_journey(journey_id), ("p", "scripted", "journey"), "desktop-1280x720"
    )

    def shapes(
        events: list[dict[str, object]] | tuple[dict[str, object], ...],
    ) -> dict[object, set[tuple[tuple[str, str], ...]]]:
        found: dict[object, set[tuple[tuple[str, str], ...]]] = {}
        for event in events:
            # A real run's screenshot belongs to its step; the model's artifacts to the run.
            envelope = tuple(kv for kv in _envelope(event) if kv[0] != "stepId")
            found.setdefault(event["type"], set()).add(envelope)
        return found

    real_shapes, modeled_shapes = shapes(real.events), shapes(modeled.events)
    # The model also records the page changing in place, which a real run does not see.
    both = set(real_shapes) & set(modeled_shapes)
    assert both >= {
        "worker.leased",
        "fixture.applied",
        "decision.requested",
        "decision.made",
        "action.performed",
        "page.loaded",
        "assertion.passed",
        "artifact.captured",
        "run.finished",
        "worker.released",
    }
    assert {t: real_shapes[t] for t in both} == {t: modeled_shapes[t] for t in both}
    for events in (real.events, modeled.events):
        assert [e["seq"] for e in events] == list(range(len(events)))
        offsets = [int(e["offsetMs"]) for e in events]
        assert offsets == sorted(offsets)
        assert {e["schemaVersion"] for e in events} == {"automium.replay-event/v1"}
    assert _scalars(real.events) <= {"str", "int", "bool"}
    assert _scalars(modeled.events) <= {"str", "int", "bool"}


@pytest.mark.parametrize("journey_id", journeys(VARIANT_SLICE, straight=True))
def test_a_failing_variant_fails_at_its_step_with_its_class(
    chromium_browser: Browser, tmp_path: Path, journey_id: str
) -> None:
    journey = reference(journey_id)
    broken = variant(journey)
    options = Options(tmp_path, FAILING_TIMEOUT_MS, (broken.fault,))
    outcome = run_journey(to_document(journey), chromium_browser, options)
    digest = outcome.summary["digest"]
    exhausted = journey.recovery.on_exhausted.value
    expected = Verdict.BLOCKED if exhausted == "mark_blocked" else Verdict.FAILED
    assert (outcome.verdict, digest["failingStep"], digest["classification"]["failureClass"]) == (
        expected,
        broken.step_id,
        broken.failure_class,
    )
    # A failed run's video is encoded from its trace by ffmpeg, where there is one.
    missing = ["video"] if find_ffmpeg() is None and expected is Verdict.FAILED else []
    assert outcome.manifest["missingKinds"] == missing


@pytest.mark.parametrize("broken", EXPORT_VARIANTS, ids=lambda v: v.fault.role)
def test_the_worked_examples_broken_pages_fail_at_the_step_their_exported_tests_fail_at(
    chromium_browser: Browser, tmp_path: Path, broken: Variant
) -> None:
    journey = to_document(reference(WORKED_EXAMPLE))
    outcome = run_journey(
        journey,
        chromium_browser,
        Options(tmp_path, FAILING_TIMEOUT_MS, (broken.fault,), video=False),
    )
    digest = outcome.summary["digest"]
    assert (digest["failingStep"], digest["classification"]["failureClass"]) == (
        broken.step_id,
        broken.failure_class,
    )


def test_run_ids_derive_from_journey_planner_and_profile_and_each_repetition_has_its_own(
    passing_run: Runner, chromium_browser: Browser, tmp_path: Path
) -> None:
    journey = reference("todo-mvc.add-two-todos")
    first = passing_run(journey.id)
    second = run_journey(
        to_document(journey), chromium_browser, Options(tmp_path, TIMEOUT_MS, (), 2)
    )
    base = base_run_id(reference_journey(journey.id))
    assert [first.run_id, second.run_id] == [f"{base}.1", f"{base}.2"]
    assert base == base_run_id(checked_journey(to_document(journey)))
    assert [p.name for p in tmp_path.iterdir()] == [second.run_id]
    manifest = json.loads((first.folder / "manifest.json").read_text())
    assert (manifest["root"], first.folder.name) == ("artifacts/todo-mvc/empty", first.run_id)
